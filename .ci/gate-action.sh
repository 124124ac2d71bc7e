#!/bin/bash
# gate-action.sh — the step of action.yml: `amdahl gate` once, with every
# output the inputs ask for, its result and exit code written to
# $GITHUB_OUTPUT, and its exit code as the step's (0 pass, 1 regression,
# 2 error, 3 insufficient data under --on-insufficient=fail).
set -u
args=(--store "${GATE_STORE:-amdahl.db}" gate --baseline "$GATE_BASELINE" --candidate "$GATE_CANDIDATE"
	--on-insufficient "${GATE_ON_INSUFFICIENT:-warn}")
[ -n "${GATE_BASELINE_STORE:-}" ] && args+=(--baseline-store "$GATE_BASELINE_STORE")
[ -n "${GATE_METRIC:-}" ] && args+=(--metric "$GATE_METRIC")
[ -n "${GATE_JUNIT:-}" ] && args+=(--junit "$GATE_JUNIT")
[ -n "${GATE_MARKDOWN:-}" ] && args+=(--markdown "$GATE_MARKDOWN")
[ -n "${GATE_JSON:-}" ] && args+=(--json-file "$GATE_JSON")
[ "${GATE_STEP_SUMMARY:-false}" = true ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && args+=(--step-summary)
# shellcheck disable=SC2206 # the extra options are words, as on a command line
[ -n "${GATE_ARGS:-}" ] && args+=($GATE_ARGS)
"${AMDAHL_BIN:-amdahl}" "${args[@]}"
rc=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	result=""
	[ -n "${GATE_JSON:-}" ] && [ -f "$GATE_JSON" ] &&
		result=$(sed -n 's/^\t"result":[[:space:]]*"\([a-z_]*\)".*/\1/p' "$GATE_JSON" | head -1)
	{ echo "result=$result"; echo "exit-code=$rc"; } >>"$GITHUB_OUTPUT"
fi
exit $rc
