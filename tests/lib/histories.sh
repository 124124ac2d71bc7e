# histories.sh — the 24-commit histories the history tests and the README
# chart are made of, sourced by tests/e2e/history.sh, report_history.sh and
# docs/img/history-nightly.sh. history_mlruns ROOT DEST writes into the
# MLflow directory DEST, from the bundled CPU sweep's real ddp n=8 runs
# (tests/lib/mlruns_groups.py, 3 runs a commit c00..c23, tag git_commit):
# experiment 6 "nightly", every epoch time ×1.20 from c12 on (noise seed
# 1), and experiment 7 "aa", no change (noise seed 2).
history_mlruns() {
	_hm_py="$1/tests/lib/mlruns_groups.py"
	_hm_src="$1/testdata/cpu-strong-scaling/mlruns/4"
	_hm_labels=$(seq -f 'c%02g' 0 23 | paste -sd, -)
	_hm_slow=$(for i in $(seq 12 23); do printf -- "--slow c%02d=1.20 " "$i"; done)
	# shellcheck disable=SC2086 # $_hm_slow is a list of options
	/usr/bin/python3 "$_hm_py" "$_hm_src" "$2" --exp-id 6 --name nightly --runs ddp-n8 \
		--key tag.git_commit --labels "$_hm_labels" $_hm_slow --noise 1 &&
	/usr/bin/python3 "$_hm_py" "$_hm_src" "$2" --exp-id 7 --name aa --runs ddp-n8 \
		--key tag.git_commit --labels "$_hm_labels" --noise 2
}
