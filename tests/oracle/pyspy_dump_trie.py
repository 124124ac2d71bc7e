#!/usr/bin/python3
"""pyspy_dump_trie.py DUMP — reads a `py-spy dump` text file on its own
(not amdahl's parser) and prints "THREADS NODES": the number of threads
(one sample each) and the number of distinct root-first frame paths,
i.e. the nodes of the trie its stacks merge into."""
import re
import sys

threads, stacks = 0, []
for line in open(sys.argv[1]):
    if line.startswith("Thread "):
        threads += 1
        stacks.append([])
    elif re.match(r"    \S", line):
        stacks[-1].insert(0, line.strip())
print(threads, len({tuple(s[:d]) for s in stacks for d in range(1, len(s) + 1)}))
