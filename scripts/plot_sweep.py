"""Plots of a sweep's results file (`wormnet sweep SPEC.yaml --out RESULTS.jsonl`), for plot.py.

Run points (run, check --simulate):
  latency.FMT     maximum and average latency (cycles) vs message size, log-log, one line per
                  algorithm and port model, error bars min..max over the sources; one row of
                  panels per topology and profile
  speedup.FMT     one-port's cycles over each other port model's, per network (in order of size)
                  and algorithm
                  (when the sweep has a one-port model and another)
  contention.FMT  mean contention-delay cycles per class (stacked), per algorithm and port model,
                  at the largest message size of each topology
  predicted.FMT   measured vs predicted cycles (the algorithm's step model; log-log, y = x
                  dashed), measured / predicted vs message size, and, where the family gives an
                  all-port lower bound, the efficiency (bound / measured) vs message size
Traffic points:
  throughput.FMT  accepted throughput and network latency vs offered load, one line per port model
"""
import json
import os
from collections import OrderedDict

import matplotlib.pyplot as plt

from plot_common import DPI

CLASSES = ["stepwise", "depth", "port", "flow"]


def load(path):
    """One line per key: the last successful one, else the last one (as wormnet merges)."""
    by_key = OrderedDict()
    with open(path) as f:
        for text in f:
            try:
                j = json.loads(text)
            except ValueError:
                continue  # a torn last line of a killed writer
            k = j.get("key")
            if k is None:
                continue
            if k not in by_key or j.get("ok") or not by_key[k].get("ok"):
                by_key[k] = j
    return [j for j in by_key.values() if j.get("ok")]


def cfg(j, key, default="-"):
    return j.get("config", {}).get(key, j.get("params", {}).get(key, default))


def profile(j):
    return j.get("config", {}).get("profile", {}).get("name", "-")


def title(lines, what):
    seeds = sorted({str(j.get("params", {}).get("seed", cfg(j, "seed"))) for j in lines})
    return f"{what} (seed {', '.join(seeds)})"


def save(fig, outdir, name, fmt):
    path = os.path.join(outdir, f"{name}.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_latency(lines, outdir, fmt):
    groups = list(dict.fromkeys((cfg(j, "topology"), profile(j)) for j in lines))
    tab = plt.get_cmap("tab10")
    styles = ["-", "--", ":", "-."]
    fig, axes = plt.subplots(len(groups), 2, figsize=(11, 3.8 * len(groups)), layout="constrained", squeeze=False)
    for row, (topo, prof) in enumerate(groups):
        mine = [j for j in lines if cfg(j, "topology") == topo and profile(j) == prof]
        algos = list(dict.fromkeys(cfg(j, "algorithm") for j in mine))
        ports = list(dict.fromkeys(str(cfg(j, "ports")) for j in mine))
        for ax, key, name in zip(axes[row], ["maximum_cycles", "average_cycles"], ["maximum", "average"]):
            for i, a in enumerate(algos):
                for k, p in enumerate(ports):
                    pts = {}
                    for j in mine:
                        if cfg(j, "algorithm") == a and str(cfg(j, "ports")) == p and j["latency"][key] > 0:
                            pts.setdefault(cfg(j, "bytes"), []).append(j["latency"][key])
                    if not pts:
                        continue
                    xs = sorted(pts)
                    mean = [sum(pts[x]) / len(pts[x]) for x in xs]
                    err = [[m - min(pts[x]) for m, x in zip(mean, xs)], [max(pts[x]) - m for m, x in zip(mean, xs)]]
                    ax.errorbar(xs, mean, yerr=err, linestyle=styles[k % len(styles)], marker="o", markersize=3,
                                capsize=2, color=tab(i % 10), label=f"{a}, {p}-port")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("message size, bytes")
            ax.set_ylabel(f"{name} latency, cycles")
            ax.set_title(f"{topo}, profile {prof}", fontsize=9)
            ax.grid(True, which="both", linewidth=0.3)
        axes[row][1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    fig.suptitle(title(lines, "latency vs message size: mean over sources, bars min..max"), fontsize=10)
    return save(fig, outdir, "latency", fmt)


def nodes(topology):
    kind, _, dims = topology.partition(":")
    if kind == "cube":
        return 2 ** int(dims)
    n = 1
    for d in dims.split("x"):
        n *= int(d)
    return n


def plot_speedup(lines, outdir, fmt):
    ports = list(dict.fromkeys(str(cfg(j, "ports")) for j in lines))
    if "one" not in ports or len(ports) < 2:
        return None
    mean = {}
    for j in lines:
        k = (cfg(j, "algorithm"), str(cfg(j, "ports")), cfg(j, "topology"))
        mean.setdefault(k, []).append(j["cycles"])
    algos = list(dict.fromkeys(cfg(j, "algorithm") for j in lines))
    topos = sorted(dict.fromkeys(cfg(j, "topology") for j in lines), key=nodes)
    # Grouped bars, one group per network in order of size: several networks may have one node count.
    tab = plt.get_cmap("tab10")
    series = [(a, p) for a in algos for p in ports if p != "one"]
    width = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(topos) + 3), 4.2), layout="constrained")
    for s_i, (a, p) in enumerate(series):
        xs, ys = [], []
        for t_i, t in enumerate(topos):
            if (a, "one", t) in mean and (a, p, t) in mean:
                xs.append(t_i - 0.4 + width * (s_i + 0.5))
                ys.append(sum(mean[(a, "one", t)]) / sum(mean[(a, p, t)]))
        ax.bar(xs, ys, width, color=tab(algos.index(a) % 10), alpha=1.0 - 0.3 * (ports.index(p) % 3),
               label=f"{a}, {p}-port")
    ax.axhline(1, color="grey", linewidth=0.6)
    ax.set_xticks(range(len(topos)), [f"{t}\n{nodes(t)} nodes" for t in topos], fontsize=8)
    ax.set_xlabel("network, in order of size")
    ax.set_ylabel("speed-up over one-port (ratio of cycles)")
    ax.grid(True, axis="y", linewidth=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    fig.suptitle(title(lines, "speed-up of more ports: total cycles over all sizes and sources"), fontsize=10)
    return save(fig, outdir, "speedup", fmt)


def plot_contention(lines, outdir, fmt):
    topos = list(dict.fromkeys(cfg(j, "topology") for j in lines))
    fig, axes = plt.subplots(1, len(topos), figsize=(4.5 * len(topos), 4.2), layout="constrained", squeeze=False)
    colors = plt.get_cmap("Set2")
    for ax, t in zip(axes[0], topos):
        mine = [j for j in lines if cfg(j, "topology") == t]
        big = max(cfg(j, "bytes") for j in mine)
        mine = [j for j in mine if cfg(j, "bytes") == big]
        bars = list(dict.fromkeys((cfg(j, "algorithm"), str(cfg(j, "ports"))) for j in mine))
        bottom = [0.0] * len(bars)
        for c, cls in enumerate(CLASSES):
            vals = []
            for a, p in bars:
                v = [j["contention"][cls] for j in mine if (cfg(j, "algorithm"), str(cfg(j, "ports"))) == (a, p)]
                vals.append(sum(v) / len(v))
            ax.bar(range(len(bars)), vals, bottom=bottom, color=colors(c), label=cls)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xticks(range(len(bars)), [f"{a}\n{p}-port" for a, p in bars], fontsize=7, rotation=45, ha="right")
        ax.set_ylabel("contention delay, cycles (mean over sources)")
        ax.set_title(f"{t}, {big} bytes", fontsize=9)
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    fig.suptitle(title(lines, "contention delay by class at the largest message size"), fontsize=10)
    return save(fig, outdir, "contention", fmt)


def plot_traffic(lines, outdir, fmt):
    ports = list(dict.fromkeys(str(cfg(j, "ports")) for j in lines))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    for p in ports:
        pts = sorted((float(j["params"].get("rate", 0)), j["throughput"]["accepted"], j["network_latency"]["avg"])
                     for j in lines if str(cfg(j, "ports")) == p)
        axes[0].plot([x for x, _, _ in pts], [y for _, y, _ in pts], marker="o", markersize=3, label=f"{p}-port")
        axes[1].plot([x for x, _, _ in pts], [z for _, _, z in pts], marker="o", markersize=3, label=f"{p}-port")
    axes[0].set_ylabel("accepted throughput, flits/node/cycle")
    axes[1].set_ylabel("network latency, cycles (average)")
    for ax in axes:
        ax.set_xlabel("offered load, flits/node/cycle")
        ax.grid(True, linewidth=0.3)
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    topo = ", ".join(dict.fromkeys(str(cfg(j, "topology")) for j in lines))
    fig.suptitle(title(lines, f"{topo}: throughput and latency vs offered load"), fontsize=10)
    return save(fig, outdir, "throughput", fmt)


def plot_predicted(lines, outdir, fmt):
    """Measured against the analytic model, one colour per algorithm, one marker per port model."""
    pts = [j for j in lines if j.get("predicted", {}).get("cycles", 0) > 0 and j["cycles"] > 0]
    if not pts:
        return None
    eff = [j for j in pts if j.get("efficiency", 0) > 0]
    algos = list(dict.fromkeys(cfg(j, "algorithm") for j in pts))
    ports = list(dict.fromkeys(str(cfg(j, "ports")) for j in pts))
    tab, markers = plt.get_cmap("tab10"), ["o", "s", "^", "D", "v"]
    fig, axes = plt.subplots(1, 3 if eff else 2, figsize=(15 if eff else 11, 4.2), layout="constrained")
    for i, a in enumerate(algos):
        for k, p in enumerate(ports):
            mine = [j for j in pts if cfg(j, "algorithm") == a and str(cfg(j, "ports")) == p]
            if not mine:
                continue
            style = dict(color=tab(i % 10), marker=markers[k % len(markers)], label=f"{a}, {p}-port")
            axes[0].scatter([j["predicted"]["cycles"] for j in mine], [j["cycles"] for j in mine], s=12, **style)
            axes[1].scatter([cfg(j, "bytes") for j in mine], [j["cycles"] / j["predicted"]["cycles"] for j in mine],
                            s=12, **style)
            if eff:
                e = [j for j in mine if j.get("efficiency", 0) > 0]
                axes[2].scatter([cfg(j, "bytes") for j in e], [j["efficiency"] for j in e], s=12, **style)
    lo = min(min(j["predicted"]["cycles"], j["cycles"]) for j in pts)
    hi = max(max(j["predicted"]["cycles"], j["cycles"]) for j in pts)
    axes[0].plot([lo, hi], [lo, hi], "--", color="grey", linewidth=0.8)
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xlabel("predicted cycles (step model)")
    axes[0].set_ylabel("measured cycles")
    axes[1].axhline(1, color="grey", linewidth=0.6)
    axes[1].set_xscale("log", base=2)
    axes[1].set_xlabel("message size, bytes")
    axes[1].set_ylabel("measured / predicted")
    if eff:
        axes[2].set_xscale("log", base=2)
        axes[2].set_ylim(0, 1.05)
        axes[2].set_xlabel("message size, bytes")
        axes[2].set_ylabel("efficiency: lower bound / measured")
    for ax in axes:
        ax.grid(True, which="both", linewidth=0.3)
    axes[-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    fig.suptitle(title(lines, "measured vs the analytic model"), fontsize=10)
    return save(fig, outdir, "predicted", fmt)


def plot_sweep(path, outdir, fmt):
    lines = load(path)
    if not lines:
        raise SystemExit(f"error: {path}: no successful points to plot")
    if lines[0].get("command") == "traffic":
        return [plot_traffic(lines, outdir, fmt)]
    lines = [j for j in lines if "latency" in j]  # check points without --simulate have no run
    out = [plot_latency(lines, outdir, fmt), plot_speedup(lines, outdir, fmt), plot_contention(lines, outdir, fmt),
           plot_predicted(lines, outdir, fmt)]
    return [p for p in out if p]
