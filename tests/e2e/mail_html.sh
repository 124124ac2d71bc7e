#!/bin/bash
# mail_html.sh — `amdahl mail --attach-html` (issue 35): the report's
# report.html rides along with the PDF. A real report directory is sent
# to a real SMTP server (python3-aiosmtpd, tests/lib/smtp_server.py) on
# 127.0.0.1; the message that arrives is parsed with Python's email
# package: with --attach-html it has two attachments, report.pdf
# (application/pdf) and report.html (text/html), each byte for byte the
# file in the directory, and its bodies say report.html is attached;
# without it only the PDF is attached and the bodies name report.html in
# the report's folder. A directory without report.html is refused
# (exit 2, nothing sent).
test_description='amdahl mail --attach-html: report.html attached, checked with Python email'
. "$(dirname "$0")/../test-lib.sh"
LIB="$AMDAHL_ROOT/tests/lib"
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; test_cleanup' EXIT

test_lazy_prereq AIOSMTPD '"$PY" -c "import aiosmtpd"'

test_expect_success AIOSMTPD 'setup: a report of the CPU sweep and an SMTP server on 127.0.0.1' '
	"$AMDAHL" --store "$TMP/s.db" ingest -q "$DATA/cpu-strong-scaling/mlruns" &&
	test_status 0 "$AMDAHL" --store "$TMP/s.db" report build -o "$TMP/rep" &&
	mkdir -p "$TMP/srv" &&
	{ "$PY" "$LIB/smtp_server.py" "$TMP/srv" "$TMP/srv.port" >"$TMP/srv.log" 2>&1 & PIDS+=($!); } &&
	for _ in $(seq 300); do [ -s "$TMP/srv.port" ] && break; sleep 0.1; done &&
	test -s "$TMP/srv.port"
'
# parts EML DIR — the attachments of EML, each as its file name, content
# type and whether its decoded bytes equal DIR's file of that name; then
# "text:" and the plain-text body's mention of report.html.
parts() {
	"$PY" - "$1" "$2" <<-\PYEOF
	import email, email.policy, os, sys
	msg = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
	for p in msg.iter_attachments():
	    name = p.get_filename()
	    same = p.get_payload(decode=True) == open(os.path.join(sys.argv[2], name), "rb").read()
	    print(name, p.get_content_type(), "same" if same else "DIFFERENT")
	text = msg.get_body(("plain",)).get_content()
	html = msg.get_body(("html",)).get_content()
	print("text:", " ".join(l.strip() for l in text.splitlines() if "report.html" in l))
	print("html:", "attached" if "the interactive report too: <code>report.html</code>" in html else
	      "folder" if "the interactive report is <code>report.html</code>" in html else "none")
	PYEOF
}

test_expect_success AIOSMTPD,PYTHON 'mail --attach-html: report.pdf and report.html arrive, byte for byte' '
	test_status 0 "$AMDAHL" mail --to ci@example.org --attach-html \
		--smtp "smtp://127.0.0.1:$(cat "$TMP/srv.port")" "$TMP/rep" &&
	test_contains "sent report.pdf and report.html to 1 recipient" "$OUT" &&
	parts "$TMP/srv/1.eml" "$TMP/rep" >"$TMP/p1" &&
	test_eq "report.pdf application/pdf same
report.html text/html same
text: The interactive report is attached too: report.html (open it in a browser;
html: attached" "$(cat "$TMP/p1")"
'
test_expect_success AIOSMTPD,PYTHON 'without --attach-html: only the PDF; the bodies name report.html in the folder' '
	test_status 0 "$AMDAHL" mail --to ci@example.org \
		--smtp "smtp://127.0.0.1:$(cat "$TMP/srv.port")" "$TMP/rep" &&
	parts "$TMP/srv/2.eml" "$TMP/rep" >"$TMP/p2" &&
	test_eq "report.pdf application/pdf same
text: The interactive report is report.html in the report'\''s folder.
html: folder" "$(cat "$TMP/p2")"
'
test_expect_success AIOSMTPD 'a report without report.html: --attach-html refused (exit 2), nothing sent' '
	mkdir -p "$TMP/old" && cp "$TMP/rep/report.pdf" "$TMP/rep/report.json" "$TMP/old/" &&
	test_status 2 "$AMDAHL" mail --to ci@example.org --attach-html \
		--smtp "smtp://127.0.0.1:$(cat "$TMP/srv.port")" "$TMP/old" &&
	test_contains "no report.html to attach" "$ERR" &&
	test_eq 2 "$(find "$TMP/srv" -name "*.eml" | wc -l)"
'
test_done
