#!/usr/bin/python3
"""pyspy_icicle_png.py RAW ICICLE.png — the icicle chart read back from its
pixels: the root bar must span the plot (margins equal on both sides, over
90% of the width) and the first frame under it must be as wide as its
share of all samples (within 2 px), that share counted here from the
py-spy raw file. Prints "margins equal" (or the measures) and
"first child ok" (or the widths)."""
import collections
import re
import sys

from PIL import Image

frame = re.compile(r"(.*) \((.*):\d+\)$")
roots, total = collections.Counter(), 0
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line:
        continue
    stack, n = line.rsplit(" ", 1)
    first = next((p for p in stack.split(";") if frame.match(p)), None)
    if first:
        roots[first] += int(n)
        total += int(n)
share = roots.most_common(1)[0][1] / total
im = Image.open(sys.argv[2]).convert("RGB")
W, H = im.size
grey = lambda c: all(abs(v - 115) <= 12 for v in c)


def run(y, ok, x):
    while x < W and ok(im.getpixel((x, y))):
        x += 1
    return x


y = next(y for y in range(H) if sum(grey(im.getpixel((x, y))) for x in range(0, W, 4)) > W // 8)
L = next(x for x in range(W) if grey(im.getpixel((x, y + 3))))
R = run(y + 3, grey, L)
while grey(im.getpixel((L + 1, y))):
    y += 1
while im.getpixel((L + 1, y)) == (255, 255, 255):
    y += 1
c0 = im.getpixel((L + 1, y + 3))
same = lambda c: all(abs(a - b) <= 12 for a, b in zip(c, c0))
A = run(y + 3, same, L)
print("margins %s" % ("equal" if abs(L - (W - R)) <= 2 and R - L > 0.9 * W else "L=%d R=%d W=%d" % (L, R, W)))
print("first child %s" % ("ok" if abs((A - L) - share * (R - L)) <= 2 else "%d px, want %.1f" % (A - L, share * (R - L))))
