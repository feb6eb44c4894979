#!/usr/bin/python3
"""Plots from wormnet JSON reports (Debian python3-matplotlib, no pip).

  scripts/plot.py run REPORT.json OUTDIR [--format png|svg]
      heatmap.FMT: per-step channel load, one panel per step on the mesh/torus
      grid (3D: one row per step, one panel per z-plane); a dimension x node
      matrix per step for cubes; all panels share one colour scale
      timeline.FMT: message timeline (Gantt) coloured by step
  scripts/plot.py compare COMPARE.json OUTDIR [--format png|svg]
      compare.FMT: cycles per algorithm, one bar per port model

REPORT.json comes from `wormnet run --json`, COMPARE.json from `wormnet compare --json`.
Channel load per step = flits of that step's messages that crossed the channel
(from each message's path in the report's message_log; summed over the steps
this equals the report's per-channel `flits`).

Conventions shared by every plot, so figures can be compared with each other:
  * a colour bar spans exactly [0, true maximum] of what it shows and has the
    maximum as a labelled tick, so no value is ever clipped at the top;
  * legends and colour bars sit outside the axes and are kept in the saved
    file (constrained layout / bbox_inches="tight"), so they cover no data.
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import colors, patches, ticker  # noqa: E402

LOAD_LABEL = "channel load in the step [flits]"
# Beyond this many steps a heat map would exceed matplotlib's image size limit
# (and be unreadable anyway): show the first ones and say so in the title.
MAX_HEATMAP_ROWS = 40
DPI = 110


# ----------------------------------------------------------------------------- data


def parse_topology(spec):
    """('mesh'|'torus'|'cube', radix per dimension) from e.g. 'torus:4x4x4' or 'cube:3'."""
    kind, dims = spec.split(":")
    if kind == "cube":
        return kind, [2] * int(dims)
    return kind, [int(k) for k in dims.split("x")]


def coords(node, radix):
    """Node id -> coordinates, x fastest (wormnet's lexicographic numbering)."""
    c = []
    for k in radix:
        c.append(node % k)
        node //= k
    return c


def step_loads(report):
    """{step: {(from, to): flits}} from the message log.

    A message is `packets` head flits plus its payload words packed into flits.
    """
    words_per_flit = max(1, report["config"]["profile"]["bytes_per_flit"] // 4)
    loads = {}
    for m in report["message_log"]:
        flits = m["packets"] + -(-m["words"] // words_per_flit)
        path = m["path"]
        per = loads.setdefault(m["step"], {})
        for a, b in zip(path, path[1:]):
            per[(a, b)] = per.get((a, b), 0) + flits
    return loads


def cube_dim(a, b):
    """Hypercube dimension of the channel a -> b (the differing address bit)."""
    return (a ^ b).bit_length() - 1


def grid_channel(a, b, kind, radix):
    """(dimension, +1/-1, wraps) of the mesh/torus channel a -> b.

    Torus direction follows wormnet's routing: shortest way, ties (k = 2) count
    as +; `wraps` marks the wrap-around link from coordinate k-1 to 0 or back.
    """
    ca, cb = coords(a, radix), coords(b, radix)
    dim = next(i for i in range(len(radix)) if ca[i] != cb[i])
    diff = cb[dim] - ca[dim]
    if kind == "torus":
        sign = 1 if diff % radix[dim] == 1 else -1
        return dim, sign, (diff > 0) != (sign > 0)  # k = 2: 1 -> 0 is the + wrap link
    return dim, (1 if diff > 0 else -1), False


# ----------------------------------------------------------------------------- colour scales


def load_cmap():
    """inferno_r without its near-white end, so lightly loaded channels stay
    visible on the white background (heavier = darker)."""
    base = plt.get_cmap("inferno_r")
    cmap = colors.ListedColormap([base(0.12 + 0.88 * i / 255) for i in range(256)], name="load")
    cmap.set_bad("0.94")  # matrix cells without traffic (NaN): light grey, off the scale
    return cmap


def range_ticks(vmin, vmax, integer=True):
    """Round ticks inside [vmin, vmax] plus both ends, so the bar shows the exact
    extremes of the data; ticks crowding an end are dropped so labels never overlap."""
    if vmax <= vmin:
        return [vmin]
    inner = ticker.MaxNLocator(nbins=5, integer=integer).tick_values(vmin, vmax)
    gap = 0.12 * (vmax - vmin)
    return [vmin] + [t for t in inner if vmin + gap < t < vmax - gap] + [vmax]


def add_colorbar(fig, mappable, axes, vmin, vmax, label, **kw):
    """Colour bar beside `axes` whose range is exactly [vmin, vmax] (the data's
    true extremes) with both labelled, and a label that states the unit."""
    cb = fig.colorbar(mappable, ax=axes, ticks=range_ticks(vmin, vmax), **kw)
    cb.set_label(label)
    return cb


# ----------------------------------------------------------------------------- heat maps


def draw_grid_panel(ax, load, kind, radix, plane, norm, cmap):
    """Channel load of one step on one x-y plane (z = `plane`) of a mesh/torus.

    Each loaded channel is an arrow coloured by its load, shifted to the left
    of its travel direction (+x above -x, +y left of -y) so the two directions
    of a link sit side by side.
    Torus wrap-around links become stubs leaving one edge and entering the
    opposite one; z channels (3D) are diagonal stubs, up-right = +z and
    down-left = -z, because the next plane is drawn in another panel.
    """
    kx = radix[0]
    ky = radix[1] if len(radix) > 1 else 1
    # topology context: faint links and nodes
    for y in range(ky):
        ax.plot([0, kx - 1], [y, y], color="0.9", lw=0.8, zorder=1)
    for x in range(kx):
        ax.plot([x, x], [0, ky - 1], color="0.9", lw=0.8, zorder=1)
    ax.scatter([x for x in range(kx) for _ in range(ky)], [y for _ in range(kx) for y in range(ky)],
               s=10, c="0.55", zorder=3)

    shift, shrink, stub = 0.09, 0.14, 0.36
    xs, ys, us, vs, cs = [], [], [], [], []

    def arrow(x0, y0, x1, y1, f):
        xs.append(x0), ys.append(y0), us.append(x1 - x0), vs.append(y1 - y0), cs.append(f)

    for (a, b), f in sorted(load.items(), key=lambda t: t[1]):  # heaviest drawn on top
        ca = coords(a, radix) + [0, 0]
        if ca[2] != plane:
            continue
        dim, sign, wraps = grid_channel(a, b, kind, radix)
        x0, y0 = ca[0], ca[1]
        if dim == 2:
            d = sign * 0.26
            arrow(x0 + sign * 0.07, y0 + sign * 0.07, x0 + d + sign * 0.07, y0 + d + sign * 0.07, f)
            continue
        ux, uy = (sign, 0) if dim == 0 else (0, sign)  # unit vector along the channel
        ox, oy = -uy * shift, ux * shift  # its left-hand normal: the lane shift
        cb = coords(b, radix) + [0, 0]
        if wraps:
            # leaving stub at a, entering stub at b, both along the travel direction
            arrow(x0 + ux * shrink + ox, y0 + uy * shrink + oy, x0 + ux * stub + ox, y0 + uy * stub + oy, f)
            arrow(cb[0] - ux * stub + ox, cb[1] - uy * stub + oy,
                  cb[0] - ux * shrink + ox, cb[1] - uy * shrink + oy, f)
        else:
            arrow(x0 + ux * shrink + ox, y0 + uy * shrink + oy,
                  cb[0] - ux * shrink + ox, cb[1] - uy * shrink + oy, f)
    if xs:
        ax.quiver(xs, ys, us, vs, cs, cmap=cmap, norm=norm, angles="xy", scale_units="xy", scale=1,
                  width=0.012, headwidth=3.2, headlength=3.2, headaxislength=2.9, zorder=2)
    pad = 0.55
    ax.set_xlim(-pad, kx - 1 + pad)
    ax.set_ylim(-pad, ky - 1 + pad)
    ax.set_aspect("equal")
    ax.set_xticks(range(kx))
    ax.set_yticks(range(ky))
    ax.tick_params(labelsize=7, length=2)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def label_panel_grid(axes, used, xlabel, ylabel):
    """Small-multiples labelling: tick labels and axis labels only on the left
    column and on the lowest used panel of each column (also when the panel
    below it is an empty slot), so inner tick labels never collide; unused
    slots are hidden."""
    rows, cols = len(axes), len(axes[0])
    for j in range(rows * cols):
        r, c = divmod(j, cols)
        ax = axes[r][c]
        if j >= used:
            ax.axis("off")
            continue
        if j + cols < used:  # another panel below: its labels serve this one
            ax.tick_params(labelbottom=False)
        else:
            ax.set_xlabel(xlabel)
        if c == 0:
            ax.set_ylabel(ylabel)
        else:
            ax.tick_params(labelleft=False)


def cube_layout(d):
    """(panel width in inches, panels per row) for a d-cube: ~0.25 in per node
    column so node ticks stay legible, at most ~24 in of panels per row."""
    panel_w = max(2.6, min(0.25 * 2 ** d + 1.0, 14))
    return panel_w, max(1, min(4, int(22 // panel_w)))


def plot_cube_heatmaps(fig, loads, steps, radix, norm, cmap):
    """Hypercube: per step a dimension x source-node matrix (a cube has no
    planar layout; rows are the d channel directions, columns the N nodes).
    Channels without traffic stay blank, so they are not read as "light load";
    small matrices carry the flit counts in the cells for exact reading."""
    d, n = len(radix), 2 ** len(radix)
    panel_w, cols = cube_layout(d)
    cols = min(cols, len(steps))
    rows = -(-len(steps) // cols)
    axes = fig.subplots(rows, cols, squeeze=False)
    fig.set_size_inches(panel_w * cols + 1.6, (0.35 * d + 1.4) * rows + 1.0)
    blank = float("nan")
    for i, s in enumerate(steps):
        ax = axes[i // cols][i % cols]
        mat = [[0] * n for _ in range(d)]
        for (a, b), f in loads[s].items():
            mat[cube_dim(a, b)][a] += f
        ax.imshow([[v if v else blank for v in row] for row in mat],  # NaN = cmap's "bad" colour
                  aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
        if n * d <= 64:
            for dim in range(d):
                for node in range(n):
                    v = mat[dim][node]
                    if v:
                        ax.text(node, dim, str(v), ha="center", va="center", fontsize=7,
                                color="white" if norm(v) > 0.5 else "black")
        ax.set_title(f"step {s}", fontsize=9)
        ax.set_yticks(range(d))
        ax.set_yticklabels([f"dim {k}" for k in range(d)], fontsize=7)
        ax.xaxis.set_major_locator(ticker.MaxNLocator(nbins=min(n, 16), integer=True))
        ax.tick_params(axis="x", labelsize=7)
    label_panel_grid(axes, len(steps), "source node", "channel")
    return plt.cm.ScalarMappable(norm=norm, cmap=cmap), axes


def plot_grid_heatmaps(fig, loads, steps, kind, radix, norm, cmap):
    """Mesh/torus: 2D puts the steps in a grid of panels; 3D shows every step
    as one panel per z-plane (small multiples, one shared colour scale), a row
    per step (two steps per row when there are only 2 planes), since z-planes
    drawn side by side in one panel were too small to read."""
    kx = radix[0]
    ky = radix[1] if len(radix) > 1 else 1
    kz = radix[2] if len(radix) > 2 else 1
    panel = max(2.3, 0.42 * max(kx, ky) + 0.9)
    if kz > 1:
        cols = kz * max(1, 4 // kz)
        cells = [(s, z) for s in steps for z in range(kz)]
    else:
        cols = min(4, len(steps))
        cells = [(s, 0) for s in steps]
    rows = -(-len(cells) // cols)
    axes = fig.subplots(rows, cols, squeeze=False)  # not shared: sharing 40+ axes is very slow
    fig.set_size_inches(panel * kx / max(kx, ky) * cols + 1.8, (panel * ky / max(kx, ky) + 0.35) * rows + 1.2)
    for i, (s, z) in enumerate(cells):
        ax = axes[i // cols][i % cols]
        draw_grid_panel(ax, loads[s], kind, radix, z, norm, cmap)
        ax.set_title(f"step {s}, plane z={z}" if kz > 1 else f"step {s}", fontsize=8)
    label_panel_grid(axes, len(cells), "x", "y")
    return plt.cm.ScalarMappable(norm=norm, cmap=cmap), axes


def plot_heatmaps(report, outdir, fmt):
    """heatmap.FMT: channel load per step, every panel on one colour scale
    [0, true maximum over all steps and channels]."""
    cfg = report["config"]
    kind, radix = parse_topology(cfg["topology"])
    loads = step_loads(report)
    all_steps = sorted(loads)
    if kind == "cube":
        per_row = cube_layout(len(radix))[1]
    elif len(radix) > 2:
        per_row = max(1, 4 // radix[2])  # steps per row of z-plane panels
    else:
        per_row = 4
    steps = all_steps[:MAX_HEATMAP_ROWS * per_row]
    vmax = max((max(l.values()) for l in loads.values() if l), default=0)
    vmax = max(vmax, 1)  # an empty run still gets a valid scale that covers its 0
    norm = colors.Normalize(vmin=0, vmax=vmax)
    cmap = load_cmap()

    fig = plt.figure(layout="constrained")
    if not steps:
        fig.text(0.5, 0.5, "no messages in the report", ha="center")
        mappable, axes = None, None
    elif kind == "cube":
        mappable, axes = plot_cube_heatmaps(fig, loads, steps, radix, norm, cmap)
        key = "cell = flits a node sent on its channel of that dimension in the step; blank = no traffic"
    else:
        mappable, axes = plot_grid_heatmaps(fig, loads, steps, kind, radix, norm, cmap)
        key = "arrow = channel, coloured by flits: \u2192/\u2190 +x/\u2212x, \u2191/\u2193 +y/\u2212y"
        if len(radix) > 2:
            key += ", \u2197/\u2199 +z/\u2212z (to plane z\u00b11)"
        if kind == "torus":
            key += "; edge stubs = wrap-around links"
    if mappable is not None:
        add_colorbar(fig, mappable, axes.ravel().tolist(), 0, vmax, LOAD_LABEL,
                     shrink=min(1.0, 6.0 / fig.get_size_inches()[1] + 0.3), aspect=30)
    shown = "" if len(steps) == len(all_steps) else f" (first {len(steps)} of {len(all_steps)} steps)"
    title = f"{cfg['algorithm']} on {cfg['topology']} ({cfg['ports']} port): channel load per step{shown}"
    fig.suptitle(title + ("\n" + key if steps else ""), fontsize=10)
    if len(steps) != len(all_steps):
        print(f"note: heat map shows the first {len(steps)} of {len(all_steps)} steps", file=sys.stderr)
    path = os.path.join(outdir, f"heatmap.{fmt}")
    fig.savefig(path, dpi=DPI)
    plt.close(fig)
    return path


# ----------------------------------------------------------------------------- timeline


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


# ----------------------------------------------------------------------------- compare


def plot_compare(report, outdir, fmt):
    """compare.FMT: grouped bars, cycles per algorithm, one bar per port model,
    each labelled with its value. Missing combinations get no bar (not a fake
    0); the legend sits right of the axes and the y range leaves room for the
    value labels."""
    runs = report["runs"]
    algos = list(dict.fromkeys(r["config"]["algorithm"] for r in runs))
    ports = list(dict.fromkeys(r["config"]["ports"] for r in runs))
    width = 0.8 / max(len(ports), 1)
    fig, ax = plt.subplots(figsize=(max(6, 1.5 * len(algos) * len(ports)), 4.2), layout="constrained")
    for j, p in enumerate(ports):
        xs, vals = [], []
        for i, a in enumerate(algos):
            match = [r for r in runs if r["config"]["algorithm"] == a and r["config"]["ports"] == p]
            if match:
                xs.append(i + j * width)
                vals.append(match[0]["cycles"])
        bars = ax.bar(xs, vals, width, label=f"{p} port")
        ax.bar_label(bars, fontsize=7, padding=2)
    ax.set_xticks([i + width * (len(ports) - 1) / 2 for i in range(len(algos))])
    ax.set_xticklabels(algos, rotation=15, ha="right", rotation_mode="anchor")
    ax.set_ylabel("cycles")
    ax.margins(y=0.12)
    ax.set_ylim(bottom=0)
    cfg = runs[0]["config"]
    ax.set_title(f"{cfg['topology']}, {cfg['bytes']} bytes, profile {cfg['profile']['name']}")
    ax.legend(title="port model", loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
    path = os.path.join(outdir, f"compare.{fmt}")
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
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
