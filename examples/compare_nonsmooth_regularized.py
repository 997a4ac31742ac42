#!/usr/bin/python3
"""The nonsmooth-vs-regularized figure of a mechanism, drawn with matplotlib.

    examples/compare_nonsmooth_regularized.py [SCENARIO] [--law LAW] [--t-end T] [--out FILE] [--force]

SCENARIO is a built-in (stickslip.builtins()) or a model file; default belt. The mechanism
runs by event-driven (set-valued Coulomb, exact) and by the penalty route with the friction
law LAW (default ambrosio); the figure sets each compared output of the two runs one above
the other, with the deviation of the regularized run, and marks event-driven's stick/slip
changes. An existing FILE is overwritten only with --force. Needs `import stickslip`
(scripts/setup.sh) and python3-matplotlib.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt
from matplotlib.backend_bases import FigureCanvasBase

import stickslip


def check_out(out):
    """ValueError unless matplotlib can write `out`: a known format, in a folder that exists."""
    folder = os.path.dirname(out) or "."
    if not os.path.isdir(folder):
        raise ValueError(f"--out {out}: no folder {folder}")
    if os.path.isdir(out):
        raise ValueError(f"--out {out}: is a folder; name a file such as {os.path.join(out, 'figure.png')}")
    kind = os.path.splitext(out)[1].lstrip(".").lower()
    formats = FigureCanvasBase.get_supported_filetypes()
    if kind not in formats:
        raise ValueError(f"--out {out}: expected a file ending in one of .{', .'.join(sorted(formats))}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", nargs="?", default="belt")
    parser.add_argument("--law", default="ambrosio", help="the penalty route's friction law")
    parser.add_argument("--t-end", type=float, help="end time [s] (default: the scenario's)")
    parser.add_argument("--out", default=None, help="PNG file (default SCENARIO-nonsmooth-vs-regularized.png)")
    parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")
    args = parser.parse_args()

    try:
        scenario = stickslip.Scenario(args.scenario)
        out = args.out or f"{scenario.name}-nonsmooth-vs-regularized.png"
        check_out(out)
        if os.path.exists(out) and not args.force:
            raise ValueError(f"--out {out}: file exists; pass --force to overwrite it")
        settings = {"t_end": args.t_end} if args.t_end is not None else {}  # 0 is the run's to refuse
        methods = ["event-driven", f"penalty:{args.law}"]
        comparison = stickslip.compare(scenario, methods, **settings)
    except ValueError as e:  # stickslip.InputError names the file, line and key
        print(f"compare_nonsmooth_regularized: {e}", file=sys.stderr)
        return 2
    runs = comparison["runs"]
    for method, run in runs.items():
        if not run.ok:
            print(f"compare_nonsmooth_regularized: {method}: {run.status}: {run.message}", file=sys.stderr)
            return 1
    outputs = list(dict.fromkeys(d["output"] for d in comparison["deviations"]))
    exact, regularized = runs[methods[0]], runs[methods[1]]

    fig, axes = plt.subplots(len(outputs), 1, sharex=True, figsize=(9, 2.6 * len(outputs)), squeeze=False)
    for ax, output in zip(axes[:, 0], outputs):
        ax.plot(exact.t, exact.column(output), label="nonsmooth (event-driven)", lw=1.6)
        ax.plot(regularized.t, regularized.column(output), "--", label=f"regularized ({args.law})", lw=1.2)
        for event in exact.events:
            if event["kind"] in ("stick", "slip+", "slip-"):
                ax.axvline(event["t"], color="0.8", lw=0.8, zorder=0)
        dev = next(d for d in comparison["deviations"] if d["method"] == methods[1] and d["output"] == output)
        ax.set_ylabel(output)
        ax.set_title(f"max deviation {dev['max']:.3g}, RMS {dev['rms']:.3g}", fontsize=9, loc="right")
        ax.grid(alpha=0.3)
    axes[0, 0].legend(loc="best", fontsize=9)
    axes[-1, 0].set_xlabel("t [s] (grey: event-driven's stick/slip changes)")
    fig.suptitle(f"{scenario.name}: set-valued Coulomb vs regularized friction")
    fig.tight_layout()
    try:
        fig.savefig(out, dpi=110)
    except OSError as e:  # a folder we may not write in
        print(f"compare_nonsmooth_regularized: --out {out}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
