# doc_flags.sh — what the user reads names only what the binary takes.
# Every command line the README, docs/*.md, the manual pages and the
# action show (`amdahl [--store X] CMD ... --flag`, or `CMD --flag` in
# backticks) uses flags that `amdahl CMD --help` lists; the action's step
# (.ci/gate-action.sh) passes only flags `gate --help` lists; and every
# workflow the README and docs/ci.md show uses the action with inputs
# action.yml declares (its required ones given, `args` flags of gate),
# and fetches a store made by another workflow's run with that run's id
# and a token (download-artifact@v4 finds nothing otherwise). A flag
# renamed in the binary but not in the docs fails here, not in a user's
# CI. tests/e2e/readme.sh runs the README's own blocks; tests/check-links.sh
# is about link-time cycles between folders, not links in the docs.
test_description='docs and action.yml: every flag they name is one the command takes'
. "$(dirname "$0")/../test-lib.sh"
test_require SQLITE_TIER "reads the docs and --help; reaches no store"

# help_flags DIR — one file per command, DIR/CMD: the --flags its --help names
help_flags() {
	mkdir -p "$1" &&
	for c in $("$AMDAHL" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'); do
		"$AMDAHL" "$c" --help | grep -oE -- "--[a-z][a-z0-9-]*" | sort -u >"$1/$c" || return 1
	done
}

test_expect_success 'setup: the flags of every command, from its --help' '
	help_flags "$TMP/flags" &&
	test_true "19 or more commands" test "$(ls "$TMP/flags" | wc -l)" -ge 19 &&
	test_true "gate lists --on-insufficient" grep -qx -- --on-insufficient "$TMP/flags/gate"
'
test_expect_success PYTHON 'every CMD --flag in the README, docs/*.md, the manual pages and action.yml is in CMD --help' '
	(cd "$AMDAHL_ROOT" && "$PY" - "$TMP/flags" README.md action.yml docs/*.md docs/amdahl.1 docs/man/amdahl.yaml.5) \
		>"$TMP/bad" <<-'\''PYEOF'\''
	import os, re, sys
	flagdir, files = sys.argv[1], sys.argv[2:]
	cmds = {c: set(open(os.path.join(flagdir, c)).read().split()) for c in os.listdir(flagdir)}
	top = {"--store", "--config", "--version", "--help"}
	use = re.compile(r"(?:\bamdahl(?:\s+--(?:store|config)[ =]\S+)*\s+|`)(%s)\b([^`|;&)]*)"
	                 % "|".join(sorted(cmds, key=len, reverse=True)))
	n = 0
	for f in files:
	    for ln, line in enumerate(open(f, encoding="utf-8"), 1):
	        for m in use.finditer(line):
	            n += 1
	            for fl in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", m.group(2)):
	                if fl not in cmds[m.group(1)] | top:
	                    print(f"{f}:{ln}: {m.group(1)} {fl} is not in amdahl {m.group(1)} --help")
	print(f"{n} uses", file=sys.stderr)
	PYEOF
	test_eq "" "$(cat "$TMP/bad")"
'
test_expect_success 'the action'\''s step passes only flags gate --help lists' '
	for fl in $(grep -oE -- "(^|[ (\"])--[a-z][a-z0-9-]*" "$AMDAHL_ROOT/.ci/gate-action.sh" | grep -oE -- "--[a-z0-9-]*" | sort -u); do
		case "$fl" in --store) continue ;; esac
		test_true "gate-action.sh: $fl is a gate flag" grep -qx -- "$fl" "$TMP/flags/gate"
	done
	test_true "the step runs gate" grep -q " gate --baseline" "$AMDAHL_ROOT/.ci/gate-action.sh"
'
# The workflows: docs/ci.md's ```yaml blocks (a whole workflow, then the
# nightly job's steps) and the README's step (a ```text block that begins
# "- uses: amdahl/amdahl@").
test_expect_success PYTHON 'every workflow shown uses the action'\''s real inputs and fetches the nightly store right' '
	(cd "$AMDAHL_ROOT" && "$PY" - "$TMP/flags/gate" >"$TMP/wf" <<-'\''PYEOF'\''
	import re, sys, yaml
	gate = set(open(sys.argv[1]).read().split())
	act = yaml.safe_load(open("action.yml"))
	inputs = act["inputs"]
	required = {k for k, v in inputs.items() if v.get("required")}
	blocks = re.findall(r"```yaml\n(.*?)```", open("docs/ci.md").read(), re.S)
	blocks += [b for b in re.findall(r"```text\n(.*?)```", open("README.md").read(), re.S)
	           if b.startswith("- uses: amdahl/amdahl@")]
	used = 0
	for b in blocks:
	    doc = yaml.safe_load(b)
	    wf = isinstance(doc, dict)
	    steps = [s for j in doc["jobs"].values() for s in j["steps"]] if wf else doc
	    made = {str(s.get("with", {}).get("name")) for s in steps
	            if str(s.get("uses", "")).startswith("actions/upload-artifact@")}
	    for s in steps:
	        uses, w = str(s.get("uses", "")), s.get("with", {}) or {}
	        if uses.startswith("amdahl/amdahl@"):
	            used += 1
	            for k in w:
	                if k not in inputs:
	                    print(f"{uses}: input {k} is not in action.yml")
	            for k in required - set(w):
	                print(f"{uses}: required input {k} not given")
	            for fl in re.findall(r"--[a-z][a-z0-9-]*", str(w.get("args", ""))):
	                if fl not in gate:
	                    print(f"{uses}: args {fl} is not a gate flag")
	        if wf and uses.startswith("actions/download-artifact@") and str(w.get("name")) not in made:
	            for k in ("run-id", "github-token"):
	                if k not in w:
	                    print(uses, w.get("name"), ": made by another run, but no", k)
	            if "actions: read" not in b:
	                print(f"{uses}: an artifact of another run needs permissions actions: read")
	print(f"{used} uses of the action")
	PYEOF
	) &&
	test_eq "2 uses of the action" "$(cat "$TMP/wf")"
'

test_done
