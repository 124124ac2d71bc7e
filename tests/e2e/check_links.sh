# check_links.sh — tests/check-links.sh, the rule that no link-level
# cycle spans folders, on a tree of four files made here: a knot across
# two folders fails and names its files and folders; the allow file lets
# exactly that knot pass; a knot inside one folder passes; a file removed
# from the tree is not read from a stale object. Then the check on this
# build's own objects.
test_description='check-links: a cycle across folders fails, one inside a folder passes'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_TIER 'check-links reads object files and no store'

T=$TMP/tree
CHECK="$AMDAHL_ROOT/tests/check-links.sh"
# f DIR/NAME DEFINES USES: a source defining function DEFINES that calls USES
f() {
	mkdir -p "$T/$(dirname "$1")" &&
	printf '/* %s */\nvoid %s(void);\nvoid %s(void);\nvoid %s(void) { %s(); }\n' \
		"$1" "$3" "$2" "$2" "$3" >"$T/$1"
}
objs() {
	for c in $(cd "$T" && find lib -name '*.c'); do
		mkdir -p "$T/build/$(dirname "$c")" &&
		cc -c "$T/$c" -o "$T/build/${c%.c}.o" || return 1
	done
}

test_expect_success 'setup: lib/a/x.c <-> lib/b/y.c, lib/c/p.c <-> lib/c/q.c, lib/c/r.c alone' '
	f lib/a/x.c ax by && f lib/b/y.c by ax &&
	f lib/c/p.c cp cq && f lib/c/q.c cq cp && f lib/c/r.c cr cp && objs
'
test_expect_success 'a knot across folders fails, naming its files and folders' '
	test_status 1 env CHECK_LINKS_ROOT="$T" "$CHECK" build &&
	test_contains "NOT OK  2 files: lib/a/x.c lib/b/y.c" "$OUT" &&
	test_contains "spans lib/a lib/b" "$OUT" &&
	test_contains "check-links: 2 knots, 1 spanning folders not allowed" "$OUT"
'
test_expect_success 'a knot inside one folder passes; a file in no knot is not listed' '
	test_status 1 env CHECK_LINKS_ROOT="$T" "$CHECK" build &&
	test_contains "ok      2 files: lib/c/p.c lib/c/q.c" "$OUT" &&
	test_not_contains "r.c" "$OUT"
'
test_expect_success 'the allow file lets exactly the knot it names pass' '
	mkdir -p "$T/tests" &&
	printf "# a debt\nlib/a/x.c lib/b/y.c\n" >"$T/tests/link-cycles.allow" &&
	test_status 0 env CHECK_LINKS_ROOT="$T" "$CHECK" build &&
	test_contains "allowed 2 files: lib/a/x.c lib/b/y.c" "$OUT" &&
	printf "lib/a/x.c\n" >"$T/tests/link-cycles.allow" &&
	test_status 1 env CHECK_LINKS_ROOT="$T" "$CHECK" build &&
	test_contains "stale   tests/link-cycles.allow names a knot the build no longer has: lib/a/x.c" "$OUT"
'
test_expect_success 'a removed source is not read from its stale object; a missing object is an error' '
	rm "$T/tests/link-cycles.allow" "$T/lib/b/y.c" &&
	test_status 0 env CHECK_LINKS_ROOT="$T" "$CHECK" build &&
	test_contains "check-links: 1 knots, 0 spanning folders not allowed" "$OUT" &&
	f lib/b/z.c bz ax &&
	test_status 2 env CHECK_LINKS_ROOT="$T" "$CHECK" build &&
	test_contains "objects missing" "$ERR"
'
build=$(dirname "$AMDAHL")
test_expect_success 'this build: no knot across folders but the allowed ones' '
	if [ -f "$build/libamdahl.a" ]; then
		test_status 0 "$CHECK" "$build" &&
		test_contains "spanning folders not allowed" "$OUT"
	fi
'
test_done
