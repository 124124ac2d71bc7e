#!/usr/bin/python3
"""speedscope_orders.py KIND SRC DST — writes SRC (a speedscope file) again
as DST for the streaming reader's tests, with json (not amdahl):
  reversed    every object's keys in reverse order (shared before profiles,
              weights before samples, line before name) but $schema first,
              which is how a speedscope file is recognised
  spaced      indented with newlines (json.dump indent=1)
  dup-keys    every profile, frame and the document repeat keys after their
              real values (type "evented", samples [[0]], name 7; frame name
              "decoy"; profiles [], $schema "none"): a repeated key's later
              value is not read (cJSON's rule, kept by the streaming reader)
  bad-sample  profiles[0].samples[3] = "x"
  bad-weight  profiles[0].weights[2] = "0.01"
  short       profiles[0].weights one shorter than samples
  no-name     shared.frames[1] without "name"
  deep        profiles[0].samples[0] 5000 frames deep
  long-number profiles[0].weights[0] a number of 2 MiB of digits
  truncated   the first half of SRC's bytes"""
import json
import sys

kind, src, dst = sys.argv[1:4]
text = open(src).read()
d = json.loads(text)


def rev(x):
    if isinstance(x, dict):
        return {k: rev(x[k]) for k in reversed(list(x))}
    if isinstance(x, list):
        return [rev(v) for v in x]
    return x


out = None
if kind == "reversed":
    r = rev(d)
    out = json.dumps({"$schema": r.pop("$schema"), **r})
elif kind == "spaced":
    out = json.dumps(d, indent=1)
elif kind == "dup-keys":
    profs = []
    for p in d["profiles"]:
        body = json.dumps(p)[:-1]
        profs.append(body + ', "type": "evented", "samples": [[0]], "name": 7}')
    frames = []
    for f in d["shared"]["frames"]:
        frames.append(json.dumps(f)[:-1] + ', "name": "decoy", "line": 99}')
    rest = {k: v for k, v in d.items() if k not in ("profiles", "shared")}
    out = ("{" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in rest.items())
           + ', "profiles": [' + ", ".join(profs) + "]"
           + ', "shared": {"frames": [' + ", ".join(frames) + "]}"
           + ', "profiles": [], "$schema": "none"}')
elif kind == "bad-sample":
    d["profiles"][0]["samples"][3] = "x"
elif kind == "bad-weight":
    d["profiles"][0]["weights"][2] = "0.01"
elif kind == "short":
    d["profiles"][0]["weights"].pop()
elif kind == "no-name":
    del d["shared"]["frames"][1]["name"]
elif kind == "deep":
    d["profiles"][0]["samples"][0] = [0] * 5000
elif kind == "long-number":
    out = json.dumps(d).replace('"weights": [', '"weights": [1' + "0" * (2 << 20) + ", ", 1)
elif kind == "truncated":
    out = text[: len(text) // 2]
else:
    sys.exit("speedscope_orders.py: unknown KIND " + kind)
if out is None:
    out = json.dumps(d)
open(dst, "w").write(out)
