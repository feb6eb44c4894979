#!/usr/bin/env python3
"""Tables of docs/papers/bruck.md from wormnet run summaries (sweep results .jsonl, compare --json .json).
(Debian python3-matplotlib for --plot, no pip.)

usage: scripts/bruck_tables.py sp1 SP1.jsonl [--plot PNG]
       scripts/bruck_tables.py ports PORTS.jsonl CONCAT.json ...
       scripts/bruck_tables.py torus BASE.jsonl BRUCK.json ...

sp1:   per network, measured time and measured / linear model (predicted.paper: T = C1*beta + C2*tau,
       beta = alpha + gamma + 2*3 router cycles = 60 cycles = 28.8 us, tau = 1 cycle per 4-byte flit =
       0.12 us/B) for r x b; the model's table (also with the SP-1's measured beta = 29 us); the r=2 / r=64
       break-even b* (linear interpolation between the measured sizes where T(2) - T(64) changes sign);
       the best radix per b; the contention classes of r=2 and r=64; straight-line fits T = A + S*b.
ports: index r = k+1 / auto / 64 and concat over port models one, 2, 3, all: time, C1, x model, contention;
       "step model" is predicted.cycles: per round at most k*alpha + 3(h+1) + F - 1 + k*gamma (the node's
       processor pays alpha per send and gamma per receive serially, overlapping the transfers it has
       posted, docs/firmware.md), no contention.
torus: every algorithm per network and profile vs b, the fastest one-port and overall marked.
Nothing is rounded before the comparisons; the tables print us to 0.1 (sp1) and cycles exactly."""
import json
import math
import re
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bruck_plot import sp1_plot  # noqa: E402
from debian_python import require  # noqa: E402
from bruck_common import SP1_BETA_US, SP1_TAU_US, NETS, PORTS, load, norm, ceil_log, c1_exact, c2_one_port, model_us, best_radices, crossings, fit, kc, cont_cells  # noqa: E402


def sp1(recs, plot=None):
    idx = {(r["topology"], r["radix"], r["bytes"]): r for r in recs if r["algorithm"] == "bruck-index"}
    nets = [t for t in NETS if any(k[0] == t for k in idx)] + sorted({k[0] for k in idx} - set(NETS))
    radii = sorted({k[1] for k in idx})
    sizes = sorted({k[2] for k in idx})
    n = 64
    print("## SP-1: one-port bruck-index, n = 64, profile sp1 (480 ns/cycle)\n")
    # The linear model: topology-free; check every network's predicted.paper agrees.
    for t in nets:
        for r in radii:
            for b in sizes:
                a, z = idx.get((t, r, b)), idx.get((nets[0], r, b))
                if a and z and a["paper"] != z["paper"]:
                    print(f"warning: paper model differs between {t} and {nets[0]} at r={r} b={b}", file=sys.stderr)
    ref = nets[0]
    print("### Linear model T = C1*beta + C2*tau (predicted.paper; beta = 60 cycles = 28.8 us, tau = 0.12 us/B), us\n")
    print("| b (B) | " + " | ".join(f"r={r}" for r in radii) + " | best | model with beta = 29 us: best over r=2..64 |")
    print("|---|" + "---|" * (len(radii) + 2))
    for b in sizes:
        row = {r: idx[(ref, r, b)]["paper"] * idx[(ref, r, b)]["clock"] / 1000 for r in radii if (ref, r, b) in idx}
        best = min(row, key=row.get)
        allr = best_radices(n, b, True)
        cells = [f"**{row[r]:.1f}**" if r == best else f"{row[r]:.1f}" for r in radii]
        print(f"| {b} | " + " | ".join(cells) + f" | r={best} | r={', '.join(map(str, allr))} "
              f"({model_us(n, allr[0], b):.0f} us) |")
    print("\nC1 / C2 (blocks) of the runs: " + ", ".join(
        f"r={r}: {idx[(ref, r, sizes[0])]['c1']} / {idx[(ref, r, sizes[0])]['c2']}" for r in radii))

    for t in nets:
        print(f"\n### {t}: measured us (measured / model)\n")
        print("| b (B) | " + " | ".join(f"r={r}" for r in radii) + " | best measured |")
        print("|---|" + "---|" * (len(radii) + 1))
        for b in sizes:
            row = {r: idx[(t, r, b)] for r in radii if (t, r, b) in idx}
            best = min(row, key=lambda r: row[r]["cycles"])
            cells = []
            for r in radii:
                x = row.get(r)
                if not x:
                    cells.append("")
                    continue
                s = f"{x['us']:.1f} ({x['cycles'] / x['paper']:.2f}x)"
                cells.append(f"**{s}**" if r == best else s)
            print(f"| {b} | " + " | ".join(cells) + f" | r={best} |")

    # Break-even r=2 vs r=64.
    lo, hi = radii[0], radii[-1]
    print(f"\n### Break-even b* between r={lo} and r={hi} (T(r={lo}) - T(r={hi}) changes sign)\n")
    c1l, c1h = c1_exact(n, lo), c1_exact(n, hi)
    c2l, c2h = c2_one_port(n, lo), c2_one_port(n, hi)
    ana = (c1h - c1l) * SP1_BETA_US / ((c2l - c2h) * SP1_TAU_US)
    ours = (c1h - c1l) * 60 / ((c2l - c2h) * 0.25)
    print(f"- SP-1 model (beta = 29 us, tau = 0.12 us/B): b* = ({c1h}-{c1l})*29 / (({c2l}-{c2h})*0.12) = {ana:.2f} B")
    print(f"- our linear model (beta = 60 cycles, tau = 1/4 cycle per byte): b* = ({c1h}-{c1l})*60 / "
          f"(({c2l}-{c2h})/4) = {ours:.2f} B")
    print("\n| network | b* from predicted.paper (interpolated) | b* measured (interpolated) | measured / model b* | "
          f"T(r={lo}) - T(r={hi}) measured at each b, us | b* of the fitted lines |")
    print("|---|---|---|---|---|---|")
    fits = {}
    for t in nets:
        xs = [b for b in sizes if (t, lo, b) in idx and (t, hi, b) in idx]
        dm = [idx[(t, lo, b)]["us"] - idx[(t, hi, b)]["us"] for b in xs]
        dp = [(idx[(t, lo, b)]["paper"] - idx[(t, hi, b)]["paper"]) * idx[(t, lo, b)]["clock"] / 1000 for b in xs]
        cm, cp = crossings(xs, dm), crossings(xs, dp)
        for r in (lo, hi):
            fits[(t, r)] = fit([(b, idx[(t, r, b)]["us"]) for b in xs])
        (a0, s0), (a1, s1) = fits[(t, lo)], fits[(t, hi)]
        bf = (a1 - a0) / (s0 - s1) if s0 != s1 else float("nan")
        ms = ", ".join(f"{x:.1f}" for x in cm) or f"none in {xs[0]}..{xs[-1]}"
        ps = ", ".join(f"{x:.1f}" for x in cp) or "none"
        ratio = f"{cm[0] / cp[0]:.2f}" if cm and cp else ""
        print(f"| {t} | {ps} B | {ms} B | {ratio} | " + ", ".join(f"{b}: {d:+.0f}" for b, d in zip(xs, dm))
              + f" | {bf:.1f} B |")

    # Straight-line fits: effective start-up and per-byte cost per round vs the model.
    print("\n### Least-squares lines T = A + S*b over b = "
          f"{sizes[0]}..{sizes[-1]} B (measured) vs the model C1*beta + b*C2*tau\n")
    print("| network | r | A (us) | model C1*beta (us) | A / C1*beta | S (us/B) | model C2*tau (us/B) | S / C2*tau |")
    print("|---|---|---|---|---|---|---|---|")
    for t in nets:
        for r in radii:
            pts = [(b, idx[(t, r, b)]["us"]) for b in sizes if (t, r, b) in idx]
            if len(pts) < 2:
                continue
            a, s = fit(pts)
            x = idx[(t, r, sizes[0])]
            mb = x["c1"] * 60 * x["clock"] / 1000
            mt = x["c2"] * 0.25 * x["clock"] / 1000
            print(f"| {t} | {r} | {a:.0f} | {mb:.0f} | {a / mb:.2f} | {s:.3f} | {mt:.3f} | {s / mt:.2f} |")

    # Best radix per b.
    print("\n### Best power-of-two radix per b (measured us; model best from the table above)\n")
    print("| b (B) | model (r = 2..64 powers of two) | model over all r | " + " | ".join(nets) + " |")
    print("|---|---|---|" + "---|" * len(nets))
    for b in sizes:
        pm = {r: idx[(ref, r, b)]["paper"] for r in radii if (ref, r, b) in idx}
        cells = []
        for t in nets:
            row = {r: idx[(t, r, b)]["us"] for r in radii if (t, r, b) in idx}
            best = min(row, key=row.get)
            second = sorted(row.values())[1]
            cells.append(f"r={best} ({row[best]:.0f} us; next {100 * (second / row[best] - 1):.1f}% slower)")
        allr = ", ".join(map(str, best_radices(n, b, False)))
        print(f"| {b} | r={min(pm, key=pm.get)} | r={allr} | " + " | ".join(cells) + " |")

    # Contention of r=2 vs r=64.
    for b in (128, 1024):
        if not any(k[2] == b for k in idx):
            continue
        print(f"\n### Contention, b = {b} B: delay over zero load summed over messages (cycles), per class\n")
        print("| network | r | C1 | measured (cycles) | model (cycles) | step model (cycles) | measured / model | stepwise | "
              "depth | port | flow | late msgs | mean delay per message (cycles) | (measured - model) / C1 (cycles) |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for t in nets:
            for r in radii:
                x = idx.get((t, r, b))
                if not x:
                    continue
                tot = x["cont"]["total"]
                print(f"| {t} | {r} | {x['c1']} | {x['cycles']} | {x['paper']:.0f} | {x['pred']:.0f} | "
                      f"{x['cycles'] / x['paper']:.2f} | "
                      + " | ".join(cont_cells(x)) + f" | {tot / x['messages']:.0f} | {(x['cycles'] - x['paper']) / x['c1']:.0f} |")
    if plot:
        sp1_plot(idx, nets, radii, sizes, plot)


def variant(r):
    if r["algorithm"] == "bruck-concat":
        return "concat"
    if r["auto"]:
        return "index r=auto"
    if r["radix"] == 64:
        return "index r=n=64"
    return "index r=k+1"


def ports(recs):
    g = {(r["topology"], variant(r), r["ports"], r["bytes"]): r for r in recs}
    nets = [t for t in NETS if any(k[0] == t for k in g)]
    vs = ["index r=k+1", "index r=auto", "index r=n=64", "concat"]
    sizes = sorted({k[3] for k in g})
    print("## One-port vs k-port vs all-port, profile sp1 (cube:6 all = 6 ports, 2D all = 4)\n")
    for b in sizes:
        print(f"### b = {b} B: measured us / C1 (radix) / measured / model, speed-up of all over one\n")
        print("| network | algorithm | " + " | ".join(PORTS) + " | all vs one |")
        print("|---|---|" + "---|" * (len(PORTS) + 1))
        for t in nets:
            for v in vs:
                cells = []
                for p in PORTS:
                    x = g.get((t, v, p, b))
                    if not x:
                        cells.append("")
                        continue
                    rr = f" r={x['radix']}" if x["radix"] else ""
                    cells.append(f"{x['us']:.0f} us / {x['c1']}{rr} / {x['cycles'] / x['paper']:.2f}x")
                one, al = g.get((t, v, "one", b)), g.get((t, v, "all", b))
                sp = f"{one['cycles'] / al['cycles']:.2f}x" if one and al else ""
                print(f"| {t} | {v} | " + " | ".join(cells) + f" | {sp} |")
        print()
    for b in sizes:
        print(f"### b = {b} B: contention (delay over zero load, cycles summed over messages)\n")
        print("| network | algorithm | ports | k | r | C1 | C2 | measured (cycles) | model (cycles) | step model (cycles) | "
              "measured / model | measured / step model | stepwise | depth | port | flow | late msgs |")
        print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for t in nets:
            for v in vs:
                for p in PORTS:
                    x = g.get((t, v, p, b))
                    if not x:
                        continue
                    c2 = f"{x['c2']} blocks" if x["c2"] is not None else ""
                    print(f"| {t} | {v} | {p} | {x['k']} | {x['radix'] or ''} | {x['c1']} | {c2} | {x['cycles']} | "
                          f"{x['paper']:.0f} | {x['pred']:.0f} | {x['cycles'] / x['paper']:.2f} | {x['cycles'] / x['pred']:.2f} | "
                          + " | ".join(cont_cells(x)) + " |")
        print()


def label(r):
    a = r["algorithm"]
    if a == "bruck-index":
        rad = "auto" if r["auto"] else ("n" if r["radix"] == nodes(r["topology"]) else str(r["radix"]))
        return f"bruck-index r={rad} ({r['ports']})"
    return f"{a} ({r['ports']})"


def nodes(t):
    return math.prod(int(x) for x in t.split(":")[1].split("x"))


def torus(recs):
    g = {}
    for r in recs:
        g.setdefault((r["topology"], r["profile"]), {})[(label(r), r["bytes"])] = r
    order = ["torus-t1 (one)", "torus-t2 (one)", "pairwise-exchange (one)", "direct-alltoall (one)",
             "bruck-index r=2 (one)", "bruck-index r=auto (one)", "bruck-index r=n (one)",
             "direct-alltoall (all)", "bruck-index r=5 (all)", "bruck-index r=auto (all)", "bruck-index r=n (all)"]
    print("## Complete exchange on tori: bruck-index vs the torus family and the direct baselines\n")
    for (t, prof) in sorted(g, key=lambda k: (nodes(k[0]), k[1] != "sp1")):
        pts = g[(t, prof)]
        sizes = sorted({k[1] for k in pts})
        labels = [l for l in order if any(k[0] == l for k in pts)] + sorted({k[0] for k in pts} - set(order))
        unit = "us" if prof != "ideal" else "cycles"
        print(f"### {t}, profile {prof}: {unit} (one-port best in bold, overall best marked *)\n")
        print("| algorithm | " + " | ".join(f"{b} B" for b in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        best1, besta = {}, {}
        for b in sizes:
            c = {l: pts[(l, b)]["cycles"] for l in labels if (l, b) in pts}
            o = {l: v for l, v in c.items() if l.endswith("(one)")}
            best1[b] = min(o, key=o.get) if o else None
            besta[b] = min(c, key=c.get)
        for l in labels:
            cells = []
            for b in sizes:
                x = pts.get((l, b))
                if not x:
                    cells.append("")
                    continue
                v = f"{x['us']:.1f}" if unit == "us" else f"{x['cycles']}"
                if l.startswith("bruck-index") and "auto" in l:
                    v += f" (r={x['radix']})"
                if l == best1[b]:
                    v = f"**{v}**"
                if l == besta[b]:
                    v += " *"
                cells.append(v)
            print(f"| {l} | " + " | ".join(cells) + " |")
        print("\nwinner per size, and the best bruck-index (its time / the winner's):")
        for b in sizes:
            c = {l: pts[(l, b)] for l in labels if (l, b) in pts}
            w = [l for l in c if c[l]["cycles"] == c[besta[b]]["cycles"]]
            br = {l: x for l, x in c.items() if l.startswith("bruck-index")}
            line = f"- {b} B: {' = '.join(w)}"
            if br:
                bb = min(br, key=lambda l: br[l]["cycles"])
                rr = f", r={br[bb]['radix']}" if "auto" in bb else ""
                line += f"; bruck: {bb}{rr} {br[bb]['cycles'] / c[besta[b]]['cycles']:.2f}x"
            print(line)
        print()


def main(argv):
    if len(argv) < 3 or argv[1] not in ("sp1", "ports", "torus"):
        print(__doc__, file=sys.stderr)
        return 2
    plot = None
    files = argv[2:]
    if "--plot" in files:
        i = files.index("--plot")
        plot = files[i + 1]
        files = files[:i] + files[i + 2:]
        require("matplotlib")
    recs = load(files)
    {"sp1": lambda: sp1(recs, plot), "ports": lambda: ports(recs), "torus": lambda: torus(recs)}[argv[1]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
