#!/bin/bash
# outputs.sh — the before/after check of issue 32: every output of two
# amdahl binaries on the same inputs, compared. Each binary ingests every
# bundled sweep of testdata/ (one store each, and one combined store), a
# generated commit history and, when ../shared/data/public exists, the
# public samples; then every read command runs on those stores: runs,
# stats, scaling, regions, trace show, pyspy top/trie, diff, compare,
# gate, history, report build (summary.md, summary.html, report.json, the
# PDF's text and bytes, the charts), mail --dry-run, sql on the documented
# tables, --help of every command. Exit codes and stderr are compared too.
#
# Non-JSON outputs must be byte-identical. A JSON output of the reference
# goes through tests/compat/json_old_to_new.py (stdin to stdout; when that
# file exists, or the one $COMPAT_JSON_CONVERTER names; see json_cmp.py)
# and must then equal the new one as parsed JSON; without the converter
# JSON is compared byte for byte too.
#
# Usage: tests/compat/outputs.sh [-k] [-v] [-p PATTERN] REF [NEW]
#   REF, NEW  an amdahl binary, or a git commit/tag: its tree (git archive)
#             is built once into build-compat/<sha>/ and that build used.
#             NEW defaults to build/amdahl.
#   -p PAT    only the cases whose name contains PAT (ingests always run)
#   -k        keep the work directory (printed) for a look at the outputs
#   -v        print the whole diff of a difference, not its first lines
# Prints "ok - NAME" or "not ok - NAME" (with the first differing lines)
# per output and closes with "N passed, N failed"; exits 1 on any
# difference, 2 on a usage or build error. `make compat REF=<commit>`.
#
# Everything runs with -j 1 ingests (ids follow the ingest order), TZ=UTC,
# LC_ALL=C and, when faketime is installed, a clock frozen at 2026-01-01
# 00:00:00 UTC (so a report's date, the PDF's CreationDate and a mail's
# Date header are the same on both sides; the monotonic clock is real).
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/tests/compat"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

keep=0 verbose=0 pattern=
while getopts "kvp:" o; do
	case $o in
	k) keep=1 ;;
	v) verbose=1 ;;
	p) pattern=$OPTARG ;;
	*) echo "usage: $0 [-k] [-v] [-p PATTERN] REF [NEW]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: $0 [-k] [-v] [-p PATTERN] REF [NEW]" >&2
	exit 2
fi

die() { echo "compat: $*" >&2; exit 2; }

# binary_of SPEC — SPEC itself when it is an executable file, else the
# amdahl built from git commit SPEC in build-compat/<sha>/ (built once).
binary_of() {
	local spec=$1 sha dir
	if [ -f "$spec" ] && [ -x "$spec" ]; then
		(cd "$(dirname "$spec")" && echo "$(pwd -P)/$(basename "$spec")")
		return 0
	fi
	sha=$(git -C "$root" rev-parse --verify -q "$spec^{commit}") ||
		die "$spec: neither an executable nor a commit of this repository (a CI clone may lack tags: pass a commit hash)"
	dir="$root/build-compat/$sha"
	# the binary finds its templates at ../templates, i.e. in src/
	# built in a directory of its own, renamed into place when whole: a
	# second run at the same time, or one interrupted, never uses half a build
	if [ ! -x "$dir/src/build/amdahl" ]; then
		local tmp="$dir.tmp$$"
		echo "# building $spec ($sha) in $dir" >&2
		rm -rf "$tmp"
		mkdir -p "$tmp/src" || die "cannot create $tmp"
		git -C "$root" archive "$sha" | tar -x -C "$tmp/src" || die "git archive $sha failed"
		if ! nice make -C "$tmp/src" -j2 O=build all >"$tmp/build.log" 2>&1; then
			tail -20 "$tmp/build.log" >&2
			die "building $spec failed (log: $tmp/build.log)"
		fi
		rm -rf "$dir"
		mv "$tmp" "$dir" || die "cannot move $tmp to $dir"
	fi
	echo "$dir/src/build/amdahl"
}

REF_BIN=$(binary_of "$1") || exit 2
NEW_BIN=$(binary_of "${2:-$root/build/amdahl}") || exit 2
echo "# ref: $REF_BIN"
echo "# new: $NEW_BIN"

W=$(mktemp -d "${TMPDIR:-/tmp}/amdahl-compat.XXXXXX") || die "mktemp failed"
if [ $keep = 1 ]; then
	echo "# work directory: $W"
else
	trap 'rm -rf "$W"' EXIT
	trap 'exit 130' INT TERM
fi
mkdir -p "$W/ref" "$W/new" "$W/in" "$W/cmp" "$W/home"
DATA="$root/testdata"
# The public samples: $AMDAHL_PUBLIC, else ../shared/data/public beside the
# repository (CI) or beside the main checkout of this git worktree.
PUBLIC=${AMDAHL_PUBLIC:-}
if [ -z "$PUBLIC" ]; then
	common=$(git -C "$root" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)
	for p in "$root/../shared/data/public" ${common:+"$common/../../shared/data/public"}; do
		[ -d "$p" ] && { PUBLIC=$(cd "$p" && pwd -P); break; }
	done
fi
[ -n "$PUBLIC" ] && echo "# public samples: $PUBLIC" || echo "# no ../shared/data/public: the public samples are not compared"

# The environment of every run: nothing from the caller's amdahl settings;
# then a case's own VAR=VALUE words (t), then the frozen clock.
RUN_ENV=(env -u AMDAHL_STORE -u AMDAHL_TEMPLATES -u AMDAHL_SMTP_URL -u AMDAHL_SMTP_PASSWORD
	-u AMDAHL_CLICKHOUSE_PASSWORD -u GITHUB_STEP_SUMMARY -u AMDAHL_OVERLAP -u AMDAHL_GUNZIP
	-u NO_COLOR TZ=UTC LC_ALL=C HOME="$W/home")
CLOCK=()
if command -v faketime >/dev/null; then
	CLOCK=(FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f '2026-01-01 00:00:00')
else
	echo "# faketime not installed: reports carry today's date (apt-get install faketime)"
fi

npass=0 nfail=0
failed=()

# The outputs a change between the two builds alters on purpose, each with
# its reason (tests/compat/intended.txt: "NAME<TAB>why" a line; against
# 2bb353c, the tree before issue 32). A listed output that differs is "ok # intended";
# one that no longer differs is reported too, so the list stays true.
intended_why() {
	[ -f "$here/intended.txt" ] || return 1
	awk -F'\t' -v n="$1" '$1 == n { print $2; found = 1 } END { exit !found }' "$here/intended.txt"
}

# report NAME STATUS [DETAIL-FILE]
report() {
	local why
	if why=$(intended_why "$1"); then
		if [ "$2" = 0 ]; then
			echo "# $1: listed in intended.txt but identical now"
		else
			npass=$((npass + 1))
			echo "ok - $1 # intended: $why"
			[ $verbose = 1 ] && [ -n "${3:-}" ] && [ -s "$3" ] && sed 's/^/#   /' "$3"
			return 0
		fi
	fi
	if [ "$2" = 0 ]; then
		npass=$((npass + 1))
		echo "ok - $1"
	else
		nfail=$((nfail + 1))
		failed+=("$1")
		echo "not ok - $1"
		if [ -n "${3:-}" ] && [ -s "$3" ]; then
			if [ $verbose = 1 ]; then sed 's/^/#   /' "$3"; else head -n 16 "$3" | sed 's/^/#   /'; fi
		fi
	fi
}

# diff_text A B OUT — 0 when A and B are byte-identical, else the first
# differing lines into OUT (unified diff; cmp's words for binary files).
diff_text() {
	cmp -s "$1" "$2" && return 0
	if grep -qI . "$1" 2>/dev/null || [ ! -s "$1" ]; then
		diff -u --label ref --label new "$1" "$2" >"$3" 2>&1
		[ -s "$3" ] || cmp "$1" "$2" >"$3" 2>&1 # differ only in bytes diff ignores
	else
		cmp "$1" "$2" >"$3" 2>&1
	fi
	return 1
}

# cmp_as KIND JSONKIND REF NEW OUT — compare two outputs as KIND:
# text (bytes), json (json_cmp.py), pdf (pdftotext's text, then the bytes),
# eml (eml_text.py's normal form), missing files both ways.
cmp_as() {
	local kind=$1 jkind=$2 a=$3 b=$4 out=$5
	if [ ! -e "$a" ] || [ ! -e "$b" ]; then
		# neither side writing it is a broken case, not an equal output
		{ [ -e "$a" ] || echo "ref wrote no $(basename "$a")"; [ -e "$b" ] || echo "new wrote no $(basename "$b")"; } >"$out"
		return 1
	fi
	case $kind in
	text) diff_text "$a" "$b" "$out" ;;
	json) "$PY" "$here/json_cmp.py" "$jkind" "$a" "$b" >"$out" 2>&1 ;;
	pdf)
		if command -v pdftotext >/dev/null; then
			pdftotext -layout "$a" "$a.txt" 2>/dev/null
			pdftotext -layout "$b" "$b.txt" 2>/dev/null
			diff_text "$a.txt" "$b.txt" "$out" || return 1
		fi
		cmp "$a" "$b" >"$out" 2>&1 ;;
	eml)
		"$PY" "$here/eml_text.py" "$a" >"$a.norm" 2>&1
		"$PY" "$here/eml_text.py" "$b" >"$b.norm" 2>&1
		diff_text "$a.norm" "$b.norm" "$out" ;;
	*) echo "unknown kind $kind" >"$out"; return 1 ;;
	esac
}

# selected NAME — NAME matches -p PATTERN; the ingests (the stores every
# later case reads) and the cases run as `always=1 t ...` (their files are
# read by later cases) run whatever the pattern.
selected() {
	[ -z "$pattern" ] || [[ "$1" == *"$pattern"* ]] || [[ "$1" == */ingest* ]] || [ "${always:-0}" = 1 ]
}

# run_both KEY ENV ARGS... — runs `amdahl ARGS` in ref/ and in new/ (at
# once) with ENV (a count, then that many VAR=VALUE words), stdout, stderr
# and exit code into cmp/KEY.{ref,new}.{out,err,rc}, the seconds taken
# into cmp/KEY.time.
run_both() {
	local key=$1 nenv=$2
	shift 2
	local envs=("${@:1:nenv}")
	shift "$nenv"
	local t0=$SECONDS
	(cd "$W/ref" && "${RUN_ENV[@]}" "${envs[@]}" "${CLOCK[@]}" "$REF_BIN" "$@" \
		>"$W/cmp/$key.ref.out" 2>"$W/cmp/$key.ref.err"
	 echo $? >"$W/cmp/$key.ref.rc") &
	(cd "$W/new" && "${RUN_ENV[@]}" "${envs[@]}" "${CLOCK[@]}" "$NEW_BIN" "$@" \
		>"$W/cmp/$key.new.out" 2>"$W/cmp/$key.new.err"
	 echo $? >"$W/cmp/$key.new.rc")
	wait
	echo $((SECONDS - t0)) >"$W/cmp/$key.time"
}

ncase=0
# t KIND NAME [VAR=VALUE...] -- ARGS... — one compared output of `amdahl
# ARGS` (run with those variables set): exit code, stderr (bytes) and
# stdout as KIND (text, json, eml). The JSON kind is the command words of
# ARGS (json_kind).
last=
t() {
	local kind=$1 name=$2 envs=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do envs+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	selected "$name" || return 0
	ncase=$((ncase + 1))
	local key="c$ncase" d="$W/cmp/c$ncase.diff" st=0
	last=$key
	printf '%s\t%s\n' "$key" "$name" >>"$W/cmp/names"
	run_both "$key" "${#envs[@]}" "${envs[@]}" "$@"
	local c="$W/cmp/$key"
	: >"$d"
	if ! cmp -s "$c.ref.rc" "$c.new.rc"; then
		echo "exit code: ref $(cat "$c.ref.rc"), new $(cat "$c.new.rc")" >>"$d"
		st=1
	fi
	if ! diff_text "$c.ref.err" "$c.new.err" "$d.err"; then
		{ echo "stderr:"; cat "$d.err"; } >>"$d"
		st=1
	fi
	if ! cmp_as "$kind" "$(json_kind "$@")" "$c.ref.out" "$c.new.out" "$d.out"; then
		{ echo "stdout:"; cat "$d.out"; } >>"$d"
		st=1
	fi
	report "$name" $st "$d"
}

# save PATH — the stdout of the last case, each side's own, kept as PATH in
# its directory (e.g. `gate --json` output as a report's gate.json).
save() {
	[ -n "$last" ] || return 0
	cp "$W/cmp/$last.ref.out" "$W/ref/$1"
	cp "$W/cmp/$last.new.out" "$W/new/$1"
}

# f KIND NAME PATH [JSONKIND] — a file both sides wrote at PATH (relative to
# their directories), compared as KIND (text, json, pdf, eml).
f() {
	local kind=$1 name=$2 path=$3 jkind=${4:-file}
	selected "$name" || return 0
	local d="$W/cmp/f$((++ncase)).diff"
	cmp_as "$kind" "$jkind" "$W/ref/$path" "$W/new/$path" "$d"
	report "$name" $? "$d"
}

# fdir NAME DIR — every file both sides wrote under DIR: the listing, then
# each file by its type (.json json, .pdf pdf, everything else bytes).
fdir() {
	local name=$1 dir=$2
	selected "$name" || return 0
	local d="$W/cmp/f$((++ncase)).diff"
	(cd "$W/ref/$dir" 2>/dev/null && find . -type f | sort) >"$d.ref"
	(cd "$W/new/$dir" 2>/dev/null && find . -type f | sort) >"$d.new"
	diff_text "$d.ref" "$d.new" "$d"
	report "$name: files" $? "$d"
	local p k
	while IFS= read -r p; do
		p=${p#./}
		case $p in
		*.json) k=json ;;
		*.pdf) k=pdf ;;
		*) k=text ;;
		esac
		f "$k" "$name: $p" "$dir/$p" "$(basename "$p")"
	done < <(sort -u "$d.ref" "$d.new")
}

# json_kind ARGS... — the command words of an amdahl command line (global
# options and their values skipped, stopped at the first option or
# operand of the command): "stats", "trace show", "report build", ...
json_kind() {
	local words=() a
	while [ $# -gt 0 ]; do
		case $1 in
		--store | --config) shift 2; continue ;;
		-*) break ;;
		esac
		words+=("$1")
		shift
		case ${words[0]} in
		trace | pyspy | report) [ ${#words[@]} -ge 2 ] && break ;;
		*) break ;;
		esac
	done
	a="${words[*]}"
	echo "${a:-none}"
}

# ---- inputs both sides read: made once, outside ref/ and new/ ----
# the 24-commit histories of tests/e2e/history.sh (tests/lib/histories.sh)
. "$root/tests/lib/histories.sh"
history_mlruns "$root" "$W/in/hist" >/dev/null 2>&1 || echo "# history inputs not made: history cases will differ only if the binaries do"
# the CPU sweep again under fresh run ids (a second sweep of the same kind)
sh "$root/tests/lib/copy_sweep.sh" "$DATA/cpu-strong-scaling" "$W/in/cpu-copy1" 1 ||
	echo "# the copy of the CPU sweep was not made"
if [ -n "$PUBLIC" ] && [ -f "$PUBLIC/mlflow/mlflow3-sqlite-dump.sql" ]; then
	mkdir -p "$W/in/mlflow3"
	"$PY" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[2]); db.executescript(open(sys.argv[1]).read()); db.commit()' \
		"$PUBLIC/mlflow/mlflow3-sqlite-dump.sql" "$W/in/mlflow3/mlflow.db"
fi

# shellcheck source=tests/compat/cases.sh
. "$here/cases.sh"

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
