// The belt benchmark of Marques (2015) thesis §3.4, Table 3.1, run with every law of the
// catalogue at the Table 3.2 parameters: a block m = 1 kg on a belt moving at v_b = 0.1 m/s,
// held by a spring k = 2 N/m, N = m g, starting at x = 0 with the belt's velocity:
//   m ẍ = −k x + F(v_rel = ẋ − v_b, N = m g, Fₑ = −k x),
// integrated by classical RK4 with the thesis' step h = 5e-5 s over 20 s.
//
// References (closed form, DESIGN.md §7): with stiction the block sticks until k x = μs N
// (t = 7.3575 s), slips 2.6185 s about x = μk N/k with ω = √(k/m), sticks 4.905 s: period
// 7.5234 s. Each law with stiction is compared with the same exact stick/slip construction
// on its own sliding curve (Stribeck drop, viscous term), integrated here to round-off
// (stickSlipReference). Laws without stiction oscillate with period 2π/√(k/m), damped by the
// viscous term for coulomb-viscous.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "dynamics/friction/make_friction_law.hpp"

using namespace stickslip::dynamics;

namespace {

constexpr double kMass = 1.0, kBelt = 0.1, kSpring = 2.0, kGravity = 9.81;
constexpr double kMuS = 0.15, kMuK = 0.1, kViscous = 0.1;
constexpr double kEndTime = 20.0;

struct BeltRun {
  std::vector<double> peak_times;  // local maxima of x (ẋ crossing zero downwards)
  std::vector<double> peak_values;
  bool finite = true;
};

// Fixed-step RK4 on y = (x, ẋ, friction states).
BeltRun runBelt(const FrictionLaw& law, double h) {
  const int ns = law.stateSize();
  std::vector<double> y(std::size_t(2 + ns)), k1(y.size()), k2(y.size()), k3(y.size()),
      k4(y.size()), tmp(y.size());
  const double n = kMass * kGravity;
  y[0] = 0.0;
  y[1] = kBelt;
  law.initialState({0.0, n, 0.0}, std::span<double>(y).subspan(2));
  auto rhs = [&](const std::vector<double>& s, std::vector<double>& d) {
    const FrictionInput in{s[1] - kBelt, n, -kSpring * s[0]};
    const auto st = std::span<const double>(s).subspan(2);
    d[0] = s[1];
    d[1] = (-kSpring * s[0] + law.force(in, st)) / kMass;
    law.stateRate(in, st, std::span<double>(d).subspan(2));
  };
  BeltRun run;
  const int steps = int(std::lround(kEndTime / h));
  double last_peak = -1.0;
  for (int i = 0; i < steps; ++i) {
    const double t = i * h, xdot_old = y[1];
    rhs(y, k1);
    for (std::size_t j = 0; j < y.size(); ++j) tmp[j] = y[j] + 0.5 * h * k1[j];
    rhs(tmp, k2);
    for (std::size_t j = 0; j < y.size(); ++j) tmp[j] = y[j] + 0.5 * h * k2[j];
    rhs(tmp, k3);
    for (std::size_t j = 0; j < y.size(); ++j) tmp[j] = y[j] + h * k3[j];
    rhs(tmp, k4);
    for (std::size_t j = 0; j < y.size(); ++j)
      y[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
    law.settle({y[1] - kBelt, n, -kSpring * y[0]}, std::span<double>(y).subspan(2));
    if (!std::isfinite(y[0]) || !std::isfinite(y[1])) {
      run.finite = false;
      return run;
    }
    // A maximum of x: ẋ crosses zero downwards. Crossings closer than 1 s to the previous
    // one are chatter of a regularized law around ẋ ≈ 0, not a new cycle.
    if (xdot_old > 0.0 && y[1] <= 0.0) {
      const double tc = t + h * xdot_old / (xdot_old - y[1]);
      if (last_peak < 0.0 || tc - last_peak > 1.0) {
        run.peak_times.push_back(tc);
        run.peak_values.push_back(y[0]);
        last_peak = tc;
      }
    }
  }
  return run;
}

// Exact stick–slip reference for a law: the block sticks (v_rel = 0) until k x reaches the
// break-away force Fb (μs N unless `breakaway` > 0 is given), then slips on the law's own
// sliding curve, F = min(Fb, steadyForce(v_rel)) for v_rel < 0, until ẋ = v_b again. Below
// |v_rel| = v_peak the sliding curve is replaced by its value at v_peak: that is the
// regularization layer (v0, vs, vd), which the exact reference does without.
// The slip ODE is integrated by RK4 with h = 1e-5 s (global error ~h⁴, and ~h² ≈ 1e-10 s on
// the interpolated crossings: far below the tolerances). Returns the first peak of x and the period between the first two peaks.
struct StickSlipReference {
  double first_peak, period;
};
StickSlipReference stickSlipReference(const FrictionLaw& law, double v_peak,
                                      double breakaway = 0.0) {
  const double n = kMass * kGravity, fs = breakaway > 0.0 ? breakaway : kMuS * n;
  auto slip = [&](double& t, double& x, double& v, double& t_peak) {
    const double h = 1e-5;
    auto acc = [&](double xx, double vv) {
      const double v_rel = std::min(vv - kBelt, -v_peak);
      const double f = law.steadyForce(v_rel, n);
      return (-kSpring * xx + (breakaway > 0.0 ? std::min(f, breakaway) : f)) / kMass;
    };
    bool peaked = false;
    do {
      const double a1 = acc(x, v), b1 = v;
      const double a2 = acc(x + 0.5 * h * b1, v + 0.5 * h * a1), b2 = v + 0.5 * h * a1;
      const double a3 = acc(x + 0.5 * h * b2, v + 0.5 * h * a2), b3 = v + 0.5 * h * a2;
      const double a4 = acc(x + h * b3, v + h * a3), b4 = v + h * a3;
      const double v_old = v;
      x += h / 6.0 * (b1 + 2 * b2 + 2 * b3 + b4);
      v += h / 6.0 * (a1 + 2 * a2 + 2 * a3 + a4);
      if (!peaked && v_old > 0.0 && v <= 0.0) {
        t_peak = t + h * v_old / (v_old - v);
        peaked = true;
      }
      t += h;
    } while (!(peaked && v >= kBelt));
  };
  double t = fs / kSpring / kBelt, x = fs / kSpring, v = kBelt, t1 = 0.0, t2 = 0.0;
  slip(t, x, v, t1);
  t += (fs / kSpring - x) / kBelt;  // stick until k x = Fs again
  x = fs / kSpring;
  v = kBelt;
  slip(t, x, v, t2);
  return {t1, t2 - t1};
}

// Break-away force of a single-state bristle law under quasi-static creep. While stuck, the
// belt loads the contact at the rate r = k v_b and the block lags it by a creep velocity
// v_rel = −v; quasi-statically the elastic force follows the load, k_s ṡ = −r (k_s the law's
// pre-sliding stiffness ∂F/∂s at v_rel = 0: σ0 for LuGre). For LuGre that gives
// σ0 |z| = g(v)(1 − r/(σ0 v)): the bristle force the contact can hold falls below g(v) by
// the creep, and the largest force on that curve, F(v) = σ0|z| + σ1 r/σ0 + σ2 v, is where
// quasi-static sticking ends. Computed here from the law's own algebra (force and stateRate
// at a fixed state, bisection on the state, a log grid in v), not by integrating it.
double creepBreakaway(const FrictionLaw& law, double rate) {
  const double n = kMass * kGravity, ds = 1e-9;
  std::vector<double> s(std::size_t(law.stateSize()), 0.0);  // the deflection first, no memory
  s[0] = ds;
  const double stiffness = -law.force({0.0, n, 0.0}, s) / ds;
  const double target = -rate / stiffness;  // ṡ on the creep curve
  double best = 0.0;
  for (int i = 0; i <= 4000; ++i) {
    const FrictionInput in{-std::pow(10.0, -8.0 + 6.0 * i / 4000.0), n, 0.0};
    auto state_rate = [&](double z) {
      std::vector<double> st(s.size(), 0.0), d(s.size(), 0.0);
      st[0] = z;
      law.stateRate(in, st, d);
      return d[0];
    };
    if (!(state_rate(0.0) < target)) continue;  // creeping slower than the load rises
    double lo = -ds, hi = 0.0;
    while (state_rate(lo) < target) lo *= 2.0;
    for (int k = 0; k < 200; ++k) {
      const double mid = 0.5 * (lo + hi);
      (state_rate(mid) < target ? hi : lo) = mid;
    }
    s[0] = 0.5 * (lo + hi);
    best = std::max(best, law.force(in, s));
  }
  return best;
}

struct BeltCase {
  const char* law;
  enum Kind {
    kStickSlip,
    kCreepStickSlip,  // bristle law: stick–slip with the creep break-away (creepBreakaway)
    kDwellShortened,
    kFirstBreakAwayOnly,
    kHarmonic,
    kHarmonicDamped
  } kind;
  double v_peak = 1e-12;     // end of the regularization layer of the sliding curve [m/s]
  double tolerance = 0.02;   // relative, on the first peak time and on the period
};

// Tolerances: 2 % is the acceptance band of the stick–slip period. Laws without stiction
// are checked at 1 %: their slip is harmonic and only the start creeps. The Karnopp-type
// laws (karnopp, switch, awrejcewicz; liang through vd) hold F = Fs until |v_rel| leaves the
// band Dv, which delays each break-away by t_d = √(2 m Dv/(k v_b)) = 0.1 s and enlarges the
// following slip: ≈ 2 t_d / T = 2.7 % at the Table 3.2 band Dv = 1 mm/s; they are checked at
// 3 % here, and at 2 % with Dv = vd = 0.1 mm/s in the next test case.
const BeltCase kCases[] = {
    {"coulomb", BeltCase::kHarmonic, 1e-12, 0.01},
    {"coulomb-viscous", BeltCase::kHarmonicDamped, 1e-12, 0.01},
    // Set-valued: it sticks only at the exact v_rel = 0 of the start (thesis §3.4).
    {"coulomb-stiction", BeltCase::kFirstBreakAwayOnly},
    {"stribeck", BeltCase::kStickSlip},
    {"hess-soom", BeltCase::kStickSlip},
    {"karnopp", BeltCase::kStickSlip, 1.001e-3, 0.03},
    {"switch", BeltCase::kStickSlip, 1.001e-3, 0.03},
    {"linear", BeltCase::kHarmonic, 1e-12, 0.01},
    {"tanh", BeltCase::kHarmonic, 1e-12, 0.01},
    {"threlfall", BeltCase::kHarmonic, 1e-12, 0.01},
    {"linear-stiction", BeltCase::kStickSlip, 1e-4},
    {"bengisu-akay", BeltCase::kStickSlip, 1e-3},
    {"ambrosio", BeltCase::kHarmonic, 1e-12, 0.01},
    {"awrejcewicz", BeltCase::kStickSlip, 1.001e-3, 0.03},
    {"brown-mcphee", BeltCase::kStickSlip, 1e-3},
    {"dahl", BeltCase::kHarmonic, 1e-12, 0.01},
    // LuGre has no purely elastic region: near g(v) the bristles creep, so at the belt's slow
    // loading (k v_b = 0.2 N/s) it breaks away below Fs — at 1.4485 N in the run (RK4, the
    // same at h = 1e-5), quasi-statically at 1.4418 N = 0.980 Fs (creepBreakaway) — and every
    // cycle is shorter: 7.0737 s, −2.42 % from the exact stick–slip on its own sliding curve
    // with break-away at Fs (7.2489 s), +0.72 % from the same with break-away at the creep
    // force (7.0233 s; with the run's peak force 1.4485 N it would be −0.05 %). This is the
    // law's physics, not the integration; it vanishes as σ0 grows (the test after next).
    // Dupont's elasto-plastic law creeps only above z_ba = 0.7 z_max: less, but not zero.
    {"lugre", BeltCase::kCreepStickSlip},
    {"lugre-wojtyra", BeltCase::kCreepStickSlip},
    {"lugre-nondimensional", BeltCase::kCreepStickSlip},
    {"elasto-plastic", BeltCase::kCreepStickSlip},
    {"reset-integrator", BeltCase::kStickSlip},
    {"bliman-sorine-1", BeltCase::kHarmonic, 1e-12, 0.01},
    // Its stiction peak lies in the path travelled since the last velocity reversal; on the
    // belt v_rel never reverses after the first slip, so only the first break-away counts.
    {"bliman-sorine-2", BeltCase::kFirstBreakAwayOnly},
    {"gms", BeltCase::kStickSlip},
    // Dwell time: after the first (fully aged) break-away, each stick of ~4.9 s only recovers
    // F_max to Fc + (Fs − Fc)(1 − e^{−t/τdw}), so later cycles are shorter than without aging.
    {"gonthier", BeltCase::kDwellShortened},
    {"liang", BeltCase::kStickSlip, 1.001e-3, 0.03},
    // Armstrong's static level recovers as td/(td + γ) from the slide's last level: shorter too.
    {"armstrong", BeltCase::kDwellShortened},
    // Wojewoda's falling branch lies below the rising one only near vs: the slip is Stribeck's.
    {"wojewoda", BeltCase::kStickSlip},
    // Every bond breaks at Fs from rest; later break-aways depend on how the bonds re-formed.
    {"bristle", BeltCase::kFirstBreakAwayOnly},
    // The lubricated journal: the film carries the slip, which is the spring's free oscillation.
    {"harnoy-friedland", BeltCase::kHarmonic, 1e-12, 0.01},
    // Leuven with n = 1 is LuGre with a hysteresis force: it creeps as LuGre does.
    {"leuven", BeltCase::kCreepStickSlip},
};

}  // namespace

TEST_CASE("belt benchmark: closed-form references", "[friction][belt]") {
  // Thesis §3.4 / DESIGN.md §7: break-away 7.3575 s, slip 2.6185 s, stick 4.905 s; the first
  // maximum of x follows the break-away by atan(v_b/(ω d0))/ω, d0 = (μs − μk) m g/k.
  const auto coulomb = makeFrictionLaw("coulomb-stiction");
  const StickSlipReference r = stickSlipReference(*coulomb, 1e-12);
  const double omega = std::sqrt(kSpring / kMass);
  const double d0 = (kMuS - kMuK) * kMass * kGravity / kSpring;
  CHECK(r.period == Approx(4.905 + 2.6185).epsilon(1e-4));  // the published digits
  CHECK(r.first_peak == Approx(7.3575 + std::atan(kBelt / (omega * d0)) / omega).epsilon(1e-9));
}

TEST_CASE("belt benchmark: every law", "[friction][belt]") {
  const auto coulomb = makeFrictionLaw("coulomb-stiction");
  const StickSlipReference dry = stickSlipReference(*coulomb, 1e-12);
  const double omega = std::sqrt(kSpring / kMass);
  const double harmonic = 2.0 * std::numbers::pi / omega;
  const double damped =
      2.0 * std::numbers::pi / std::sqrt(omega * omega - std::pow(kViscous / (2.0 * kMass), 2));
  for (const BeltCase& c : kCases) {
    DYNAMIC_SECTION(c.law) {
      const auto law = makeFrictionLaw(c.law);
      const BeltRun run = runBelt(*law, 5e-5);
      REQUIRE(run.finite);
      REQUIRE(run.peak_times.size() >= 2);
      const double period = run.peak_times[1] - run.peak_times[0];
      const bool stick_slip = c.kind == BeltCase::kStickSlip ||
                              c.kind == BeltCase::kCreepStickSlip ||
                              c.kind == BeltCase::kDwellShortened;
      const StickSlipReference ref = stick_slip ? stickSlipReference(*law, c.v_peak) : dry;
      const double fb = c.kind == BeltCase::kCreepStickSlip
                            ? creepBreakaway(*law, kSpring * kBelt)
                            : kMuS * kMass * kGravity;
      const StickSlipReference creep =
          c.kind == BeltCase::kCreepStickSlip ? stickSlipReference(*law, c.v_peak, fb) : ref;
      INFO(c.law << ": first peak " << run.peak_times[0] << ", period " << period
                 << "; exact stick-slip on its sliding curve: " << ref.first_peak << ", "
                 << ref.period << "; with the creep break-away " << fb << " N: "
                 << creep.first_peak << ", " << creep.period << "; dry closed form "
                 << dry.period);
      switch (c.kind) {
        case BeltCase::kStickSlip:
          CHECK(period == Approx(ref.period).epsilon(c.tolerance));
          CHECK(run.peak_times[0] == Approx(ref.first_peak).epsilon(c.tolerance));
          break;
        case BeltCase::kCreepStickSlip:
          CHECK(fb < kMuS * kMass * kGravity);
          CHECK(period == Approx(creep.period).epsilon(c.tolerance));
          CHECK(run.peak_times[0] == Approx(creep.first_peak).epsilon(c.tolerance));
          // Bracketed by the two idealizations: no creep (break-away at Fs, the longest
          // cycle) and quasi-static creep (which ignores the inertia that lets the force
          // overshoot its creep bound a little as the block runs away).
          CHECK(period < ref.period);
          CHECK(period > creep.period);
          // Against the dry closed form 7.5234 s the deficit is the sum of the two known
          // effects, the sliding curve (Stribeck drop and σ2 v: 7.2489 s, as for `stribeck`)
          // and the creep: −6.0 % for LuGre, bounded by the creep reference's −6.6 %.
          CHECK(period == Approx(dry.period).epsilon(1.0 - creep.period / dry.period));
          break;
        case BeltCase::kDwellShortened:
          CHECK(run.peak_times[0] == Approx(ref.first_peak).epsilon(c.tolerance));
          CHECK(period < ref.period);
          CHECK(period > 0.9 * ref.period);
          break;
        case BeltCase::kFirstBreakAwayOnly:
          CHECK(run.peak_times[0] == Approx(dry.first_peak).epsilon(c.tolerance));
          break;
        case BeltCase::kHarmonic:
          CHECK(period == Approx(harmonic).epsilon(c.tolerance));
          break;
        case BeltCase::kHarmonicDamped:
          CHECK(period == Approx(damped).epsilon(c.tolerance));
          break;
      }
    }
  }
}

TEST_CASE("belt benchmark: Karnopp-type laws converge as their band shrinks", "[friction][belt]") {
  FrictionParameters p;
  p.karnopp_velocity = 1e-4;    // Dv: karnopp, switch
  p.tolerance_velocity = 1e-4;  // v0: awrejcewicz
  p.threshold_velocity = 1e-4;  // vd: liang
  const auto coulomb = makeFrictionLaw("coulomb-stiction");
  const StickSlipReference dry = stickSlipReference(*coulomb, 1e-12);
  for (const char* name : {"karnopp", "switch", "awrejcewicz", "liang"}) {
    DYNAMIC_SECTION(name) {
      const BeltRun run = runBelt(*makeFrictionLaw(name, p), 5e-5);
      REQUIRE(run.peak_times.size() >= 2);
      const double period = run.peak_times[1] - run.peak_times[0];
      INFO(name << ": first peak " << run.peak_times[0] << ", period " << period);
      CHECK(period == Approx(dry.period).epsilon(0.02));
      CHECK(run.peak_times[0] == Approx(dry.first_peak).epsilon(0.02));
    }
  }
}

TEST_CASE("belt benchmark: LuGre's creep vanishes as the bristles stiffen", "[friction][belt]") {
  // The creep deficit of the break-away force scales as σ0^(−2/3) (creepBreakaway: the
  // maximum of g(v)(1 − r/(σ0 v)) lies at v ∝ σ0^(−1/3)). With σ0 ten times the Table 3.2
  // value (σ1 = √σ0 kept) LuGre's cycle is 7.2214 s, −0.38 % from the exact stick–slip on
  // its own sliding curve with break-away at Fs (7.2489 s), where σ0 = 1e5 leaves −2.42 %.
  // RK4 step 5e-6 s: the bristle rate in sliding is σ0|v|/g ≈ 2.5e5 /s, and at h = 1e-5 s
  // (hλ ≈ 2.5, near RK4's stability limit 2.8) the cycle comes out 6.713 s; at 5e-6 and
  // 2e-6 s it is 7.2214 s to 5 digits.
  FrictionParameters p;
  const auto base = makeFrictionLaw("lugre", p);
  p.sigma0 = 1e6;
  p.sigma1 = std::sqrt(p.sigma0);
  const auto stiff = makeFrictionLaw("lugre", p);
  const double fs = kMuS * kMass * kGravity, rate = kSpring * kBelt;
  const double deficit_base = fs - creepBreakaway(*base, rate);
  const double deficit_stiff = fs - creepBreakaway(*stiff, rate);
  CHECK(deficit_stiff / deficit_base == Approx(std::pow(10.0, -2.0 / 3.0)).epsilon(0.05));
  const BeltRun run = runBelt(*stiff, 5e-6);
  REQUIRE(run.peak_times.size() >= 2);
  const double period = run.peak_times[1] - run.peak_times[0];
  const StickSlipReference ref = stickSlipReference(*stiff, 1e-12);
  INFO("sigma0 = 1e6: period " << period << ", exact stick-slip on its sliding curve "
                               << ref.period);
  CHECK(period == Approx(ref.period).epsilon(0.01));
  CHECK(period < ref.period);
}
