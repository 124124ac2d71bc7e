#!/usr/bin/python3
"""hostile_names.py SRC OUT NAMES.json — a copy of the MLflow file store
SRC (the bundled cpu-strong-scaling mlruns) at OUT whose experiment 4 is
named NAMES["sweep"] (a YAML double-quoted scalar, every non-ASCII
character escaped), whose strategies ddp and fsdp are NAMES["ddp"] and
NAMES["fsdp"], whose runs' names start with NAMES["run"], and each run
with a param NAMES["pkey"]=NAMES["pval"]. For tests/e2e/hostile_names.sh."""
import json, os, shutil, sys

src, out = sys.argv[1], sys.argv[2]
names = json.load(open(sys.argv[3]))


def yaml_quoted(text):
    r = '"'
    for c in text:
        o = ord(c)
        if c in '"\\':
            r += "\\" + c
        elif o > 0xFFFF:
            r += "\\U%08X" % o
        elif o > 126 or o < 32:
            r += "\\u%04X" % o
        else:
            r += c
    return r + '"'


def put(path, text):
    open(path, "wb").write(text.encode("utf-8", "surrogateescape"))


shutil.rmtree(out, ignore_errors=True)
shutil.copytree(src, out)
exp = os.path.join(out, "4")
meta = os.path.join(exp, "meta.yaml")
put(meta, open(meta).read().replace("name: cpu-strong-scaling", "name: " + yaml_quoted(names["sweep"])))
for rid in sorted(os.listdir(exp)):
    d = os.path.join(exp, rid)
    if not os.path.isdir(d):
        continue
    p = os.path.join(d, "params", "strategy")
    put(p, names[open(p).read()])
    put(os.path.join(d, "params", names["pkey"]), names["pval"])
    m = os.path.join(d, "meta.yaml")
    lines = open(m).read().split("\n")
    lines = [("run_name: " + yaml_quoted(names["run"] + l[len("run_name: "):]) if l.startswith("run_name: ") else l)
             for l in lines]
    put(m, "\n".join(lines))
