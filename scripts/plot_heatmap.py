"""Per-step channel-load heat maps for scripts/plot.py: grid panels for meshes and tori (3D: one
panel per z-plane), a dimension x node matrix for cubes, one shared colour scale."""
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import colors, patches, ticker  # noqa: E402

from plot_common import (DPI, LOAD_LABEL, MAX_HEATMAP_ROWS, add_colorbar, coords, cube_dim,  # noqa: E402
                         grid_channel, load_cmap, parse_topology, range_ticks, step_loads)

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


