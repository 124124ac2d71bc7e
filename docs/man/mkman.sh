#!/bin/bash
# mkman.sh — one manual page per command, amdahl-CMD(1), made from the
# binary itself: the command table (`amdahl --help`) names the commands
# and their one-line summaries, and each command's own --help is the
# page's body, so a page cannot drift from the code. Also copies
# amdahl.yaml(5). `make man` runs it into build/man/; tests/e2e/install.sh
# checks that every command of the table has its page.
# Usage: docs/man/mkman.sh AMDAHL VERSION OUTDIR
set -eu
amdahl=$1 version=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# roff-safe text: backslashes doubled, a line starting with . or ' escaped
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
"$amdahl" --help | sed -n '/^commands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) \+\(.*\)$/\1\t\2/p' |
while IFS=$'\t' read -r name summary; do
	page="$out/amdahl-$name.1"
	{
		printf '.TH "AMDAHL\\-%s" 1 "" "amdahl %s" "amdahl Manual"\n' "$(echo "$name" | tr a-z A-Z)" "$version"
		printf '.SH NAME\namdahl\\-%s \\- %s\n' "$name" "$(printf '%s' "$summary" | roff)"
		printf '.SH SYNOPSIS AND OPTIONS\n.nf\n'
		"$amdahl" "$name" --help 2>&1 | roff
		if [ "$name" = report ]; then
			printf '\n'
			"$amdahl" report build --help 2>&1 | roff
		fi
		printf '.fi\n.SH EXIT STATUS\n'
		printf '0 success; 1 a finding (a regression, a failed delivery); 2 a usage or input error;\n'
		printf '3 not enough data to decide (gate).\n'
		printf '.SH SEE ALSO\n.BR amdahl (1),\n.BR amdahl.yaml (5)\n'
	} >"$page.tmp"
	mv "$page.tmp" "$page"
done
cp "$here/amdahl.yaml.5" "$out/amdahl.yaml.5"
