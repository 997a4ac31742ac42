#!/usr/bin/python3
"""Work–precision of stickslip and the engines on the simulation problems, one panel each (the
slider-crank twice: with its guide's friction and without).

    scripts/plot_engines.py DIR OUT.png

DIR holds the --json output of bench_engines_{slope,rocking,ladder,belt,slider_crank} as
slope.json, rocking.json, ladder.json, belt.json and slider_crank.json (scripts/bench.sh
--engines writes them). Each run is a
point: its CPU seconds per simulated second against its error; a run without an error (fewer
impacts than the reference, a run that failed) is left out and counted in the panel's title.
"""
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {  # engine: (marker, colour)
    "stickslip": ("o", "black"),
    "MuJoCo": ("s", "tab:blue"),
    "Bullet": ("^", "tab:orange"),
    "DART": ("D", "tab:green"),
    "ODE": ("v", "tab:red"),
}


def slope(d):
    return [(r, r["slid"]) for r in d], "slid by 5 s [m] (exact: 0)"


def rocking(d):
    return [(r, r["error"]) for r in d["runs"]], "error of the first 4 impacts [s]"


def ladder(d):
    ref = d["reference"]
    return [(r, None if r["separation"] is None else abs(r["separation"] - ref)) for r in d["runs"]], \
        "|error| of the instant it leaves the wall [s]"


def belt(d):
    first = d["reference"][0][0]
    return [(r, None if r["first_breakaway"] is None else abs(r["first_breakaway"] - first)) for r in d["runs"]], \
        "|error| of the first break-away [s]"


def slider_crank(friction):
    def points(d):
        return [(r, r["error"]) for r in d["runs"] if r["friction"] == friction], \
            "largest error of the slider [m]"
    return points


PANELS = [("slope", "A box held on a slope", slope), ("rocking", "Housner's rocking block", rocking),
          ("ladder", "A ladder leaving its wall", ladder), ("belt", "The belt (one μ for the engines)", belt),
          ("slider_crank", "Spatial slider-crank, guide friction (constant for the engines)",
           slider_crank(True)),
          ("slider_crank", "Spatial slider-crank without friction", slider_crank(False))]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_engines.py DIR OUT.png")
    folder, out = Path(sys.argv[1]), Path(sys.argv[2])
    fig, axes = plt.subplots(3, 2, figsize=(11, 12.5))
    for ax, (name, title, points) in zip(axes.flat, PANELS):
        runs, ylabel = points(json.loads((folder / f"{name}.json").read_text()))
        left_out = 0
        for engine, (marker, colour) in STYLE.items():
            xy = [(r["cpu_per_simulated_s"], e) for r, e in runs
                  if r["engine"] == engine and e is not None and math.isfinite(e) and e > 0]
            left_out += sum(1 for r, e in runs if r["engine"] == engine and (e is None or not math.isfinite(e)))
            if xy:
                ax.scatter(*zip(*xy), marker=marker, color=colour, label=engine, s=28)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("CPU [s per simulated s]")
        ax.set_ylabel(ylabel)
        ax.set_title(title + (f" ({left_out} runs without an error)" if left_out else ""), fontsize=10)
        ax.grid(True, which="major", alpha=0.3)
    axes.flat[0].legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


if __name__ == "__main__":
    main()
