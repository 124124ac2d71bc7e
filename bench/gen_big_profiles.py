#!/usr/bin/python3
"""gen_big_profiles.py KIND SRC DST MB — a larger profile made from a real one:

  cprofile: the dump's statistics repeated under renamed files
            (file.py -> file.py#copyN, so every function and caller stays
            distinct) until the marshal dump reaches MB megabytes;
  nsys:     the export copied and its kernel, memcpy, memset, CUDA API and
            NVTX rows repeated with timestamps shifted past the previous
            copy, until the file reaches MB megabytes.
"""
import marshal, os, pstats, shutil, sqlite3, sys


def cprofile(src, dst, mb):
    stats = pstats.Stats(src).stats
    out, copy = {}, 0
    # One renamed key (so one file and one name string object) per
    # function and copy, used for its entry and wherever it is a caller,
    # as cProfile's dumps share them (marshal references: every caller key
    # of the public Python 3 samples names its strings by reference);
    # fresh strings at each use made the caller look-ups compare texts.
    def ren(k, c, seen={}):
        if (k, c) not in seen:
            seen[k, c] = (f"{k[0]}#copy{c}" if k[:2] != ("~", 0) else k[0], k[1],
                          k[2] if k[:2] != ("~", 0) else f"{k[2]}#copy{c}")
        return seen[k, c]
    while True:
        for k, (cc, nc, tt, ct, callers) in stats.items():
            out[ren(k, copy)] = (cc, nc, tt, ct, {ren(c, copy): v for c, v in callers.items()})
        copy += 1
        if len(marshal.dumps(out)) >= mb * 1e6:
            break
    with open(dst, "wb") as f:
        marshal.dump(out, f)


def nsys(src, dst, mb):
    shutil.copy(src, dst)
    db = sqlite3.connect(dst)
    tables = [t for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                          "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_RUNTIME",
                          "NVTX_EVENTS")
              if db.execute("SELECT 1 FROM sqlite_master WHERE name=?", (t,)).fetchone()]
    lo, hi = db.execute("SELECT min(start), max(\"end\") FROM (" + " UNION ALL ".join(
        f'SELECT start, "end" FROM {t}' for t in tables) + ")").fetchone()
    span = hi - lo + 1
    for t in tables:  # one copy of the original rows, to repeat
        db.execute(f"CREATE TEMP TABLE orig_{t} AS SELECT * FROM {t}")
    k = 1
    while os.path.getsize(dst) < mb * 1e6:
        for t in tables:
            cols = [r[1] for r in db.execute(f"PRAGMA table_info('{t}')")]
            sel = ", ".join(f"{c} + {k * span}" if c in ("start", "end") else f'"{c}"'
                            for c in cols).replace("end +", '"end" +')
            db.execute(f'INSERT INTO {t} ({", ".join(chr(34) + c + chr(34) for c in cols)})'
                       f" SELECT {sel} FROM temp.orig_{t}")
        db.commit()
        k += 1
    db.close()


if __name__ == "__main__":
    kind, src, dst, mb = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
    {"cprofile": cprofile, "nsys": nsys}[kind](src, dst, mb)
