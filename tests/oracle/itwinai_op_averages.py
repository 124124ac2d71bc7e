#!/usr/bin/python3
"""itwinai_op_averages.py DIR — every torch_profiling_averages.csv under DIR
read with Python's csv module. Prints:
  FILES ROWS NAMES_WITH_COMMAS
  SUM_SELF_CUDA SUM_CUDA_TOTAL SUM_CALLS          (3 decimals)
  RUN|ROWS|SUM_CUDA_TOTAL|RANKS                   one line per run, by run id
where RUN is the run directory whose artifacts hold the file."""
import csv
import glob
import sys

fs = sorted(glob.glob(sys.argv[1] + "/**/torch_profiling_averages.csv", recursive=True))
rows = [(f.split("/")[-4], r) for f in fs for r in csv.DictReader(open(f))]
print(len(fs), len(rows), sum(1 for _, r in rows if "," in r["name"]))
print("%.3f %.3f %d" % (sum(float(r["self_cuda_time_total"]) for _, r in rows),
                        sum(float(r["cuda_time_total"]) for _, r in rows),
                        sum(int(r["calls"]) for _, r in rows)))
for run in sorted({k for k, _ in rows}):
    rs = [r for k, r in rows if k == run]
    print("%s|%d|%.3f|%s" % (run, len(rs), sum(float(r["cuda_time_total"]) for r in rs),
                             ",".join(sorted({r["global_rank"] for r in rs}))))
