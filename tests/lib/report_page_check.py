#!/usr/bin/python3
"""report_page_check.py — checks what tests/browser/report_page.mjs saw in
report.html (PAGE.json) against the report's own numbers (report.json).
Prints "ok" or one line per disagreement.

Usage: report_page_check.py CHECK PAGE.json REPORT.json [ARG]
Checks:
  offline     every request is file:// and for report.html itself, none failed
  console     no console error and no uncaught exception
  charts      every chart report.json lists is on the page with <text>
              elements (its title among them) and targets
  tooltips    every target hovered and under the mouse showed a tooltip saying its own
              value and interval (six significant digits); in each chart
              some target hovered is under the mouse
  points CHART  each target of CHART (epoch_time, speedup) holds the
              report.json value, interval and runs (names, ids) of its
              strategy and n, and its tooltip says them
  comparison  each target of the comparison chart holds a gated row's
              ratio and interval, and every charted row has one
  toggle      a legend click hides its series (and its targets), a second
              shows it again
  sort        each table column sorts both ways (numbers as numbers)
  runs_sorted the runs table sorted by run is report.json's run names sorted
  filter WORD the runs table filtered by WORD keeps the runs whose row says it
  nojs        with JavaScript off every chart and table is there, whole
"""
import json
import math
import re
import sys


def sig(v):
    """A value as the page shows it: six significant digits, as JS prints it."""
    if v is None or not math.isfinite(v):
        return "–"
    s = "%.6g" % v
    f = float(s)
    return repr(int(f)) if f == int(f) and abs(f) < 1e21 else repr(f)


def num(s):
    return float(s) if s not in ("", None) else None


def tip_lines(v, lo, hi):
    lines = ["value " + sig(v)]
    if lo is not None and hi is not None:
        lines.append("interval %s – %s" % (sig(lo), sig(hi)))
    return lines


def check_offline(page, rep, arg):
    bad = [u for u in page["requests"] if not (u.startswith("file://") and u.endswith("/report.html"))]
    return ["request %s" % u for u in bad] + ["failed %s" % u for u in page["failed"]]


def check_console(page, rep, arg):
    return ["console: %s" % e for e in page["errors"]]


def check_charts(page, rep, arg):
    out = []
    names = [c["name"] for c in rep["charts"]]
    if rep.get("gate") and rep["gate"].get("svg"):
        names.append("comparison")
    for n in names:
        c = page["charts"].get(n)
        if c is None:
            out.append("%s: not on the page" % n)
            continue
        if len(c["texts"]) < 3:
            out.append("%s: %d <text> elements" % (n, len(c["texts"])))
        if c["title"] not in c["texts"]:
            out.append("%s: title %r not a <text>" % (n, c["title"]))
        if not c["hits"]:
            out.append("%s: no targets" % n)
    return out


def check_tooltips(page, rep, arg):
    out = []
    for n, c in page["charts"].items():
        hovered = [h for h in c["hits"] if h["seen"] is not None]
        if hovered and not any(h["seen"]["under"] for h in hovered):
            out.append("%s: no hovered target is the element under the mouse" % n)
        for h in c["hits"]:
            if h["seen"] is None:
                continue  # not hovered (a sample)
            under = h["seen"]["under"]
            if under is None:
                continue
            tip = h["seen"]["tip"]
            if tip is None:
                out.append("%s: no tooltip over %s" % (n, under))
                continue
            want = tip_lines(num(under["v"]), num(under["lo"]), num(under["hi"]))
            got = tip.split("\n")
            if any(w not in got for w in want) or (under.get("name") and under["name"] not in got):
                out.append("%s: tooltip %r for %s" % (n, tip, under))
    return out


POINT_FIELDS = {"epoch_time": ("median", "ci"), "speedup": ("speedup", "speedup_ci")}


def check_points(page, rep, chart):
    field, ci = POINT_FIELDS[chart]
    pts = {(s["strategy"], float(p["n"])): p for s in rep["strategies"] for p in s["points"]}
    out, seen = [], set()
    for h in page["charts"][chart]["hits"]:
        a = h["attrs"]
        p = pts.get((a["name"], float(a["x"])))
        if p is None:
            out.append("%s: no point %s n=%s in report.json" % (chart, a["name"], a["x"]))
            continue
        seen.add((a["name"], float(a["x"])))
        lo, hi = (p[ci]["lo"], p[ci]["hi"]) if p[ci] else (None, None)
        if not same((num(a["v"]), num(a["lo"]), num(a["hi"])), (p[field], lo, hi)):
            out.append("%s: %s n=%s holds %s [%s, %s], report.json %s [%s, %s]" %
                       (chart, a["name"], a["x"], a["v"], a["lo"], a["hi"], p[field], lo, hi))
        runs = "runs: " + ", ".join("%s (%s)" % (r["name"] or "", (r["id"] or "")[:8]) for r in p["run_values"])
        if a.get("info") != runs:
            out.append("%s: %s n=%s says %r, report.json %r" % (chart, a["name"], a["x"], a.get("info"), runs))
        if h["seen"]["under"] == a and h["seen"]["tip"] is not None and runs not in h["seen"]["tip"].split("\n"):
            out.append("%s: tooltip %r without %r" % (chart, h["seen"]["tip"], runs))
        if h["seen"]["under"] == a and h["seen"]["tip"] is not None:
            if "value " + sig(p[field]) not in h["seen"]["tip"].split("\n"):
                out.append("%s: tooltip %r, report.json %s" % (chart, h["seen"]["tip"], p[field]))
    missing = [k for k, p in pts.items() if p[field] is not None and k not in seen]
    return out + ["%s: no target for %s n=%g" % (chart, k[0], k[1]) for k in missing]


def same(a, b):
    """Equal tuples of numbers (None where there is none), to 1e-12 relative."""
    return all((x is None) == (y is None) and (x is None or math.isclose(x, y, rel_tol=1e-12))
               for x, y in zip(a, b))


def check_comparison(page, rep, arg):
    rows = [r for r in rep["gate"]["rows"] if r["gated"] and r["ratio"] is not None]
    want = {(r["ratio"], r["ci"]["lo"] if r["ci"] else None, r["ci"]["hi"] if r["ci"] else None) for r in rows}
    got = {(num(h["attrs"]["v"]), num(h["attrs"]["lo"]), num(h["attrs"]["hi"]))
           for h in page["charts"]["comparison"]["hits"]}
    out = ["comparison: target %s is no gated row" % (g,) for g in got if not any(same(g, w) for w in want)]
    out += ["comparison: gated row %s has no target" % (w,) for w in want if not any(same(g, w) for g in got)]
    shown = [h for h in page["charts"]["comparison"]["hits"] if h["seen"] and h["seen"]["under"] == h["attrs"]]
    if not shown:
        out.append("comparison: no target reached by the mouse")
    return out


def check_toggle(page, rep, arg):
    out = []
    if not page["toggle"]:
        out.append("no chart has a legend to click")
    for n, t in page["toggle"].items():
        if t["before"]["display"] == "none" or t["before"]["visible_hits"] != t["before"]["hits"]:
            out.append("%s: series %s hidden before the click" % (n, t["series"]))
        if t["after"]["display"] != "none" or t["after"]["visible_hits"] != 0:
            out.append("%s: series %s still shown after the click: %s" % (n, t["series"], t["after"]))
        if t["again"] != t["before"]:
            out.append("%s: series %s not back after a second click" % (n, t["series"]))
    return out


def key(s):
    """A cell's number as the page sorts it: its leading number, if any."""
    s = s.strip().replace("×", "").replace("%", "").replace(",", "")
    m = re.match(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", s)
    return float(m.group(0)) if m else None


def check_sort(page, rep, arg):
    out = []
    for t, cols in page["sort"].items():
        for head, c in cols.items():
            for order, cells in (("asc", c["asc"]), ("desc", c["desc"])):
                nums = [key(x) for x in cells]
                vals = [v for v in nums if v is not None]
                if vals and any(v is None for v in nums[:len(vals)]):
                    out.append("%s/%s %s: a cell without a number before the numbers" % (t, head, order))
                if vals:
                    ok = vals == sorted(vals, reverse=order == "desc")
                else:
                    ok = cells == sorted(cells, reverse=order == "desc") or len(set(cells)) <= 1 or \
                        [x.lower() for x in cells] == sorted((x.lower() for x in cells), reverse=order == "desc")
                if not ok:
                    out.append("%s/%s %s: %s" % (t, head, order, cells[:8]))
    return out


def runs(rep):
    return [r for s in rep["strategies"] for p in s["points"] for r in p["run_values"]]


def check_runs_sorted(page, rep, arg):
    col = page["sort"]["table-runs"]["run"]
    want = sorted(r["name"] or r["id"] for r in runs(rep))
    got = col["asc"]
    return [] if sorted(got) == want and len(got) == len(want) else ["runs table: %s, report.json %s" % (got, want)]


def check_filter(page, rep, word):
    f = page["filter"]
    want = sum(word in " ".join(str(v) for v in (r["name"], r["strategy"])) for r in runs(rep))
    out = [] if len(f["rows"]) == want else ["filter %r: %d rows, report.json has %d runs" % (word, len(f["rows"]), want)]
    return out + ["filter %r kept %r" % (word, r) for r in f["rows"] if word not in r]


def check_nojs(page, rep, arg):
    out = []
    for n, c in page["charts"].items():
        o = page["nojs"]["charts"].get(n)
        if o is None or o["texts"] != len(c["texts"]) or o["hits"] != len(c["hits"]) or o["height"] < 100:
            out.append("%s without JavaScript: %s" % (n, o))
    for t in page["sort"]:
        if page["nojs"]["tables"].get(t, 0) == 0:
            out.append("table %s without JavaScript: no rows" % t)
    if page["nojs"]["tables"].get("table-runs") != len(runs(rep)):
        out.append("runs table without JavaScript: %s rows, %d runs" % (page["nojs"]["tables"].get("table-runs"), len(runs(rep))))
    return out


def main():
    check, page_path, rep_path = sys.argv[1:4]
    arg = sys.argv[4] if len(sys.argv) > 4 else None
    page = json.load(open(page_path))
    rep = json.load(open(rep_path))
    out = globals()["check_" + check](page, rep, arg)
    print("\n".join(out[:20]) if out else "ok")


if __name__ == "__main__":
    main()
