#!/usr/bin/python3
"""bounded_run.py ASAN ERRFILE CMD... — runs CMD with a 120 s timeout and,
unless ASAN is 1 (ASan cannot run under it), 1 GiB of address space;
CMD's stderr goes to ERRFILE. Prints "EXIT PEAK_RSS_MB SECONDS" (EXIT is
"timeout" when it ran out of time)."""
import resource
import subprocess
import sys
import time

asan, errpath, cmd = sys.argv[1] == "1", sys.argv[2], sys.argv[3:]


def limit():
    if not asan:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


t = time.time()
with open(errpath, "wb") as err:
    try:
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=err,
                            preexec_fn=limit, timeout=120).returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024,
      round(time.time() - t, 1))
