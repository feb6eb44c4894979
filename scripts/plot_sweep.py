"""Plots of a sweep's results, for plot.py sweep: a results file (`wormnet sweep SPEC.yaml --out
RESULTS.jsonl`, JSON lines) or the quick rate sweep's report (`wormnet sweep --topology ... --json
F`, wormnet.sweep/1). Every parameter that varies between the points, besides the x axis and the
source (averaged over), makes its own line or bar, labelled by the values that differ; each
figure's title names what is the same for all (network, VCs, buffer depth, profile, ...), and
each figure has a CSV beside it with the numbers drawn (FIG.csv, units in the column names).

Run points (run, check --simulate):
  latency.FMT     maximum and average latency (cycles) vs message size, log-log, error bars
                  min..max over the sources; one row of panels per topology and profile
  speedup.FMT     one-port's cycles over each other port model's, per network (in order of size)
                  and series, summed over the sizes and sources both have (when the sweep has a
                  one-port model and another)
  contention.FMT  mean contention-delay cycles per class (stacked), per series and port model,
                  at the largest message size of each topology
  predicted.FMT   measured vs predicted cycles (the algorithm's step model; log-log, y = x
                  dashed), measured / predicted vs message size, and, where the family gives an
                  all-port lower bound, the efficiency (bound / measured) vs message size
Traffic points: throughput.FMT, load-latency (scripts/plot_traffic.py)
"""
import json
import os

import matplotlib.pyplot as plt

from plot_common import DPI
from plot_series import by_x, describe, group, label, mean, series_keys, style, value, values, write_csv
from plot_traffic import plot_traffic

CLASSES = ["stepwise", "depth", "port", "flow"]
POOLED = ("source",)  # a run sweep's sources are one series' samples: error bars, means


def load(path):
    """The successful points of a results file (one line per key: the last successful one, else
    the last one, as wormnet merges) or of a wormnet.sweep/1 report."""
    with open(path) as f:
        body = f.read()
    try:
        whole = json.loads(body)
    except ValueError:
        whole = None
    if isinstance(whole, dict) and "key" not in whole:
        schema = whole.get("schema", "")
        if schema == "wormnet.sweep/1":
            return [dict(p, command="traffic") for p in whole.get("points", []) if p.get("ok")]
        if schema == "wormnet.traffic/1":
            return [dict(whole, command="traffic")] if whole.get("ok") else []
        raise SystemExit(f"error: {path}: schema '{schema}'; allowed: a results file (wormnet sweep SPEC.yaml "
                         f"--out F), wormnet.sweep/1 (wormnet sweep --topology ... --json F) or wormnet.traffic/1")
    by_key = {}
    for text in body.splitlines():
        try:
            j = json.loads(text)
        except ValueError:
            continue  # a torn last line of a killed writer
        k = j.get("key") if isinstance(j, dict) else None
        if k is None:
            continue
        if k not in by_key or j.get("ok") or not by_key[k].get("ok"):
            by_key[k] = j
    # Lines are appended as points finish; the spec's order makes legends the same for any -j.
    return sorted((j for j in by_key.values() if j.get("ok")), key=lambda j: j.get("point", 0))


def save(fig, outdir, name, fmt):
    path = os.path.join(outdir, f"{name}.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return path


def legend(ax, skeys):
    ax.legend(fontsize=7, title=" \u00d7 ".join(skeys) or None, title_fontsize=7, loc="upper left",
              bbox_to_anchor=(1.02, 1), borderaxespad=0)


def plot_latency(lines, outdir, fmt):
    skeys = series_keys(lines, x="bytes", pooled=POOLED + ("topology", "profile"))
    names = list(group(lines, skeys))
    panels = group(lines, ["topology", "profile"])
    fig, axes = plt.subplots(len(panels), 2, figsize=(11, 3.8 * len(panels)), layout="constrained", squeeze=False)
    rows = []
    for row, (where, mine) in enumerate(panels.items()):
        for name, pts in group(mine, skeys).items():
            st = style(names.index(name))
            got = {}
            for ax, key in zip(axes[row], ["maximum_cycles", "average_cycles"]):
                d = by_x(pts, "bytes", lambda j: j["latency"][key] if j["latency"][key] > 0 else None)
                got[key] = d
                m = [mean(v) for v in d.values()]
                err = [[a - min(v) for a, v in zip(m, d.values())], [max(v) - a for a, v in zip(m, d.values())]]
                ax.errorbar(list(d), m, yerr=err, marker="o", markersize=3, capsize=2, label=name, **st)
            for x in sorted(set(got["maximum_cycles"]) | set(got["average_cycles"])):
                stats = [f(got[k][x]) if x in got[k] else None for k in ["maximum_cycles", "average_cycles"]
                         for f in (mean, min, max)]
                rows.append([value(pts[0], "topology"), value(pts[0], "profile"), name,
                             *(value(pts[0], k) for k in skeys), x, len(got["maximum_cycles"].get(x, [])), *stats])
        for ax, name in zip(axes[row], ["maximum", "average"]):
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_xlabel("message size, bytes")
            ax.set_ylabel(f"{name} latency, cycles")
            ax.set_title(where, fontsize=9)
            ax.grid(True, which="both", linewidth=0.3)
        legend(axes[row][1], skeys)
    fig.suptitle(describe(lines, skeys + ["bytes", "topology", "profile"],
                          "latency vs message size, mean over sources, bars min..max"), fontsize=10)
    write_csv(outdir, "latency", ["topology", "profile", "series", *skeys, "message_bytes", "sources",
                                  "max_latency_mean_cycles", "max_latency_min_cycles", "max_latency_max_cycles",
                                  "avg_latency_mean_cycles", "avg_latency_min_cycles", "avg_latency_max_cycles"], rows)
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
    ports = [str(p) for p in values(lines, "ports")]
    if "one" not in ports or len(ports) < 2:
        return None
    skeys = series_keys(lines, x="bytes", pooled=POOLED + ("topology", "ports"))
    topos = sorted(values(lines, "topology"), key=nodes)
    cycles = {}  # (series, topology, ports) -> {(bytes, source): [cycles]}
    for j in lines:
        k = (label(j, skeys), value(j, "topology"), str(value(j, "ports")))
        cycles.setdefault(k, {}).setdefault((value(j, "bytes"), value(j, "source")), []).append(j["cycles"])
    bars = [(s, p) for s in group(lines, skeys) for p in ports if p != "one"]
    width = 0.8 / max(1, len(bars))
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(topos) + 3), 4.2), layout="constrained")
    rows = []
    for b_i, (s, p) in enumerate(bars):
        xs, ys = [], []
        for t_i, t in enumerate(topos):
            one, other = cycles.get((s, t, "one"), {}), cycles.get((s, t, p), {})
            both = sorted(set(one) & set(other), key=str)  # the same points on both sides, or the ratio lies
            if not both:
                continue
            base, mine = sum(mean(one[k]) for k in both), sum(mean(other[k]) for k in both)
            xs.append(t_i - 0.4 + width * (b_i + 0.5))
            ys.append(base / mine)
            rows.append([t, nodes(t), s, p, len(both), base, mine, base / mine])
        st = style(list(group(lines, skeys)).index(s))
        ax.bar(xs, ys, width, color=st["color"], alpha=1.0 - 0.3 * (ports.index(p) % 3),
               label=f"{s}, {p}-port" if skeys else f"{p}-port")
    ax.axhline(1, color="grey", linewidth=0.6)
    ax.set_xticks(range(len(topos)), [f"{t}\n{nodes(t)} nodes" for t in topos], fontsize=8)
    ax.set_xlabel("network, in order of size")
    ax.set_ylabel("speed-up over one-port (ratio of cycles)")
    ax.grid(True, axis="y", linewidth=0.3)
    legend(ax, skeys + ["ports"])
    fig.suptitle(describe(lines, skeys + ["topology", "bytes"], "speed-up of more ports, total cycles over the "
                          "sizes and sources both port models ran"), fontsize=10)
    write_csv(outdir, "speedup", ["topology", "nodes", "series", "ports", "points", "one_port_cycles_total",
                                  "cycles_total", "speedup_over_one_port_ratio"], rows)
    return save(fig, outdir, "speedup", fmt)


def plot_contention(lines, outdir, fmt):
    skeys = series_keys(lines, x="bytes", pooled=POOLED + ("topology",))
    panels = group(lines, ["topology"])
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels) + 1, 4.4), layout="constrained",
                             squeeze=False)
    colors = plt.get_cmap("Set2")
    rows = []
    for ax, (t, mine) in zip(axes[0], panels.items()):
        big = max(value(j, "bytes") for j in mine)
        bars = group([j for j in mine if value(j, "bytes") == big], skeys)
        bottom = [0.0] * len(bars)
        means = {s: [mean([j["contention"][c] for j in pts]) for c in CLASSES] for s, pts in bars.items()}
        for c, cls in enumerate(CLASSES):
            vals = [means[s][c] for s in bars]
            ax.bar(range(len(bars)), vals, bottom=bottom, color=colors(c), label=cls)
            bottom = [b + v for b, v in zip(bottom, vals)]
        rows += [[t, big, s, len(pts), *means[s]] for s, pts in bars.items()]
        ax.set_xticks(range(len(bars)), [s.replace(", ", "\n") for s in bars], fontsize=7, rotation=45, ha="right",
                      rotation_mode="anchor")
        ax.set_ylabel("contention delay, cycles (mean over sources)")
        ax.set_title(f"{t}, {big} bytes", fontsize=9)
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    fig.suptitle(describe(lines, skeys + ["topology", "bytes"], "contention delay by class at the largest "
                          "message size"), fontsize=10)
    write_csv(outdir, "contention", ["topology", "message_bytes", "series", "sources",
                                     *(f"{c}_delay_cycles" for c in CLASSES)], rows)
    return save(fig, outdir, "contention", fmt)


def plot_predicted(lines, outdir, fmt):
    """Measured against the analytic model, one colour (and marker) per series."""
    pts = [j for j in lines if j.get("predicted", {}).get("cycles", 0) > 0 and j["cycles"] > 0]
    if not pts:
        return None
    skeys = series_keys(pts, x="bytes", pooled=POOLED)
    eff = [j for j in pts if j.get("efficiency", 0) > 0]
    markers = ["o", "s", "^", "D", "v"]
    fig, axes = plt.subplots(1, 3 if eff else 2, figsize=(15 if eff else 11, 4.2), layout="constrained")
    rows = []
    for i, (name, mine) in enumerate(group(pts, skeys).items()):
        st = dict(color=style(i)["color"], marker=markers[(i // 10) % len(markers)], label=name)
        axes[0].scatter([j["predicted"]["cycles"] for j in mine], [j["cycles"] for j in mine], s=12, **st)
        axes[1].scatter([value(j, "bytes") for j in mine], [j["cycles"] / j["predicted"]["cycles"] for j in mine],
                        s=12, **st)
        if eff:
            e = [j for j in mine if j.get("efficiency", 0) > 0]
            axes[2].scatter([value(j, "bytes") for j in e], [j["efficiency"] for j in e], s=12, **st)
        rows += [[name, value(j, "topology"), value(j, "bytes"), value(j, "source"), j["cycles"],
                  j["predicted"]["cycles"], j["cycles"] / j["predicted"]["cycles"], j.get("efficiency") or None]
                 for j in mine]
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
    legend(axes[-1], skeys)
    fig.suptitle(describe(pts, skeys + ["bytes"], "measured vs the analytic model"), fontsize=10)
    write_csv(outdir, "predicted", ["series", "topology", "message_bytes", "source", "measured_cycles",
                                    "predicted_cycles", "measured_over_predicted_ratio",
                                    "efficiency_bound_over_measured_ratio"], rows)
    return save(fig, outdir, "predicted", fmt)


def plot_sweep(path, outdir, fmt):
    """Every figure of the file's points (traffic and run points each get theirs); their paths."""
    lines = load(path)
    if not lines:
        raise SystemExit(f"error: {path}: no successful points to plot")
    traffic = [j for j in lines if j.get("command") == "traffic"]
    runs = [j for j in lines if j.get("command") != "traffic" and "latency" in j]  # check without --simulate: none
    out = [plot_traffic(traffic, outdir, fmt)] if traffic else []
    if runs:
        out += [plot_latency(runs, outdir, fmt), plot_speedup(runs, outdir, fmt), plot_contention(runs, outdir, fmt),
                plot_predicted(runs, outdir, fmt)]
    return [p for p in out if p]
