#!/usr/bin/env python3
"""Tables of docs/results/torus-exchange.md from `wormnet compare --json` files.

usage: scripts/torus_tables.py FILE.json [FILE.json ...]
Prints one markdown table of cycles per algorithm (rows) and block size (columns) over all
files (same topology and alpha expected), then the crossovers: every measured T(m) is fitted
with a line a + b*m (m = flits per block, 4 bytes per flit; barrier runs are exactly linear),
and consecutive best algorithms are intersected."""
import json
import sys

cyc = {}
for f in sys.argv[1:]:
    for s in json.load(open(f))["summary"]:
        cyc.setdefault(s["algorithm"], {})[s["bytes"]] = (s["mean_cycles"], s["mean_delay"]["depth"])
sizes = sorted({b for a in cyc.values() for b in a})
print("| algorithm | " + " | ".join(f"{b} B" for b in sizes) + " |")
print("|---|" + "---|" * len(sizes))
for a, row in cyc.items():
    cells = []
    for b in sizes:
        if b not in row:
            cells.append("")
        else:
            c, depth = row[b]
            cells.append(f"{c:.0f}" + (f" (depth {depth:.0f})" if depth else ""))
    print(f"| {a} | " + " | ".join(cells) + " |")

fit = {}
for a, row in cyc.items():
    pts = [(b / 4, c) for b, (c, _) in row.items()]
    if len(pts) < 2:
        continue
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    b = sum((p[0] - mx) * (p[1] - my) for p in pts) / sum((p[0] - mx) ** 2 for p in pts)
    fit[a] = (my - b * mx, b)
# Best algorithm as m grows: start with the smallest intercept, then take the earliest crossing.
if fit:
    cur, m = min(fit, key=lambda a: (fit[a][0] + fit[a][1] * 0.25)), 0.0
    seq = [cur]
    while True:
        best = None
        for a, (a0, b0) in fit.items():
            c0, c1 = fit[cur]
            if b0 < c1:
                x = (a0 - c0) / (c1 - b0)
                if x > m and (best is None or x < best[0]):
                    best = (x, a)
        if not best:
            break
        m, cur = best
        seq.append(f"at m = {m:.2f} flits ({4 * m:.1f} B) -> {cur}")
    print("\nbest: " + " ".join(seq))
    for a, (a0, b0) in fit.items():
        print(f"  fit {a}: T = {a0:.1f} + {b0:.1f} m")
