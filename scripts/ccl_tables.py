#!/usr/bin/env python3
"""Tables and the plot of docs/papers/ccl.md from `wormnet compare --json` files (scripts/ccl_c3.sh).
(Debian python3-matplotlib for --plot, no pip.)

usage: scripts/ccl_tables.py COMPARE.json ...              per op, network and port model: every run
       scripts/ccl_tables.py --summary COMPARE.json ...    one row per op x network x ports x size: winners
       scripts/ccl_tables.py --plot PNG COMPARE.json ...   combine: measured / model vs m, one panel per network

Columns:
  model T      predicted.paper: the CCL linear model T = C1*t_s + C2*t_c (t_s = 60 cycles = 28.8 us,
               t_c = 1 cycle per 4-byte word = 0.12 us/B for --profile sp1), with the run's C1 and C2
               (barrier mode: sync-in / sync-out token steps included);
  step model   predicted.cycles: the same schedule on the real network without contention (per step
               alpha + hops + flits + gamma, algorithms/cost_model.h);
  C3           the algorithm's C3 (the CCL paper's formula for the hybrid family and scatter/gather, ours for
               the circulant combine and prefix), printed in predicted.formula: data words sent over the network; the
               script checks it against words_sent, which also counts barrier mode's sync-in / sync-out
               tokens (one word each, n - 1 = 63 of them for scatter, gather, prefix);
  flit-hops    the link load: every flit (headers and tokens included) times the hops it travels;
  stepwise / depth / port / flow
               the contention monitor's delay over zero load, summed over the messages, in cycles:
               blocked by a message of the same step / of another step / at the ejection or own injection
               channel / by credits.
Winners: the model's winner is every algorithm with the least model T (butterfly and circulant combine
tie: same C1 and C2); "model's pick, measured" is the best measured time inside that tie set (the most
favourable reading for the model); a row is flagged DIFFERS when the measured winner is outside it.
Nothing is rounded before a comparison; cycles are printed exactly, us to 0.01."""
import json
import re
import sys
from collections import OrderedDict, defaultdict

from debian_python import require

NETS = ["mesh:8x8", "torus:8x8", "cube:6"]
PORTS = ["one", "all"]
ORDER = {"combine": ["butterfly", "circulant", "hybrid k=1", "hybrid k=2", "hybrid k=3", "hybrid k=4",
                     "hybrid k=5", "reduce-bcast"],
         "prefix": ["circulant", "tree"], "scatter": ["binomial", "direct"], "gather": ["binomial", "direct"]}
CLASSES = ["stepwise", "depth", "port", "flow"]


def alg_name(opts):
    a = opts.get("--ccl-alg", "auto")
    if a == "hybrid":
        return "hybrid k=%s" % opts.get("--kappa", "0")
    return a


def load(paths):
    recs = []
    for p in paths:
        d = json.load(open(p))
        summ, runs = d["summary"], d["runs"]
        if len(summ) != len(runs):
            sys.exit("%s: %d summary rows but %d runs (one source per point expected)" % (p, len(summ), len(runs)))
        for s, r in zip(summ, runs):
            c = r["config"]
            if (s["ports"], s["bytes"], s["algorithm"]) != (c["ports"], c["bytes"], c["algorithm"]):
                sys.exit("%s: summary and runs out of order" % p)
            if r.get("error") or r.get("data_check") != "PASS":
                sys.exit("%s: %s %s failed: %s %s" % (p, s["variant"], c["bytes"], r.get("error"), r.get("data_check")))
            f = r["predicted"]["formula"]
            m = re.findall(r"C1 = (\d+) steps, C2 = (\d+) words, C3 = (\d+) words", f)
            c1, c2, c3 = (int(x) for x in m[-1])
            tokens = r["words_sent"] - c3  # barrier mode: the sync-in / sync-out tokens, one word each
            if tokens < 0 or (tokens and "token steps" not in f) or tokens >= 2 * 64:
                sys.exit("%s: %s: formula C3 %d vs words_sent %d" % (p, s["variant"], c3, r["words_sent"]))
            alg = alg_name(s.get("options", {}))
            if alg.startswith("hybrid") and "hybrid" not in f:
                sys.exit("%s: variant %s but formula %s" % (p, alg, f))
            recs.append(dict(
                op=c["algorithm"].replace("ccl-", ""), net=c["topology"], ports=c["ports"], bytes=c["bytes"],
                alg=alg, sync=c["sync"], c1=c1, c2=c2, c3=c3, flit_hops=r["flit_hops"],
                cycles=r["cycles"], us=r["microseconds"], paper=r["predicted"]["paper"]["cycles"],
                step=r["predicted"]["cycles"], clock=c["profile"]["clock_ns"],
                **{k: r["contention"][k] for k in CLASSES}, port_wait=r["contention"]["port_wait"],
                late=r["contention"]["delayed_messages"], messages=r["messages"]))
    return recs


def num(x):
    """A model time: exact (integral cycles print as integers)."""
    return "%d" % x if float(x).is_integer() else "%.1f" % x


def key_of(r):
    return (r["op"], r["net"], r["sync"], r["ports"], r["bytes"])


def index(recs):
    pts = defaultdict(OrderedDict)
    for r in recs:
        pts[key_of(r)][r["alg"]] = r
    return pts


def sorted_algs(op, algs):
    o = ORDER.get(op, [])
    return sorted(algs, key=lambda a: (o.index(a) if a in o else len(o), a))


def same(a, b):
    return a["cycles"] == b["cycles"] and all(a[k] == b[k] for k in CLASSES)


def winners(pt):
    """pt: alg -> rec. Returns (model tie set, measured winner set, model pick's best measured)."""
    tmin = min(r["paper"] for r in pt.values())
    model = [a for a, r in pt.items() if r["paper"] == tmin]
    cmin = min(r["cycles"] for r in pt.values())
    meas = [a for a, r in pt.items() if r["cycles"] == cmin]
    pick = min(pt[a]["cycles"] for a in model)
    return model, meas, pick, cmin, tmin


def size_label(op, b):
    if op in ("scatter", "gather"):
        return "b=%d (m=%d)" % (b, 64 * b)
    return "%d" % b


def ports_identical(pts, op, net, sync):
    """True when both port models ran and every run agrees; None when a port model is missing."""
    n = 0
    for k, pt in pts.items():
        if k[0] == op and k[1] == net and k[2] == sync and k[3] == "one":
            other = pts.get((op, net, sync, "all", k[4]))
            if other is None:
                return None
            for a, r in pt.items():
                if a not in other or not same(r, other[a]):
                    return False
                n += 1
    return True if n else None


def tables(recs):
    pts = index(recs)
    ops = sorted({r["op"] for r in recs}, key=lambda o: list(ORDER).index(o) if o in ORDER else 9)
    syncs = sorted({r["sync"] for r in recs})
    out = []
    for op in ops:
        for sync in syncs:
            for net in NETS:
                ident = ports_identical(pts, op, net, sync)
                plist = [p for p in PORTS if any(k[:4] == (op, net, sync, p) for k in pts)]
                if ident:
                    plist = ["one"]
                for ports in plist:
                    sizes = sorted(k[4] for k in pts if k[:4] == (op, net, sync, ports))
                    if not sizes:
                        continue
                    pl = ("one-port = all-port (every run: same cycles and contention)" if ident
                          else "%s-port" % ports)
                    out.append("### %s, %s, %s, --sync %s\n" % (op, net, pl, sync))
                    out.append("| %s | algorithm | C1 | C3 words | flit-hops | model T | step model | measured cycles "
                               "| measured us | measured/model | stepwise | depth | port | flow |"
                               % ("b (B per rank; m = 64 b)" if op in ("scatter", "gather") else "m (B)"))
                    out.append("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
                    for b in sizes:
                        pt = pts[(op, net, sync, ports, b)]
                        model, meas, pick, cmin, tmin = winners(pt)
                        for a in sorted_algs(op, pt):
                            r = pt[a]
                            mark = ("M" if a in model else "") + ("*" if a in meas else "")
                            out.append("| %d | %s%s | %d | %d | %d | %s | %s | %d | %.2f | %.3f | %d | %d | %d | %d |" % (
                                b, a, " (%s)" % mark if mark else "", r["c1"], r["c3"], r["flit_hops"], num(r["paper"]),
                                num(r["step"]), r["cycles"], r["us"], r["cycles"] / r["paper"],
                                r["stepwise"], r["depth"], r["port"], r["flow"]))
                    out.append("")
                    out.append("(M) = the model's winner (least model T), (*) = the measured winner.\n")
                    out.append(winner_table(pts, [(op, net, sync, ports, b) for b in sizes], with_head=True))
    return "\n".join(out)


def winner_row(pts, k):
    pt = pts[k]
    model, meas, pick, cmin, tmin = winners(pt)
    op, net, sync, ports, b = k
    differs = not set(meas) & set(model)
    loss = (pick - cmin) / cmin
    best_model_alg = min(model, key=lambda a: pt[a]["cycles"])
    rest = sorted((r["cycles"], a) for a, r in pt.items() if a not in meas)
    second = "%s %+.2f%%" % (rest[0][1], 100.0 * (rest[0][0] - cmin) / cmin) if rest else "-"
    return "| %s | %s | %s | %s | %s (%s) | %s (%d) | %s | %d | %s | %s |" % (
        op, net, "one = all" if ports_identical(pts, op, net, sync) else ports, size_label(op, b), " = ".join(model), num(tmin),
        " = ".join(meas), cmin, second, pick, "%+.1f%%" % (100 * loss) if loss else "0",
        "**DIFFERS**: %s %.3fx faster than %s" % (meas[0], pick / cmin, best_model_alg) if differs else "same")


def winner_table(pts, keys, with_head=True):
    out = []
    if with_head:
        out.append("| op | network | ports | size (B) | model's winner (model T) | measured winner (cycles) "
                   "| runner-up | model's pick, measured | loss of the model's pick | measured vs model |")
        out.append("|---|---|---|---:|---|---|---|---:|---:|---|")
    for k in keys:
        out.append(winner_row(pts, k))
    return "\n".join(out) + "\n"


def summary(recs):
    pts = index(recs)
    keys = []
    ops = [o for o in ORDER if any(r["op"] == o for r in recs)]
    for sync in sorted({r["sync"] for r in recs}):
        for op in ops:
            for net in NETS:
                ident = ports_identical(pts, op, net, sync)
                for ports in (["one"] if ident else PORTS):
                    keys += sorted((k for k in pts if k[:4] == (op, net, sync, ports)), key=lambda k: k[4])
    out = [winner_table(pts, keys)]
    idents = [(op, net) for op in ops for net in NETS for sync in sorted({r["sync"] for r in recs})
              if ports_identical(pts, op, net, sync)]
    if idents:
        out.append("One-port and all-port identical (cycles and every contention class, every algorithm and size): "
                   + ", ".join("%s %s" % x for x in idents) + ".")
    nd = sum(1 for k in keys if not set(winners(pts[k])[1]) & set(winners(pts[k])[0]))
    out.append("Rows where the measured winner is not the model's: %d of %d." % (nd, len(keys)))
    return "\n".join(out)


def plot(recs, png):
    """Top row: measured / the algorithm's own model T (what C3 costs it); bottom row: measured / the
    model's winner's T (butterfly = circulant), so the lowest line is the measured winner."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    recs = [r for r in recs if r["op"] == "combine" and r["sync"] == "free"]
    pts = index(recs)
    fig, axes = plt.subplots(2, 3, figsize=(15, 8.6), sharey="row", sharex=True)
    algs = sorted_algs("combine", {r["alg"] for r in recs})
    cmap = plt.get_cmap("viridis")
    for col, net in enumerate(NETS):
        ident = ports_identical(pts, "combine", net, "free")
        for a in algs:
            colr = "tab:red" if a == "butterfly" else "tab:orange" if a == "circulant" else \
                "black" if a == "reduce-bcast" else cmap(0.15 + 0.7 * (int(a[-1]) - 1) / 4)
            for ports, ls in (("one", "-"), ("all", "--")):
                if ident and ports == "all":
                    continue
                xs = sorted(r["bytes"] for r in recs if r["net"] == net and r["alg"] == a and r["ports"] == ports)
                if not xs:
                    continue
                pp = [pts[("combine", net, "free", ports, x)] for x in xs]
                best_t = [min(q["paper"] for q in pt.values()) for pt in pp]
                lab = "%s%s" % (a, "" if ident else " (%s-port)" % ports)
                axes[0][col].plot(xs, [pt[a]["cycles"] / pt[a]["paper"] for pt in pp], ls, marker="o", ms=4,
                                  color=colr, label=lab)
                axes[1][col].plot(xs, [pt[a]["cycles"] / t for pt, t in zip(pp, best_t)], ls, marker="o", ms=4,
                                  color=colr, label=lab)
        axes[0][col].set_title("%s%s" % (net, ", one-port = all-port" if ident else ""))
        for row in (0, 1):
            ax = axes[row][col]
            ax.set_xscale("log", base=2)
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.grid(True, which="both", alpha=0.3)
        axes[1][col].set_xlabel("m (bytes per process)")
    axes[0][0].set_ylabel("measured / its own model T = C1 t_s + C2 t_c")
    axes[1][0].set_ylabel("measured / model T of the model's winner\n(butterfly = circulant); lowest = fastest")
    axes[0][0].legend(fontsize=8)
    fig.suptitle("CCL combine (allreduce), n = 64, --profile sp1, --op sum, CCL barrier mode, --sync free, "
                 "--backend model: what C3 costs (model T: butterfly = circulant < hybrid k=1..5 < reduce+bcast)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def main(argv):
    if argv and argv[0] == "--summary":
        print(summary(load(argv[1:])))
    elif argv and argv[0] == "--plot":
        require("matplotlib")
        plot(load(argv[2:]), argv[1])
    elif argv:
        print(tables(load(argv)))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
