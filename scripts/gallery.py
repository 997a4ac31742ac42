#!/usr/bin/python3
"""The gallery: the seeds' figures regenerated from stickslip runs, each beside the paper's finding
and our number for it (docs/gallery.md).

    /usr/bin/python3 scripts/gallery.py            every figure: docs/img/gallery/NAME.png,
                                                   docs/gallery-numbers.json, docs/gallery.md
    /usr/bin/python3 scripts/gallery.py --check    reruns every figure's runs and compares its numbers
                                                   with docs/gallery-numbers.json (exit 1 on a difference)
    /usr/bin/python3 scripts/gallery.py --page     docs/gallery.md again from the committed numbers
    options: --only NAME[,NAME…] (those figures; with --check too), --seed SEED[,SEED…] (that
             seed's figures: zheng, blajer, muvengei, review, thesis), --stickslip PATH (default
             build/bin/stickslip)

The figures, what each runs and the numbers it reads off the runs are in gallery_figures.py. A
number is checked to a relative 1e-6 (or the figure's own tolerance): the runs are deterministic,
and a number that moves is a change of results, not of pixels.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gallery_figures import CHAOTIC, FIGURES, SEEDS  # noqa: E402

SOURCE = Path(__file__).resolve().parent.parent
IMAGES = SOURCE / "docs" / "img" / "gallery"
NUMBERS = SOURCE / "docs" / "gallery-numbers.json"
PAGE = SOURCE / "docs" / "gallery.md"


class Table:
    """A run's CSV: columns by name (t, body.x, contact.N, …)."""

    def __init__(self, names, data):
        self.names, self.data = list(names), data

    @classmethod
    def read(cls, path):
        with open(path, encoding="utf-8") as f:
            header = next(line for line in f if not line.startswith("#"))
        return cls(header.strip().split(","), np.loadtxt(path, delimiter=",", comments="#", skiprows=1, ndmin=2))

    def __getitem__(self, name):
        if name not in self.names:
            raise KeyError("the run has no column %r (it has %s)" % (name, ", ".join(self.names)))
        return self.data[:, self.names.index(name)]

    def __contains__(self, name):
        return name in self.names


class Runs:
    """Each distinct command once; figures share them. ARGS: `stickslip run ARGS --out FILE`, a
    Table; ["bench", ARGS…]: `stickslip bench ARGS --json`, {method: Table of its series}."""

    def __init__(self, cli, workdir):
        self.cli, self.workdir, self.cache = cli, Path(workdir), {}

    def __call__(self, args):
        key = tuple(args)
        if key not in self.cache:
            out = self.workdir / ("run%d.csv" % len(self.cache))
            command = [self.cli, *args, "--json"] if args[0] == "bench" else [self.cli, "run", *args, "--out", str(out)]
            p = subprocess.run(command, capture_output=True, text=True)
            if p.returncode != 0:
                raise RuntimeError("%s: exit %d\n%s" % (" ".join(command), p.returncode, p.stderr[-2000:]))
            self.cache[key] = benchSeries(json.loads(p.stdout)) if args[0] == "bench" else Table.read(out)
        return self.cache[key]


def benchSeries(report):
    """`stickslip bench --what eom --series-dt DT --json`'s rows as {method: Table (t, phi2, …,
    and its cpu_relative as a constant column)}."""
    tables = {}
    for row in report["rows"]:
        names = list(row["series"])
        data = np.column_stack([row["series"][n] for n in names] + [np.full(len(row["series"]["t"]), row["cpu_relative"])])
        tables[row["method"]] = Table(names + ["cpu_relative"], data)
    return tables


def commandLines(figure):
    return ["    - `stickslip %s`" % " ".join(args + ["--json"]) if args[0] == "bench" else
            "    - `stickslip run %s --out FILE`" % " ".join(args) for args in figure.runs.values()]


def compute(figure, runs):
    tables = {label: runs(args) for label, args in figure.runs.items()}
    return tables, {k: float(v) for k, v in figure.numbers(tables).items()}


def draw(figure, tables):
    fig = plt.figure(figsize=figure.size)
    figure.draw(fig, tables)
    fig.suptitle("%s %s: %s" % (SEEDS[figure.seed].short, figure.paper, figure.title), fontsize=10)
    fig.tight_layout()
    fig.savefig(IMAGES / (figure.name + ".png"), dpi=90)
    plt.close(fig)


def formatted(value):
    return "%.6g" % value


def pageText(numbers):
    lines = [
        "# The papers' figures, regenerated",
        "",
        "Each figure below is ours: the mechanism of a seed paper, run by `stickslip` with the paper's",
        "parameters, drawn beside the paper's finding and the number we obtain for it. Where a finding",
        "is checked with a tolerance that would catch a wrong answer, the check is a row of",
        "`stickslip verify` ([every row](verification-rows.md)); the disagreements with the papers and",
        "their resolutions are on [the verification page](verification.md#the-papers-mechanisms).",
        "",
        "```sh",
        "/usr/bin/python3 scripts/gallery.py          # every figure, its numbers and this page",
        "/usr/bin/python3 scripts/gallery.py --check  # the numbers again, against the committed ones",
        "```",
        "",
        "The test suite reruns every figure's runs and compares the numbers behind it with",
        "`docs/gallery-numbers.json` (not the pixels): to 1e-6 or the figure's own tolerance, as the runs",
        "are deterministic, except where impacts make the motion chaotic and another build's round-off",
        "gives another sample (said under the figure).",
        "",
        "| seed | figures a simulation can reproduce | in the gallery |",
        "| --- | ---: | ---: |",
    ]
    for key, seed in SEEDS.items():
        done = [f for f in FIGURES if f.seed == key]
        lines.append("| [%s](#%s) | %d | %d |" % (seed.short, key, len(seed.reproducible), len(done)))
    for key, seed in SEEDS.items():
        lines += ["", '<a id="%s"></a>' % key, "", "## " + seed.title, ""]
        done = {f.paper for f in FIGURES if f.seed == key}
        missing = [p for p in seed.reproducible if p not in done]
        if missing:
            lines += ["Not yet in the gallery: %s." % ", ".join(missing), ""]
        for f in sorted((f for f in FIGURES if f.seed == key), key=lambda f: seed.reproducible.index(f.paper)):
            values = numbers[f.name]
            lines += ["### %s: %s" % (f.paper, f.title), "",
                      "- **The paper**: " + f.finding,
                      "- **Ours**: " + f.ours(values),
                      "- **Runs**:", *commandLines(f), "",
                      "| number | value |", "| --- | ---: |"]
            lines += ["| %s | %s |" % (k.replace("|", "\\|"), formatted(v)) for k, v in values.items()]
            if f.chaotic:
                lines += ["", "One sample of a chaotic motion (%s): the test checks these numbers to %d %%." % (
                    f.chaotic, 100 * CHAOTIC)]
            lines += ["", "![%s %s](img/gallery/%s.png)" % (seed.short, f.paper, f.name), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def close(a, b, rtol, floor):
    return a == b or (np.isnan(a) and np.isnan(b)) or abs(a - b) <= max(rtol * max(abs(a), abs(b)), floor)


def check(figures, numbers):
    committed = json.loads(NUMBERS.read_text(encoding="utf-8"))
    failures = 0
    for f in figures:
        if f.name not in committed:
            print("FAILED: %s is not in %s (regenerate: scripts/gallery.py)" % (f.name, NUMBERS.name))
            failures += 1
            continue
        if not (IMAGES / (f.name + ".png")).is_file():
            print("FAILED: docs/img/gallery/%s.png is missing" % f.name)
            failures += 1
        for key, value in numbers[f.name].items():
            expected = committed[f.name].get(key)
            rtol = CHAOTIC if f.chaotic else f.tolerance
            ok = expected is not None and close(value, expected, rtol, f.floor)
            print("%s %s: %s = %s (committed %s, rtol %g)" % ("ok" if ok else "FAILED:", f.name, key,
                                                            formatted(value), expected, rtol))
            failures += not ok
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--page", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--seed", default="")
    parser.add_argument("--stickslip", default=str(SOURCE / "build" / "bin" / "stickslip"))
    options = parser.parse_args()
    wanted = set(filter(None, options.only.split(",")))
    unknown = wanted - {f.name for f in FIGURES}
    if unknown:
        parser.error("no figure named %s" % ", ".join(sorted(unknown)))
    seeds = set(filter(None, options.seed.split(",")))
    if seeds - set(SEEDS):
        parser.error("no seed named %s (%s)" % (", ".join(sorted(seeds - set(SEEDS))), ", ".join(SEEDS)))
    figures = [f for f in FIGURES if (not wanted or f.name in wanted) and (not seeds or f.seed in seeds)]

    if options.page:
        PAGE.write_text(pageText(json.loads(NUMBERS.read_text(encoding="utf-8"))), encoding="utf-8")
        return 0
    with tempfile.TemporaryDirectory(prefix="stickslip-gallery-") as workdir:
        runs = Runs(os.path.abspath(options.stickslip), workdir)
        numbers, tables = {}, {}
        for f in figures:
            tables[f.name], numbers[f.name] = compute(f, runs)
        if options.check:
            failures = check(figures, numbers)
            print("%d figures, %d differences" % (len(figures), failures))
            return 1 if failures else 0
        IMAGES.mkdir(parents=True, exist_ok=True)
        for f in figures:
            draw(f, tables[f.name])
        committed = json.loads(NUMBERS.read_text(encoding="utf-8")) if NUMBERS.exists() else {}
        committed.update(numbers)
        committed = {f.name: committed[f.name] for f in FIGURES if f.name in committed}
        NUMBERS.write_text(json.dumps(committed, indent=1) + "\n", encoding="utf-8")
        PAGE.write_text(pageText(committed), encoding="utf-8")
        print("%d figures written to %s" % (len(figures), IMAGES.relative_to(SOURCE)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
