"""The plot of ``stats --plot``: per player the die faces against fair dice, the doubles rate and points per
game, as one PNG or SVG file (the 'plot' extra: matplotlib)."""
from __future__ import annotations

import math
import os
import textwrap
from io import BytesIO

import pandas as pd

from ..fsio import write_atomically
from ..i18n import _, ngettext
from ..safetext import visible
from .render import OptionalDependency

_FIG_WIDTH = 12                      # inches
_RATIOS = (1.2, 1, 1)                # the three panels' widths
_TITLE_SIZE = 10


def panel_title(text: str, panel: int) -> str:
    """``text`` broken into lines that fit panel ``panel``'s width (a long title in another language wraps
    instead of running into the next panel's title): at most the characters of the panel's width at an
    average glyph of 0.6 em, less a margin."""
    width_pt = _FIG_WIDTH * 72 * _RATIOS[panel] / sum(_RATIOS)
    chars = max(12, int(width_pt * 0.85 / (0.6 * _TITLE_SIZE)))
    return textwrap.fill(text, chars)


def plot(players_frame: pd.DataFrame, path: str, top: int = 8, title: str = "") -> None:
    """Write a PNG or SVG report of the ``top`` players by games: per player the die faces against fair
    dice (95% band), the doubles rate with its 95% Wilson interval against 1/6, and points per game."""
    try:
        import matplotlib     # (the 'plot' extra)
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt     # (the 'plot' extra, after the backend is chosen)
    except ImportError:
        raise OptionalDependency(_("--plot needs matplotlib: pip install 'nardy-analyze[plot]'")) from None
    fmt = os.path.splitext(str(path))[1].lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise ValueError(_("--plot: {path}: the file name must end in .png or .svg").format(path=path))
    p = players_frame[players_frame["rolls"] > 0].head(top).reset_index(drop=True)
    if p.empty:
        raise ValueError(_("--plot: no player with any roll to plot"))
    n = len(p)
    names = [visible(str(x)) for x in p["player"]]       # (an SVG may hold no control character)
    fig = plt.figure(figsize=(_FIG_WIDTH, max(4.2, 1.45 * n + 1.6)), layout="constrained")
    grid = fig.add_gridspec(n, 3, width_ratios=list(_RATIOS))
    fair = 1 / 6
    for i, row in p.iterrows():
        ax = fig.add_subplot(grid[i, 0])
        faces = [int(row[f"die_{k}"]) for k in range(1, 7)]
        total = sum(faces)
        share = [f / total for f in faces]
        half = 1.96 * math.sqrt(fair * (1 - fair) / total)
        # TRANSLATORS: the plot's band of the share a fair die gives each face, 95% of the time
        ax.axhspan(fair - half, fair + half, color="#c9d7ea", label=_("fair ±95%"))
        ax.axhline(fair, color="#2f5597", lw=1)
        ax.vlines(range(1, 7), fair, share, color="#e07b39", lw=2)
        ax.plot(range(1, 7), share, "o", color="#e07b39", ms=6)
        lo = min(min(share), fair - half)
        hi = max(max(share), fair + half)
        pad = (hi - lo) * 0.25 + 0.005
        ax.set_ylim(max(0, lo - pad), hi + pad)
        ax.set_xticks(range(1, 7))
        ax.tick_params(labelsize=8)
        ax.set_ylabel(names[i][:18], fontsize=9, rotation=0, ha="right", va="center")
        pv = row["dice_p"]
        # TRANSLATORS: how many dice a player rolled, and the p-value of the chi-square test of fair dice
        ax.text(0.99, 0.95, ngettext("{n} dice, χ² p = {p}", "{n} dice, χ² p = {p}", total).format(
                    n=total, p=f"{pv:.3g}"), transform=ax.transAxes, ha="right", va="top",
                fontsize=7.5, color="#333")
        if i == 0:
            ax.set_title(panel_title(_("share of each die face vs fair 1/6 (band: 95%)"), 0), fontsize=_TITLE_SIZE)
        if i == n - 1:
            # TRANSLATORS: the plot's axis of the die faces 1 to 6
            ax.set_xlabel(_("face"), fontsize=9)
        else:
            ax.set_xticklabels([])
    y = list(range(n))[::-1]
    ax = fig.add_subplot(grid[:, 1])
    rate, low, high = p["doubles_rate"], p["doubles_low"], p["doubles_high"]
    ax.errorbar(rate, y, xerr=[rate - low, high - rate], fmt="o", color="#e07b39", ecolor="#555", capsize=3)
    ax.axvline(fair, color="#2f5597", lw=1, ls="--", label=_("fair 1/6"))
    # TRANSLATORS: a player's name on the plot, over the number of the player's rolls
    ax.set_yticks(y, [ngettext("{name}\n{n} rolls", "{name}\n{n} rolls", r).format(name=nm[:18], n=r)
                      for nm, r in zip(names, p["rolls"])], fontsize=8)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_title(panel_title(_("doubles rate, 95% Wilson interval"), 1), fontsize=_TITLE_SIZE)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    ax = fig.add_subplot(grid[:, 2])
    ppg = p["points_per_game"].fillna(0)
    ax.barh(y, ppg, color=["#3a8f5c" if v >= 0 else "#c0392b" for v in ppg], height=0.55)
    ax.axvline(0, color="#333", lw=0.8)
    # TRANSLATORS: a player's name on the plot, over the number of the player's games
    ax.set_yticks(y, [ngettext("{name}\n{n} games", "{name}\n{n} games", g).format(name=nm[:18], n=g)
                      for nm, g in zip(names, p["games"])], fontsize=8)
    ax.set_ylim(-0.7, n - 0.3)
    for yy, v, pf, pa in zip(y, ppg, p["points_for"], p["points_against"]):
        # TRANSLATORS: net points per game, then the points won and the points the opponents won
        ax.annotate(_("{net}  ({won} for, {lost} against)").format(net=f"{v:+.2f}", won=pf, lost=pa),
                    (max(v, 0), yy), xytext=(4, 0),
                    textcoords="offset points", ha="left", va="center", fontsize=7.5)
    lim = max(abs(ppg).max(), 0.1) * 2.2
    ax.set_xlim(-lim, lim)
    ax.set_title(panel_title(_("net points per game (for - against)"), 2), fontsize=_TITLE_SIZE)
    ax.grid(axis="x", alpha=0.3)
    fig.suptitle(title or ngettext("nardy-analyze stats: {n} player(s)", "nardy-analyze stats: {n} player(s)",
                                   n).format(n=n), fontsize=12)
    buf = BytesIO()
    with matplotlib.rc_context({"svg.fonttype": "none"}):     # SVG text stays text (searchable, small)
        fig.savefig(buf, format=fmt, dpi=110)
    plt.close(fig)
    write_atomically(path, lambda fh: fh.write(buf.getvalue()), binary=True)
