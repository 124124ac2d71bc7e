#!/usr/bin/env python3
"""eml_text.py — a message written by `amdahl mail --dry-run` in a normal
form for tests/compat/outputs.sh: the headers but Message-ID (random by
design), then each MIME part's headers with the boundary as BOUNDARY and
its decoded content (text as text, anything else as its size and sha256),
readable first; then the raw message, byte for byte but the Message-ID
and the boundaries, so that an encoding difference shows too.
Usage: eml_text.py FILE."""
import email
import email.policy
import hashlib
import re
import sys


def main():
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    boundaries = set()
    for part in msg.walk():
        b = part.get_boundary()
        if b:
            boundaries.add(b)

    def clean(v):
        v = str(v)
        for b in boundaries:
            v = v.replace(b, "BOUNDARY")
        return v

    for k, v in msg.items():
        if k.lower() == "message-id":
            print("%s: <random>" % k)
            continue
        print("%s: %s" % (k, clean(v)))
    for i, part in enumerate(msg.walk()):
        print("--- part %d" % i)
        for k, v in part.items():
            if part is msg:
                break
            print("%s: %s" % (k, clean(v)))
        if part.is_multipart():
            continue
        body = part.get_payload(decode=True) or b""
        if part.get_content_maintype() == "text":
            print(body.decode(part.get_content_charset() or "utf-8", "replace"))
        else:
            print("%d bytes, sha256 %s" % (len(body), hashlib.sha256(body).hexdigest()))
    print("=== raw")
    text = raw.decode("utf-8", "replace")
    text = re.sub(r"(?im)^(Message-ID:).*$", r"\1 <random>", text)
    sys.stdout.write(clean(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
