#!/usr/bin/python3
"""report_explore_check.py — checks what tests/browser/report_explore.mjs saw
in report.html (PAGE.json) against the report's numbers: report.json and
`amdahl scaling --json` of the same store (the model the report draws).
Prints "ok" or one line per disagreement.

Usage: report_explore_check.py CHECK PAGE.json REPORT.json SCALING.json [STORE]
Checks:
  bands_speedup  each band target of the speedup chart holds report.json's
                 speedup, its interval and runs at its strategy and n, every
                 point with an interval has one, and the tooltip over each
                 says them
  bands_limits   on each "What limits scaling" chart, each band's first and
                 last target (the smallest measured n and the target n) hold
                 the region model's prediction and interval (scaling --json,
                 in ms), and their tooltips say them
  zoom           epoch time dragged from n = 2 to 8: the x axis spans that
                 (within 1%), each point target sits where its n maps in
                 the zoomed span (log2, as the engine maps n) and is hidden
                 outside it, the series' lines and markers moved with them
                 (a path vertex at each visible point), each tick label
                 sits where its number maps, on the plot (the engine's
                 hidden), a tooltip
                 works; "Reset zoom" gives back every position and path
  scale          every chart the PDF draws with a log axis has the switch
                 (and only those); after it the chart is linear on both axes:
                 tick labels evenly spaced in value and place, targets
                 placed linearly in n, the same values; a tooltip works;
                 switching back gives the log drawing again
  picker         under each What limits scaling, the picker lists every
                 region of the strategy in scaling --json's order; the 10th
                 and the last picked: the caption names it, the engine's
                 drawing gives way, a point is drawn at each measured target,
                 the target at the largest n holds scaling --json's measured
                 mean, each measured point's tooltip says the model's
                 prediction and interval there and the band's last sample
                 the prediction at the target n (six significant digits, in
                 ms, as scaling --json); picking the first gives back the
                 engine's drawing
  perfetto       the traces section gives the Perfetto UI's address as text
                 (no link) and how to open a file there; its table lists
                 every trace of the runs in report.json's statistics with
                 its rank and local path, as the store's trace and source
                 tables hold them (sqlite3, STORE)
  contrast       every visible text the browser measured (the page's HTML,
                 every chart's and picker's SVG text, a linear drawing, a
                 shown tooltip; also the compared report's) has a WCAG 2
                 contrast of at least 4.5:1 against what is painted under
                 it, 3:1 when large (24 px, or 18.66 px bold); and the two
                 negative controls (grey #aaa text, white SVG text on white)
                 are measured failing
"""
import json
import math
import sys

from report_page_check import sig  # six significant digits, as the page's JS prints


def close(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300)


def tip_says(seen, lines):
    if seen is None or seen["tip"] is None:
        return False
    got = seen["tip"].split("\n")
    return all(w in got for w in lines)


def check_bands_speedup(page, rep, sc, store=None):
    pts = {(s["strategy"], float(p["n"])): p for s in rep["strategies"] for p in s["points"]}
    strips = page["bands"].get("speedup", [])
    out, seen = [], set()
    for b in strips:
        a = b["attrs"]
        p = pts.get((a["name"], float(a["x"])))
        if p is None or not p["speedup_ci"]:
            out.append("speedup band %s n=%s: no point with an interval in report.json" % (a["name"], a["x"]))
            continue
        seen.add((a["name"], float(a["x"])))
        ci = p["speedup_ci"]
        if not (close(float(a["v"]), p["speedup"]) and close(float(a["lo"]), ci["lo"]) and close(float(a["hi"]), ci["hi"])):
            out.append("speedup band %s n=%s holds %s [%s, %s], report.json %s [%s, %s]" %
                       (a["name"], a["x"], a["v"], a["lo"], a["hi"], p["speedup"], ci["lo"], ci["hi"]))
        runs = "runs: " + ", ".join("%s (%s)" % (r["name"] or "", (r["id"] or "")[:8]) for r in p["run_values"])
        if a.get("info") != runs:
            out.append("speedup band %s n=%s says %r, report.json %r" % (a["name"], a["x"], a.get("info"), runs))
        want = ["value " + sig(p["speedup"]), "interval %s – %s" % (sig(ci["lo"]), sig(ci["hi"])), runs]
        if b["seen"] is not None and (b["seen"]["under"] != a or not tip_says(b["seen"], want)):
            out.append("speedup band %s n=%s: tooltip %r" % (a["name"], a["x"], b["seen"]))
    missing = [k for k, p in pts.items() if p["speedup_ci"] and p["speedup_ci"]["lo"] < p["speedup_ci"]["hi"] and k not in seen]
    hovered = sum(1 for b in strips if b["seen"] is not None)
    return out + ["speedup: no band target for %s n=%g" % k for k in missing] + \
        ([] if hovered * 2 >= len(strips) > 0 else ["speedup: %d of %d band targets hovered" % (hovered, len(strips))])


def prediction(sc, strategy, name, n):
    for r in sc["regions"]:
        if r["strategy"] == strategy and (r["name"] + " (" + r["growth"] + ")" == name or
                                          (name.endswith("… (" + r["growth"] + ")") and r["name"].startswith(name[:40]))):
            for p in r["predictions"]:
                if p["n"] == n:
                    return p
    return None


def check_bands_limits(page, rep, sc, store=None):
    out, checked = [], 0
    for chart, strips in page["bands"].items():
        if not chart.startswith("limits_"):
            continue
        strategy = chart[len("limits_"):]
        ends = [b for b in strips if b["attrs"]["i"] in ("0", "63")]
        for b in ends:
            a = b["attrs"]
            p = prediction(sc, strategy, a["name"], float(a["x"]))
            if p is None:
                out.append("%s: no prediction for %r at n=%s in scaling --json" % (chart, a["name"], a["x"]))
                continue
            checked += 1
            v, lo, hi = p["value"] * 1e3, p["ci"]["lo"] * 1e3, p["ci"]["hi"] * 1e3
            if not close(float(a["v"]), v):
                out.append("%s %s n=%s holds %s ms, scaling --json %s ms" % (chart, a["name"], a["x"], a["v"], v))
            said = "prediction interval %s – %s ms" % ("%.6g" % lo, "%.6g" % hi)
            if said not in a.get("info", ""):
                out.append("%s %s n=%s says %r, scaling --json %r" % (chart, a["name"], a["x"], a.get("info"), said))
            if b["seen"] is not None and (b["seen"]["under"] != a or not tip_says(b["seen"], ["value " + sig(float(a["v"])), a.get("info", "")])):
                out.append("%s %s n=%s: tooltip %r" % (chart, a["name"], a["x"], b["seen"]))
    return out + ([] if checked >= 8 else ["only %d band ends checked against scaling --json" % checked])


def vertices(ds):
    """The (x, y) points of SVG path data (absolute M/L/C/Z, as Cairo writes)."""
    pts = []
    for d in ds:
        tok = d.split()
        i = 0
        while i < len(tok):
            if tok[i].isalpha():
                i += 1
                continue
            pts.append((float(tok[i]), float(tok[i + 1])))
            i += 2
    return pts


def check_zoom(page, rep, sc, store=None):
    z = page.get("zoom")
    if not z:
        return ["no zoom seen"]
    out = []
    b, zz, r = z["before"], z["zoomed"], z["reset"]
    x0, x1 = z["x0"], z["x1"]
    if not zz["zoom"]:
        return ["the drag did not zoom"]
    a, e = map(float, zz["zoom"].split())
    if abs(math.log2(a) - 1) > 0.01 or abs(math.log2(e) - 3) > 0.01:
        out.append("zoomed to %g..%g, dragged 2..8" % (a, e))
    seen = 0
    for h in zz["hits"]:
        n = float(h["x"])
        want = x0 + (math.log2(n) - math.log2(a)) / (math.log2(e) - math.log2(a)) * (x1 - x0)
        if abs(h["cx"] - want) > 0.01:
            out.append("zoomed: point n=%g at %.3f, maps to %.3f" % (n, h["cx"], want))
        inside = x0 - 0.5 <= want <= x1 + 0.5
        if h["visible"] != inside:
            out.append("zoomed: point n=%g visible=%s, inside=%s" % (n, h["visible"], inside))
        if inside:
            seen += 1
            pts = vertices(next(p["d"] for p in zz["paths"] if p["s"] == h["s"]))
            if not any(abs(px - h["cx"]) < 0.05 and abs(py - h["cy"]) < 0.05 for px, py in pts):
                out.append("zoomed: series %s has no vertex at its point n=%g (%.3f, %.3f)" % (h["s"], n, h["cx"], h["cy"]))
    if seen < 2:
        out.append("zoomed: %d points visible" % seen)
    if zz["xaxis_shown"]:
        out.append("zoomed: the engine's x axis still shown")
    if len(zz["ticks"]) < 2:
        out.append("zoomed: tick labels %s" % zz["ticks"])
    for t in zz["ticks"]:
        v = float(t["text"])
        want = x0 + (math.log2(v) - math.log2(a)) / (math.log2(e) - math.log2(a)) * (x1 - x0)
        if abs(t["x"] - want) > 0.01 or not (x0 - 1 <= t["x"] <= x1 + 1):
            out.append("zoomed: tick %g at %.3f, maps to %.3f (plot %.3f..%.3f)" % (v, t["x"], want, x0, x1))
    if not z["tip"] or not z["tip"]["under"] or not tip_says(z["tip"], ["value " + sig(float(z["tip"]["under"]["v"]))]):
        out.append("zoomed: tooltip %r" % z["tip"])
    if r["zoom"] or not r["xaxis_shown"] or r["ticks"] != b["ticks"]:
        out.append("reset: zoom %r, axis shown %s" % (r["zoom"], r["xaxis_shown"]))
    if [(h["cx"], h["visible"]) for h in r["hits"]] != [(h["cx"], h["visible"]) for h in b["hits"]] or r["paths"] != b["paths"]:
        out.append("reset: points or paths differ from before the zoom")
    if not any(x["text"] == "Reset zoom" and x["disabled"] for x in b["buttons"]) or \
            not any(x["text"] == "Reset zoom" and not x["disabled"] for x in zz["buttons"]):
        out.append("Reset zoom not disabled before and enabled while zoomed: %s / %s" % (b["buttons"], zz["buttons"]))
    return out


def evenly(xs, tol):
    d = [b - a for a, b in zip(xs, xs[1:])]
    return len(d) >= 2 and max(d) - min(d) <= tol


def check_scale(page, rep, sc, store=None):
    out = []
    # the charts the PDF draws with a log axis: every line chart of the
    # sweep (log2 n: n spans a factor of four or more) and What limits scaling
    logs = {c["name"] for c in rep["charts"] if c["name"].startswith("limits_")}
    want = logs | {"epoch_time", "speedup"}
    missing = [c for c in want if c not in page["scale_buttons"]]
    if missing:
        out.append("no log/linear switch on %s" % missing)
    for name, st in page["scale"].items():
        lg, li, back = st["log"], st["linear"], st["back"]
        if "log2" not in (lg["xscale"], lg["yscale"]):
            out.append("%s: switch on a chart without a log axis" % name)
        if (li["xscale"], li["yscale"]) != ("linear", "linear") or not li["id"].endswith("-linear"):
            out.append("%s: after the switch %s %s %s" % (name, li["id"], li["xscale"], li["yscale"]))
        vals = [float(t["text"]) for t in li["ticks"]]
        if not evenly(vals, 1e-9 * max(map(abs, vals or [1]))) or not evenly([t["x"] for t in li["ticks"]], 0.05):
            out.append("%s linear: x ticks %s not evenly spaced" % (name, li["ticks"]))
        if lg["xscale"] == "log2":
            lv = [float(t["text"]) for t in lg["ticks"]]
            if any(abs(math.log2(v) - round(math.log2(v))) > 1e-9 for v in lv) or len(lv) < 2:
                out.append("%s log: x ticks %s not powers of 2" % (name, lv))
        pts = [(float(h["x"]), h["cx"]) for h in li["hits"]]
        (na, pa), (nb, pb) = min(pts), max(pts)
        for n, px in pts:
            want_px = pa + (n - na) / (nb - na) * (pb - pa)
            if abs(px - want_px) > 0.05:
                out.append("%s linear: point n=%g at %.3f, linear in n %.3f" % (name, n, px, want_px))
        if sorted((h["x"], h["v"]) for h in li["hits"]) != sorted((h["x"], h["v"]) for h in lg["hits"]):
            out.append("%s: the linear drawing holds other values" % name)
        if not st["tip"] or not st["tip"]["under"] or not tip_says(st["tip"], ["value " + sig(float(st["tip"]["under"]["v"]))]):
            out.append("%s linear: tooltip %r" % (name, st["tip"]))
        if back["id"] != lg["id"] or back["ticks"] != lg["ticks"] or back["hits"] != lg["hits"] or back["paths"] != lg["paths"]:
            out.append("%s: switching back does not give the log drawing" % name)
        if [b["text"] for b in li["buttons"]][0] != "Log axes (as in the PDF)" or [b["text"] for b in lg["buttons"]][0] != "Linear axes":
            out.append("%s: switch labels %s / %s" % (name, lg["buttons"], li["buttons"]))
    if not page["scale"]:
        out.append("no chart switched")
    return out


def near6(a, b):
    """Equal to six significant digits (the page's numbers are rounded there)."""
    return abs(a - b) <= 6e-6 * max(abs(a), abs(b)) or a == b


def check_picker(page, rep, sc, store=None):
    out = []
    charts = [c["name"][len("limits_"):] for c in rep["charts"] if c["name"].startswith("limits_")]
    if sorted(page["picker"]) != sorted("limits_" + c for c in charts) or not charts:
        return ["pickers %s, What limits scaling charts %s" % (sorted(page["picker"]), charts)]
    for name, p in page["picker"].items():
        strategy = name[len("limits_"):]
        regions = [r for r in sc["regions"] if r["strategy"] == strategy]
        names = [o.split(". ", 1)[1].rsplit(" (", 1)[0] if ". " in o else o for o in p["options"]]
        if names != [r["name"] for r in regions]:
            out.append("%s: the list %s... is not scaling --json's %s..." % (name, names[:5], [r["name"] for r in regions][:5]))
            continue
        if len(p["picks"]) < 2:
            out.append("%s: %d regions picked" % (name, len(p["picks"])))
        for pk in p["picks"]:
            r = regions[pk["index"]]
            tag = "%s region %d (%s)" % (name, pk["index"] + 1, r["name"])
            if pk["region"] != r["name"] or ("Region %d of %d: %s (" % (pk["index"] + 1, len(regions), r["name"])) not in pk["caption"]:
                out.append("%s: caption %r" % (tag, pk["caption"]))
            if pk["engine_shown"] or pk["paths"] < 1:
                out.append("%s: engine drawing shown %s, %d paths drawn" % (tag, pk["engine_shown"], pk["paths"]))
            pts = [t for t in pk["targets"] if not t["band"]]
            preds = {p_["n"]: p_ for p_ in r["predictions"]}
            if not pts:
                out.append("%s: no measured point" % tag)
            for t in pts:
                a, n = t["attrs"], float(t["attrs"]["x"])
                if not any(abs(dx - t["cx"]) < 0.01 and abs(dy - t["cy"]) < 0.01 for dx, dy in pk["dots"]):
                    out.append("%s: no point drawn at the target n=%g" % (tag, n))
                q = preds.get(n)
                if q is None:
                    out.append("%s: no prediction at measured n=%g in scaling --json" % (tag, n))
                    continue
                said = "model there %s ms, %d%% prediction interval %s – %s ms" % (
                    sig(q["value"] * 1e3), round(q["ci"]["level"] * 100), sig(q["ci"]["lo"] * 1e3), sig(q["ci"]["hi"] * 1e3))
                if said not in a.get("info", ""):
                    out.append("%s n=%g says %r, scaling --json %r" % (tag, n, a.get("info"), said))
                if n == max(float(u["attrs"]["x"]) for u in pts) and not near6(float(a["v"]), r["measured_at_max_n"] * 1e3):
                    out.append("%s: measured at n=%g %s ms, scaling --json %s ms" % (tag, n, a["v"], r["measured_at_max_n"] * 1e3))
                if not t["seen"] or t["seen"]["under"] != a or not tip_says(t["seen"], ["value " + sig(float(a["v"])), a["info"]]):
                    out.append("%s n=%g: tooltip %r" % (tag, n, t["seen"]))
            band = [t for t in pk["targets"] if t["band"]]
            end = band[-1] if band else None
            q = preds.get(float(end["attrs"]["x"])) if end else None
            if end is None or q is None or float(end["attrs"]["x"]) != max(preds):
                out.append("%s: the band's last sample %s is not at the target n" % (tag, end and end["attrs"]))
            else:
                a = end["attrs"]
                if not all(near6(float(a[k]), v * 1e3) for k, v in (("v", q["value"]), ("lo", q["ci"]["lo"]), ("hi", q["ci"]["hi"]))):
                    out.append("%s band at n=%s: %s [%s, %s], scaling --json %s" % (tag, a["x"], a["v"], a["lo"], a["hi"], q))
                said = "%d%% prediction interval" % round(q["ci"]["level"] * 100)
                if said not in a.get("info", ""):
                    out.append("%s band end says %r, scaling --json's level %r" % (tag, a.get("info"), said))
                if not end["seen"] or end["seen"]["under"] != a or not tip_says(end["seen"], ["value " + sig(float(a["v"])), a["info"]]):
                    out.append("%s band end: tooltip %r" % (tag, end["seen"]))
        if not p["first"]["engine_shown"] or p["first"]["picked"] or not p["first"]["caption"].startswith("Region 1 of"):
            out.append("%s: picking the first region again: %s" % (name, p["first"]))
    return out


def check_perfetto(page, rep, sc, store):
    import sqlite3
    p = page.get("perfetto")
    if not p:
        return ["no traces section"]
    out = []
    if "https://ui.perfetto.dev" not in p["text"] or "Open trace file" not in p["text"] or p["links"] or not p["shown"]:
        out.append("traces note %r, %d links, shown %s" % (p["text"], p["links"], p["shown"]))
    ids = {r["id"]: r["name"] for s in rep["strategies"] for p_ in s["points"] for r in p_["run_values"]}
    db = sqlite3.connect("file:%s?mode=ro" % store, uri=True)
    want = set()
    for ext, rank, path in db.execute(
            "SELECT r.ext_id, coalesce(t.rank, -1), s.path FROM trace t JOIN source s ON s.id = t.source_id"
            " JOIN run r ON r.id = t.run_id"):
        if ext in ids:
            want.add(("%s (%s)" % (ids[ext] or "", ext[:8]), str(rank) if rank >= 0 else "?", path))
    got = {tuple(r) for r in p["rows"]}
    if len(p["rows"]) != len(got):
        out.append("traces table repeats rows")
    if got != want:
        out.append("traces table: %d rows, the store %d; missing %s; extra %s" % (
            len(got), len(want), sorted(want - got)[:3], sorted(got - want)[:3]))
    if not want:
        out.append("the store has no trace of the runs (nothing checked)")
    return out


def check_contrast(page, rep, sc, store=None):
    c = page.get("contrast") or []
    out = ["%s %s %r: %.2f:1 (%s on %s, %.1f px%s)" % (x["where"], x["tag"], x["text"], x["ratio"], x["fg"], x["bg"], x["px"],
                                                       " bold" if x["bold"] else "")
           for x in c if x["ratio"] < (3 if x["large"] else 4.5)]
    svg = [x for x in c if x["tag"] == "text"]
    charts = {x["where"] for x in svg}
    want = {ch["name"] for ch in rep["charts"]}
    if not want <= charts:
        out.append("charts without a measured text: %s" % sorted(want - charts))
    if not any(x["where"] == "html" and x["tag"].startswith("div#tip") for x in c):
        out.append("the tooltip's text was not measured")
    probes = page.get("contrast_probe") or []
    if len(probes) != 2 or any(x["ratio"] >= 3 for x in probes):
        out.append("negative controls not failing: %s" % probes)
    return out


def main():
    check, page_path, rep_path, sc_path = sys.argv[1:5]
    page = json.load(open(page_path))
    rep = json.load(open(rep_path))
    sc = json.load(open(sc_path))
    out = globals()["check_" + check](page, rep, sc, *sys.argv[5:6])
    print("\n".join(out[:20]) if out else "ok")


main()
