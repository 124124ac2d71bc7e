#!/usr/bin/python3
"""eml_facts.py: what a received or written message holds, read with
Python's email package (independent of libcurl): one "key=value" line per
fact on stdout (to_addrs: the To addresses, comma-separated), and the
decoded body parts (CRLF read as LF) and attachments in OUTDIR.

  eml_facts.py MESSAGE.eml OUTDIR
"""
import email
import email.policy
import email.utils
import hashlib
import os
import sys


def structure(part):
    kids = part.get_payload() if part.is_multipart() else None
    if not kids:
        return part.get_content_type()
    return "%s[%s]" % (part.get_content_type(), ",".join(structure(k) for k in kids))


def main():
    path, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    with open(path, "rb") as f:
        raw = f.read()
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    facts = {
        "from": msg["From"],
        "to": msg["To"],
        "to_addrs": ",".join(a for _, a in email.utils.getaddresses([str(msg["To"])])),
        "subject": msg["Subject"],
        "message_id": msg["Message-ID"],
        "mime_version": msg["MIME-Version"],
        "structure": structure(msg),
        "crlf": int(b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")),
    }
    try:
        facts["date"] = email.utils.parsedate_to_datetime(msg["Date"]).isoformat()
    except (TypeError, ValueError):
        facts["date"] = "BAD"
    defects = sum(len(p.defects) for p in msg.walk())
    facts["defects"] = defects
    plain = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    with open(os.path.join(outdir, "plain.txt"), "w") as f:
        f.write(plain.get_content().replace("\r\n", "\n") if plain else "")
    with open(os.path.join(outdir, "body.html"), "w") as f:
        f.write(html.get_content().replace("\r\n", "\n") if html else "")
    atts = []
    for a in msg.iter_attachments():
        data = a.get_payload(decode=True)
        name = a.get_filename()
        with open(os.path.join(outdir, "attachment-" + os.path.basename(name or "none")), "wb") as f:
            f.write(data)
        atts.append("%s %s %s %s" % (name, a.get_content_type(), a["Content-Transfer-Encoding"],
                                     hashlib.sha256(data).hexdigest()))
    facts["attachments"] = " | ".join(atts)
    for k, v in facts.items():
        print("%s=%s" % (k, v))


if __name__ == "__main__":
    main()
