#!/usr/bin/python3
"""Plots from wormnet JSON reports (Debian python3-matplotlib, no pip).

  scripts/plot.py run REPORT.json OUTDIR [--format png|svg]
      per-step heat maps of channel load laid out on the mesh/torus grid
      (z-slices side by side for 3D; a dimension x node matrix for cubes),
      and a message timeline (Gantt) coloured by step
  scripts/plot.py compare COMPARE.json OUTDIR [--format png|svg]
      cycles per algorithm, one bar per port model

REPORT.json comes from `wormnet run --json`, COMPARE.json from `wormnet compare --json`.
Channel load per step = flits of that step's messages that crossed the channel
(from each message's path in the report's message_log).
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cm, colors  # noqa: E402


def parse_topology(spec):
    kind, dims = spec.split(":")
    if kind == "cube":
        return kind, [2] * int(dims)
    return kind, [int(k) for k in dims.split("x")]


def coords(node, radix):
    c = []
    for k in radix:
        c.append(node % k)
        node //= k
    return c


def step_loads(report):
    """{step: {(from, to): flits}} from the message log."""
    wpf = max(1, report["config"]["profile"]["bytes_per_flit"] // 4)
    loads = {}
    for m in report["message_log"]:
        flits = m["packets"] + -(-m["words"] // wpf)
        path = m["path"]
        per = loads.setdefault(m["step"], {})
        for a, b in zip(path, path[1:]):
            per[(a, b)] = per.get((a, b), 0) + flits
    return loads


def cube_dim(a, b):
    x = a ^ b
    return x.bit_length() - 1


def plot_grid_step(ax, step, load, kind, radix, vmax):
    cmap = cm.get_cmap("inferno_r")
    norm = colors.Normalize(vmin=0, vmax=max(vmax, 1))
    kx = radix[0]
    ky = radix[1] if len(radix) > 1 else 1
    kz = radix[2] if len(radix) > 2 else 1
    gap = kx + 1  # z-slices side by side

    def pos(n):
        c = coords(n, radix) + [0, 0]
        return c[0] + c[2] * gap, c[1]

    n_nodes = kx * ky * kz
    xs, ys = zip(*[pos(n) for n in range(n_nodes)])
    ax.scatter(xs, ys, s=12, c="0.6", zorder=3)
    for (a, b), f in sorted(load.items(), key=lambda t: t[1]):
        (x0, y0), (x1, y1) = pos(a), pos(b)
        if abs(x1 - x0) + abs(y1 - y0) != 1:  # torus wrap-around or z link: short stub
            dx = (1 if x1 > x0 else -1) * 0.3 if x1 != x0 else 0
            dy = (1 if y1 > y0 else -1) * 0.3 if y1 != y0 else 0
            if x1 == x0 and y1 == y0:
                dx = dy = 0.25
            x1, y1 = x0 + dx, y0 + dy
        # offset the two directions of a link so both are visible
        ox, oy = (0, 0.08 if x1 > x0 else -0.08) if y1 == y0 else (0.08 if y1 > y0 else -0.08, 0)
        ax.annotate("", xy=(x1 + ox, y1 + oy), xytext=(x0 + ox, y0 + oy),
                    arrowprops=dict(arrowstyle="->", color=cmap(norm(f)), lw=1.8))
    ax.set_title(f"step {step}", fontsize=8)
    ax.set_aspect("equal")
    ax.axis("off")
    return cm.ScalarMappable(norm=norm, cmap=cmap)


def plot_heatmaps(report, outdir, fmt):
    kind, radix = parse_topology(report["config"]["topology"])
    loads = step_loads(report)
    steps = sorted(loads)
    vmax = max((max(l.values()) for l in loads.values() if l), default=1)
    if kind == "cube":
        d = len(radix)
        n = 2 ** d
        fig, axes = plt.subplots(1, len(steps), figsize=(min(3 * len(steps), 30), 3), squeeze=False)
        for ax, s in zip(axes[0], steps):
            mat = [[0] * n for _ in range(d)]
            for (a, b), f in loads[s].items():
                mat[cube_dim(a, b)][a] += f
            im = ax.imshow(mat, aspect="auto", cmap="inferno_r", vmin=0, vmax=vmax, interpolation="nearest")
            ax.set_title(f"step {s}", fontsize=8)
            ax.set_xlabel("node")
            ax.set_ylabel("dimension")
        fig.colorbar(im, ax=axes[0].tolist(), label="flits on the channel")
    else:
        cols = min(4, len(steps))
        rows = -(-len(steps) // cols)
        fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.5 * rows), squeeze=False)
        sm = None
        for i, s in enumerate(steps):
            sm = plot_grid_step(axes[i // cols][i % cols], s, loads[s], kind, radix, vmax)
        for j in range(len(steps), rows * cols):
            axes[j // cols][j % cols].axis("off")
        if sm is not None:
            fig.colorbar(sm, ax=axes.ravel().tolist(), label="flits on the channel")
    cfg = report["config"]
    fig.suptitle(f"{cfg['algorithm']} on {cfg['topology']} ({cfg['ports']} port): channel load per step")
    path = os.path.join(outdir, f"heatmap.{fmt}")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_gantt(report, outdir, fmt):
    msgs = sorted(report["message_log"], key=lambda m: (m["src"], m["issued"]))
    steps = sorted({m["step"] for m in msgs})
    cmap = cm.get_cmap("tab20", max(len(steps), 1))
    color = {s: cmap(i % 20) for i, s in enumerate(steps)}
    fig, ax = plt.subplots(figsize=(10, max(3, min(0.02 * len(msgs) + 2, 20))))
    for y, m in enumerate(msgs):
        ax.barh(y, m["posted"] - m["issued"], left=m["issued"], color="0.85", height=0.9)
        ax.barh(y, m["delivered"] - m["head_injected"], left=m["head_injected"], color=color[m["step"]], height=0.9)
    ax.set_xlabel("cycle")
    ax.set_ylabel("message (by source node)")
    if len(steps) <= 20:
        handles = [plt.Rectangle((0, 0), 1, 1, color=color[s]) for s in steps]
        ax.legend(handles, [f"step {s}" for s in steps], fontsize=7, loc="upper right")
    cfg = report["config"]
    ax.set_title(f"{cfg['algorithm']} on {cfg['topology']} ({cfg['ports']} port): message timeline "
                 "(grey: startup, colour: head injected -> tail delivered)")
    path = os.path.join(outdir, f"timeline.{fmt}")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_compare(report, outdir, fmt):
    runs = report["runs"]
    algos = list(dict.fromkeys(r["config"]["algorithm"] for r in runs))
    ports = list(dict.fromkeys(r["config"]["ports"] for r in runs))
    width = 0.8 / max(len(ports), 1)
    fig, ax = plt.subplots(figsize=(max(6, 1.5 * len(algos) * len(ports)), 4))
    for j, p in enumerate(ports):
        vals = []
        for a in algos:
            match = [r for r in runs if r["config"]["algorithm"] == a and r["config"]["ports"] == p]
            vals.append(match[0]["cycles"] if match else 0)
        xs = [i + j * width for i in range(len(algos))]
        bars = ax.bar(xs, vals, width, label=f"{p} port")
        ax.bar_label(bars, fontsize=7)
    ax.set_xticks([i + width * (len(ports) - 1) / 2 for i in range(len(algos))])
    ax.set_xticklabels(algos, rotation=15)
    ax.set_ylabel("cycles")
    cfg = runs[0]["config"]
    ax.set_title(f"{cfg['topology']}, {cfg['bytes']} bytes, profile {cfg['profile']['name']}")
    ax.legend()
    path = os.path.join(outdir, f"compare.{fmt}")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["run", "compare"])
    ap.add_argument("report")
    ap.add_argument("outdir")
    ap.add_argument("--format", choices=["png", "svg"], default="png")
    a = ap.parse_args()
    with open(a.report) as f:
        report = json.load(f)
    os.makedirs(a.outdir, exist_ok=True)
    schema = report.get("schema", "")
    if a.kind == "run":
        if schema != "wormnet.run/2":
            sys.exit(f"error: {a.report}: schema '{schema}', expected wormnet.run/2 (wormnet run --json)")
        out = [plot_heatmaps(report, a.outdir, a.format), plot_gantt(report, a.outdir, a.format)]
    else:
        if schema != "wormnet.compare/2":
            sys.exit(f"error: {a.report}: schema '{schema}', expected wormnet.compare/2 (wormnet compare --json)")
        out = [plot_compare(report, a.outdir, a.format)]
    for p in out:
        print(p)


if __name__ == "__main__":
    main()
