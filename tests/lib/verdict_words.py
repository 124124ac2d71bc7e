"""verdict_words.py — a comparison row's verdict as the tables print it
(CSV, benchstat, the terminal, the PDF; lib/compare/compare.c
amd_row_verdict), from its JSON row (the one verdict vocabulary of
schema_version 1): an ungated regression or improvement is "worse" or
"better", a row with one side only "missing", the rest their words with
spaces ("no change", "insufficient data")."""


def shown(r):
    v = r["verdict"]
    if not r["gated"] and v in ("regression", "improvement"):
        return "worse" if v == "regression" else "better"
    if v == "insufficient_data" and not (r["baseline"]["runs"] and r["candidate"]["runs"]):
        return "missing"
    return v.replace("_", " ")
