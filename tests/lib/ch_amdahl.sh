#!/bin/bash
# ch_amdahl.sh — what $AMDAHL is when the e2e suite runs on ClickHouse
# (tests/test-lib.sh, AMDAHL_TEST_BACKEND=clickhouse): runs the real
# binary ($AMDAHL_CH_REAL) with only its store arguments rewritten — each
# `--store PATH` (`-s PATH`), `--baseline-store PATH` and, when no store
# is named, the store the binary would default to ($AMDAHL_STORE, else
# ./amdahl.db) becomes that path's own ClickHouse database (ch_backend.sh),
# so no command of the suite reaches a SQLite file in this mode. Output,
# exit status and every other argument are the binary's own. The
# databases made are listed in $AMDAHL_CH_DBLIST, dropped when the
# script ends.
. "$(dirname "$0")/ch_backend.sh"

map() {
	local url
	url=$(ch_store_url "$1")
	[ -n "${AMDAHL_CH_DBLIST:-}" ] && printf '%s\n' "${url##*/}" >>"$AMDAHL_CH_DBLIST"
	printf '%s\n' "$url"
}

args=()
named=
while [ $# -gt 0 ]; do
	case $1 in
	--store | -s | --baseline-store)
		if [ $# -ge 2 ]; then
			[ "$1" = --baseline-store ] || named=1
			args+=("$1" "$(map "$2")")
			shift 2
			continue
		fi ;;
	--store=* | --baseline-store=*)
		[ "${1%%=*}" = --store ] && named=1
		args+=("${1%%=*}=$(map "${1#*=}")")
		shift
		continue ;;
	--) args+=("$@"); break ;;
	esac
	args+=("$1")
	shift
done
# The default store: $AMDAHL_STORE if set and not empty, else ./amdahl.db
# (cmd/main.c); mapped only when the command names no store of its own.
if [ -z "$named" ]; then
	AMDAHL_STORE=$(map "${AMDAHL_STORE:-amdahl.db}")
	export AMDAHL_STORE
fi
exec "$AMDAHL_CH_REAL" "${args[@]}"
