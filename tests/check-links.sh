#!/bin/bash
# check-links.sh — no cycle between folders at link level (`make
# check-links`, run by `make test` right after the build; docs/design.md,
# "Rules"). A file depends on another when its object has an undefined
# symbol the other's object defines (nm). Files that depend on each other,
# directly or around a loop, are one strongly connected component; such a
# knot is one module's business when all its files sit in one folder, and
# a layering fault when it spans folders (a room calling a room that calls
# it back). Lists every knot of two files or more, one line each ("N
# files: a.c b.c ..."), marks the ones that span folders, and exits 1 when
# there is such a knot that tests/link-cycles.allow does not name.
#
# tests/link-cycles.allow: one tolerated knot a line, its files sorted and
# separated by spaces, exactly as listed here; '#' starts a comment. A line
# that matches no knot any more is reported as stale (not a failure).
# Usage: tests/check-links.sh [BUILD_DIR]   (relative to the tree's root;
# CHECK_LINKS_ROOT=DIR checks another tree, as tests/e2e/check_links.sh does)
set -u
build=${1:-build}
cd "${CHECK_LINKS_ROOT:-$(dirname "$0")/..}" || exit 2
# the objects of today's sources (not a stale one of a file since removed)
objs=$(find lib report cmd -name '*.c' | sed 's/\.c$/.o/' | sort;
       cd "$build" 2>/dev/null && find gen -name '*.o' 2>/dev/null | sort)
missing=$(for o in $objs; do [ -f "$build/$o" ] || echo "$o"; done)
if [ -n "$missing" ]; then
	echo "check-links: objects missing under $build/ (build first):" $missing >&2
	exit 2
fi
# one line per symbol: "D|U file symbol", file named by its source path
# (build/lib/x/y.o -> lib/x/y.c); one nm over every object for each
# kind (-A names the object on each line), not two per object
syms=$(cd "$build" && {
	nm -P -A --defined-only $objs | awk '$3 ~ /^[TDBRCVWGS]$/ {print "D", $1, $2}'
	nm -P -A --undefined-only $objs | awk '{print "U", $1, $2}'
} | sed 's/^\([DU]\) \(.*\)\.o: /\1 \2.c /')
allow=$(sed 's/#.*//; s/[[:space:]]\+/ /g; s/^ //; s/ $//' tests/link-cycles.allow 2>/dev/null | grep -v '^$')
printf '%s\n' "$syms" | /usr/bin/python3 -c '
import os, sys
allow = set(l for l in sys.argv[1].split("\n") if l)
owner, uses = {}, {}
for line in sys.stdin:
    kind, f, sym = line.split()
    uses.setdefault(f, set())
    if kind == "D":
        owner.setdefault(sym, f)
    else:
        uses[f].add(sym)
edges = {f: sorted({owner[s] for s in u if s in owner and owner[s] != f}) for f, u in uses.items()}
rev = {f: [] for f in edges}
for f, ts in edges.items():
    for t in ts:
        rev[t].append(f)

# Kosaraju: order files by when a depth-first walk leaves them, then
# walk the reversed graph in the opposite order; each walk is one knot.
left, seen = [], set()
for root in sorted(edges):
    if root in seen:
        continue
    seen.add(root)
    stack = [(root, iter(edges[root]))]
    while stack:
        node, it = stack[-1]
        nxt = next((t for t in it if t not in seen), None)
        if nxt is None:
            stack.pop()
            left.append(node)
        else:
            seen.add(nxt)
            stack.append((nxt, iter(edges[nxt])))
knots, placed = [], set()
for root in reversed(left):
    if root in placed:
        continue
    placed.add(root)
    knot, todo = [], [root]
    while todo:
        f = todo.pop()
        knot.append(f)
        for g in rev[f]:
            if g not in placed:
                placed.add(g)
                todo.append(g)
    if len(knot) > 1:
        knots.append(sorted(knot))

bad, matched = 0, set()
for knot in sorted(knots, key=lambda k: (-len(k), k)):
    line = " ".join(knot)
    folders = sorted({os.path.dirname(f) for f in knot})
    if len(folders) == 1:
        mark = "ok"
    elif line in allow:
        mark, _ = "allowed", matched.add(line)
    else:
        mark, bad = "NOT OK", bad + 1
    print("%-7s %d files: %s" % (mark, len(knot), line))
    if len(folders) > 1:
        print("        spans " + " ".join(folders))
for line in sorted(allow - matched):
    print("stale   tests/link-cycles.allow names a knot the build no longer has: " + line)
print("check-links: %d knots, %d spanning folders not allowed" % (len(knots), bad))
sys.exit(1 if bad else 0)
' "$allow"
