#!/bin/bash
# check-tree.sh — the rules of the source tree that the compiler does not
# check (`make check-tree`, part of `make test`; docs/design.md, "Rules"):
#   - SQL (sqlite3_ calls) only in lib/store/ and in the
#     readers of other tools' SQLite files (MLflow's mlflow.db, Nsight
#     Systems exports, and lib/ingest/foreign_db.c that opens them);
#   - lib/ and report/ never print to the terminal or exit;
#   - every source file opens with a comment saying what it owns;
#   - header basenames and include guards are unique (headers are
#     included by bare name);
#   - no include cycle among headers;
#   - no reference to a design document outside the repository.
# Prints one line per rule and "N passed, N failed"; exits 1 on a failure.
set -u
cd "$(dirname "$0")/.." || exit 2
passed=0 failed=0
check() { # DESC OFFENDERS
	if [ -z "$2" ]; then
		echo "ok - $1"
		passed=$((passed + 1))
	else
		echo "not ok - $1"
		printf '%s\n' "$2" | sed 's/^/#   /' | head -20
		failed=$((failed + 1))
	fi
}
src=$(find lib report cmd -name '*.[ch]' | sort)
libsrc=$(find lib report -name '*.[ch]' | sort)

# Readers of someone else's SQLite file must use SQL on it: mlflow.db,
# Nsight Systems exports (lib/ingest/profile/nsys*.c), and the helper
# that opens them read-only (lib/ingest/foreign_db.c). A remote backend
# (lib/remote/) moves rows between its server and SQLite stores through
# the store's row interfaces (below).
check "sqlite3_ only in lib/store/ and the readers of foreign SQLite files" \
	"$(grep -ln 'sqlite3_' $src | grep -v '^lib/store/' |
	   grep -v '^lib/ingest/mlflow/mlflow_sqlite.c$' |
	   grep -v '^lib/ingest/foreign_db.c$' | grep -v '^lib/ingest/profile/nsys[a-z_]*\.[ch]$')"

# lib/remote reaches a SQLite store only through the store's row
# interfaces: its writers read a unit's rows through unit_rows.h, its
# readers (ch_load.c, pull.c) fill the in-memory store through
# table_load.h. No sqlite3_ call, no sqlite3.h, no sqlite_int.h.
check "lib/remote calls no sqlite3_ (the store's row interfaces, unit_rows.h and table_load.h)" \
	"$(grep -lE 'sqlite3_|sqlite3\.h|sqlite_int\.h' lib/remote/*.[ch])"

check "lib/ and report/ never print to the terminal or exit" \
	"$(grep -nE '(^|[^>._[:alnum:]])(printf|puts|putchar|perror|exit|_exit|abort)[[:space:]]*\(|\b(stdout|stderr)\b' $libsrc |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)')"

check "every source file opens with a comment saying what it owns" \
	"$(for f in $src; do head -c 2 "$f" | grep -q '/\*' || echo "$f"; done)"

check "header basenames are unique" \
	"$(find lib report cmd -name '*.h' -printf '%f\n' | sort | uniq -d)"

check "include guards are unique" \
	"$(grep -h '^#ifndef AMD_' $(find lib report cmd -name '*.h') | sort | uniq -d)"

check "no include cycle among headers" \
	"$(/usr/bin/python3 - $(find lib report cmd -name '*.h') <<'EOF'
import os, re, sys
paths = sys.argv[1:]
by_name = {os.path.basename(p): p for p in paths}
graph = {}
for p in paths:
    names = re.findall(r'^#include "([^"]+)"', open(p).read(), re.M)
    graph[os.path.basename(p)] = [os.path.basename(n) for n in names if os.path.basename(n) in by_name]
state = {}
def visit(n, stack):
    state[n] = 1
    for m in graph.get(n, []):
        if state.get(m) == 1:
            print(" -> ".join(stack[stack.index(m):] + [m]))
        elif m not in state:
            visit(m, stack + [m])
    state[n] = 2
for n in sorted(graph):
    if n not in state:
        visit(n, [n])
EOF
)"

# The importer decides what data means, the store only stores it: no SQL
# in lib/store/ names a source format or its words — no C string there
# holds a SQL literal ('…') with a format's word, nor a key only a format
# gives (mlflow.*, aten::, ProfilerStep, …) however the SQL is built. The
# one exception is the migrations that convert rows written before the
# readers reported those facts (the macros *_OF_OLDER_ROWS_SQL of
# lib/store/db/schema.c and the tag look-up they use, skipped whole).
# KNOWN, not yet moved (listed so that nothing new joins it): the
# py-spy snapshot count's source kinds (lib/store/query/pyspy_samples.c).
format_words='mlflow|aten::|c10::|autograd::|[^a-z]at::|kineto|ProfilerStep|cprofile|nsys|py-?spy|tensorboard|itwinai|mlperf|nvidia|torch'
format_keys='mlflow\.|aten::|c10::|autograd::|kineto|ProfilerStep'
sql_format_words() {
	for f in $(find lib/store -name '*.[ch]' | sort); do
		awk -v f="$f" '
		f == "lib/store/db/schema.c" && /^#define [A-Z_]*(_OF_OLDER_ROWS_SQL|RUN_LAUNCH_TAG\()/ { skip = 1 }
		skip { if ($0 !~ /\\$/) skip = 0; next }
		/^#include/ || /^[[:space:]]*(\/?\*|\/\/)/ { next }
		/"/ {
			line = $0
			while (match(line, /"([^"\\]|\\.)*"/)) {
				print f ":" NR ": " substr(line, RSTART, RLENGTH)
				line = substr(line, RSTART + RLENGTH)
			}
		}' "$f"
	done | grep -iE ":[0-9]+: .*('[^']*($format_words)[^']*'|$format_keys)" |
		grep -vE "^lib/store/query/pyspy_samples\.c:"
}
check "no SQL in lib/store/ names a source format (but the one migration)" \
	"$(sql_format_words)"

check "no reference to a design document outside the repository" \
	"$(grep -n 'DESIGN §\|DESIGN\.md' $src tests/*.sh tests/*/*.sh 2>/dev/null | grep -v '^tests/check-tree.sh')"

echo "check-tree: $passed passed, $failed failed"
[ "$failed" = 0 ]
