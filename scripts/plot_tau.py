"""The tau-plot of Tsai's thesis (Ch 5, Figs 5.1-5.2) and the T(L) lines with their crossovers,
from a `wormnet tau --json` report (schema wormnet.tau/1). Used by scripts/plot.py tau."""
import csv
import math
import os

import matplotlib.pyplot as plt

from plot_common import DPI

REGION_COLOURS = {"A": "#b8e186", "B": "#f1b6da", "C": "#92c5de", "D": "#fddbc7"}
REGION_MEANING = {
    "A": "A: faster at every length",
    "B": "B: slower at every length",
    "C": "C: favours long messages",
    "D": "D: favours short messages",
}


def length_law(name):
    """f(L) of the report: 'linear' or 'packets:B' (ceil(L / B))."""
    if name == "linear":
        return lambda L: L
    b = int(name.split(":", 1)[1])
    return lambda L: math.ceil(L / b)


def ok_fits(report):
    return [f for f in report["fits"] if f["ok"] and f["fit"]["tau"] is not None and f["fit"]["T_s_us"] > 0]


def shade_regions(ax, x, lo, hi):
    """Fig 5.2 around x = (tau_x, T_sx) on log-log axes: the horizontal T_s = T_sx and the line
    tau T_s = T_nx (slope -1) split the plane into A (below both: smaller T_s and T_n), B (above
    both), C (larger T_s, smaller T_n) and D (smaller T_s, larger T_n)."""
    tx, sx = x["fit"]["tau"], x["fit"]["T_s_us"]
    nx = tx * sx
    taus = [lo[0] * (hi[0] / lo[0]) ** (i / 200) for i in range(201)]
    diag = [nx / t for t in taus]  # T_s on the line tau T_s = T_nx
    ylo, yhi = lo[1], hi[1]
    ax.fill_between(taus, ylo, [min(sx, d) for d in diag], color=REGION_COLOURS["A"], alpha=0.5, lw=0)
    ax.fill_between(taus, [max(sx, d) for d in diag], yhi, color=REGION_COLOURS["B"], alpha=0.5, lw=0)
    # C: above the horizontal (larger T_s), below the diagonal (smaller T_n); D: the mirror.
    ax.fill_between(taus, [sx] * len(taus), [max(sx, d) for d in diag], where=[d > sx for d in diag],
                    color=REGION_COLOURS["C"], alpha=0.5, lw=0)
    ax.fill_between(taus, [min(sx, d) for d in diag], [sx] * len(taus), where=[d < sx for d in diag],
                    color=REGION_COLOURS["D"], alpha=0.5, lw=0)
    for r in "ABCD":
        ax.fill_between([], [], [], color=REGION_COLOURS[r], alpha=0.5, label=REGION_MEANING[r])


def read_machines(path):
    """The real machines of the thesis's Tables 5.1, 5.6, 5.7 (docs/papers/tsai_ch5_machines.csv):
    [(table, machine, tau per byte, T_s us)]."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    want = ["table", "machine", "T_s_us", "T_n_us_per_byte", "tau_printed"]
    if not rows or list(rows[0].keys()) != want:
        raise SystemExit(f"error: {path}: expected the columns {','.join(want)}")
    return [(r["table"], r["machine"], float(r["T_n_us_per_byte"]) / float(r["T_s_us"]), float(r["T_s_us"]))
            for r in rows]


def plot_machines(ax, machines):
    """The machines as small grey marks, one shape per table, labelled."""
    shapes = {"5.1": "s", "5.6": "^", "5.7": "D"}
    what = {"5.1": "Table 5.1 (point-to-point)", "5.6": "Table 5.6 (broadcast)", "5.7": "Table 5.7 (all-to-all)"}
    for table in sorted({m[0] for m in machines}):
        ms = [m for m in machines if m[0] == table]
        ax.plot([m[2] for m in ms], [m[3] for m in ms], shapes.get(table, "x"), color="0.55", ms=4,
                label=what.get(table, "Table " + table))
        for m in ms:
            ax.annotate(m[1], (m[2], m[3]), textcoords="offset points", xytext=(3, -8), fontsize=5, color="0.45")


def plot_tau_points(report, outdir, fmt, machines=None):
    """tau.FMT: every fitted operation as the point (tau, T_s), log-log, labelled; the thesis's
    closed form (Table 5.3), where the report has one, as a hollow marker joined to it; with
    `machines` (read_machines), the real machines of Tables 5.1/5.6/5.7 in grey."""
    fits = ok_fits(report)
    if not fits:
        raise SystemExit("error: the report has no fitted series with T_s > 0 to plot")
    fig, ax = plt.subplots(figsize=(9, 6), layout="constrained")
    pts = [(f["fit"]["tau"], f["fit"]["T_s_us"]) for f in fits]
    pts += [(m[2], m[3]) for m in machines or []]
    pts += [(f["predicted"]["tau"], f["predicted"]["T_s_us"]) for f in fits
            if f.get("predicted") and f["predicted"]["tau"] and f["predicted"]["T_s_us"] > 0]
    lo = (min(p[0] for p in pts) / 2, min(p[1] for p in pts) / 2)
    hi = (max(p[0] for p in pts) * 2, max(p[1] for p in pts) * 2)
    around = report.get("around")
    centre = [f for f in fits if around and (f["variant"] == around or f["algorithm"] == around)]
    if centre:
        shade_regions(ax, centre[0], lo, hi)
    if machines:
        plot_machines(ax, machines)
    colours = plt.get_cmap("tab10" if len(fits) <= 10 else "tab20")
    for i, f in enumerate(fits):
        c = colours(i % colours.N)
        t, s = f["fit"]["tau"], f["fit"]["T_s_us"]
        ax.plot([t], [s], "o", color=c, ms=7, label=f["label"])
        ax.annotate(f["label"], (t, s), textcoords="offset points", xytext=(6, 4), fontsize=8)
        p = f.get("predicted")
        if p and p["tau"] and p["T_s_us"] > 0:
            ax.plot([p["tau"]], [p["T_s_us"]], "o", mfc="none", color=c, ms=7)
            ax.plot([t, p["tau"]], [s, p["T_s_us"]], ":", color=c, lw=0.8)
    ax.plot([], [], "o", mfc="none", color="grey", label="thesis's closed form (Table 5.3)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_xlabel(f"tau = T_n / T_s  [1 / {report['f_unit']}]")
    ax.set_ylabel("T_s  [us]")
    title = f"tau-plot (Tsai, Ch 5), T = {report['metric']}"
    ax.set_title(title + (f"; regions around {around} (Fig 5.2)" if centre else ""))
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    path = os.path.join(outdir, f"tau.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return path


def plot_tau_lines(report, outdir, fmt):
    """lines.FMT: T(L) = T_s + T_n f(L) of every fit (us) over the measured lengths and a margin,
    the measured points, and every measured crossover L* inside that range as a cross."""
    fits = ok_fits(report)
    f_of = length_law(report["f"])
    longest = max(p["bytes"] for f in fits for p in f["points"])
    L = [longest * 1.25 * i / 400 for i in range(401)]
    fig, ax = plt.subplots(figsize=(9, 6), layout="constrained")
    colours = plt.get_cmap("tab10" if len(fits) <= 10 else "tab20")
    by_label = {}
    for i, f in enumerate(fits):
        c = colours(i % colours.N)
        s, n = f["fit"]["T_s_us"], f["fit"]["T_n_us"]
        by_label[f["label"]] = (s, n)
        ax.plot(L, [s + n * f_of(x) for x in L], "-", color=c, lw=1.2, label=f["label"])
        scale = s / f["fit"]["T_s_cycles"] if f["fit"]["T_s_cycles"] else None
        if scale:
            ax.plot([p["bytes"] for p in f["points"]], [p["cycles"] * scale for p in f["points"]], "o", color=c, ms=4)
    for x in report["crossovers"]:
        m = x["measured"]
        if m["kind"] == "crosses" and m["bytes_star"] <= L[-1] and x["a"] in by_label:
            s, n = by_label[x["a"]]
            ax.plot([m["bytes_star"]], [s + n * f_of(m["bytes_star"])], "kx", ms=7)
    ax.plot([], [], "kx", label="crossover L* (Eq 5.5)")
    ax.set_xlabel("message length L  [bytes]")
    ax.set_ylabel(f"T = {report['metric']}  [us]")
    ax.set_title(f"T(L) = T_s + T_n f(L), f = {report['f']}")
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    path = os.path.join(outdir, f"lines.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return path
