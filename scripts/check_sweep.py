#!/usr/bin/env python3
"""Checks every point of a `wormnet compare --json` report (ctest's all-source sweeps).

  scripts/check_sweep.py COMPARE.json [--runs N] [--steps S | --steps LO-HI] [--stepwise 0]

Every run must pass its data check; with --runs the report must hold exactly N runs, with --steps
each run must take S steps (or LO to HI, and both counts must occur), with --stepwise each run's stepwise-contention delay (delay view) must
equal that value. Prints one line per algorithm x ports x bytes and exits 1 on the first failure.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--steps")
    ap.add_argument("--stepwise", type=int)
    a = ap.parse_args()
    with open(a.report) as f:
        rep = json.load(f)
    runs = rep["runs"]
    bad = []
    lo = hi = None
    if a.steps is not None:
        lo, _, hi = a.steps.partition("-")
        lo, hi = int(lo), int(hi or lo)
    seen = set()
    if a.runs is not None and len(runs) != a.runs:
        bad.append(f"{len(runs)} runs, expected {a.runs}")
    for r in runs:
        c = r["config"]
        where = f"{c['algorithm']} on {c['topology']} ports={c['ports']} source={c['source']}"
        if not r["ok"]:
            bad.append(f"{where}: {r['error']}{r['data_error']}")
        seen.add(len(r["steps"]))
        if lo is not None and not lo <= len(r["steps"]) <= hi:
            bad.append(f"{where}: {len(r['steps'])} steps, expected {a.steps}")
        if a.stepwise is not None and r["contention"]["stepwise"] != a.stepwise:
            bad.append(f"{where}: stepwise delay {r['contention']['stepwise']}, expected {a.stepwise}")
    if lo is not None and runs and not {lo, hi} <= seen:
        bad.append(f"step counts seen {sorted(seen)}, expected both {lo} and {hi}")
    for g in rep["summary"]:
        print(f"{g['algorithm']} ports={g['ports']} bytes={g['bytes']}: {g['sources']} sources, "
              f"{g['data_ok']} data ok, mean stepwise {g['mean_delay']['stepwise']:.1f}, "
              f"mean depth {g['mean_delay']['depth']:.1f}, mean max latency {g['latency_cycles']['mean_maximum']:.1f} cycles")
    for b in bad[:20]:
        print("FAIL", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
