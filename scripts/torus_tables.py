#!/usr/bin/env python3
"""Tables of docs/papers/torus-exchange.md from `wormnet compare --json` files.

usage: scripts/torus_tables.py FILE.json [FILE.json ...]
       scripts/torus_tables.py --curves DIR [PLOT.png]   (the files of scripts/torus_curves.sh)
Prints one markdown table of cycles per algorithm (rows) and block size (columns) over all
files (same topology and alpha expected), then the crossovers: every measured T(m) is fitted
with a line a + b*m (m = flits per block, 4 bytes per flit; barrier runs are exactly linear),
and consecutive best algorithms are intersected. --curves: the same for every (torus, alpha)
of a curves directory, each algorithm's S, B, H (parsed from the run's prediction), the
corrected-formula crossovers S(a+3) + B*m + 3H beside the measured ones, the free-running
runs, and a plot of the curves."""
import glob
import json
import os
import re
import sys

from debian_python import require


def best_sequence(fit, m0=0.25):
    """[(m, algorithm)] of the lowest line as m grows from m0 (lines: {alg: (a0, b0)})."""
    cur, m = min(fit, key=lambda a: fit[a][0] + fit[a][1] * m0), 0.0
    seq = [(None, cur)]
    while True:
        best = None
        for a, (a0, b0) in fit.items():
            c0, c1 = fit[cur]
            if b0 < c1:
                x = (a0 - c0) / (c1 - b0)
                if x > m and (best is None or x < best[0]):
                    best = (x, a)
        if not best:
            return seq
        m, cur = best
        seq.append(best)


def line_fit(pts):
    n = len(pts)
    mx = sum(p[0] for p in pts) / n
    my = sum(p[1] for p in pts) / n
    b = sum((p[0] - mx) * (p[1] - my) for p in pts) / sum((p[0] - mx) ** 2 for p in pts)
    return (my - b * mx, b)


def fmt_seq(seq):
    out = seq[0][1]
    for m, a in seq[1:]:
        out += f" → {a} at {m:.3f} flits ({4 * m:.1f} B)"
    return out


NAMES = {"torus-t1": "T1", "torus-t1.1": "T1.1", "torus-t1.2": "T1.2", "torus-t1.3": "T1.3", "torus-t2": "T2"}


SIZES = {32: [4, 16, 64, 256], 64: [4, 8, 12, 16]}  # block bytes the tables show per torus


def parse_sbh(run):
    fm = re.search(r"S = (\d+) start-ups, B = (\d+) blocks.*H = (\d+) hops", run["predicted"]["formula"])
    return tuple(int(x) for x in fm.groups()) if fm else None


def curves(d, png=None):
    pts = {}  # (n, alpha, sync) -> alg -> bytes -> run
    sbh = {}  # (n, alg) -> (S, B, H)
    pred = {}  # (n, alg) -> step-model cycles at alpha 5000, 4 B (direct, pairwise)
    for f in sorted(glob.glob(os.path.join(d, "*.json"))):
        base = os.path.basename(f)
        m = re.match(r"p(\d+)_(.+)\.json$", base)
        if m:  # --max-cycles 1: the prediction only
            run = json.load(open(f))["runs"][0]
            key = (int(m.group(1)), m.group(2))
            if parse_sbh(run):
                sbh[key] = parse_sbh(run)
            else:
                pred[key] = run["predicted"]["cycles"]
            continue
        m = re.match(r"([cf])(\d+)_a(\d+)_(.+)_(\d+)\.json$", base)
        if not m:
            continue
        run = json.load(open(f))["runs"][0]
        key = (int(m.group(2)), int(m.group(3)), "barrier" if m.group(1) == "c" else "free")
        pts.setdefault(key, {}).setdefault(m.group(4), {})[int(m.group(5))] = run
        if parse_sbh(run):
            sbh[(key[0], m.group(4))] = parse_sbh(run)
    for n in {k[0] for k in sbh}:
        for alpha in (5000, 10000):
            pts.setdefault((n, alpha, "barrier"), {})
            for a in NAMES:
                if (n, a) in sbh:
                    pts[(n, alpha, "barrier")].setdefault(a, {})
    for key in sorted(pts):
        n, alpha, sync = key
        rows = pts[key]
        sizes = sorted({b for r in rows.values() for b in r} | set(SIZES.get(n, []) if sync == "barrier" else []))
        print(f"\n### torus:{n}x{n}, α = {alpha}, --sync {sync}: cycles"
              + (" (in parentheses: S(α+3) + B·m + 3H, not simulated)" if sync == "barrier" else "") + "\n")
        print("| algorithm | S / B / H | " + " | ".join(f"{b} B" for b in sizes) + " |")
        print("|---|---|" + "---|" * len(sizes))
        for a in sorted(rows, key=lambda a: (a not in NAMES, a)):
            S, B, H = sbh.get((n, a), (None, None, None))
            cells = []
            for b in sizes:
                r = rows[a].get(b)
                if r is None:
                    ok = sync == "barrier" and S is not None
                    cells.append(f"({S * (alpha + 3) + B * b // 4 + 3 * H})" if ok else "")
                    continue
                cell = f"**{r['cycles']}**" if r["data_check"] == "PASS" else "FAIL"
                ratio = r["measured_over_predicted"]
                if sync == "free":
                    cell += f" (depth {r['contention']['depth']})"
                elif abs(ratio - 1) > 1e-9:
                    cell += f" (×{ratio:.4f} of the step model)"
                cells.append(cell)
            print(f"| {NAMES.get(a, a)} | " + (f"{S} / {B} / {H}" if S is not None else "N−1 steps")
                  + " | " + " | ".join(cells) + " |")
        if sync != "barrier":
            continue
        fit = {NAMES[a]: line_fit([(b / 4, r["cycles"]) for b, r in rows[a].items()])
               for a in rows if a in NAMES and len(rows[a]) >= 2}
        formula = {NAMES[a]: (sbh[(n, a)][0] * (alpha + 3) + 3 * sbh[(n, a)][2], sbh[(n, a)][1])
                   for a in NAMES if (n, a) in sbh}
        paper = {NAMES[a]: (sbh[(n, a)][0] * alpha, sbh[(n, a)][1]) for a in NAMES if (n, a) in sbh}
        if len(fit) > 1:
            print(f"\nbest, measured (lines through the points): {fmt_seq(best_sequence(fit))}")
        if formula:
            print(f"\nbest, corrected formula S(α+3) + B·m + 3H: {fmt_seq(best_sequence(formula))}")
            print(f"\nbest, paper model S·α + B·m on the true S, B: {fmt_seq(best_sequence(paper))}")
    if pred:
        print("\nstep-model predictions (α = 5000, 4 B; exact at one-flit blocks):")
        for (n, a), c in sorted(pred.items()):
            print(f"  torus:{n}x{n} {a}: {c:.0f}")
    if png:
        plot(pts, sbh, png)


def plot(pts, sbh, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = sorted(k for k in pts if k[2] == "barrier")
    cols = 2
    rows_n = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(rows_n, cols, figsize=(5.2 * cols, 3.9 * rows_n), squeeze=False)
    for ax in axes.flat[len(keys):]:
        ax.set_visible(False)
    for ax, key in zip(axes.flat, keys):
        n, alpha, _ = key
        for a in sorted(pts[key], key=lambda a: (a not in NAMES, a)):
            if a not in NAMES:
                continue
            bs = sorted(pts[key][a])
            line = ax.plot([b / 4 for b in bs], [pts[key][a][b]["cycles"] / 1e3 for b in bs], "o",
                           label=NAMES[a])[0]
            if (n, a) in sbh:
                S, B, H = sbh[(n, a)]
                top = max([b for k2 in pts if k2[0] == n for r in pts[k2].values() for b in r]
                          + SIZES.get(n, [])[-1:]) / 4
                top = min(top, 16)  # the paper's Fig 6 range; beyond it the lines only diverge
                ms = [0.25 + i * (top - 0.25) / 200 for i in range(201)]
                ax.plot(ms, [(S * (alpha + 3) + B * m + 3 * H) / 1e3 for m in ms], "-", color=line.get_color(),
                        lw=0.8)
        ax.set_title(f"torus:{n}x{n}, α = {alpha}, barrier")
        ax.set_xlabel("block m [flits of 4 B]")
        ax.set_ylabel("completion [k cycles]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("complete exchange, one port, γ = 0: measured (dots), S(α+3)+B·m+3H (lines)", fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print(f"\nwrote {png}")


if len(sys.argv) > 1 and sys.argv[1] == "--curves":
    if len(sys.argv) > 3:
        require("matplotlib")
    curves(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    sys.exit(0)

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
    seq = [best_sequence(fit)[0][1]] + [f"at m = {m:.2f} flits ({4 * m:.1f} B) -> {a}"
                                        for m, a in best_sequence(fit)[1:]]
    print("\nbest: " + " ".join(seq))
    for a, (a0, b0) in fit.items():
        print(f"  fit {a}: T = {a0:.1f} + {b0:.1f} m")
