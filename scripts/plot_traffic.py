"""The load-latency figure of traffic points, for plot.py sweep: points of `wormnet sweep SPEC.yaml`
(command traffic) or of the quick `wormnet sweep --topology ... --json` (wormnet.sweep/1).

  throughput.FMT  left: accepted throughput vs offered load (y = x dashed: everything offered
                  is accepted); right: average total latency (packet created -> tail ejected,
                  so with the wait in the source queue; solid) and network latency (head
                  injected -> tail ejected; dashed) vs offered load. One colour per combination
                  of the parameters that vary besides the rate (pattern, port model, VCs, ...).
                  Offered load: as measured (throughput.offered, what the sources created in
                  the window), the rate asked for where a point lacks it
  throughput.csv  the numbers drawn, one row per series and rate
"""
import os

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D

from plot_common import DPI
from plot_series import by_x, describe, group, mean, series_keys, style, value, write_csv

LOAD = "rate"  # the load each point was asked for, flits/node/cycle: one point of a line per rate


def _avg(field):
    def get(p):
        v = p.get(field, {})
        return v.get("avg") if isinstance(v, dict) and v.get("count", 1) else None
    return get


def _thr(field):
    return lambda p: p.get("throughput", {}).get(field)


def offered(p):
    """The point's offered load: as asked (config or params rate), else as measured."""
    v = value(p, LOAD)
    return v if isinstance(v, (int, float)) else p.get("throughput", {}).get("offered")


def plot_traffic(lines, outdir, fmt):
    """throughput.FMT and throughput.csv; returns the figure's path."""
    pts = []
    for j in lines:
        x = offered(j)
        if isinstance(x, (int, float)):
            pts.append(dict(j, config=dict(j.get("config", {}), rate=x)))
    if not pts:
        raise SystemExit("error: no traffic point has an offered load (config.rate or throughput.offered)")
    skeys = series_keys(pts, x=LOAD)
    series = group(pts, skeys)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4), layout="constrained")
    rows, handles, top = [], [], 0
    for i, (name, mine) in enumerate(series.items()):
        st = style(i)
        off, acc, tot, net = (by_x(mine, LOAD, f) for f in (_thr("offered"), _thr("accepted"),
                                                            _avg("total_latency"), _avg("network_latency")))
        # x: the load the sources really offered (transpose leaves the diagonal idle, so it
        # offers less than the rate asked); the y = x line then marks "all accepted" for every
        # pattern. A line is drawn in x order, so it never turns back.
        at = {r: mean(off[r]) if r in off else r for r in set(acc) | set(tot) | set(net)}
        for ax, d, kw in ((axes[0], acc, dict(marker="o", **st)), (axes[1], tot, dict(marker="o", **st)),
                          (axes[1], net, dict(marker="s", color=st["color"], linewidth=1,
                                              linestyle="--" if st["linestyle"] == "-" else ":"))):
            xy = sorted((at[r], mean(v)) for r, v in d.items())
            ax.plot([x for x, _ in xy], [y for _, y in xy], markersize=3, **kw)
        handles.append(Line2D([], [], color=st["color"], linestyle=st["linestyle"], label=name))
        for r in sorted(at, key=at.get):
            top = max(top, r, at[r])
            rows.append([name, *(value(mine[0], k) for k in skeys), r, at[r],
                         *(mean(d[r]) if r in d else None for d in (acc, tot, net)),
                         sum(1 for p in mine if value(p, LOAD) == r)])
    axes[0].plot([0, top], [0, top], "--", color="grey", linewidth=0.6)
    axes[0].set_ylabel("accepted throughput, flits/node/cycle")
    axes[1].set_ylabel("average latency, cycles")
    for ax in axes:
        ax.set_xlabel("offered load (measured), flits/node/cycle")
        ax.set_xlim(left=0)
        ax.set_ylim(bottom=0)
        ax.grid(True, linewidth=0.3)
    kinds = [Line2D([], [], color="0.3", linestyle="-", marker="o", markersize=3,
                    label="total (created \u2192 ejected,\nwith source queueing)"),
             Line2D([], [], color="0.3", linestyle="--", marker="s", markersize=3,
                    label="network (head injected \u2192\ntail ejected)")]
    blank = Line2D([], [], linestyle="none", label="")
    axes[1].legend(handles=kinds + [blank] + handles, fontsize=7, title="latency; " + (" \u00d7 ".join(skeys) or ""),
                   title_fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0)
    fig.suptitle(describe(pts, skeys, "accepted throughput and latency vs offered load"), fontsize=10)
    path = os.path.join(outdir, f"throughput.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    write_csv(outdir, "throughput", ["series", *skeys, "rate_flits_per_node_cycle",
                                     "offered_load_flits_per_node_cycle", "accepted_flits_per_node_cycle",
                                     "total_latency_avg_cycles", "network_latency_avg_cycles", "points"], rows)
    return path
