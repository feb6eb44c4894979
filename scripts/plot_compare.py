"""Plots of a `wormnet compare --json` report (wormnet.compare/3), for plot.py compare: one bar or
line for every row of the report's summary, that is every variant (algorithm with its family
options, schedule, firmware) x network x port model, so none hides behind another.

  one message size: compare.FMT, grouped bars: one group per variant (and network, when
      several), one bar per port model; cycles, or with several --sources the mean over them
      of the maximum latency
  several sizes: latency.FMT, the mean over the sources of the average and the maximum latency
      (us) vs message size, log-log, one line per variant, network and port model
  beside each figure FIG.csv: the numbers drawn, one row per summary row, units in the names
"""
import os

import matplotlib.pyplot as plt

from plot_common import DPI
from plot_series import describe, group, label, number, series_keys, style, value, values, write_csv


def summary_points(report):
    """The summary rows as points whose params say what each row is, so rows that differ only in
    their network or a family option (--radix 2,4) are told apart."""
    topo = report["runs"][0]["config"]["topology"] if report["runs"] else None
    pts = []
    for g in report["summary"]:
        p = {"variant": g.get("variant", g["algorithm"]), "algorithm": g["algorithm"],
             "topology": g.get("topology", topo), "ports": g["ports"], "bytes": g["bytes"]}
        for k in ("schedule", "firmware"):
            if k in g:
                p[k] = g[k]
        for k, v in (g.get("options") or {}).items():
            p[k.lstrip("-")] = number(v)
        pts.append({"params": p, "summary": g})
    return pts


def keys_of(pts, x=None):
    """(every key that tells rows apart, the ones that name a group: all but the port model)."""
    skeys = series_keys(pts, x=x)
    gkeys = [k for k in skeys if k != "ports"] or ["variant"]
    return skeys, gkeys


def title(report, skip, what):
    many = max(g["sources"] for g in report["summary"])
    return describe(report["runs"], skip, what + (f", mean over {many} sources" if many > 1 else ""))


def row(p, skeys):
    g = p["summary"]
    lc, lu = g["latency_cycles"], g["latency_us"]
    return [*(value(p, k) for k in skeys), value(p, "ports"), g["bytes"], g["sources"], g["data_ok"],
            g["mean_cycles"], lc["mean_maximum"], lc["mean_average"], lu["mean_maximum"], lu["mean_average"]]


HEADER = ["ports", "message_bytes", "sources", "data_ok_sources", "completion_mean_cycles",
          "max_latency_mean_cycles", "avg_latency_mean_cycles", "max_latency_mean_us", "avg_latency_mean_us"]


def plot_compare(report, outdir, fmt):
    """compare.FMT: grouped bars, one group per variant (x network, ...), one bar per port model,
    each labelled with its value. Missing combinations get no bar (not a fake 0); the legend
    sits right of the axes and the y range leaves room for the value labels."""
    pts = summary_points(report)
    skeys, gkeys = keys_of(pts)
    groups = list(group(pts, gkeys))
    ports = [str(p) for p in dict.fromkeys(value(p, "ports") for p in pts)]
    many = any(p["summary"]["sources"] > 1 for p in pts)
    width = 0.8 / max(len(ports), 1)
    fig, ax = plt.subplots(figsize=(max(6, 0.9 * len(pts) + 2), 4.4), layout="constrained")
    for j, port in enumerate(ports):
        xs, vals = [], []
        for p in pts:
            if str(value(p, "ports")) == port:
                g = p["summary"]
                xs.append(groups.index(label(p, gkeys)) + j * width)
                vals.append(round(g["latency_cycles"]["mean_maximum"]) if many else round(g["mean_cycles"]))
        bars = ax.bar(xs, vals, width, label=f"{port}-port", color=style(j)["color"])
        ax.bar_label(bars, fontsize=7, padding=2)
    ax.set_xticks([i + width * (len(ports) - 1) / 2 for i in range(len(groups))])
    ax.set_xticklabels([s.replace(", ", "\n") for s in groups], rotation=15 if len(groups) > 3 else 0,
                       ha="right" if len(groups) > 3 else "center", rotation_mode="anchor", fontsize=8)
    ax.set_ylabel("maximum latency, cycles (mean over the sources)" if many else "cycles")
    ax.margins(y=0.12)
    ax.set_ylim(bottom=0)
    ax.set_title(title(report, gkeys + ["ports"], "every variant and port model"), fontsize=9)
    ax.legend(title="port model", loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    path = os.path.join(outdir, f"compare.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    write_csv(outdir, "compare", ["series", *[k for k in skeys if k != "ports"], *HEADER],
              [[label(p, skeys), *row(p, [k for k in skeys if k != "ports"])] for p in pts])
    return path


def plot_latency(report, outdir, fmt):
    """latency.FMT: two log-log panels (average, maximum latency in us, the mean over the sources)
    against message size, one line per variant (x network, ...) and port model; colour = the
    group, line style = port model."""
    pts = summary_points(report)
    skeys, gkeys = keys_of(pts, x="bytes")
    groups = list(group(pts, gkeys))
    ports = [str(p) for p in dict.fromkeys(value(p, "ports") for p in pts)]
    styles = ["-", "--", ":", "-."]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), layout="constrained")
    for ax, key, name in zip(axes, ["mean_average", "mean_maximum"], ["average", "maximum"]):
        for s, mine in group(pts, skeys).items():
            line = sorted((p["summary"]["bytes"], p["summary"]["latency_us"][key]) for p in mine
                          if p["summary"]["latency_us"][key] > 0)
            if line:
                first = mine[0]
                ax.plot([x for x, _ in line], [y for _, y in line], styles[ports.index(str(value(first, "ports"))) % 4],
                        marker="o", markersize=3, color=style(groups.index(label(first, gkeys)))["color"],
                        label=label(first, gkeys + ["ports"]))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size, bytes")
        ax.set_ylabel(f"{name} latency, \u00b5s")
        ax.grid(True, which="both", linewidth=0.3)
    prof = report["runs"][0]["config"]["profile"]
    fig.suptitle(title(report, gkeys + ["ports", "bytes"], f"average and maximum latency vs message size "
                       f"(\u03b1={prof['alpha']}, \u03b3={prof['gamma']} cycles, {prof['clock_ns']:g} ns/cycle)"),
                 fontsize=10)
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    path = os.path.join(outdir, f"latency.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    order = list(group(pts, skeys))
    ordered = sorted(pts, key=lambda p: (order.index(label(p, skeys)), p["summary"]["bytes"]))
    write_csv(outdir, "latency", ["series", *[k for k in skeys if k != "ports"], *HEADER],
              [[label(p, skeys), *row(p, [k for k in skeys if k != "ports"])] for p in ordered])
    return path


def plot_compare_report(report, outdir, fmt):
    """The bar chart for one message size, latency vs size for several."""
    several_sizes = len(values(summary_points(report), "bytes")) > 1
    return (plot_latency if several_sizes else plot_compare)(report, outdir, fmt)
