# mail.sh — `amdahl mail` of a real `amdahl report build` directory to a
# real SMTP server (Debian's python3-aiosmtpd, tests/e2e/smtp_server.py)
# on 127.0.0.1: what arrives is parsed with Python's email package
# (tests/e2e/eml_facts.py) and compared with the report it came from.
# Also: AUTH PLAIN/LOGIN with the password from the environment and
# ~/.netrc (never in any output), STARTTLS and smtps:// with a lab CA, a
# refused recipient and sender, a server that is down or drops the
# connection, CR/LF injection, the gate verdict, amdahl.yaml settings,
# --dry-run.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
HERE="$AMDAHL_ROOT/tests/e2e"
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# start_server DIR [options] — starts smtp_server.py saving into DIR; sets PORT.
start_server() {
  local dir=$1; shift
  mkdir -p "$dir"
  "$PY" "$HERE/smtp_server.py" "$dir" "$dir.port" "$@" 2>"$dir.log" &
  PIDS+=($!)
  for _ in $(seq 300); do [ -s "$dir.port" ] && break; sleep 0.1; done
  [ -s "$dir.port" ] || { fail "the SMTP server in $dir started" "$(cat "$dir.log")"; exit 1; }
  PORT=$(cat "$dir.port")
}
# facts EML NAME — parses EML into $TMP/NAME/, facts in $TMP/NAME.facts
facts() { "$PY" "$HERE/eml_facts.py" "$1" "$TMP/$2" >"$TMP/$2.facts"; }
fact() { sed -n "s/^$2=//p" "$TMP/$1.facts"; }
count_msgs() { find "$1" -name '*.eml' | wc -l; }

# ---- a real report directory: `amdahl report build` on the bundled sweep
REPORT="$TMP/report"
"$AMDAHL" --store "$TMP/a.db" ingest "$DATA/cpu-strong-scaling/mlruns" >/dev/null 2>&1
"$AMDAHL" --store "$TMP/a.db" report build -o "$REPORT" >/dev/null 2>"$TMP/report.err"
eq "report build wrote a report to mail" 0 $?
PDF_SHA=$(sha256sum "$REPORT/report.pdf" | cut -c1-64)
pdfinfo "$REPORT/report.pdf" >/dev/null 2>&1
eq "the report's PDF is a PDF (pdfinfo)" 0 $?
# The findings the body must carry, read from report.json independently.
"$PY" -c '
import json, sys
r = json.load(open(sys.argv[1]))
for f in r.get("findings", []):
    print(f["text"] if isinstance(f, dict) else f)' "$REPORT/report.json" >"$TMP/findings"
SWEEP=$("$PY" -c '
import json, sys
s = json.load(open(sys.argv[1])).get("sweep")
print(s["name"] if isinstance(s, dict) else s)' "$REPORT/report.json")

# User templates with lines SMTP must dot-stuff: "." alone ends DATA.
mkdir -p "$TMP/tpl"
cp "$AMDAHL_ROOT/templates/mail.html" "$TMP/tpl/"
{ cat "$AMDAHL_ROOT/templates/mail.txt"; printf '.\n..two dots\n.one dot\nend\n'; } >"$TMP/tpl/mail.txt"
export AMDAHL_TEMPLATES="$TMP/tpl"

# ---- a plain server: delivery, contents, refusals
S1="$TMP/s1"
start_server "$S1" --refuse-rcpt nobody@example.org --refuse-from blocked@example.org
status "mail to two recipients exits 0" 0 "$AMDAHL" mail --to alice@example.org,bob@example.net \
  --from nightly@lab.example --subject "Nightly scaling report" --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
contains "says where it sent" "sent report.pdf to 2 recipients" "$OUT"
eq "the server received one message" 1 "$(count_msgs "$S1")"
eq "envelope recipients" '["alice@example.org", "bob@example.net"]' \
  "$("$PY" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["rcpt_tos"]))' "$S1/1.json")"
eq "envelope sender" nightly@lab.example \
  "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["mail_from"])' "$S1/1.json")"
facts "$S1/1.eml" got
eq "To header" "alice@example.org, bob@example.net" "$(fact got to)"
eq "From header" "nightly@lab.example" "$(fact got from)"
eq "Subject header" "Nightly scaling report" "$(fact got subject)"
eq "MIME structure" "multipart/mixed[multipart/alternative[text/plain,text/html],application/pdf]" \
  "$(fact got structure)"
eq "no defects found by the email parser" 0 "$(fact got defects)"
eq "CRLF line ends throughout" 1 "$(fact got crlf)"
[ "$(fact got date)" != BAD ] && [ -n "$(fact got date)" ] && pass "Date header parses" ||
  fail "Date header parses" "$(grep -i '^date' "$S1/1.eml")"
contains "Message-ID header" "@lab.example>" "$(fact got message_id)"
eq "attachment: name, type, base64, exact bytes (sha256)" "report.pdf application/pdf base64 $PDF_SHA" \
  "$(fact got attachments)"
cmp -s "$TMP/got/attachment-report.pdf" "$REPORT/report.pdf"
eq "attachment decodes to the PDF byte for byte" 0 $?
PLAIN=$(cat "$TMP/got/plain.txt"); HTML=$(cat "$TMP/got/body.html")
contains "plain body names the sweep" "Sweep: $SWEEP" "$PLAIN"
contains "plain body has the gate verdict" "Gate:" "$PLAIN"
n=0
while IFS= read -r f; do
  n=$((n + 1))
  contains "plain body has finding $n" "- $f" "$PLAIN"
  esc=$(printf '%s' "$f" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g')
  contains "HTML body has finding $n, escaped" "<li>$esc</li>" "$HTML"
done <"$TMP/findings"
[ "$n" -gt 0 ] && pass "the report has findings to check ($n)" || fail "the report has findings to check"
contains "HTML body is HTML with the subject" "<h2>Nightly scaling report</h2>" "$HTML"
contains "dot-stuffed template lines arrive intact" "$(printf '\n.\n..two dots\n.one dot\nend')" "$PLAIN"

status "a refused recipient exits 1" 1 "$AMDAHL" mail --to alice@example.org,nobody@example.org \
  --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
contains "names the refused recipient and the reply" "nobody@example.org" "$ERR"
contains "gives the server's reply" "550" "$ERR"
eq "refused recipient: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
status "a refused sender exits 1" 1 "$AMDAHL" mail --from blocked@example.org --to alice@example.org \
  --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
contains "says the sender was refused" "refused the sender" "$ERR"
contains "gives the sender's reply" "553" "$ERR"
eq "nothing more was delivered" 1 "$(count_msgs "$S1")"

# ---- header injection: refused before anything is sent
status "CR LF in the subject exits 2" 2 "$AMDAHL" mail --to alice@example.org \
  --subject "$(printf 'hello\r\nBcc: evil@example.org')" --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
contains "says why" "line break" "$ERR"
status "LF alone in the subject exits 2" 2 "$AMDAHL" mail --to alice@example.org \
  --subject "$(printf 'hello\nX: y')" --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
status "LF in a recipient exits 2" 2 "$AMDAHL" mail --to "$(printf 'alice@example.org\nBcc: evil@example.org')" \
  --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
status "CR in the sender exits 2" 2 "$AMDAHL" mail --from "$(printf 'a@b.org\rBcc: e@x.org')" \
  --to alice@example.org --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
status "CR LF in the subject is refused in a dry run too" 2 "$AMDAHL" mail --to alice@example.org \
  --subject "$(printf 'a\r\nb')" --dry-run "$TMP/inj.eml" "$REPORT"
[ -e "$TMP/inj.eml" ] && fail "no .eml after a refused dry run" || pass "no .eml after a refused dry run"
eq "no injected message was delivered" 1 "$(count_msgs "$S1")"

# ---- --dry-run: the same message, written instead of sent
status "--dry-run exits 0" 0 "$AMDAHL" mail --to alice@example.org,bob@example.net \
  --from nightly@lab.example --subject "Nightly scaling report" --smtp "smtp://127.0.0.1:$PORT" \
  --dry-run "$TMP/dry.eml" "$REPORT"
eq "a dry run sends nothing" 1 "$(count_msgs "$S1")"
facts "$TMP/dry.eml" dry
for k in to from subject structure attachments mime_version crlf defects; do
  eq "dry run and sent message agree: $k" "$(fact got $k)" "$(fact dry $k)"
done
cmp -s "$TMP/got/plain.txt" "$TMP/dry/plain.txt" && cmp -s "$TMP/got/body.html" "$TMP/dry/body.html"
eq "dry run and sent message have the same bodies" 0 $?
MANY=$(for i in $(seq 1 12); do printf 'team-member-%02d@scaling-lab.example.org,' "$i"; done)
status "--dry-run with 12 recipients" 0 "$AMDAHL" mail --to "${MANY%,}" --dry-run "$TMP/many.eml" "$REPORT"
eq "12 recipients: the To header lists them all" "${MANY%,}" "$("$PY" -c '
import email, email.policy, email.utils, sys
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=email.policy.default)
print(",".join(a for _, a in email.utils.getaddresses([str(m["To"])])))' "$TMP/many.eml")"
eq "12 recipients: no header line past 78 columns" 0 \
  "$(sed -n '1,/^\r$/p' "$TMP/many.eml" | grep -v '^Content-Type' | awk 'length($0) > 79' | wc -l)"
status "--dry-run - writes the message to stdout" 0 "$AMDAHL" mail --to alice@example.org \
  --dry-run - "$REPORT"
contains "stdout is the message" "Content-Type: multipart/mixed" "$OUT"

# ---- servers that fail
FREE=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
status "server down exits 1" 1 "$AMDAHL" mail --to alice@example.org --smtp "smtp://127.0.0.1:$FREE" "$REPORT"
contains "server down: says so" "cannot reach the server" "$ERR"
eq "server down: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
S2="$TMP/s2"
start_server "$S2" --drop-at-data
status "a dropped connection exits 1" 1 "$AMDAHL" mail --to alice@example.org --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
contains "dropped: says so" "connection" "$ERR"
eq "dropped: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
S6="$TMP/s6"
start_server "$S6" --size-limit 20000
status "a message over the server's SIZE limit exits 1" 1 "$AMDAHL" mail --to alice@example.org \
  --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
contains "too large: says so" "refuses a message this large" "$ERR"
contains "too large: the server's reply" "552" "$ERR"
eq "too large: nothing delivered" 0 "$(count_msgs "$S6")"
status "--ssl-reqd without STARTTLS on offer exits 1" 1 "$AMDAHL" mail --ssl-reqd --to alice@example.org \
  --smtp "smtp://127.0.0.1:$PORT" "$REPORT"
contains "--ssl-reqd: says STARTTLS is missing" "STARTTLS" "$ERR"

# ---- AUTH: the password from the environment or ~/.netrc, never shown
PW='Tr0ub4dor&3-amdahl-secret'
B64=$(printf '\0nightly\0%s' "$PW" | base64 -w0)
export SMTP_TEST_PASSWORD="$PW"
S3="$TMP/s3"
start_server "$S3" --auth-user nightly
ALL="$TMP/all-output"; : >"$ALL"
keep() { printf '%s\n%s\n' "$OUT" "$ERR" >>"$ALL"; }
AMDAHL_SMTP_PASSWORD="$PW" status "AUTH PLAIN with the password from the environment" 0 \
  "$AMDAHL" mail --to alice@example.org --smtp "smtp://nightly@127.0.0.1:$PORT" "$REPORT"; keep
AMDAHL_SMTP_PASSWORD="$PW" status "AUTH LOGIN with the password from the environment" 0 \
  "$AMDAHL" mail --to alice@example.org --smtp "smtp://nightly;AUTH=LOGIN@127.0.0.1:$PORT" "$REPORT"; keep
eq "the server saw PLAIN then LOGIN succeed" "PLAIN ok,LOGIN ok" "$(paste -sd, "$S3/auth.log")"
eq "both messages arrived logged in as nightly" "nightly nightly" \
  "$("$PY" -c 'import json,sys; print(*[json.load(open(p))["login"] for p in sys.argv[1:]])' "$S3/1.json" "$S3/2.json")"
AMDAHL_SMTP_PASSWORD="wrong-$PW" status "a wrong password exits 1" 1 \
  "$AMDAHL" mail --to alice@example.org --smtp "smtp://nightly@127.0.0.1:$PORT" "$REPORT"; keep
contains "wrong password: login refused" "login refused" "$ERR"
# A password that curl's own message happens to contain ("Login denied") is redacted.
AMDAHL_SMTP_PASSWORD=denied status "a wrong password 'denied' exits 1" 1 \
  timeout 30 "$AMDAHL" mail --to alice@example.org --smtp "smtp://nightly@127.0.0.1:$PORT" "$REPORT"
contains "the error redacts it" "Login ***" "$ERR"
case "$ERR" in *denied*) fail "the password 'denied' is not in the error" "$ERR";; *) pass "the password 'denied' is not in the error";; esac
status "no password where AUTH is required exits 1" 1 \
  "$AMDAHL" mail --to alice@example.org --smtp "smtp://127.0.0.1:$PORT" "$REPORT"; keep
contains "no password: the server's reply" "530" "$ERR"
mkdir -p "$TMP/home"
printf 'machine 127.0.0.1\nlogin nightly\npassword %s\n' "$PW" >"$TMP/home/.netrc"
chmod 600 "$TMP/home/.netrc"
HOME="$TMP/home" status "AUTH with the password from ~/.netrc" 0 \
  "$AMDAHL" mail --to alice@example.org --smtp "smtp://nightly@127.0.0.1:$PORT" "$REPORT"; keep
eq "three messages arrived after AUTH" 3 "$(count_msgs "$S3")"
status "a password inside the URL is refused (exit 2)" 2 \
  "$AMDAHL" mail --to alice@example.org --smtp "smtp://nightly:$PW@127.0.0.1:$PORT" "$REPORT"; keep
contains "says where the password belongs" "AMDAHL_SMTP_PASSWORD" "$ERR"
AMDAHL_SMTP_PASSWORD="$PW" status "dry run with a password set" 0 "$AMDAHL" mail --to alice@example.org \
  --smtp "smtp://nightly@127.0.0.1:$PORT" --dry-run "$TMP/auth.eml" "$REPORT"; keep
if grep -qF -- "$PW" "$ALL" || grep -qF -- "$B64" "$ALL"; then fail "the password is in no output"; else pass "the password is in no output"; fi
if cat "$S3"/*.eml "$TMP/auth.eml" | grep -qF -- "$PW"; then fail "the password is in no message"; else pass "the password is in no message"; fi
[ -s "$ALL" ] && pass "outputs were collected for the password check" || fail "outputs were collected"

# ---- TLS: STARTTLS (--ssl-reqd) and smtps://, with a lab CA (--cacert)
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -keyout "$TMP/key.pem" -out "$TMP/cert.pem" -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
eq "a self-signed certificate for 127.0.0.1" 0 $?
S4="$TMP/s4"
start_server "$S4" --auth-user nightly --starttls "$TMP/cert.pem" "$TMP/key.pem"
AMDAHL_SMTP_PASSWORD="$PW" status "STARTTLS with --ssl-reqd, AUTH inside TLS" 0 "$AMDAHL" mail --ssl-reqd \
  --cacert "$TMP/cert.pem" --to alice@example.org --smtp "smtp://nightly@127.0.0.1:$PORT" "$REPORT"; keep
eq "STARTTLS: delivered, logged in" "nightly" \
  "$("$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["login"])' "$S4/1.json")"
facts "$S4/1.eml" tls
eq "STARTTLS: attachment intact" "report.pdf application/pdf base64 $PDF_SHA" "$(fact tls attachments)"
AMDAHL_SMTP_PASSWORD="$PW" status "STARTTLS with an untrusted certificate exits 1" 1 "$AMDAHL" mail \
  --ssl-reqd --to alice@example.org --smtp "smtp://nightly@127.0.0.1:$PORT" "$REPORT"; keep
contains "untrusted certificate: says TLS failed" "TLS failed" "$ERR"
AMDAHL_SMTP_PASSWORD="$PW" status "a STARTTLS-only server without --ssl-reqd exits 1" 1 "$AMDAHL" mail \
  --to alice@example.org --smtp "smtp://nightly@127.0.0.1:$PORT" "$REPORT"; keep
contains "suggests --ssl-reqd" "add --ssl-reqd" "$ERR"
eq "nothing else reached the STARTTLS server" 1 "$(count_msgs "$S4")"
S5="$TMP/s5"
start_server "$S5" --smtps "$TMP/cert.pem" "$TMP/key.pem"
status "smtps:// (TLS from the first byte)" 0 "$AMDAHL" mail --cacert "$TMP/cert.pem" \
  --to alice@example.org --smtp "smtps://127.0.0.1:$PORT" "$REPORT"
eq "smtps: delivered" 1 "$(count_msgs "$S5")"
if grep -qF -- "$PW" "$ALL" || grep -qF -- "$B64" "$ALL"; then fail "the password is in no TLS output"; else pass "the password is in no TLS output"; fi

# ---- settings from amdahl.yaml and AMDAHL_SMTP_URL
export AMDAHL_TEMPLATES="$AMDAHL_ROOT/templates"
cat >"$TMP/amdahl.yaml" <<EOF
mail:
  to:
    - carol@example.org
    - dave@example.org
  from: ci@lab.example
  smtp: smtp://127.0.0.1:$FREE
EOF
AMDAHL_SMTP_URL="smtp://127.0.0.1:$(cat "$S1.port")" status "mail.to and mail.from from amdahl.yaml; AMDAHL_SMTP_URL beats mail.smtp" 0 \
  "$AMDAHL" --config "$TMP/amdahl.yaml" mail "$REPORT"
eq "the yaml recipients got it" '["carol@example.org", "dave@example.org"] ci@lab.example' \
  "$("$PY" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps(j["rcpt_tos"]), j["mail_from"])' "$S1/2.json")"
facts "$S1/2.eml" cfg
contains "default subject names the sweep" "amdahl report: $SWEEP" "$(fact cfg subject)"
status "mail.smtp is used without AMDAHL_SMTP_URL (here: down)" 1 "$AMDAHL" --config "$TMP/amdahl.yaml" mail "$REPORT"
contains "the yaml URL was tried" "127.0.0.1:$FREE" "$ERR"

# ---- the gate verdict: REPORT_DIR/gate.json or --gate FILE ('amdahl gate --json')
printf '{"rows": [], "summary": {"regressions": 1}, "result": "regression", "exit": 1}\n' >"$TMP/gate.json"
status "--gate FILE: dry run" 0 "$AMDAHL" mail --to alice@example.org --gate "$TMP/gate.json" \
  --dry-run "$TMP/gate.eml" "$REPORT"
facts "$TMP/gate.eml" gate
eq "--gate: the default subject carries the verdict" "amdahl report: $SWEEP, gate: regression" "$(fact gate subject)"
contains "--gate: the plain body carries the verdict" "Gate:  regression" "$(cat "$TMP/gate/plain.txt")"
contains "--gate: the HTML body carries the verdict" "Gate: <b>regression</b>" "$(cat "$TMP/gate/body.html")"
cp -r "$REPORT" "$TMP/report-gated" && cp "$TMP/gate.json" "$TMP/report-gated/"
status "REPORT_DIR/gate.json is read" 0 "$AMDAHL" mail --to alice@example.org --dry-run - "$TMP/report-gated"
contains "gate.json: verdict in the subject" "gate: regression" "$OUT"
contains "no gate: the body says it was not run" "Gate:  not run" "$(cat "$TMP/got/plain.txt")"
printf '{"rows": []}' >"$TMP/nogate.json"
status "--gate FILE without a verdict exits 2" 2 "$AMDAHL" mail --to alice@example.org \
  --gate "$TMP/nogate.json" --dry-run - "$REPORT"

# ---- without report.json: the findings from summary.md's Findings section
cp -r "$REPORT" "$TMP/report-md" && rm "$TMP/report-md/report.json"
status "a report without report.json: dry run" 0 "$AMDAHL" mail --to alice@example.org \
  --dry-run "$TMP/md.eml" "$TMP/report-md"
facts "$TMP/md.eml" md
contains "summary.md: named as the source" "Findings (from summary.md)" "$(cat "$TMP/md/plain.txt")"
n=0; missing=0
while IFS= read -r f; do
  n=$((n + 1))
  grep -qxF -- "- $f" "$TMP/md/plain.txt" || missing=$((missing + 1))
done <"$TMP/findings"
eq "summary.md: the same $n findings as report.json" 0 "$missing"
eq "summary.md: nothing else listed" "$n" "$(grep -c '^- ' "$TMP/md/plain.txt")"

# ---- usage errors
status "no recipient exits 2" 2 "$AMDAHL" mail --smtp "smtp://127.0.0.1:$FREE" "$REPORT"
mkdir -p "$TMP/empty"
status "a directory without a PDF exits 2" 2 "$AMDAHL" mail --to a@example.org "$TMP/empty"
contains "says the PDF is missing" "no PDF to attach" "$ERR"
status "not an address exits 2" 2 "$AMDAHL" mail --to "alice at example.org" "$REPORT"
status "--help exits 0" 0 "$AMDAHL" mail --help
contains "--help shows usage" "usage: amdahl mail" "$OUT"
