"""The gallery's figures (scripts/gallery.py): for each seed, the figures a simulation can
reproduce; for each figure in the gallery, the runs it needs, how to draw it, the numbers it reads
off the runs and the sentence that states them beside the paper's finding."""
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass
class Seed:
    short: str
    title: str
    reproducible: list  # the paper's figures a simulation can reproduce


@dataclass
class Figure:
    seed: str
    paper: str  # "Fig. 5", as the paper numbers it
    name: str  # the image's file name, without .png
    title: str
    finding: str  # the paper's finding, in our words
    runs: dict  # label -> arguments of `stickslip run`
    draw: Callable  # (matplotlib figure, {label: Table})
    numbers: Callable  # {label: Table} -> {"name [unit]": value}
    ours: Callable  # numbers -> our finding, one sentence
    size: tuple = (9.0, 3.4)
    tolerance: float = 1e-6  # relative, on each number
    floor: float = 0.0  # absolute: differences below it are round-off (a violation of 1e-30)
    # Why the runs are chaotic, if they are: impacts amplify round-off, so another CPU's libm or
    # another build gives another sample of the motion; its numbers are checked to CHAOTIC.
    chaotic: str = ""


CHAOTIC = 0.5  # relative tolerance of a chaotic figure's numbers
CLEARANCE_CHAOS = "the clearance joint's impact sequence is chaotic after 0.04 s (theory/spatial.md)"


SEEDS = {
    "zheng": Seed("Zheng et al.", "Zheng, Zhang & Wang (2018): Coulomb friction in a slider-crank's clearance joint",
                  ["Fig. %d" % i for i in range(5, 14)]),
    "blajer": Seed("Blajer & Markiewicz", "Blajer & Markiewicz: the minimal form of mechanisms with friction",
                   ["Fig. 4", "Fig. 6", "Fig. 8"]),
    "muvengei": Seed("Muvengei et al.", "Muvengei, Kihiu & Ikua: LuGre friction in a revolute clearance joint",
                     ["Fig. 7", "Fig. 8", "Figs 9-10"]),
    "review": Seed("The review", "Marques, Flores, Claro & Lankarani (2018): the friction review",
                   ["Fig. 5", "Fig. 6", "Fig. 7", "Fig. 8", "Fig. 11", "Fig. 12", "Fig. 13"]),
    "thesis": Seed("The thesis", "Marques (2015): frictional contacts in multibody dynamics (thesis)",
                   ["Fig. 2.%d" % i for i in range(7, 11)] + ["Fig. 3.%d" % i for i in range(20, 25)] +
                   ["Fig. 4.3"] + ["Fig. 4.%d" % i for i in range(10, 26)]),
}

FIGURES = []


def g(x):
    return "%.4g" % x


# ---- helpers shared by the figures ----------------------------------------------------------

def zeroCrossings(t, x):
    """The instants where x changes sign, by linear interpolation between samples."""
    i = np.nonzero(np.sign(x[:-1]) * np.sign(x[1:]) < 0)[0]
    return t[i] - x[i] * (t[i + 1] - t[i]) / (x[i + 1] - x[i])


def stuckTime(t, v, speed=1e-9):
    """The time spent with |v| ≤ speed (sample intervals whose both ends are)."""
    still = np.abs(v) <= speed
    return float(np.sum(np.diff(t)[still[:-1] & still[1:]]))


def lowHarmonicPeak(t, x, harmonics=3, start=1.0, period=1.0, dt=1e-3):
    """The peak over [start, start + period) of x's Fourier series to the given harmonic on that
    period, from the samples at multiples of dt (mechanisms/verification.cpp: lowHarmonicPeak)."""
    on_grid = np.abs(t - dt * np.round(t / dt)) < 1e-9
    keep = on_grid & (t >= start - 1e-9) & (t <= start + period - dt + 1e-9)
    ts, xs = t[keep], x[keep]
    w = 2 * np.pi / period
    grid = start + np.arange(1000) * period / 1000
    value = np.full_like(grid, xs.mean())
    for k in range(1, harmonics + 1):
        a, b = 2 * np.mean(xs * np.cos(k * w * ts)), 2 * np.mean(xs * np.sin(k * w * ts))
        value += a * np.cos(k * w * grid) + b * np.sin(k * w * grid)
    return float(np.abs(value).max())


def axes(fig, n, sharex=True):
    return fig.subplots(1, n, sharex=sharex) if n > 1 else [fig.subplots()]


def history(ax, runs, column, ylabel, labels=None, scale=1.0, t="t"):
    for label, table in runs.items():
        if labels is None or label in labels:
            ax.plot(table[t], scale * table[column], lw=0.9, label=label)
    ax.set_xlabel("t [s]")
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)


def figure(**kwargs):
    FIGURES.append(Figure(**kwargs))


# ---- Zheng, Zhang & Wang: Examples I (torque), II (rheonomic), III (equilibrium) -------------

ZHENG_I = {"no friction": ["zheng-torque", "--friction", "none"],
           "modified Coulomb": ["zheng-torque", "--friction", "ambrosio"],
           "dry, mu = mu_s": ["zheng-torque", "--friction", "coulomb"],
           "dry, mu_s = 0.11": ["zheng-torque"]}


def zhengFig5(fig, r):
    ax = axes(fig, 2)
    history(ax[0], r, "crank.theta", "θ1 [rad]")
    history(ax[1], r, "crank.omega", "dθ1/dt [rad/s]")
    ax[0].legend(fontsize=7)


def zhengFig5Numbers(r):
    out = {}
    for label, key in (("no friction", "none"), ("dry, mu_s = 0.11", "dry")):
        out["largest |θ1|, %s [rad]" % key] = np.abs(r[label]["crank.theta"]).max()
        out["third zero crossing of θ1, %s [s]" % key] = zeroCrossings(r[label]["t"], r[label]["crank.theta"])[2]
    return out


figure(seed="zheng", paper="Fig. 5", name="zheng-fig5-crank", title="Example I, the crank's angle and rate",
       finding="with friction in joint A the crank's swing is smaller and its motion lags the frictionless one.",
       runs=ZHENG_I, draw=zhengFig5, numbers=zhengFig5Numbers,
       ours=lambda n: "the swing shrinks from %s to %s rad; at our drive (τ0 = 0.5 N m, the paper's was lost) the "
                      "third zero crossing comes earlier, %s s against %s s, a lead the verification page explains "
                      "(the frictionless crank swings near the unstable top); at τ0 = 0.2 N m every crossing lags." % (
                          g(n["largest |θ1|, none [rad]"]), g(n["largest |θ1|, dry [rad]"]),
                          g(n["third zero crossing of θ1, dry [s]"]), g(n["third zero crossing of θ1, none [s]"])))


def zhengContactHistories(fig, r, labels, scale_v):
    ax = axes(fig, len(labels))
    for a, label in zip(ax, labels):
        t = r[label]["t"]
        a.plot(t, scale_v * r[label]["clearance-A.v_t"], lw=0.8, label="%g v_t [m/s]" % scale_v)
        a.plot(t, 3 * r[label]["clearance-A.F"], lw=0.8, label="3 F_t [N]")
        a.plot(t, r[label]["clearance-A.N"], lw=0.8, label="F_n [N]")
        a.set_title(label, fontsize=9)
        a.set_xlabel("t [s]")
        a.grid(alpha=0.3)
    ax[0].legend(fontsize=7)


def zhengFig6Numbers(r):
    return {"time stuck (|v_t| ≤ 1e-9 m/s), %s [s]" % k: stuckTime(r[label]["t"], r[label]["clearance-A.v_t"])
            for label, k in (("modified Coulomb", "modified"), ("dry, mu = mu_s", "dry mu = mu_s"),
                             ("dry, mu_s = 0.11", "dry mu_s = 0.11"))}


figure(seed="zheng", paper="Fig. 6", name="zheng-fig6-contact", title="Example I, the contact's 5000 v_t, 3 F_t, F_n",
       finding="with the dry Coulomb law the contact points stick and slip; with the modified law (no force below "
               "a threshold speed) they do not stick.",
       runs={k: ZHENG_I[k] for k in ("modified Coulomb", "dry, mu = mu_s", "dry, mu_s = 0.11")},
       draw=lambda fig, r: zhengContactHistories(fig, r, list(r), 5000), numbers=zhengFig6Numbers, size=(11, 3.4),
       ours=lambda n: "the dry law sticks for %s s (μ = μs) and %s s (μs = 0.11) of the 2 s; the modified law %s s." % (
           g(n["time stuck (|v_t| ≤ 1e-9 m/s), dry mu = mu_s [s]"]),
           g(n["time stuck (|v_t| ≤ 1e-9 m/s), dry mu_s = 0.11 [s]"]),
           g(n["time stuck (|v_t| ≤ 1e-9 m/s), modified [s]"])))

figure(seed="zheng", paper="Fig. 7", name="zheng-fig7-algorithms", title="Example I, LCP against trial and error",
       finding="the trial-and-error algorithm and the LCP give identical crank angles.",
       runs={"LCP (Lemke)": ["zheng-torque", "--solver", "lemke"],
             "trial and error": ["zheng-torque", "--solver", "trial-and-error"]},
       draw=lambda fig, r: (history(fig.subplots(), r, "crank.theta", "θ1 [rad]"), fig.axes[0].legend(fontsize=8)),
       numbers=lambda r: {"largest |Δθ1| [rad]": np.abs(r["LCP (Lemke)"]["crank.theta"] -
                                                          r["trial and error"]["crank.theta"]).max()},
       ours=lambda n: "the two runs differ by at most %s rad in θ1." % g(n["largest |Δθ1| [rad]"]))


def zhengFig8(fig, r):
    ax = axes(fig, 2, sharex=False)
    for a, label in zip(ax, ("dry, mu_s = 0.11", "modified Coulomb")):
        run = r[label]
        contact = run["clearance-A.N"] > 1e-9
        a.plot(run["clearance-A.v_t"][contact], (run["clearance-A.F"] / run["clearance-A.N"])[contact], ".", ms=2)
        a.set_title(label, fontsize=9)
        a.set_xlabel("v_t [m/s]")
        a.set_ylabel("F_t / F_n")
        a.grid(alpha=0.3)


def ratioNumbers(run, v, f, n, prefix):
    contact = run[n] > 1e-9
    ratio, speed = np.abs(run[f][contact] / run[n][contact]), np.abs(run[v][contact])
    return {prefix + "largest |F_t|/F_n while sliding": ratio[speed > 1e-6].max(),
            prefix + "largest |F_t|/F_n while stuck": ratio[speed <= 1e-9].max() if np.any(speed <= 1e-9) else 0.0}


figure(seed="zheng", paper="Fig. 8", name="zheng-fig8-ratio", title="Example I, F_t/F_n against v_t",
       finding="the dry law holds any F_t/F_n up to μs at v_t = 0 (stick); the modified law has no force there.",
       runs={k: ZHENG_I[k] for k in ("dry, mu_s = 0.11", "modified Coulomb")}, draw=zhengFig8,
       numbers=lambda r: {**ratioNumbers(r["dry, mu_s = 0.11"], "clearance-A.v_t", "clearance-A.F", "clearance-A.N",
                                         "dry: "),
                          **ratioNumbers(r["modified Coulomb"], "clearance-A.v_t", "clearance-A.F", "clearance-A.N",
                                         "modified: ")},
       ours=lambda n: "dry: |F_t|/F_n = %s while sliding (μ = 0.10) and up to %s while stuck (μs = 0.11)." % (
           g(n["dry: largest |F_t|/F_n while sliding"]), g(n["dry: largest |F_t|/F_n while stuck"])))

def rheonomic(*extra):
    return ["zheng-rheonomic", *extra]


ZHENG_II = {"no friction": rheonomic("--friction", "none"),
            "modified Coulomb": rheonomic("--friction", "ambrosio"),
            "dry, mu = mu_s": rheonomic("--friction", "coulomb"),
            "dry, mu_s = 0.055": rheonomic()}


def zhengFig9(fig, r):
    ax = axes(fig, 2)
    history(ax[0], r, "driver.lambda", "λ1 [N m]", labels=("no friction", "modified Coulomb", "dry, mu = mu_s"))
    history(ax[1], r, "driver.lambda", "λ1 [N m]", labels=("dry, mu = mu_s", "dry, mu_s = 0.055"))
    ax[1].set_xlim(1.0, 1.3)
    for a in ax:
        a.legend(fontsize=7)


def slowPeak(run):
    return lowHarmonicPeak(run["t"], run["driver.lambda"])


figure(seed="zheng", paper="Fig. 9", name="zheng-fig9-torque", title="Example II, the driving torque λ1",
       finding="λ1 with the modified and with the dry law nearly coincide; μs > μ changes it little.",
       runs=ZHENG_II, draw=zhengFig9,
       numbers=lambda r: {"λ1's 0-3 Hz peak over [1, 2] s, %s [N m]" % k: slowPeak(r[k]) for k in ZHENG_II},
       ours=lambda n: "the peak of λ1's slow part (to 3 Hz, without the journal's ringing) is %s N m without "
                      "friction, %s (modified), %s (dry, μ = μs) and %s N m (μs = 0.055)." % tuple(
                          g(v) for v in n.values()))

figure(seed="zheng", paper="Fig. 10", name="zheng-fig10-contact", title="Example II, the contact's 5000 v_t, 3 F_t, F_n",
       finding="with μs = 0.055 > μ the contact points stick and slip while the crank follows its drive.",
       runs={"dry, mu_s = 0.055": ZHENG_II["dry, mu_s = 0.055"]},
       draw=lambda fig, r: zhengContactHistories(fig, r, list(r), 5000),
       numbers=lambda r: {"time stuck (|v_t| ≤ 1e-9 m/s) [s]": stuckTime(r["dry, mu_s = 0.055"]["t"],
                                                                          r["dry, mu_s = 0.055"]["clearance-A.v_t"])},
       ours=lambda n: "the contact sticks for %s s of the 2 s." % g(n["time stuck (|v_t| ≤ 1e-9 m/s) [s]"]))

ZHENG_MU = {"mu = %g" % mu: rheonomic("--friction", "coulomb", "--set", "parameters.mu_kinetic=%g" % mu,
                                      "--set", "parameters.mu_static=%g" % mu) for mu in (0.05, 0.10, 0.15)}


def zhengFig11Numbers(r):
    peaks = {k: slowPeak(v) for k, v in r.items()}
    out = {"λ1's 0-3 Hz peak, %s [N m]" % k: v for k, v in peaks.items()}
    values = list(peaks.values())
    out["least ratio of the peaks from one μ to the next"] = min(b / a for a, b in zip(values, values[1:]))
    return out


figure(seed="zheng", paper="Fig. 11", name="zheng-fig11-torque-mu", title="Example II, λ1 for μ = 0.05, 0.10, 0.15",
       finding="larger friction coefficients give larger amplitudes of the driving torque λ1.",
       runs=ZHENG_MU,
       draw=lambda fig, r: (history(fig.subplots(), r, "driver.lambda", "λ1 [N m]"), fig.axes[0].set_xlim(1, 2),
                            fig.axes[0].legend(fontsize=8)),
       numbers=zhengFig11Numbers,
       ours=lambda n: "the slow part's peak grows %s, %s, %s N m: at least ×%s per step (the verify row asks "
                      "≥ 1.015; the raw peak carries the journal's ringing, larger than friction's effect)." % tuple(
                          g(v) for v in n.values()))

ZHENG_III = {"no friction": ["zheng-equilibrium", "--friction", "none"],
             "modified Coulomb": ["zheng-equilibrium", "--friction", "ambrosio"],
             "dry Coulomb": ["zheng-equilibrium"],
             "ideal joints": ["zheng-equilibrium", "--ideal"]}

figure(seed="zheng", paper="Fig. 12", name="zheng-fig12-equilibrium", title="Example III, the free crank's angle",
       finding="with dry Coulomb (μ = 0.15, μs = 0.2) the mechanism stays at θ1 = π − 0.01; without friction, with "
               "the modified law and with ideal joints it falls.",
       runs=ZHENG_III,
       draw=lambda fig, r: (history(fig.subplots(), r, "crank.theta", "θ1 [rad]"), fig.axes[0].legend(fontsize=8)),
       numbers=lambda r: {"largest |θ1 − θ1(0)|, %s [rad]" % k: np.abs(v["crank.theta"] - v["crank.theta"][0]).max()
                          for k, v in r.items()},
       ours=lambda n: "dry Coulomb holds θ1 within %s rad over 5 s; the others move %s, %s and %s rad." % tuple(
           g(v) for v in (n["largest |θ1 − θ1(0)|, dry Coulomb [rad]"], n["largest |θ1 − θ1(0)|, no friction [rad]"],
                          n["largest |θ1 − θ1(0)|, modified Coulomb [rad]"],
                          n["largest |θ1 − θ1(0)|, ideal joints [rad]"])))


def zhengFig13Numbers(r):
    run = r["dry Coulomb"]
    return {"largest |v_t| [m/s]": np.abs(run["clearance-A.v_t"]).max(),
            "F_t/F_n at t = 0": abs(run["clearance-A.F"][0] / run["clearance-A.N"][0])}


figure(seed="zheng", paper="Fig. 13", name="zheng-fig13-static-friction", title="Example III, 1000 v_t and F_t",
       finding="the contact points' relative velocity is zero and they carry a static friction force, not zero.",
       runs={"dry Coulomb": ZHENG_III["dry Coulomb"]},
       draw=lambda fig, r: zhengContactHistories(fig, r, list(r), 1000), numbers=zhengFig13Numbers,
       ours=lambda n: "|v_t| stays below %s m/s; the friction force holds F_t/F_n = %s, inside μs = 0.2." % (
           g(n["largest |v_t| [m/s]"]), g(n["F_t/F_n at t = 0"])))

# ---- registered from here on: the rest of the seeds' figures ----------------------------------
# ---- Blajer & Markiewicz: Dupont's masses (Fig. 4), Examples 1 and 2 (Figs 6, 8) -------------


def stiction(run, column):
    """Intervals where the minimal form's reactions are NaN (indeterminate: the mechanism sticks)."""
    stuck = ~np.isfinite(run[column])
    starts = np.count_nonzero(stuck[1:] & ~stuck[:-1]) + int(stuck[0])
    return starts, float(np.sum(np.diff(run["t"])[stuck[:-1] & stuck[1:]]))


def dupontFig4(fig, r):
    ax = axes(fig, 2)
    for body in ("m1", "m2"):
        for a, column, unit in ((ax[0], ".x", "[m]"), (ax[1], ".vx", "[m/s]")):
            a.plot(r["event-driven"]["t"], r["event-driven"][body + column], lw=0.9, label=body)
            a.set_ylabel(("position " if column == ".x" else "velocity ") + unit)
    for a in ax:
        a.set_xlabel("t [s]")
        a.grid(alpha=0.3)
    ax[0].legend(fontsize=8)


figure(seed="blajer", paper="Fig. 4", name="blajer-fig4-dupont", title="Dupont's two masses: stick and slip",
       finding="friction in a slot whose normal force changes sign makes the two masses stick and slip.",
       runs={"event-driven": ["dupont"]}, draw=dupontFig4,
       numbers=lambda r: {"time stuck [s]": stuckTime(r["event-driven"]["t"], r["event-driven"]["slot.v_t"])},
       ours=lambda n: "the slot sticks for %s s of the run; every stick/slip change matches the independent "
                      "reference (`stickslip verify --case dupont`)." % g(n["time stuck [s]"]))

BLAJER_1 = {"with friction (mu)": ["blajer-1", "--method", "minimal-form"],
            "mu = 0": ["blajer-1", "--method", "minimal-form", "--set", "parameters.friction=false"]}


def blajerFig6(fig, r):
    ax = axes(fig, 2)
    history(ax[0], r, "link1.theta", "crank angle q1 [rad]")
    history(ax[1], r, "link1.omega", "u = dq1/dt [rad/s]")
    ax[0].legend(fontsize=8)


figure(seed="blajer", paper="Fig. 6", name="blajer-fig6-example1", title="Example 1, the four-bar with a sliding link",
       finding="released at rest, the friction-free mechanism swings on; with friction (static and kinetic "
               "coefficients in every joint) it slows and comes to a stop.",
       runs=BLAJER_1, draw=blajerFig6,
       numbers=lambda r: {"stiction starts, with friction": stiction(r["with friction (mu)"], "lambda0")[0],
                          "time in stiction, with friction [s]": stiction(r["with friction (mu)"], "lambda0")[1],
                          "largest |u|, mu = 0 [rad/s]": np.abs(r["mu = 0"]["link1.omega"]).max(),
                          "largest |u|, with friction [rad/s]": np.abs(r["with friction (mu)"]["link1.omega"]).max()},
       ours=lambda n: "with friction the crank's rate peaks at %s rad/s against %s without, and the loop sticks "
                      "(%s s of the run); event-driven matches every change to 2e-10 s (`stickslip verify --case "
                      "blajer-1`)." % (g(n["largest |u|, with friction [rad/s]"]), g(n["largest |u|, mu = 0 [rad/s]"]),
                                       g(n["time in stiction, with friction [s]"])))


def blajerFig8(fig, r):
    run = r["minimal form"]
    ax = axes(fig, 3)
    ax[0].plot(run["t"], run["crank.omega"], lw=0.8)
    ax[0].set_ylabel("u [rad/s]")
    ax[1].plot(run["t"], 6 * np.sin(3 * run["t"]), lw=0.8)
    ax[1].set_ylabel("τ = 6 sin 3t [N m]")
    ax[2].plot(run["t"], -run["lambda0"], lw=0.8)
    ax[2].set_ylabel("f1 [N] (gaps: stiction)")
    for a in ax:
        a.set_xlabel("t [s]")
        a.grid(alpha=0.3)


figure(seed="blajer", paper="Fig. 8", name="blajer-fig8-example2", title="Example 2, the slider-crank driven by 6 sin 3t",
       finding="the motion alternates stiction and sliding: where the driving torque cannot beat the friction the "
               "mechanism sticks until the torque breaks the stiction equilibrium; reversals come with jumps.",
       runs={"minimal form": ["blajer-2", "--method", "minimal-form"]}, draw=blajerFig8, size=(11, 3.4),
       numbers=lambda r: dict(zip(("stiction phases", "time in stiction [s]"), stiction(r["minimal form"], "lambda0"))),
       ours=lambda n: "%d stiction phases over 10 s, %s s in all; event-driven and Moreau–Jean match every change "
                      "(`stickslip verify --case blajer-2`)." % (n["stiction phases"], g(n["time in stiction [s]"])))

# ---- Muvengei, Kihiu & Ikua: the slider-crank at 2500 rpm with LuGre in a clearance joint ------

MUVENGEI = {"clearance, LuGre": ["muvengei-lugre"], "ideal joint": ["muvengei-lugre", "--ideal"]}


def muvengeiFig7(fig, r):
    ax = axes(fig, 2)
    history(ax[0], r, "slider.ax", "slider acceleration [m/s²]")
    history(ax[1], r, "c-cr.F", "friction force [N]", labels=("clearance, LuGre",))
    ax[0].legend(fontsize=8)


def rms(x):
    return float(np.sqrt(np.mean(np.square(x))))


figure(seed="muvengei", paper="Fig. 7", name="muvengei-fig7-response", title="slider acceleration and friction force",
       finding="the clearance makes the slider's acceleration spiky, well above the ideal joint's, and the LuGre "
               "friction force follows the impacts.",
       runs=MUVENGEI, draw=muvengeiFig7,
       chaotic="the impacts at 2500 rpm amplify round-off: the peaks move ~10 % from one build to another",
       numbers=lambda r: {"RMS slider acceleration, clearance [m/s²]": rms(r["clearance, LuGre"]["slider.ax"]),
                          "RMS slider acceleration, ideal [m/s²]": rms(r["ideal joint"]["slider.ax"]),
                          "share of samples in contact": np.mean(r["clearance, LuGre"]["c-cr.N"] > 0)},
       ours=lambda n: "the RMS acceleration is %s m/s² against %s for the ideal joint, the journal in contact at %s of "
                      "the samples." % (
                          g(n["RMS slider acceleration, clearance [m/s²]"]), g(n["RMS slider acceleration, ideal [m/s²]"]),
                          g(n["share of samples in contact"])))

figure(seed="muvengei", paper="Fig. 8", name="muvengei-fig8-real-joint", title="slider acceleration, real against ideal joint",
       finding="with the real (clearance) joint the acceleration oscillates about the ideal curve with high peaks.",
       runs=MUVENGEI, tolerance=1e-6,
       draw=lambda fig, r: (history(fig.subplots(), r, "slider.ax", "slider acceleration [m/s²]"),
                            fig.axes[0].legend(fontsize=8)),
       numbers=lambda r: {"largest slider acceleration, ideal [m/s²]": np.abs(r["ideal joint"]["slider.ax"]).max()},
       ours=lambda n: "the ideal joint peaks at %s m/s², the closed form's value to 3.5e-8 (`stickslip verify --case "
                      "muvengei`); the clearance's peaks are about twice as high." % g(
                          n["largest slider acceleration, ideal [m/s²]"]))

MUVENGEI_VT = {"centres' t.de/dt (centres_slip)": ["muvengei-lugre", "--set", "parameters.centres_slip=true",
                                                   "--t-end", "0.05", "--output-dt", "1e-6"],
               "surfaces' slip (ours)": ["muvengei-lugre", "--t-end", "0.05", "--output-dt", "1e-6"]}


def muvengeiFig10(fig, r):
    ax = axes(fig, 2, sharex=False)
    for a, (label, run) in zip(ax, r.items()):
        contact = run["c-cr.N"] > 0
        a.plot(run["c-cr.v_t"][contact], run["c-cr.F"][contact], ".", ms=1)
        a.set_title(label, fontsize=9)
        a.set_xlabel("v_T [m/s]")
        a.set_ylabel("F_T [N]")
        a.grid(alpha=0.3)


def vtCrossings(run, start=0.024, end=0.048):
    """v_T's sign changes in contact over the second revolution (2500 rpm: 0.024 s each)."""
    contact, t, v = run["c-cr.N"] > 0, run["t"], run["c-cr.v_t"]
    k = np.nonzero((np.sign(v[:-1]) != np.sign(v[1:])) & contact[:-1] & contact[1:] & (t[:-1] >= start) &
                   (t[:-1] < end))[0]
    return t[k]


def leastSlip(run, start=0.024, end=0.048):
    t = run["t"]
    keep = (run["c-cr.N"] > 0) & (t >= start) & (t < end)
    return float(np.abs(run["c-cr.v_t"][keep]).min())


figure(seed="muvengei", paper="Figs 9-10", name="muvengei-fig10-friction-velocity",
       title="friction force against v_T", tolerance=1e-4,
       finding="v_T passes through zero at t ≈ 0.0321 s, where the friction force reverses (stick-slip).",
       runs=MUVENGEI_VT, draw=muvengeiFig10,
       numbers=lambda r: {"v_T's zero crossings in contact, 2nd revolution, centres_slip":
                          len(vtCrossings(r["centres' t.de/dt (centres_slip)"])),
                          "the crossing nearest 0.0321 s, centres_slip [s]":
                          min(vtCrossings(r["centres' t.de/dt (centres_slip)"]), key=lambda t: abs(t - 0.0321)),
                          "least |v_t| in contact, 2nd revolution, ours [m/s]": leastSlip(r["surfaces' slip (ours)"])},
       ours=lambda n: "with the paper's v_T (the centres' relative velocity, `centres_slip`) it crosses zero %d times in "
                      "contact over the second revolution, one at %s s; the surfaces' true slip never comes below %s "
                      "m/s in contact, so nothing sticks. The verification page explains why the paper's v_T is not "
                      "physical." % (n["v_T's zero crossings in contact, 2nd revolution, centres_slip"],
                                     g(n["the crossing nearest 0.0321 s, centres_slip [s]"]),
                                     g(n["least |v_t| in contact, 2nd revolution, ours [m/s]"])))

# ---- the review: the roller-crank (Figs 5-8) and the journal-bearing (Figs 11-13) -------------

ROLLER_LAWS = {"Coulomb": "coulomb", "regularized Coulomb": "tanh", "Stribeck": "stribeck",
               "Brown-McPhee": "brown-mcphee", "Dahl": "dahl", "LuGre": "lugre"}
ROLLER = {label: ["roller-crank", "--method", "penalty", "--friction", law, "--output-dt", "1e-4"]
          for label, law in ROLLER_LAWS.items()}


def roller(fig, r, column, ylabel, xlim=None):
    ax = fig.subplots()
    history(ax, r, column, ylabel)
    if xlim:
        ax.set_xlim(*xlim)
    ax.legend(fontsize=7, ncol=3)


def stickEnd(run, speed=1e-3):
    """The first instant the roller's slip exceeds `speed`: the end of the initial stick."""
    moving = np.nonzero(np.abs(run["roller-ground.v_t"]) > speed)[0]
    return float(run["t"][moving[0]]) if len(moving) else float("nan")


figure(seed="review", paper="Fig. 5", name="review-fig5-roller-acceleration", title="roller-crank, the roller's angular acceleration",
       finding="the laws differ mostly at the start, where the roller sticks; discontinuous Coulomb and Stribeck "
               "are unstable there; Brown-McPhee and LuGre give similar, stable accelerations.",
       runs=ROLLER, draw=lambda fig, r: roller(fig, r, "roller.alpha", "roller α [rad/s²]"), tolerance=1e-4,
       numbers=lambda r: {"end of the initial stick, %s [s]" % k: stickEnd(v) for k, v in r.items()},
       ours=lambda n: "the initial stick ends (slip > 1 mm/s) at %s s: the laws without static friction leave it "
                      "first, those with μs after 0.2 s." % ", ".join(
                          "%s %s" % (k.split(", ")[1].split(" [")[0], g(v)) for k, v in n.items()))

figure(seed="review", paper="Fig. 6", name="review-fig6-sticking-velocity", title="roller-crank, the slip in the sticking phase",
       finding="in the sticking phase the static laws creep (Brown-McPhee's slip is the largest); LuGre's "
               "pre-sliding keeps it smaller.",
       runs={k: ROLLER[k] for k in ("Brown-McPhee", "LuGre", "regularized Coulomb")}, tolerance=1e-4,
       draw=lambda fig, r: roller(fig, r, "roller-ground.v_t", "slip v_t [m/s]", xlim=(0, 0.05)),
       numbers=lambda r: {"largest |v_t| over [0, 0.05] s, %s [m/s]" % k: np.abs(v["roller-ground.v_t"][v["t"] <= 0.05]).max()
                          for k, v in r.items()},
       ours=lambda n: "over the first 0.05 s the slip stays below %s m/s (Brown-McPhee), %s (LuGre) and %s "
                      "(regularized Coulomb)." % tuple(g(v) for v in n.values()))


def rollerRatio(fig, r):
    ax = fig.subplots(2, 3).ravel()
    for a, (label, run) in zip(ax, r.items()):
        a.plot(run["roller-ground.v_t"], run["roller-ground.F"] / run["roller-ground.N"], ".", ms=1)
        a.set_title(label, fontsize=9)
        a.set_xlabel("v_t [m/s]")
        a.set_ylabel("F/N")
        a.grid(alpha=0.3)


figure(seed="review", paper="Fig. 7", name="review-fig7-ratio", title="roller-crank, F/N against the slip",
       finding="the static laws follow their curves; Dahl and LuGre do not, and LuGre's F/N leaves the cone.",
       runs=ROLLER, draw=rollerRatio, size=(11, 6), tolerance=1e-3,
       numbers=lambda r: {"largest |F/N|, %s" % k: np.abs(v["roller-ground.F"] / v["roller-ground.N"]).max()
                          for k, v in r.items()},
       ours=lambda n: "Brown-McPhee's |F/N| stays at %s ≤ μs; LuGre's reaches %s, at a fold of its F ↔ N loop at "
                      "0.2796 s after which the run is not to be trusted (the verification page)." % (
                          g(n["largest |F/N|, Brown-McPhee"]), g(n["largest |F/N|, LuGre"])))

figure(seed="review", paper="Fig. 8", name="review-fig8-lugre-normal", title="roller-crank, LuGre's normal force",
       finding="with LuGre the normal force varies strongly, which upsets LuGre's force.",
       runs={"LuGre": ROLLER["LuGre"], "Brown-McPhee": ROLLER["Brown-McPhee"]}, tolerance=1e-3,
       draw=lambda fig, r: roller(fig, r, "roller-ground.N", "N [N]"),
       numbers=lambda r: {"least N, %s [N]" % k: v["roller-ground.N"].min() for k, v in r.items()},
       ours=lambda n: "Brown-McPhee's normal force stays above %s N; LuGre's, past the fold of its loop at 0.2796 s, "
                      "swings to %s N, a run no longer to be trusted." % (
           g(n["least N, Brown-McPhee [N]"]), g(n["least N, LuGre [N]"])))

JOURNAL_FRICTION = ["--set", "parameters.mu_static=0.15", "--set", "parameters.mu_kinetic=0.1", "--t-end", "0.25",
                    "--output-dt", "1e-6"]
JOURNAL = {"Brown-McPhee": ["journal-bearing", "--friction", "brown-mcphee", *JOURNAL_FRICTION],
           "LuGre": ["journal-bearing", "--friction", "lugre", "--integrator", "rk4", "--dt", "1e-6",
                     *JOURNAL_FRICTION],
           "LuGre, N_E": ["journal-bearing", "--friction", "lugre-wojtyra", "--integrator", "rk4", "--dt", "1e-6",
                          *JOURNAL_FRICTION]}


def journalFig11(fig, r):
    ax = axes(fig, 3)
    circle = np.linspace(0, 2 * np.pi, 200)
    for a, (label, run) in zip(ax, r.items()):
        a.plot(1e-4 * np.cos(circle), 1e-4 * np.sin(circle), "k", lw=0.8)
        a.plot(run["journal-bearing.e_x"], run["journal-bearing.e_y"], lw=0.6)
        a.set_aspect("equal")
        a.set_title(label, fontsize=9)
        a.set_xlabel("e_x [m]")
    ax[0].set_ylabel("e_y [m]")


figure(seed="review", paper="Fig. 11", name="review-fig11-eccentricity", title="journal-bearing, the journal's eccentricity",
       finding="free flight, impacts and continuous contact; Brown-McPhee's impacts stay low in the bearing, "
               "the LuGre versions' spread over a wider arc.",
       runs=JOURNAL, draw=journalFig11, size=(11, 4), tolerance=1e-3,
       numbers=lambda r: {"angular spread of the contacts, %s [rad]" % k: np.ptp(np.arctan2(
           v["journal-bearing.e_y"][v["journal-bearing.N"] > 0], v["journal-bearing.e_x"][v["journal-bearing.N"] > 0]))
           for k, v in r.items()},
       ours=lambda n: "the contacts spread over %s rad (Brown-McPhee), %s (LuGre) and %s rad (LuGre with N_E)." % tuple(
           g(v) for v in n.values()))


def journalFig12(fig, r):
    ax = axes(fig, 2)
    weight = 0.05 * 9.81
    for label, run in r.items():
        ax[0].plot(run["t"], run["journal-bearing.N"] / weight, lw=0.6, label=label)
        contact = run["journal-bearing.N"] > 0.01 * weight
        ax[1].plot(run["t"][contact], np.abs(run["journal-bearing.F"][contact] / run["journal-bearing.N"][contact]),
                   ".", ms=1, label=label)
    ax[0].set_ylabel("N / weight")
    ax[1].set_ylabel("|F| / N (N > 1 % of the weight)")
    ax[1].set_yscale("log")
    for a in ax:
        a.set_xlabel("t [s]")
        a.grid(alpha=0.3)
    ax[0].legend(fontsize=7)


def journalRatio(run):
    """The largest |F|/N where the contact carries at least 1 % of the weight (a ratio of forces
    near 0 says nothing)."""
    contact = run["journal-bearing.N"] > 0.01 * 0.05 * 9.81
    return np.abs(run["journal-bearing.F"][contact] / run["journal-bearing.N"][contact]).max()


def hertzPeak(mass=0.05, gravity=9.81, clearance=1e-4, young=2.07e11, poisson=0.3, r_bearing=0.01, r_journal=0.0099):
    """Hertz's elastic impact after the fall through c (review Table 5; its eq. 27 stiffness)."""
    v = np.sqrt(2 * gravity * clearance)
    k = 4 / (3 * 2 * (1 - poisson ** 2) / young) * np.sqrt(r_bearing * r_journal / (r_bearing - r_journal))
    return k * (5 * mass * v * v / (4 * k)) ** 0.6


def firstImpactPeak(run):
    n = run["journal-bearing.N"]
    start = np.argmax(n > 0)
    end = start + np.argmax(n[start:] <= 0)
    return n[start:end].max()


figure(seed="review", paper="Fig. 12", name="review-fig12-normal-ratio", title="journal-bearing, N and |F|/N",
       finding="impacts raise the normal load to about 100 times the weight; only Brown-McPhee keeps F/N ≤ μs, "
               "LuGre largely exceeds it and the modified LuGre less so.",
       runs=JOURNAL, draw=journalFig12, tolerance=1e-3,
       numbers=lambda r: {"first impact's peak N / weight, Brown-McPhee": firstImpactPeak(r["Brown-McPhee"]) / (0.05 * 9.81),
                          "Hertz's elastic impact, closed form / weight": hertzPeak() / (0.05 * 9.81),
                          **{"largest |F|/N (N > 1 % of the weight), " + k: journalRatio(v) for k, v in r.items()}},
       ours=lambda n: "the first impact peaks at %s times the weight; Hertz's elastic impact after the fall through "
                      "c, from the review's own Table 5, gives %s (the damping takes a little before the peak), so "
                      "the review's ≈ 100 does not follow from its data. |F|/N reaches %s (Brown-McPhee, ≤ μs = "
                      "0.15), %s (LuGre) and %s (LuGre with N_E)." % tuple(g(v) for v in n.values()))

figure(seed="review", paper="Fig. 13", name="review-fig13-energy", title="journal-bearing, mechanical energy",
       finding="impacts and friction dissipate the energy steadily, the journal nearly at rest after about 0.2 s; "
               "Brown-McPhee dissipates slightly faster.",
       runs=JOURNAL, tolerance=1e-3,
       draw=lambda fig, r: (history(fig.subplots(), r, "energy", "T + V [J]"), fig.axes[0].legend(fontsize=8)),
       numbers=lambda r: {"energy lost over 0.25 s, %s [J]" % k: v["energy"][0] - v["energy"][-1] for k, v in r.items()},
       ours=lambda n: "over 0.25 s the journal loses %s J (Brown-McPhee), %s (LuGre) and %s J (LuGre with N_E)." % tuple(
           g(v) for v in n.values()))

# ---- the thesis: the belt's laws (Figs 3.20-3.22), the spatial slider-crank (Figs 4.3, 4.10-4.16) --

BELT_GROUPS = {
    "Fig. 3.20": ("static laws without stiction", ["coulomb", "coulomb-viscous", "linear", "tanh", "threlfall"]),
    "Fig. 3.21": ("static laws with stiction", ["coulomb-stiction", "stribeck", "karnopp", "bengisu-akay",
                                                 "ambrosio", "awrejcewicz", "brown-mcphee"]),
    "Fig. 3.22": ("dynamic laws", ["dahl", "lugre", "elasto-plastic", "gonthier", "reset-integrator", "gms"]),
}


def beltGroup(fig, r):
    ax = axes(fig, 3)
    history(ax[0], r, "block.x", "position [m]")
    history(ax[1], r, "block-belt.v_t", "relative velocity [m/s]")
    history(ax[2], r, "block-belt.F", "friction force [N]")
    ax[0].legend(fontsize=6)


def beltStick(run, speed=1e-4):
    """Time with the block within `speed` of the belt (stuck, or creeping) over the 20 s."""
    return stuckTime(run["t"], run["block-belt.v_t"], speed)


for paper, (what, laws) in BELT_GROUPS.items():
    figure(seed="thesis", paper=paper, name="thesis-fig%s-belt" % paper.split(" ")[1].replace(".", "-"),
           title="the belt (Table 3.1), %s" % what, size=(12, 3.4), tolerance=1e-4,
           finding={"Fig. 3.20": "without stiction the block sticks only at the start (the spring below the Coulomb "
                                 "force), then oscillates at the spring's frequency; viscous friction damps it.",
                    "Fig. 3.21": "with stiction the block sticks and slips periodically; Coulomb with stiction and "
                                 "Stribeck chatter at the reversals.",
                    "Fig. 3.22": "Dahl alone does not stick and slip; LuGre, elasto-plastic and Gonthier agree "
                                 "closely, reset integrator and GMS form a second group."}[paper],
           runs={law: ["belt", "--method", "penalty", "--friction", law, "--t-end", "20"] for law in laws},
           draw=beltGroup,
           numbers=lambda r: {"time within 1e-4 m/s of the belt, %s [s]" % k: beltStick(v) for k, v in r.items()},
           ours=lambda n: "time the block moves with the belt (|v_t| ≤ 1e-4 m/s) over 20 s: %s." % ", ".join(
               "%s %s s" % (k.split(", ")[1].split(" [")[0], g(v)) for k, v in n.items()))


def stroke(run):
    """The slider's coordinate along its guide: the one of x, y, z that moves most."""
    return max(("slider.x", "slider.y", "slider.z"), key=lambda c: np.ptp(run[c]))


def sliderMotion(fig, r):
    ax = axes(fig, 3)
    for label, run in r.items():
        axis = stroke(run)[-1]
        for a, column in zip(ax, ("slider." + axis, "slider.v" + axis, "slider.a" + axis)):
            if column in run:
                a.plot(run["t"], run[column], lw=0.7, label=label)
    for a, name in zip(ax, ("position [m]", "velocity [m/s]", "acceleration [m/s²]")):
        a.set_xlabel("t [s]")
        a.set_ylabel("slider " + name)
        a.grid(alpha=0.3)
    ax[0].legend(fontsize=7)


GUIDE = {"Coulomb (event-driven, exact)": ["spatial-slider-crank-friction"],
         **{law.capitalize() + " (penalty)": ["spatial-slider-crank-friction", "--method", "penalty", "--friction", law]
            for law in ("coulomb", "stribeck", "dahl")}}


figure(seed="thesis", paper="Fig. 4.3", name="thesis-fig4-3-guide-friction", title="friction in the guide, the slider's motion",
       finding="friction in the translational joint slows the slider-crank; the friction models give close motions.",
       runs=GUIDE, draw=sliderMotion, size=(12, 3.4), tolerance=1e-4,
       numbers=lambda r: {"energy lost over the run, %s [J]" % k: v["energy"][0] - v["energy"][-1] for k, v in r.items()},
       ours=lambda n: "the energy lost over the run: %s." % ", ".join(
           "%s %s J" % (k.split(", ")[1].split(" [")[0], g(v)) for k, v in n.items()))

CLEARANCE = {"simulation 1": ["spatial-slider-crank-clearance"],
             "simulation 2": ["spatial-slider-crank-clearance", "--set", "parameters.journal_length=0.0195"],
             "simulation 3": ["spatial-slider-crank-clearance", "--set", "parameters.journal_radius=0.00975"],
             "ideal joint": ["spatial-slider-crank-clearance", "--ideal"]}

for paper, simulation in (("Fig. 4.10", "simulation 1"), ("Fig. 4.12", "simulation 2"), ("Fig. 4.14", "simulation 3")):
    figure(seed="thesis", paper=paper, name="thesis-fig%s-clearance" % paper.split(" ")[1].replace(".", "-"),
           title="clearance in the crank's pin, %s" % simulation, size=(12, 3.4), chaotic=CLEARANCE_CHAOS,
           finding="the slider's position, velocity and acceleration (and their phase portraits, the next "
                   "figure) with the clearance of this simulation; its impacts show as acceleration peaks.",
           runs={simulation: CLEARANCE[simulation], "ideal joint": CLEARANCE["ideal joint"]}, draw=sliderMotion,
           numbers=lambda r, s=simulation: {
               "largest |x − x_ideal| of the slider [m]": np.abs(r[s][stroke(r[s])] - r["ideal joint"][stroke(r[s])]).max(),
               "RMS slider acceleration [m/s²]": rms(r[s]["slider.a" + stroke(r[s])[-1]])},
           ours=lambda n: "the free crank, slowed by the impacts, drifts in phase: the slider differs from the ideal "
                          "joint's by up to %s m; its RMS acceleration is %s m/s²." % (
               g(n["largest |x − x_ideal| of the slider [m]"]), g(n["RMS slider acceleration [m/s²]"])))

figure(seed="thesis", paper="Fig. 4.16", name="thesis-fig4-16-energy", title="clearance, the three simulations' energy",
       finding="the clearance joint dissipates energy at its impacts; simulation 2 loses more than simulation 3.",
       runs={k: v for k, v in CLEARANCE.items() if k != "ideal joint"}, chaotic=CLEARANCE_CHAOS,
       draw=lambda fig, r: (history(fig.subplots(), r, "energy", "T + V [J]"), fig.axes[0].legend(fontsize=8)),
       numbers=lambda r: {"energy lost, %s [J]" % k: v["energy"][0] - v["energy"][-1] for k, v in r.items()},
       ours=lambda n: "the runs lose %s, %s and %s J: simulation 3 loses less than 2, as the thesis finds the "
                      "reverse; the verification page lists this disagreement." % tuple(g(v) for v in n.values()))


def phasePortraits(fig, r):
    ax = axes(fig, 2, sharex=False)
    for label, run in r.items():
        axis = stroke(run)[-1]
        ax[0].plot(run["slider." + axis], run["slider.v" + axis], lw=0.6, label=label)
        ax[1].plot(run["slider.v" + axis], run["slider.a" + axis], lw=0.6, label=label)
    for a, (x, y) in zip(ax, (("position [m]", "velocity [m/s]"), ("velocity [m/s]", "acceleration [m/s²]"))):
        a.set_xlabel("slider " + x)
        a.set_ylabel("slider " + y)
        a.grid(alpha=0.3)
    ax[0].legend(fontsize=7)


for paper, simulation in (("Fig. 4.11", "simulation 1"), ("Fig. 4.13", "simulation 2"), ("Fig. 4.15", "simulation 3")):
    figure(seed="thesis", paper=paper, name="thesis-fig%s-phase" % paper.split(" ")[1].replace(".", "-"),
           title="clearance in the crank's pin, %s: phase portraits" % simulation, chaotic=CLEARANCE_CHAOS,
           finding="the phase portraits (position-velocity, velocity-acceleration) leave the ideal joint's closed "
                   "curve where the journal impacts its bearing.",
           runs={simulation: CLEARANCE[simulation], "ideal joint": CLEARANCE["ideal joint"]}, draw=phasePortraits,
           numbers=lambda r, s=simulation: {"largest |slider acceleration| [m/s²]":
                                            np.abs(r[s]["slider.a" + stroke(r[s])[-1]]).max()},
           ours=lambda n: "the velocity-acceleration portrait reaches %s m/s² at the impacts." % g(
               n["largest |slider acceleration| [m/s²]"]))

DYNAMIC_LAWS = {law: ["belt", "--method", "penalty", "--friction", law, "--t-end", "20"]
                for law in BELT_GROUPS["Fig. 3.22"][1] if law != "gms"}


def dynamicLaws(fig, r, x, xlabel):
    ax = fig.subplots()
    for label, run in r.items():
        keep = run["t"] >= 10  # the steady stick-slip cycle
        ax.plot(run[x][keep], run["block-belt.F"][keep], lw=0.6, label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("friction force [N]")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)


def largestFriction(r):
    return {"largest |F| over [10, 20] s, %s [N]" % k: np.abs(v["block-belt.F"][v["t"] >= 10]).max() for k, v in r.items()}


figure(seed="thesis", paper="Fig. 3.23", name="thesis-fig3-23-force-displacement",
       title="the belt, dynamic laws: friction force against displacement", tolerance=1e-4,
       finding="LuGre, elasto-plastic and Gonthier give the same force-displacement shape; in pre-sliding the "
               "slope is set by the bristle stiffness.",
       runs=DYNAMIC_LAWS, draw=lambda fig, r: dynamicLaws(fig, r, "block.x", "block position [m]"),
       numbers=largestFriction,
       ours=lambda n: "the largest friction force over the steady cycle: %s." % ", ".join(
           "%s %s N" % (k.split(", ")[1].split(" [")[0], g(v)) for k, v in n.items()))

def stuckForceRange(run):
    """max − min of the friction force over [10, 20] s while |v_t| ≤ 1e-4 m/s (0 if never)."""
    force = run["block-belt.F"][(run["t"] >= 10) & (np.abs(run["block-belt.v_t"]) <= 1e-4)]
    return float(np.ptp(force)) if force.size else 0.0


figure(seed="thesis", paper="Fig. 3.24", name="thesis-fig3-24-force-velocity",
       title="the belt, dynamic laws: friction force against relative velocity", tolerance=1e-4,
       finding="the dynamic laws' force-velocity loops show frictional lag, unlike the static curves.",
       runs=DYNAMIC_LAWS, draw=lambda fig, r: dynamicLaws(fig, r, "block-belt.v_t", "relative velocity [m/s]"),
       numbers=lambda r: {"force range at |v_t| ≤ 1e-4 m/s, %s [N]" % k: stuckForceRange(v) for k, v in r.items()},
       ours=lambda n: "at (nearly) zero relative velocity the force takes a whole range of values (stick): %s." % ", ".join(
           "%s %s N" % (k.split(", ")[1].split(" [")[0], g(v)) for k, v in n.items()))

# RK4 at the contacts' step (BDF fails with these laws): 70 s of CPU per simulated second each, so
# half a second, long enough for the swing to settle.
LAW_RUN = ["--t-end", "0.5", "--set", "parameters.mu_static=0.2", "--set", "parameters.mu_kinetic=0.1"]
CLEARANCE_LAWS = {label: ["spatial-slider-crank-clearance", "--method", "penalty", "--friction", law, *LAW_RUN]
                  for label, law in (("Coulomb", "coulomb"), ("Stribeck", "stribeck"), ("Dahl", "dahl"),
                                     ("LuGre", "lugre"))}
NO_FRICTION_HALF = ["spatial-slider-crank-clearance", "--t-end", "0.5"]
for number, label in enumerate(CLEARANCE_LAWS):
    for paper, kind in (("Fig. 4.%d" % (17 + 2 * number), "motion"), ("Fig. 4.%d" % (18 + 2 * number), "phase")):
        figure(seed="thesis", paper=paper, name="thesis-fig%s-%s" % (paper.split(" ")[1].replace(".", "-"),
                                                                     label.lower()),
               title="simulation 1 with %s friction in the clearance: %s" % (
                   label, "the slider's motion" if kind == "motion" else "phase portraits"),
               size=(12, 3.4) if kind == "motion" else (9.0, 3.4), chaotic=CLEARANCE_CHAOS,
               finding="with friction in the clearance joint the slider makes more cycles of smaller amplitude "
                       "than without (more dissipation); the acceleration peaks fall.",
               runs={label: CLEARANCE_LAWS[label], "no friction": NO_FRICTION_HALF},
               draw=sliderMotion if kind == "motion" else phasePortraits,
               numbers=lambda r, s=label: {"slider's swing over [0.3, 0.5] s, %s [m]" % k:
                                           float(np.ptp(v[stroke(v)][v["t"] >= v["t"][-1] - 0.2]))
                                           for k, v in ((s, r[s]), ("no friction", r["no friction"]))},
               ours=lambda n: "the slider's swing over [0.3, 0.5] s: %s m with friction, %s m without." % tuple(
                   g(v) for v in n.values()))

LOAD_SCALED = {"LuGre, load-scaled bristle": ["spatial-slider-crank-clearance", "--method", "penalty", "--friction",
                                              "lugre-nondimensional", *LAW_RUN],
               "LuGre, N_E = weight": ["spatial-slider-crank-clearance", "--method", "penalty", "--friction",
                                       "lugre-wojtyra", *LAW_RUN]}


def loadedShare(run):
    """The share of samples where some contact of the pin carries more than 1 N."""
    forces = np.column_stack([run[c] for c in run.names if c.startswith("crank-pin.") and c.endswith(".N")])
    return float(np.mean(forces.max(axis=1) > 1.0))


def energyLost(r):
    out = {"energy lost over 0.5 s, %s [J]" % k: v["energy"][0] - v["energy"][-1] for k, v in r.items()}
    out.update({"share of samples with a contact over 1 N, %s" % k: loadedShare(r[k]) for k in ("Coulomb", "LuGre")})
    return out


figure(seed="thesis", paper="Fig. 4.25", name="thesis-fig4-25-energy-laws", title="simulation 1, energy by friction law",
       finding="LuGre is the most dissipative, with the smallest slider swing; Coulomb and Stribeck are close.",
       runs={**CLEARANCE_LAWS, **LOAD_SCALED, "no friction": NO_FRICTION_HALF}, chaotic=CLEARANCE_CHAOS,
       size=(9.0, 4.0),
       draw=lambda fig, r: (history(fig.subplots(), r, "energy", "T + V [J]"), fig.axes[0].legend(fontsize=7)),
       numbers=energyLost,
       ours=lambda n: "energy lost over 0.5 s: %s. Table 4.4's LuGre (constant σ0, σ1) is the least dissipative "
                      "of the laws: a contact carries load at %s of its samples against Coulomb's %s, and each "
                      "opening gives back its bristle's work ([where the bristle laws differ](theory/spatial.md#"
                      "where-the-bristle-laws-differ-from-the-thesis)). With the bristle scaled by the load it "
                      "dissipates the most, as the thesis finds: the load-scaled laws reproduce the finding, and "
                      "`lugre` keeps Table 4.4's constants." % (", ".join(
                          "%s %s J" % (k.split(", ", 1)[1].split(" [")[0], g(v)) for k, v in n.items()
                          if k.startswith("energy")),
                          g(n["share of samples with a contact over 1 N, LuGre"]),
                          g(n["share of samples with a contact over 1 N, Coulomb"])))

# ---- the thesis, chapter 2: the EOM methods on the frictionless spatial slider-crank --------------

EOM = {"methods": ["bench", "--what", "eom", "--series-dt", "0.05"]}


def eomHistories(fig, r, column, ylabel):
    ax = fig.subplots()
    for method, table in r["methods"].items():
        ax.plot(table["t"], table[column], lw=0.8, label=method)
    ax.set_xlabel("t [s]")
    ax.set_ylabel(ylabel)
    if column != "energy_change":
        ax.set_yscale("log")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=2)


def eomFinal(r, column):
    return {"%s at 20 s, %s" % (column, m): float(t[column][-1]) for m, t in r["methods"].items()}


EOM_FINDINGS = {
    "Fig. 2.7": ("phi2", "ΦᵀΦ", "position constraints' violation",
                 "the standard Lagrange multipliers let the violation grow; the stabilized methods hold it."),
    "Fig. 2.8": ("phi_dot2", "Φ̇ᵀΦ̇", "velocity constraints' violation",
                 "the same at velocity level: it grows without stabilization."),
    "Fig. 2.9": ("energy_change", "E − E0 [J]", "mechanical energy",
                 "energy rises with Lagrange, Baumgarte and the augmented Lagrangian, falls with the penalty "
                 "method and direct correction."),
}
EOM_NOTES = {"energy_change": " The penalty method's rise at this step is RK4's error: at h = 5e-4 and 2.5e-4 s its "
                              "energy falls by 1.45e-4 and 1.66e-4 J, its damping's loss, as the thesis finds "
                              "([the step study](benchmarks.md#the-thesis-eom-methods))."}
for paper, (column, ylabel, what, finding) in EOM_FINDINGS.items():
    figure(seed="thesis", paper=paper, name="thesis-fig%s-eom" % paper.split(" ")[1].replace(".", "-"),
           title="EOM methods, %s (RK4 h = 1e-3 s, 20 s)" % what, finding=finding, runs=EOM, tolerance=1e-4,
           floor=1e-20 if column != "energy_change" else 1e-12,
           draw=lambda fig, r, c=column, y=ylabel: eomHistories(fig, r, c, y),
           numbers=lambda r, c=column: eomFinal(r, c),
           ours=lambda n, c=column: "at 20 s: %s.%s" % (", ".join("%s %s" % (k.split(", ")[1], g(v))
                                                                 for k, v in n.items()), EOM_NOTES.get(c, "")))


def eomCpu(fig, r):
    ax = fig.subplots()
    methods = list(r["methods"])
    ax.bar(range(len(methods)), [r["methods"][m]["cpu_relative"][0] for m in methods])
    ax.set_xticks(range(len(methods)), methods, rotation=30, fontsize=7)
    ax.set_ylabel("CPU / standard Lagrange")
    ax.grid(alpha=0.3, axis="y")


figure(seed="thesis", paper="Fig. 2.10", name="thesis-fig2-10-eom-cpu", title="EOM methods, computation time",
       finding="the standard Lagrange multipliers are the cheapest; direct correction the most expensive.",
       runs=EOM, draw=eomCpu,
       numbers=lambda r: {"methods that ran 20 s": float(len(r["methods"]))},
       ours=lambda n: "the CPU ratios in the figure are this machine's (the test checks only that all %d methods "
                      "ran); Moore–Penrose's SVD is the most expensive here, about 12×, direct correction ~1.3× "
                      "(`stickslip bench --what eom`)." % n["methods that ran 20 s"])
