#!/usr/bin/python3
"""deep_raw_variants.py DIR — writes a `py-spy record -f raw` file whose
first line (a 150-frame stack with long paths) is longer than the 4 KiB
head amdahl detects formats by, in the encodings a Windows editor saves:
DIR/deep.txt (UTF-8), DIR/deep-bom.txt (a UTF-8 byte-order mark first),
DIR/deep-utf16.txt (UTF-16LE with its mark, CRLF line ends); prints the
oracle "TOTAL DEPTH" of the file: its samples and its deepest stack's
frames, as Python reads the UTF-8 text."""
import os
import sys

out = sys.argv[1]
frame = "step_{0} (/home/user/.venv/lib/python3.11/site-packages/pkg/module_{0}.py:{1})"
lines = []
for k, count in ((150, 7), (90, 1203), (3, 41)):
    stack = ";".join(frame.format(i, 10 + i) for i in range(k))
    lines.append("%s %d" % (stack, count))
text = "\n".join(lines) + "\n"
open(os.path.join(out, "deep.txt"), "w", encoding="utf-8").write(text)
open(os.path.join(out, "deep-bom.txt"), "w", encoding="utf-8-sig").write(text)
open(os.path.join(out, "deep-utf16.txt"), "w", encoding="utf-16", newline="\r\n").write(text)
rows = [line.rsplit(" ", 1) for line in text.splitlines()]
print(sum(int(c) for _, c in rows), max(len(s.split(";")) for s, _ in rows))
