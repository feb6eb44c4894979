"""The SP-1 figure of scripts/bruck_tables.py: measured bruck-index time against the linear model
C1*beta + C2*tau per radix, with the ratio below (Debian python3-matplotlib, no pip)."""


def sp1_plot(idx, nets, radii, sizes, path):
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, len(nets), figsize=(5.2 * len(nets), 8.2), sharex=True,
                             gridspec_kw={"height_ratios": [3, 2]})
    cmap = plt.get_cmap("viridis")
    for j, t in enumerate(nets):
        ax, ax2 = axes[0][j], axes[1][j]
        for i, r in enumerate(radii):
            col = cmap(i / max(1, len(radii) - 1) * 0.9)
            bs = [b for b in sizes if (t, r, b) in idx]
            meas = [idx[(t, r, b)]["us"] for b in bs]
            model = [idx[(t, r, b)]["paper"] * idx[(t, r, b)]["clock"] / 1000 for b in bs]
            ax.plot(bs, meas, "o-", color=col, label=f"r={r}", ms=4)
            ax.plot(bs, model, "--", color=col, lw=1)
            ax2.plot(bs, [m / p for m, p in zip(meas, model)], "o-", color=col, ms=3)
        ax.set_yscale("log")
        ax.set_title(f"{t}, one-port, n = 64")
        ax.grid(True, which="both", alpha=0.3)
        ax2.set_xscale("log", base=2)
        ax2.set_xlabel("block size b (bytes)")
        ax2.set_ylim(bottom=0.9)
        ax2.axhline(1.0, color="k", lw=0.8)
        ax2.grid(True, which="both", alpha=0.3)
    axes[0][0].set_ylabel("time (us), SP-1 profile")
    axes[1][0].set_ylabel("measured / linear model")
    axes[0][0].legend(title="solid: measured\ndashed: C1*beta + C2*tau", fontsize=8, title_fontsize=8)
    fig.suptitle("bruck-index, SP-1 profile: measured (wormnet, model backend) vs the linear model")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    print(f"\n(plot: {path})")
