#!/usr/bin/python3
"""ref_readers.py KIND FILE|DIR — the reference readers bench/readers.sh times
next to `amdahl ingest` on the same file: what a user's Python would do
to read it, with the standard library only.

  json    json.load of the whole document
  lines   collapsed stacks: "stack count" lines summed per stack (Counter)
  frames  py-spy dump text: the frame lines counted
  csv     csv.reader over every row
  table   key_averages text: every line split at runs of 2+ blanks
  mllog   json.loads of every ':::MLLOG {...}' record
  xml     xml.etree.ElementTree.parse
  tfrec   TFRecord framing walked (no CRC, no protobuf decoding)
  pstats  pstats.Stats loading a cProfile dump
"""
import collections
import csv
import json
import os
import pstats
import re
import struct
import sys
import xml.etree.ElementTree as ET


def tfrec(path):
    with open(path, "rb") as f:
        while h := f.read(12):
            f.read(struct.unpack("<Q", h[:8])[0] + 4)


def lines(path):
    c = collections.Counter()
    for line in open(path):
        s, n = line.rsplit(" ", 1)
        c[s] += int(n)


READERS = {
    "json": lambda p: json.load(open(p)),
    "lines": lines,
    "frames": lambda p: sum(x.startswith("    ") for x in open(p)),
    "csv": lambda p: list(csv.reader(open(p))),
    "table": lambda p: [re.split(r"\s{2,}", x.strip()) for x in open(p)],
    "mllog": lambda p: [json.loads(x.split(":::MLLOG ", 1)[1]) for x in open(p) if ":::MLLOG " in x],
    "xml": ET.parse,
    "tfrec": tfrec,
    "pstats": pstats.Stats,
}

if __name__ == "__main__":
    # a directory (py-spy dumps: one file per dump): every file in it
    paths = sorted(os.path.join(sys.argv[2], x) for x in os.listdir(sys.argv[2])) \
        if os.path.isdir(sys.argv[2]) else [sys.argv[2]]
    for p in paths:
        READERS[sys.argv[1]](p)
