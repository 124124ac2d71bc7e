#!/usr/bin/python3
# json_old_to_new.py — maps a JSON document written before the JSON
# contract (schema_version 1, CHANGES.md) to the shape amdahl writes now,
# by exactly the changes CHANGES.md names and no other; so the compat
# script (tests/compat/) can show that old output, mapped, equals new
# output. Usage: json_old_to_new.py [FILE] (stdin without FILE) prints the
# mapped document; or import it and call old_to_new(doc).
#
# The rules, in the order CHANGES.md lists them:
#  1. "schema_version": 1 first in the top-level object.
#  2. Intervals: {"valid": true, "lo", "hi"} -> {"lo", "hi", "level"} and
#     KEY_why null; {"valid": false, "why"} -> null and KEY_why (stats,
#     memory); a comparison row's {"lo", "hi"} -> {"lo", "hi", "level"},
#     "ci_note" -> "ci_why"; history's [lo, hi] -> {"lo", "hi", "level"};
#     diff's flat "lo"/"hi" -> "ci"; scaling's "c0_lo"/"c0_hi" -> "c0_ci",
#     a term's "lo"/"hi" -> "coef_ci", {"value", "lo", "hi"} -> {"value",
#     "ci"}. The level is the document's (stats: options.level; compare,
#     gate, scaling: "level"), else 0.95 (diff, history, report.json's gate).
#  3. A key once left out when it had no value is there with null.
#  4. "p_adjusted" -> "p_holm".
#  5. Verdicts: "insufficient data", "insufficient", "INSUFFICIENT DATA" ->
#     "insufficient_data"; "no change" -> "no_change"; "PASS" -> "pass";
#     "FAIL" -> "regression"; an ungated row's "worse"/"better" ->
#     "regression"/"improvement"; a row on one side only, "missing" ->
#     "insufficient_data".
import json
import sys

LEVEL = 0.95
VERDICT = {"insufficient data": "insufficient_data", "no change": "no_change",
           "worse": "regression", "better": "improvement", "missing": "insufficient_data"}
RESULT = {"PASS": "pass", "FAIL": "regression", "INSUFFICIENT DATA": "insufficient_data",
          "insufficient": "insufficient_data"}
STATS_CI = ("ci", "mean_ci_t", "speedup_ci", "efficiency_ci", "serial_fraction_ci")


def interval(lo, hi, level):
    if lo is None or hi is None:
        return None
    return {"lo": lo, "hi": hi, "level": level}


def put(o, key, value):
    """o with key set (new keys go last, as the writers add them)."""
    o[key] = value


def stats_ci(o, key, level):
    c = o.get(key)
    if isinstance(c, dict) and "valid" in c:
        if c["valid"]:
            o[key] = interval(c.get("lo"), c.get("hi"), level)
            put(o, key + "_why", None)
        else:
            o[key] = None
            put(o, key + "_why", c.get("why"))


def fix_fit(o, kind, level):
    keys = ("a", "b", "serial_fraction", "serial_fraction_ci", "r2") if kind == "amdahl" \
        else ("alpha", "beta", "gamma", "n_peak")
    if not o.get("ok"):
        for k in keys:
            o.setdefault(k, None)
        if kind == "amdahl":
            o["serial_fraction_ci_why"] = "no fit"
    else:
        o.setdefault("why", None)
    if kind == "amdahl" and o.get("ok"):
        stats_ci(o, "serial_fraction_ci", level)


def sweep_stats(s, level=None):
    level = s.get("options", {}).get("level", LEVEL) if level is None else level
    s.setdefault("note", None)
    for st in s.get("strategies", []):
        for p in st.get("points", []):
            for k in STATS_CI:
                stats_ci(p, k, level)
        for kind in ("amdahl", "usl"):
            if isinstance(st.get(kind), dict):
                fix_fit(st[kind], kind, level)
    m = s.get("memory")
    if isinstance(m, dict):
        for p in m.get("points", []):
            for k in ("peak_allocated", "peak_reserved"):
                if isinstance(p.get(k), dict):
                    stats_ci(p[k], "ci", level)
        m.setdefault("timeline", None)


def compare_row(r, level):
    if "p_adjusted" in r:
        r["p_holm"] = r.pop("p_adjusted")
    ci = r.get("ci")
    note = r.pop("ci_note", None)
    r["ci"] = interval(ci.get("lo"), ci.get("hi"), level) if isinstance(ci, dict) else None
    r["ci_why"] = note if r["ci"] is None else None
    for k in ("u", "p", "method", "ties", "runs_needed_per_side", "note", "detectable_note",
              "likely"):
        r.setdefault(k, None)
    r["verdict"] = VERDICT.get(r.get("verdict"), r.get("verdict"))


def comparison(c, level=None):
    level = c.get("level", LEVEL) if level is None else level
    for side in ("baseline", "candidate"):
        if isinstance(c.get(side), dict):
            c[side].setdefault("strategy", None)
            c[side].setdefault("store", None)
    for r in c.get("rows", []):
        compare_row(r, level)
    if "result" in c:
        c["result"] = RESULT.get(c["result"], c["result"])


def history(h):
    for g in h.get("groups", []):
        g.setdefault("order", None)
        ci = g.get("ci")
        g["ci"] = interval(ci[0], ci[1], LEVEL) if isinstance(ci, list) else None
    for c in h.get("change_points", []):
        ci = c.get("ci")
        c["ci"] = interval(ci[0], ci[1], LEVEL) if isinstance(ci, list) else None


def value_ci(o, level):
    """{"value", "lo", "hi"} (scaling) -> {"value", "ci"}."""
    lo, hi = o.pop("lo", None), o.pop("hi", None)
    o["ci"] = interval(lo, hi, level)


def scaling_region(r, level):
    lo, hi = r.pop("c0_lo", None), r.pop("c0_hi", None)
    r["c0_ci"] = interval(lo, hi, level)
    for t in r.get("terms", []):
        lo, hi = t.pop("lo", None), t.pop("hi", None)
        t["coef_ci"] = interval(lo, hi, level)
    for k in ("share", "predictions"):
        for p in r.get(k, []):
            value_ci(p, level)


def scaling(s):
    level = s.get("level", LEVEL)
    for r in s.get("regions", []):
        scaling_region(r, level)
    for st in s.get("strategies", []):
        for r in st.get("step", []):
            scaling_region(r, level)
        for w in st.get("whole", []):
            for k in ("step_s", "epoch_s", "efficiency"):
                if isinstance(w.get(k), dict):
                    value_ci(w[k], level)


def diff(d):
    for r in d.get("regions", []):
        lo, hi = r.pop("lo", None), r.pop("hi", None)
        r["ci"] = interval(lo, hi, LEVEL)


def runs(d):
    for r in d.get("runs", []):
        for k in ("name", "grouped_by", "entry_point", "source", "strategy", "n", "nodes",
                  "left_out", "start_ms", "end_ms"):
            r.setdefault(k, None)
    for r in d.get("sources", []):
        r.setdefault("name", None)


def ingest(d):
    for u in d.get("units", []):
        for k in ("error", "nothing_to_add", "linked_to_run", "refused"):
            u.setdefault(k, None)
        u.setdefault("warnings", [])  # issue 36: a successful parse's warnings


def pyspy(d):
    if "functions" in d:
        d.setdefault("library", None)
        for f in d["functions"]:
            f.setdefault("process", None)
            f.setdefault("thread", None)
            if isinstance(f.get("library_frame"), dict):
                f["library_frame"].setdefault("file", None)
    for n in d.get("nodes", []):
        n.setdefault("file", None)


def report_json(d):
    sweep_stats(d)
    gate = d.get("gate")
    if isinstance(gate, dict):
        comparison(gate, d.get("options", {}).get("level", LEVEL))
        gate.setdefault("png", None)
        gate.setdefault("svg", None)
    d.setdefault("gate", None)
    h = d.get("history")
    if isinstance(h, dict):
        history(h)
    d.setdefault("history", None)
    for s in d.get("sources", []):
        for k in ("path", "kind", "sha256"):
            s.setdefault(k, None)


def kind(d):
    """Which output d is, from its keys."""
    if "sweeps" in d:
        return "stats"
    if "generated" in d and "findings" in d:
        return "report.json"
    if "comparisons" in d:
        return "compare --by"
    if "rows" in d and isinstance(d.get("rows"), list) and "summary" in d:
        return "compare"
    if "change_points" in d:
        return "history"
    if "criterion" in d and "strategies" in d:
        return "scaling"
    if "runs_a" in d:
        return "diff"
    if "units" in d:
        return "ingest"
    if "functions" in d or "nodes" in d:
        return "pyspy"
    if "runs" in d and isinstance(d["runs"], list) or "sources" in d:
        return "runs"
    if "result" in d and "history_median" in d:
        return "gate --history"
    if "pages" in d and "dir" in d:
        return "report build"
    return "other"


def old_to_new(doc):
    """The pre-contract document doc in the new shape (a new object)."""
    d = json.loads(json.dumps(doc))
    k = kind(d)
    if k == "stats":
        for s in d["sweeps"]:
            sweep_stats(s)
            s.setdefault("by", None)
            s.setdefault("group", None)
    elif k == "report.json":
        report_json(d)
    elif k == "compare --by":
        for c in d["comparisons"]:
            comparison(c)
    elif k == "compare":
        comparison(d)
    elif k == "history":
        history(d)
    elif k == "scaling":
        scaling(d)
    elif k == "diff":
        diff(d)
    elif k == "ingest":
        ingest(d)
    elif k == "pyspy":
        pyspy(d)
    elif k == "runs":
        runs(d)
    elif k == "gate --history":
        d["result"] = RESULT.get(d["result"], d["result"])
    elif k == "report build":
        if "gate" in d:
            d["gate"] = RESULT.get(d["gate"], d["gate"])
        d.setdefault("gate", None)
    if isinstance(d, dict):
        d = {"schema_version": 1, **d}
    return d


def main(argv):
    src = open(argv[1], encoding="utf-8") if len(argv) > 1 else sys.stdin
    json.dump(old_to_new(json.load(src)), sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
