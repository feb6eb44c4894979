#!/usr/bin/env python3
"""How much of the all-port advantage survives a node memory port (docs/memory-port.md).

  scripts/memory_port_table.py [--bytes 256] [--out DIR] [--reuse] [--wormnet build/wormnet]

For each network (cube:6, mesh:8x8, torus:8x8; 64 nodes) and algorithm, runs
`wormnet compare --ports one,all --mem-words-per-cycle 1,2,K,all` (K: the
network's channels per node, 6 or 4) and prints, per memory rate, the one-port
and all-port cycles and the all-port advantage one/all, with the share of the
unlimited-memory advantage that is left: (adv - 1) / (adv_unlimited - 1).
Writes DIR/memory_port.json (the rows) and DIR/memory_port.png (advantage per
rate). --reuse takes DIR's compare reports of an earlier run.
"""
import json
import os
import sys

from debian_python import prefer_python_with
from script_runs import cached_report, table_parser
# (topology, channels per node, [(label, algorithm, extra options)])
CASES = [
    ("cube:6", 6, [("hc-dcycles", "hc-dcycles", []), ("butterfly", "butterfly", []),
                   ("direct-alltoall", "direct-alltoall", []), ("bruck-index r=2", "bruck-index", ["--radix", "2"]),
                   ("bruck-index r=7", "bruck-index", ["--radix", "7"])]),
    ("mesh:8x8", 4, [("edn-broadcast", "edn-broadcast", []), ("direct-alltoall", "direct-alltoall", []),
                     ("bruck-index r=2", "bruck-index", ["--radix", "2"]),
                     ("bruck-index r=5", "bruck-index", ["--radix", "5"])]),
    ("torus:8x8", 4, [("direct-alltoall", "direct-alltoall", []),
                      ("bruck-index r=2", "bruck-index", ["--radix", "2"]),
                      ("bruck-index r=5", "bruck-index", ["--radix", "5"])]),
]


def compare(wormnet, topo, k, algo, extra, nbytes, path, reuse):
    cmd = [wormnet, "compare", "--topology", topo, "--algorithm", algo, *extra, "--ports", "one,all", "--bytes",
           str(nbytes), "--mem-words-per-cycle", f"1,2,{k},all", "-j", "2", "--json", path]
    return {row["ports"]: row["mean_cycles"] for row in cached_report(cmd, path, reuse)["summary"]}


def main():
    ap = table_parser(__doc__, "memory_port_out")
    ap.add_argument("--bytes", type=int, default=256)
    a = ap.parse_args()
    prefer_python_with("matplotlib")  # the tables need none; the plot does
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for topo, k, algos in CASES:
        rates = ["1", "2", str(k), "all"]
        print(f"\n#### {topo}, {a.bytes} B blocks: cycles one-port / all-port, advantage (share left)\n")
        print("| algorithm | " + " | ".join(f"mem={r}" for r in rates) + " |")
        print("|---|" + "---|" * len(rates))
        for label, algo, extra in algos:
            path = os.path.join(a.out, f"{topo.replace(':', '_')}_{label.replace(' ', '_')}.json")
            cyc = compare(a.wormnet, topo, k, algo, extra, a.bytes, path, a.reuse)
            adv = {r: cyc[f"one mem={r}"] / cyc[f"all mem={r}"] for r in rates}
            cells = []
            for r in rates:
                left = (adv[r] - 1) / (adv["all"] - 1) if adv["all"] > 1.0005 else None
                share = f" ({left:.0%})" if left is not None and r != "all" else ""
                cells.append(f"{cyc[f'one mem={r}']:.0f} / {cyc[f'all mem={r}']:.0f}, {adv[r]:.2f}x{share}")
                rows.append({"topology": topo, "algorithm": label, "mem_words_per_cycle": r,
                             "one_port_cycles": cyc[f"one mem={r}"], "all_port_cycles": cyc[f"all mem={r}"],
                             "advantage": adv[r]})
            print(f"| {label} | " + " | ".join(cells) + " |")
    with open(os.path.join(a.out, "memory_port.json"), "w") as f:
        json.dump(rows, f, indent=1)
    plot(rows, os.path.join(a.out, "memory_port.png"))


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    topos = [c[0] for c in CASES]
    fig, axes = plt.subplots(1, len(topos), figsize=(5 * len(topos), 4), sharey=True)
    for ax, (topo, k, algos) in zip(axes, CASES):
        rates = ["1", "2", str(k), "all"]
        width = 0.8 / len(rates)
        for i, r in enumerate(rates):
            ys = [next(x["advantage"] for x in rows if x["topology"] == topo and x["algorithm"] == lab and
                       x["mem_words_per_cycle"] == r) for lab, _, _ in algos]
            ax.bar([j + i * width for j in range(len(algos))], ys, width, label=["1 word/cycle", "2 words/cycle", "k words/cycle (k = channels per node)",
                                                  "unlimited"][i])
        ax.axhline(1, color="black", linewidth=0.8)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(algos))])
        ax.set_xticklabels([lab for lab, _, _ in algos], rotation=30, ha="right", fontsize=8)
        ax.set_title(topo)
    axes[0].set_ylabel("all-port advantage (one-port cycles / all-port cycles)")
    axes[-1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"\nwrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
