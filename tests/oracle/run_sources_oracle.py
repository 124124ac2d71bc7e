#!/usr/bin/python3
"""run_sources_oracle.py STORE SWEEP (pdf TEXT | json FILE) — checks a
sweep's sources per run, independently of amdahl's SQL:

  - the expected rows come from the store file with Python's sqlite3 and
    a query of this script's own (each run's MLflow run directory, run.source_id,
    and its traces' files, trace.run_id), every trace file's stored
    sha256 re-hashed from the file itself with hashlib;
  - pdf TEXT (pdftotext -layout of the report): Appendix C has one row per
    run, its n, repeat, number of files, total bytes, kinds and the
    SHA-256 over its files' SHA-256 hex digests in path order, each
    followed by a newline;
  - json FILE (`amdahl runs --sources --sweep SWEEP --json`): the same
    (run, path, kind, bytes, sha256) rows, runs in (n, repeat) order and
    paths sorted within a run.

Prints "checked N runs, M files" or the first difference (exit 1)."""
import hashlib
import json
import re
import sqlite3
import sys


def expected(store, sweep):
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    runs = db.execute(
        "SELECT r.id, r.ext_id, r.n, r.repeat, r.source_id FROM run r JOIN sweep w"
        " ON w.id = r.sweep_id WHERE w.name = ? ORDER BY r.n, r.repeat, r.ext_id",
        (sweep,)).fetchall()
    out = []
    for rid, ext, n, rep, src in runs:
        ids = {src} if src is not None else set()
        ids |= {t for (t,) in db.execute("SELECT source_id FROM trace WHERE run_id = ?", (rid,))}
        files = []
        for sid in ids:
            path, kind, size, sha = db.execute(
                "SELECT path, kind, size, sha256 FROM source WHERE id = ?", (sid,)).fetchone()
            if kind == "torch-trace":
                with open(path, "rb") as f:
                    data = f.read()
                if hashlib.sha256(data).hexdigest() != sha or len(data) != size:
                    sys.exit(f"{path}: stored sha256/size differ from the file's")
            files.append((path, kind, size, sha))
        files.sort()
        out.append((ext, n, rep, files))
    return out


def digest(files):
    return hashlib.sha256("".join(f[3] + "\n" for f in files).encode()).hexdigest()


def check_pdf(runs, text):
    row = re.compile(r"^\s*(\S+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(.+?)\s+([0-9a-f]{64})\s*$")
    got = [m.groups() for m in map(row.match, text.split("\n")) if m]
    if len(got) != len(runs):
        sys.exit(f"appendix: {len(got)} run rows, expected {len(runs)}")
    for (ext, n, rep, files), g in zip(runs, got):
        want = (str(n), str(rep), str(len(files)), str(sum(f[2] for f in files)),
                ", ".join(sorted({f[1] for f in files})), digest(files))
        if g[1:] != want:
            sys.exit(f"run {ext}: appendix row {g[1:]}, expected {want}")


def check_json(runs, doc):
    want = [[ext, p, k, s, h] for ext, _, _, files in runs for p, k, s, h in files]
    got = [[r["run"], r["path"], r["kind"], r["bytes"], r["sha256"]] for r in doc["sources"]]
    if got != want:
        bad = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        sys.exit(f"runs --sources: {len(got)} rows, expected {len(want)}; first difference at"
                 f" {bad}: {got[bad] if bad < len(got) else None} vs {want[bad] if bad < len(want) else None}")


def main():
    store, sweep, what, path = sys.argv[1:5]
    runs = expected(store, sweep)
    if what == "pdf":
        check_pdf(runs, open(path).read())
    else:
        check_json(runs, json.load(open(path)))
    print(f"checked {len(runs)} runs, {sum(len(r[3]) for r in runs)} files")


main()
