// The laws with discrete states (dynamics/friction/switching_laws.hpp), each by its defining
// property at the Table 3.2 parameters of Marques (2015): Armstrong's dwell-time break-away,
// Wojewoda's hysteresis between rising and falling speed, the bristle model's break-away and
// sliding mean, Leuven's hysteresis with nonlocal memory (loop closure, wiping out).
// The properties every law shares (steady state, symmetry, pre-sliding stiffness) are
// laws_test.cpp's.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "dynamics/friction/law_drive.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/friction/switching_laws.hpp"

using namespace stickslip::dynamics;
using namespace stickslip::dynamics::test;

namespace {

constexpr double kCreep = 1e-4;  // [m/s], inside the stick band vd

/// The largest |F| while the states creep at `v` from `s` for `t` seconds.
double peakWhileCreeping(const FrictionLaw& law, std::vector<double>& s, double v, double t) {
  double peak = 0.0;
  integrateStates(law, s, [v](double) { return v; }, kN, t, 1e-5, &peak);
  return peak;
}

}  // namespace

TEST_CASE("armstrong: break-away at Fs after a long stick, lower after a short one", "[friction][switching]") {
  const ArmstrongFriction law(kDefaults);
  SECTION("fully aged, it holds up to Fs, then slides from it") {
    std::vector<double> s = initial(law, 0.0, kN);
    // Creep at 0.1 mm/s (inside vd): σ0 x reaches Fs at x = 14.7 µm, after 0.147 s; the stick's
    // damping adds σ1 v, one step's σ0 v h is 1e-4 N.
    const double peak = peakWhileCreeping(law, s, kCreep, 0.2) - kDefaults.sigma1 * kCreep;
    CHECK(peak == Approx(kFs).epsilon(1e-4));
    CHECK(s[0] == 1.0);  // sliding forward
  }
  SECTION("after a slide, the static level recovers as td/(td + γ) over the dwell time") {
    for (double dwell : {0.5, 4.0}) {
      std::vector<double> s = initial(law, 0.01, kN);
      integrateStates(law, s, [](double) { return 0.01; }, kN, 0.1, 1e-5);   // slide at 1 cm/s
      law.settle({0.0, kN, 0.0}, s);  // stop: the stick begins
      integrateStates(law, s, [](double) { return 0.0; }, kN, dwell, 1e-4);  // and dwells
      REQUIRE(s[0] == 0.0);
      // The slide's last level: u lagged 20 τL behind 1 cm/s, i.e. at 1 cm/s.
      const double r = 0.01 / kDefaults.stribeck_velocity;
      const double last = kFc + (kFs - kFc) / (1.0 + r * r);
      CHECK(s[4] * kN == Approx(last).epsilon(1e-6));
      // Creeping to break-away takes ≤ 0.15 s more of dwell: the peak lies between the two.
      auto level = [&](double td) { return last + (kFs - last) * td / (td + kDefaults.dwell_time); };
      const double peak = peakWhileCreeping(law, s, kCreep, 0.2) - kDefaults.sigma1 * kCreep;
      INFO("dwell " << dwell << " s: peak " << peak << " N");
      CHECK(peak > level(dwell) * (1.0 - 1e-9));
      CHECK(peak < level(dwell + 0.15) * (1.0 + 1e-4));
      CHECK(peak < kFs * 0.99);
    }
  }
  SECTION("the slide's level lags the speed by τL") {
    std::vector<double> s = initial(law, 0.01, kN);
    integrateStates(law, s, [](double) { return 0.01; }, kN, 0.1, 1e-5);
    // A step down to 2 mm/s (still sliding, beyond vd): u = 2e-3 + 8e-3 e^{−t/τL}.
    const double t = kDefaults.lag_time, f = integrateStates(law, s, [](double) { return 2e-3; }, kN, t, 1e-6);
    const double u = 2e-3 + 8e-3 * std::exp(-1.0), ru = u / kDefaults.stribeck_velocity;
    CHECK(-f == Approx(kFc + (kFs - kFc) / (1.0 + ru * ru) + kDefaults.viscous * 2e-3).epsilon(1e-8));
  }
}

TEST_CASE("wojewoda: the force is higher while the speed rises than while it falls", "[friction][switching]") {
  const WojewodaFriction law(kDefaults);
  const double vs = kDefaults.stribeck_velocity, g = std::exp(-4.0);  // at |v| = 2 vs
  // Up to 4 vs and down again over 0.2 s each, sampled at 2 vs on the way up and down.
  auto ramp = [vs](double t) { return t < 0.2 ? 4.0 * vs * t / 0.2 : 4.0 * vs * (0.4 - t) / 0.2; };
  std::vector<double> s = initial(law, 0.0, kN);
  const double up = -integrateStates(law, s, ramp, kN, 0.1, 1e-5);
  const double down = -integrateStates(law, s, [&](double t) { return ramp(t + 0.1); }, kN, 0.2, 1e-5);
  CHECK(up == Approx(kFc + (kFs - kFc) * g).epsilon(1e-12));
  CHECK(down == Approx(kFc - (kFs - kFc) * g).epsilon(1e-12));
  // Held at 2 vs after slowing, the speed no longer falls: back on the rising branch, the
  // steady state, once w has settled (40 τL; w stops a few ulps short of v).
  const double held = -integrateStates(law, s, [vs](double) { return 2.0 * vs; }, kN, 0.2, 1e-5);
  CHECK(held == Approx(-law.steadyForce(2.0 * vs, kN)).epsilon(1e-12));
  CHECK(held == Approx(up).epsilon(1e-12));
  SECTION("from rest it breaks away at Fs + ΔFs") {
    FrictionParameters p = kDefaults;
    p.breakaway_rise = 0.02;
    const WojewodaFriction rising(p);
    std::vector<double> r = initial(rising, 0.0, kN);
    // Creeping at 0.1 mm/s the junction yields on the rising branch at that speed.
    const double peak = peakWhileCreeping(rising, r, kCreep, 0.2);
    const double g0 = std::exp(-std::pow(kCreep / vs, 2.0));
    CHECK(peak == Approx(kFc + (kFs + 0.02 * kN / (1.0 + kCreep / vs) - kFc) * g0).epsilon(1e-12));
  }
}

TEST_CASE("bristle: every bond breaks at Fs from rest, and in sliding the force saws about Fc", "[friction][switching]") {
  const BristleFriction law(kDefaults);
  std::vector<double> s = initial(law, 0.0, kN);
  SECTION("break-away") {
    // δ = 14.7 µm at 0.1 mm/s: 0.147 s; 3 ms more cannot strain a re-formed bond to δ.
    const double peak = peakWhileCreeping(law, s, kCreep, 0.15);
    CHECK(peak == Approx(kFs).epsilon(1e-4));  // one step's strain σ0 v h past δ
    CHECK(s[BristleFriction::kBonds] == BristleFriction::kBonds);  // all ten broke, once
  }
  SECTION("the time mean of the sliding force is Fc; a rerun repeats it (no hidden random state)") {
    // 0.1 m/s for 1 s: 0.1 m of sliding, ~ 10⁴ breaks of a bond 14.7 µm long.
    const double h = 1e-6, v = 0.1;
    double sum = 0.0, lo = kFs, hi = 0.0;
    std::vector<double> again = s;
    for (int i = 0; i < 1000; ++i) {
      const double f = -integrateStates(law, s, [v](double) { return v; }, kN, 1e-3, h);
      if (i >= 100) sum += f;  // past the first synchronized breaks
      lo = std::min(lo, f);
      hi = std::max(hi, f);
    }
    CHECK(sum / 900.0 == Approx(kFc).epsilon(0.01));
    CHECK(hi <= kFs * (1.0 + 1e-3));
    CHECK(lo > 0.0);
    for (int i = 0; i < 1000; ++i) integrateStates(law, again, [v](double) { return v; }, kN, 1e-3, h);
    CHECK(again == s);
  }
  SECTION("μk at μs cannot slide below its break-away: refused, naming why") {
    FrictionParameters p = kDefaults;
    p.mu_k = p.mu_s;
    CHECK_THROWS_WITH(makeFrictionLaw("bristle", p), Catch::Contains("0.3 mu_s <= mu_k <= 0.9 mu_s"));
  }
}

TEST_CASE("leuven: hysteresis with nonlocal memory", "[friction][switching]") {
  const LeuvenFriction law(kDefaults);
  // The deflection set by hand (pre-sliding, where ż ≈ v) and the reversals committed by
  // settle() as the velocity's sign turns: 0 → A → B → past A.
  const double a = 2e-5, b = 0.5e-5;
  std::vector<double> s = initial(law, 1.0, kN);
  auto at = [&](double z, double v) {
    s[0] = z;
    law.settle({v, kN, 0.0}, s);
    return law.hysteresisForce(kN, s);
  };
  const auto virgin = [](double z) { return 2.0 * kFs * std::tanh(kDefaults.sigma0 * z / (2.0 * kFs)); };
  const double fa = at(a, 1.0);
  CHECK(fa == Approx(virgin(a)).epsilon(1e-14));
  const double mid_down = (at(a, -1.0), at(0.5 * (a + b), -1.0));  // the reversal at A, then down
  at(b, -1.0);
  at(b, 1.0);                                    // the reversal at B
  const double mid_up = at(0.5 * (a + b), 1.0);  // then up
  CHECK(s[2] == 2.0);                           // A and B on the stack
  // A loop with area: rising, the force runs above its falling branch (Masing: by
  // 4 F_vir(d/4) − 2 F_vir(d/2), d = A − B).
  CHECK(mid_up - mid_down == Approx(4.0 * virgin(0.25 * (a - b)) - 2.0 * virgin(0.5 * (a - b))).epsilon(1e-9));
  CHECK(mid_up > mid_down);
  // Closing the inner loop at A returns the force it had there, and wipes A and B out: beyond
  // A the virgin curve goes on as if the loop had never been.
  CHECK(at(a, 1.0) == Approx(fa).epsilon(1e-14));
  CHECK(s[2] == 0.0);
  CHECK(at(1.5 * a, 1.0) == Approx(virgin(1.5 * a)).epsilon(1e-14));
  SECTION("the stack keeps 8 points: a 9th nested reversal forgets the 6th and 7th") {
    double z = 1.5 * a;
    for (int k = 0; k < 12; ++k) {  // shrinking nested loops: none closes
      const double v = k % 2 == 0 ? -1.0 : 1.0;
      at(z, v);  // the reversal, where the motion turned
      z += v * a * std::pow(0.7, k);
      at(z, v);
      CHECK(s[2] == std::min(k + 1, k % 2 == 0 ? LeuvenFriction::kMemory - 1 : LeuvenFriction::kMemory));
    }
    CHECK(s[2] >= LeuvenFriction::kMemory - 1);
  }
}

TEST_CASE("the laws with discrete states say so, and the others do not", "[friction][switching]") {
  // The routes' refusals are tested where they are (penalty_route_test, cli_test).
  for (const char* name : {"armstrong", "wojewoda", "bristle", "leuven"}) {
    INFO(name);
    CHECK(makeFrictionLaw(name)->settlesBetweenSteps());
    CHECK(variableStepRefusal(*makeFrictionLaw(name)).find(std::string("'") + name + "'") != std::string::npos);
  }
  CHECK_FALSE(makeFrictionLaw("harnoy-friedland")->settlesBetweenSteps());
  CHECK_FALSE(makeFrictionLaw("lugre")->settlesBetweenSteps());
}
