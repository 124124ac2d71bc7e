#!/usr/bin/python3
"""rusage.py OUT CMD... -- runs CMD as /usr/bin/time does and writes to
OUT "cpu_s wall_s max_rss_kb": the user + system seconds of CMD and the
children it waited for (wait4's rusage) to the microsecond, where
/usr/bin/time prints hundredths (on a 0.13 s row a hundredth is 8%, and
bench/readers.sh's doubling ratio of two such rows moved 2.06-2.27 for
one binary). Exits with CMD's status."""
import os
import sys
import time

def main():
    if len(sys.argv) < 3:
        sys.exit("usage: rusage.py OUT CMD...")
    out, cmd = sys.argv[1], sys.argv[2:]
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t0
    with open(out, "w") as f:
        f.write(f"{ru.ru_utime + ru.ru_stime:.6f} {wall:.6f} {ru.ru_maxrss}\n")
    sys.exit(os.waitstatus_to_exitcode(status))

main()
