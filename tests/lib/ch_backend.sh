# ch_backend.sh — the e2e suite on the ClickHouse backend
# (AMDAHL_TEST_BACKEND=clickhouse): how a store path a test names maps to
# its own database on the private server (tests/lib/clickhouse.sh), and
# the server's own queries. Sourced by tests/test-lib.sh and by the
# wrapper tests/lib/ch_amdahl.sh; needs AMDAHL_CH_PORT.

# ch_store_url PATH — the ClickHouse store standing for store path PATH:
# database t_ and 16 hex digits of the SHA-256 of PATH made absolute (a
# URL is its own store).
ch_store_url() {
	case $1 in
	"") return ;;
	clickhouse://* | clickhouse+https://*) printf '%s\n' "$1"; return ;;
	esac
	local abs h
	abs=$(realpath -m -- "$1")
	h=$(printf '%s' "$abs" | sha256sum | cut -c1-16)
	printf 'clickhouse://amdahl@127.0.0.1:%s/t_%s\n' "$AMDAHL_CH_PORT" "$h"
}

# ch_server_query SQL — SQL's answer from the test server (as amdahl).
ch_server_query() {
	curl -sS -u "amdahl:$AMDAHL_CLICKHOUSE_PASSWORD" --data-binary "$1" \
		"http://127.0.0.1:$AMDAHL_CH_PORT/"
}
