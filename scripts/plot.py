#!/usr/bin/env python3
"""Plots from wormnet JSON reports (Debian python3-matplotlib, no pip).

  scripts/plot.py run REPORT.json OUTDIR [--format png|svg]
      heatmap.FMT: per-step channel load, one panel per step on the mesh/torus
      grid (3D: one row per step, one panel per z-plane); a dimension x node
      matrix per step for cubes; all panels share one colour scale
      timeline.FMT: message timeline (Gantt) coloured by step
  scripts/plot.py compare COMPARE.json OUTDIR [--format png|svg]
      one message size: compare.FMT, one bar for every row of the report
      (variant x network x port model): grouped by variant (and network),
      one bar per port model; cycles, with several --sources the mean over
      them of the maximum latency
      several sizes: latency.FMT, the mean over the sources of the average and
      the maximum latency (us) vs message size, log-log, one line per variant,
      network and port model (scripts/plot_compare.py)

  scripts/plot.py tau TAU.json OUTDIR [--format png|svg]
      a `wormnet tau --json` report: tau.FMT, the tau-plot of Tsai's thesis
      (Ch 5): every fitted operation as the point (tau, T_s), log-log, with the
      thesis's closed form beside it and, with tau --around X, Fig 5.2's four
      regions around X shaded; lines.FMT, T(L) of every fit with the measured
      points and the crossovers L* (scripts/plot_tau.py). --machines CSV adds
      the real machines of the thesis's Tables 5.1/5.6/5.7 to the tau-plot
      (docs/papers/tsai_ch5_machines.csv)

  scripts/plot.py sweep RESULTS OUTDIR [--format png|svg]
      RESULTS: a results file (wormnet sweep SPEC.yaml --out F) or the quick
      rate sweep's report (wormnet sweep --topology ... --json F). Run points:
      latency vs size with error bars over sources, speed-up of more ports vs
      network size, contention by class, measured vs predicted; traffic
      points: accepted throughput, and total (with source queueing) and
      network latency, vs offered load (scripts/plot_sweep.py,
      scripts/plot_traffic.py). Every parameter that varies besides the x
      axis and the source makes its own line or bar, labelled by its value

REPORT.json comes from `wormnet run --json`, COMPARE.json from `wormnet compare --json`.
Channel load per step = flits of that step's messages that crossed the channel
(from each message's path in the report's message_log; summed over the steps
this equals the report's per-channel `flits`).

Conventions shared by every plot, so figures can be compared with each other:
  * sweep and compare figures have FIG.csv beside them: the numbers drawn,
    one row per point, every column's name ending in its unit (cycles, us,
    bytes, flits_per_node_cycle) or naming a count or a ratio;
  * titles name what every point shares (network, pattern, VCs, buffer
    depth, profile, ...); legends name what differs;
  * a colour bar spans exactly [0, true maximum] of what it shows and has the
    maximum as a labelled tick, so no value is ever clipped at the top;
  * legends and colour bars sit outside the axes and are kept in the saved
    file (constrained layout / bbox_inches="tight"), so they cover no data.
"""
import argparse
import json
import os
import sys

from debian_python import require

require("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import colors, patches  # noqa: E402

from plot_common import DPI, range_ticks  # noqa: E402
from plot_compare import plot_compare_report  # noqa: E402
from plot_heatmap import plot_heatmaps  # noqa: E402
from plot_sweep import plot_sweep  # noqa: E402
from plot_tau import plot_tau_lines, plot_tau_points, read_machines  # noqa: E402

def plot_gantt(report, outdir, fmt):
    """timeline.FMT: one row per message, grouped by source node; grey = startup
    (issued -> posted), colour = on the network (head injected -> tail
    delivered) by step. Up to 20 steps get a legend of distinct colours, more a
    continuous step colour bar; both sit right of the axes so no bar is hidden."""
    msgs = sorted(report["message_log"], key=lambda m: (m["src"], m["issued"]))
    steps = sorted({m["step"] for m in msgs})
    fig, ax = plt.subplots(figsize=(11, max(3, min(0.02 * len(msgs) + 2, 20))), layout="constrained")
    if len(steps) <= 20:
        tab = plt.get_cmap("tab10" if len(steps) <= 10 else "tab20")  # tab10: more distinct
        color = {s: tab(i) for i, s in enumerate(steps)}
        norm = None
    else:
        norm = colors.Normalize(vmin=steps[0], vmax=steps[-1])
        color = {s: plt.get_cmap("viridis")(norm(s)) for s in steps}
    ys = range(len(msgs))
    ax.barh(ys, [m["posted"] - m["issued"] for m in msgs], left=[m["issued"] for m in msgs],
            color="0.8", height=0.9, linewidth=0)
    ax.barh(ys, [m["delivered"] - m["head_injected"] for m in msgs], left=[m["head_injected"] for m in msgs],
            color=[color[m["step"]] for m in msgs], height=0.9, linewidth=0)
    ax.set_xlabel("cycle")
    ax.set_ylabel("message, grouped by source node")
    ax.set_ylim(-0.5, max(len(msgs), 1) - 0.5)
    ax.set_xlim(left=0)
    # y ticks at each source node's first message, thinned so labels never overlap
    firsts = [(i, m["src"]) for i, m in enumerate(msgs) if i == 0 or msgs[i - 1]["src"] != m["src"]]
    max_labels = int(fig.get_size_inches()[1] * 5)
    every = -(-len(firsts) // max(max_labels, 1))
    firsts = firsts[::max(every, 1)]
    ax.set_yticks([i for i, _ in firsts])
    ax.set_yticklabels([f"node {n}" for _, n in firsts], fontsize=7)
    startup = patches.Patch(color="0.8", label="startup (issued \u2192 posted)")
    if norm is None:
        handles = [startup] + [patches.Patch(color=color[s], label=f"step {s}") for s in steps]
        ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    else:
        sm = plt.cm.ScalarMappable(norm=norm, cmap="viridis")
        cb = fig.colorbar(sm, ax=ax, ticks=range_ticks(steps[0], steps[-1]), shrink=0.8, aspect=40)
        cb.set_label("step (index) of the message, head injected \u2192 tail delivered")
        # above the axes' right end, clear of the centred title and of the bars
        ax.legend(handles=[startup], fontsize=7, loc="lower right", bbox_to_anchor=(1, 1.005), borderaxespad=0)
    cfg = report["config"]
    ax.set_title(f"{cfg['algorithm']} on {cfg['topology']} ({cfg['ports']} port): message timeline\n"
                 "grey: startup, colour: head injected \u2192 tail delivered", fontsize=10)
    path = os.path.join(outdir, f"timeline.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["run", "compare", "sweep", "tau"])
    ap.add_argument("report")
    ap.add_argument("outdir")
    ap.add_argument("--format", choices=["png", "svg"], default="png")
    ap.add_argument("--machines", help="tau: a CSV of machines to place on the tau-plot")
    a = ap.parse_args()
    if a.machines and a.kind != "tau":
        sys.exit("error: --machines: only for the tau plot (scripts/plot.py tau ...)")
    if a.kind == "sweep":  # JSON lines, not one report
        os.makedirs(a.outdir, exist_ok=True)
        for p in plot_sweep(a.report, a.outdir, a.format):
            print(p)
        return
    with open(a.report) as f:
        report = json.load(f)
    os.makedirs(a.outdir, exist_ok=True)
    schema = report.get("schema", "")
    if a.kind == "tau":
        if schema != "wormnet.tau/1":
            sys.exit(f"error: {a.report}: schema '{schema}', expected wormnet.tau/1 (wormnet tau --json)")
        machines = read_machines(a.machines) if a.machines else None
        out = [plot_tau_points(report, a.outdir, a.format, machines), plot_tau_lines(report, a.outdir, a.format)]
    elif a.kind == "run":
        if schema != "wormnet.run/2":
            sys.exit(f"error: {a.report}: schema '{schema}', expected wormnet.run/2 (wormnet run --json)")
        out = [plot_heatmaps(report, a.outdir, a.format), plot_gantt(report, a.outdir, a.format)]
    else:
        if schema != "wormnet.compare/3":
            sys.exit(f"error: {a.report}: schema '{schema}', expected wormnet.compare/3 (wormnet compare --json)")
        out = [plot_compare_report(report, a.outdir, a.format)]
    for p in out:
        print(p)


if __name__ == "__main__":
    main()
