#!/bin/bash
# ch_amdahl.sh — what $AMDAHL is when the e2e suite runs on ClickHouse
# (tests/test-lib.sh, AMDAHL_TEST_BACKEND=clickhouse): runs the real
# binary ($AMDAHL_CH_REAL) with only its store arguments rewritten — each
# `--store PATH`, `--baseline-store PATH` and $AMDAHL_STORE naming a file
# becomes that path's own ClickHouse database (ch_backend.sh). Output,
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
while [ $# -gt 0 ]; do
	case $1 in
	--store | --baseline-store)
		if [ $# -ge 2 ]; then
			args+=("$1" "$(map "$2")")
			shift 2
			continue
		fi ;;
	--store=* | --baseline-store=*)
		args+=("${1%%=*}=$(map "${1#*=}")")
		shift
		continue ;;
	--) args+=("$@"); break ;;
	esac
	args+=("$1")
	shift
done
[ -n "${AMDAHL_STORE:-}" ] && AMDAHL_STORE=$(map "$AMDAHL_STORE") && export AMDAHL_STORE
exec "$AMDAHL_CH_REAL" "${args[@]}"
