#!/usr/bin/env python3
"""check_truth.py — `amdahl explain --json` against gen_sweep.py's
truth.json: per n above the base, each share within 20% of its true size
(or 0.5 points when it is smaller than 2.5 points), the traced-step
efficiency within 1%, the shares adding up to 1 − E, transfer + wait
equal to the measured collective time, and the stragglers named.
Prints one line per sweep: "named=<ranks per n> ok" or what failed;
exit 1 on a failed share, E or identity (straggler naming is counted by
the caller across seeds: --expect-straggler makes a miss fail here).

usage: check_truth.py TRUTH.json EXPLAIN.json [--expect-straggler]"""
import json
import sys

PARTS = {"communication": "transfer", "sync_wait": "wait", "imbalance": "imbalance",
         "compute_growth": "compute", "idle": "idle"}


def true_point(runs, base, n):
    rs = [r for r in runs if r["n"] == n]
    mean_base = {k: sum(b[k] for b in base) / len(base) for k in list(PARTS.values()) + ["R"]}
    share = {c: sum((r[k] - mean_base[k]) / r["R"] for r in rs) / len(rs) for c, k in PARTS.items()}
    eff = sum(mean_base["R"] / r["R"] for r in rs) / len(rs)
    return share, eff, {r["straggler"] for r in rs}


def main():
    truth = json.load(open(sys.argv[1]))
    doc = json.load(open(sys.argv[2]))
    expect = "--expect-straggler" in sys.argv
    runs = truth["runs"]
    (s,) = doc["strategies"]
    base_n = s["base_n"]
    base = [r for r in runs if r["n"] == base_n]
    bad, named = [], []
    for p in s["points"]:
        got = {c["name"]: c["share"] for c in p["components"]}
        e = p["efficiency"]["traces"]
        if abs(sum(got.values()) - (1 - e)) > 1e-9:
            bad.append("n=%d: shares sum %.12g, 1-E %.12g" % (p["n"], sum(got.values()), 1 - e))
        k = p["collectives"]
        if abs(k["transfer_s"] + k["wait_s"] - k["measured_s"]) > 1e-9 * max(1, k["measured_s"]):
            bad.append("n=%d: transfer + wait != measured" % p["n"])
        names = sorted(x["rank"] for x in p["stragglers"])
        named.append("%d:%s" % (p["n"], ",".join(map(str, names)) or "-"))
        if p["n"] == base_n:
            continue
        share, eff, strag = true_point(runs, base, p["n"])
        if abs(e - eff) > 0.01 * eff:
            bad.append("n=%d: E %.4f, true %.4f" % (p["n"], e, eff))
        for c, v in share.items():
            tol = 0.2 * abs(v) if abs(v) >= 0.025 else 0.005
            if abs(got[c] - v) > tol:
                bad.append("n=%d %s: %.4f, true %.4f" % (p["n"], c, got[c], v))
        inj = sum(r["injected"] for r in runs if r["n"] == p["n"])
        # (against a base that has its own straggler — an Nsight sweep's
        # n = 2 — the share is a difference of two delays: the test above)
        if inj and not any(b["injected"] for b in base) and abs(got["imbalance"] - share["imbalance"]) > 0.2 * share["imbalance"]:
            bad.append("n=%d: the injected delay is not imbalance" % p["n"])
        want = sorted(r for r in strag if r >= 0)
        if expect and names != want:
            bad.append("n=%d: stragglers %s, true %s" % (p["n"], names, want))
    print("named=%s %s" % (" ".join(named), "ok" if not bad else "; ".join(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
