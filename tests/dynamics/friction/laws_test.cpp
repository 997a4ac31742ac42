// The friction law catalogue (dynamics/friction/): factory and parameters, and each law's
// defining property at the Table 3.2 parameters of Marques (2015): odd symmetry, bounds,
// holding and break-away force, the stiction peak of the regularized laws, continuity, the
// steady-state curve of the dynamic laws (state integrated at constant v), their pre-sliding
// stiffness, and the equivalences between the three LuGre forms.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "dynamics/friction/dynamic_laws.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/friction/law_drive.hpp"

using namespace stickslip::dynamics;
using namespace stickslip::dynamics::test;

namespace {

const std::set<std::string> kStatic = {
    "coulomb", "coulomb-viscous", "coulomb-stiction", "stribeck", "hess-soom",
    "karnopp", "switch", "linear", "tanh", "threlfall", "linear-stiction",
    "bengisu-akay", "ambrosio", "awrejcewicz", "brown-mcphee"};

std::vector<std::string> dynamicNames() {
  std::vector<std::string> out;
  for (std::string_view n : frictionLawNames())
    if (!kStatic.count(std::string(n))) out.emplace_back(n);
  return out;
}

}  // namespace

TEST_CASE("catalogue: names, factory and parameters", "[friction][factory]") {
  const std::vector<std::string> expected = {
      "coulomb", "coulomb-viscous", "coulomb-stiction", "stribeck", "hess-soom", "karnopp",
      "switch", "linear", "tanh", "threlfall", "linear-stiction", "bengisu-akay", "ambrosio",
      "armstrong", "awrejcewicz", "wojewoda", "brown-mcphee", "dahl", "lugre", "lugre-wojtyra",
      "lugre-nondimensional", "elasto-plastic", "reset-integrator", "bliman-sorine-1",
      "bliman-sorine-2", "gms", "gonthier", "liang", "bristle", "harnoy-friedland", "leuven"};
  const auto names = frictionLawNames();
  REQUIRE(names.size() == expected.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    CHECK(names[i] == expected[i]);
    const auto law = makeFrictionLaw(names[i]);
    CHECK(law->name() == names[i]);
    CHECK((law->stateSize() == 0) == (kStatic.count(expected[i]) == 1));
  }

  SECTION("an unknown name lists the valid ones") {
    try {
      makeFrictionLaw("lugre2");
      FAIL("no exception");
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      CHECK(what.find("lugre2") != std::string::npos);
      CHECK(what.find("bengisu-akay") != std::string::npos);
      CHECK(what.find("liang") != std::string::npos);
    }
  }
  SECTION("Table 3.2 defaults") {
    const FrictionParameters p;
    CHECK(p.mu_s == 0.15);
    CHECK(p.mu_k == 0.1);
    CHECK(p.viscous == 0.1);
    CHECK(p.stribeck_velocity == 0.001);
    CHECK(p.stribeck_exponent == 2.0);
    CHECK(p.karnopp_velocity == 0.001);
    CHECK(p.tolerance_velocity == 0.001);
    CHECK(p.modified_v0 == 1e-4);
    CHECK(p.modified_v1 == 1e-3);
    CHECK(p.xi == 50.0);
    CHECK(p.stiction_coefficient == 0.5);
    CHECK(p.sigma0 == 1e5);
    CHECK(p.sigma1 == Approx(std::sqrt(1e5)).epsilon(1e-15));
    CHECK(p.sigma2 == 0.1);
    CHECK(p.dwell_time == 2.0);
    CHECK(p.bristle_stiffness == 5e4);
    CHECK(p.threshold_velocity == 0.001);
    CHECK(p.bristle_damping == 80.0);
    CHECK_NOTHROW(p.validate());
  }
  SECTION("set and get by name") {
    FrictionParameters p;
    for (std::string_view n : frictionParameterNames()) {
      p.set(n, p.get(n) * 0.5 + 1e-3);
      CHECK(p.get(n) == Approx(FrictionParameters{}.get(n) * 0.5 + 1e-3));
    }
    CHECK_THROWS_AS(p.set("sigma3", 1.0), std::invalid_argument);
    CHECK_THROWS_AS(p.get("mu"), std::invalid_argument);
  }
  SECTION("contract violations throw, naming what was expected") {
    auto throwsWith = [](FrictionParameters p, const char* fragment) {
      try {
        makeFrictionLaw("lugre", p);
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        return what.find("expected") != std::string::npos &&
               what.find(fragment) != std::string::npos;
      }
      return false;
    };
    FrictionParameters p;
    p.mu_k = 0.2;  // > μs
    CHECK(throwsWith(p, "mu_k"));
    p = {};
    p.sigma0 = -1.0;
    CHECK(throwsWith(p, "sigma0"));
    p = {};
    p.viscous = std::nan("");
    CHECK(throwsWith(p, "viscous"));
    p = {};
    p.stribeck_velocity = 0.0;
    CHECK(throwsWith(p, "stribeck_velocity"));
    p = {};
    p.modified_v0 = 2e-3;  // ≥ v1
    CHECK(throwsWith(p, "modified_v0"));
    p = {};
    p.mu_s = p.mu_k = 0.0;
    CHECK_THROWS_AS(makeFrictionLaw("lugre-nondimensional", p), std::invalid_argument);
    p = {};
    p.sigma1 = 0.0;
    CHECK_THROWS_AS(makeFrictionLaw("gonthier", p), std::invalid_argument);
  }
}

TEST_CASE("static laws: odd symmetry and bounds on random inputs", "[friction][static]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> vel(-0.05, 0.05), load(0.0, 20.0), unit(-3.0, 3.0);
  std::uniform_real_distribution<double> small(-2e-3, 2e-3);  // the regularization layers
  for (const std::string& name : kStatic) {
    DYNAMIC_SECTION(name) {
      const auto law = makeFrictionLaw(name);
      for (int i = 0; i < 2000; ++i) {
        const double v = i % 2 ? vel(rng) : small(rng), n = load(rng);
        const double fe = unit(rng) * kDefaults.mu_s * n;
        const double f = law->force({v, n, fe}, {});
        // Exactly odd: every law is written as R(|v|) sgn(v) or through odd functions.
        CHECK(law->force({-v, n, -fe}, {}) == -f);
        // |F| ≤ max(μs, μk) N + viscous term (+ the switch model's stick damping in its band).
        const double bound = kDefaults.mu_s * n + kDefaults.viscous * std::abs(v) +
                             kDefaults.switch_damping * std::abs(v);
        CHECK(std::abs(f) <= bound * (1.0 + 1e-12));
        // Friction never drives the sliding: F v ≤ 0 while sliding (Karnopp-type laws hold
        // the applied force inside their band instead).
        const bool band = (name == "karnopp" || name == "switch" || name == "awrejcewicz") &&
                          std::abs(v) <= 1e-3;
        if (!band) CHECK(f * v <= 0.0);
      }
    }
  }
}

TEST_CASE("set-valued and Karnopp-type laws hold the body, then break away", "[friction][static]") {
  struct Case {
    const char* name;
    double limit;  // |F| at rest under a large applied force [N]
  };
  for (const Case& c : {Case{"coulomb", kFc}, Case{"coulomb-viscous", kFc},
                        Case{"coulomb-stiction", kFs}, Case{"stribeck", kFs},
                        Case{"hess-soom", kFs}, Case{"karnopp", kFs}, Case{"switch", kFs},
                        Case{"awrejcewicz", kFs}}) {
    DYNAMIC_SECTION(c.name) {
      const auto law = makeFrictionLaw(c.name);
      for (double fe : {-0.9 * c.limit, -0.3 * c.limit, 0.0, 0.5 * c.limit, 0.99 * c.limit})
        CHECK(law->force({0.0, kN, fe}, {}) == Approx(-fe).margin(1e-15));  // holds exactly
      for (double fe : {1.01 * c.limit, 2.0 * c.limit, 10.0 * c.limit}) {
        CHECK(law->force({0.0, kN, fe}, {}) == Approx(-c.limit).epsilon(1e-15));
        CHECK(law->force({0.0, kN, -fe}, {}) == Approx(c.limit).epsilon(1e-15));
      }
    }
  }
}

TEST_CASE("regularized stiction laws peak at μs N", "[friction][static]") {
  struct Case {
    const char* name;
    double tolerance;  // relative
    const char* why;
  };
  for (const Case& c :
       {Case{"linear-stiction", 1e-12, "peak exactly Fs at v0"},
        Case{"bengisu-akay", 1e-12, "peak exactly Fs at v0"},
        // Fc tanh(4) falls short of Fc by Fc·6.7e-4, the viscous term adds Fv vs = 1e-4 N.
        Case{"brown-mcphee", 1e-3, "Fc (1 − tanh 4) and Fv vs"}}) {
    DYNAMIC_SECTION(c.name) {
      const auto law = makeFrictionLaw(c.name);
      double peak = 0.0;
      for (int i = 1; i <= 200000; ++i) peak = std::max(peak, -law->force({i * 1e-8, kN, 0.0}, {}));
      INFO(c.why);
      CHECK(peak == Approx(kFs).epsilon(c.tolerance));
    }
  }
}

TEST_CASE("continuous static laws have no jump", "[friction][static]") {
  // Grid step 1e-8 m/s; the steepest continuous slope is Fs/v0 = 1.5e4 N/(m/s) for
  // linear-stiction (v0 = 1e-4), so neighbours differ by ≤ 1.5e-4 N; a jump of the
  // discontinuous laws is ≥ Fc e⁻³ ≈ 0.05 N.
  constexpr double kJump = 1e-3;
  for (const char* name : {"linear", "tanh", "linear-stiction", "bengisu-akay", "ambrosio",
                           "brown-mcphee"}) {
    DYNAMIC_SECTION(name) {
      const auto law = makeFrictionLaw(name);
      double prev = law->force({-3e-3, kN, 0.0}, {}), worst = 0.0;
      for (int i = 1; i <= 600000; ++i) {
        const double f = law->force({-3e-3 + i * 1e-8, kN, 0.0}, {});
        worst = std::max(worst, std::abs(f - prev));
        prev = f;
      }
      CHECK(worst < kJump);
    }
  }
  SECTION("Threlfall jumps by Fc e^-3 at v0, as published") {
    const auto law = makeFrictionLaw("threlfall");
    const double v0 = kDefaults.tolerance_velocity;
    const double jump = law->force({v0 * (1 + 1e-12), kN, 0.0}, {}) - law->force({v0, kN, 0.0}, {});
    CHECK(-jump == Approx(kFc * std::exp(-3.0)).epsilon(1e-9));
  }
}

TEST_CASE("velocity derivatives match central differences", "[friction][static]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> vel(-5e-3, 5e-3);
  // Kinks of the piecewise laws (Table 3.2 velocities); differences across them are skipped.
  const double kinks[] = {0.0, 1e-4, 1e-3};
  int laws_with_derivative = 0;
  for (std::string_view name : frictionLawNames()) {
    const auto law = makeFrictionLaw(name);
    if (!law->hasVelocityDerivative()) {
      CHECK(std::isnan(law->velocityDerivative({1e-3, kN, 0.0}, {})));
      continue;
    }
    ++laws_with_derivative;
    DYNAMIC_SECTION(name) {
      for (int i = 0; i < 500; ++i) {
        const double v = vel(rng);
        // h = 1e-8 m/s: truncation ~ h² Fs/vs³ = 1.5e-7 N·s/m against slopes up to
        // Fs/v0 = 1.5e4 N·s/m; round-off ~ ε Fs/h = 3e-8 N·s/m.
        const double h = 1e-8;
        bool near_kink = false;
        for (double k : kinks) near_kink = near_kink || std::abs(std::abs(v) - k) < 10.0 * h;
        if (near_kink) continue;
        const double fd = (law->force({v + h, kN, 0.0}, {}) - law->force({v - h, kN, 0.0}, {})) /
                          (2.0 * h);
        INFO("v = " << v);
        CHECK(law->velocityDerivative({v, kN, 0.0}, {}) == Approx(fd).epsilon(1e-5).margin(1e-4));
      }
    }
  }
  CHECK(laws_with_derivative == 12);
}

TEST_CASE("dynamic laws: the state settles on the steady-state curve", "[friction][dynamic]") {
  for (const std::string& name : dynamicNames()) {
    if (name == "bristle") continue;  // its force saws about its steady mean: its own test below
    DYNAMIC_SECTION(name) {
      const auto law = makeFrictionLaw(name);
      for (double v : {-0.1, -1e-2, -2e-3, -5e-4, 1e-4, 5e-4, 2e-3, 1e-2, 0.1}) {
        std::vector<double> s = initial(*law, v, kN);
        // 40 relaxation lengths of 0.1 mm (the longest: Bliman–Sorine's εf); the step keeps
        // h·(fastest rate) ≤ 0.1, well inside RK4's stability interval.
        const double t_end = 40.0 * 1e-4 / std::abs(v);
        const double h = std::min(t_end / 20000.0, 1e-4);
        const double f = integrateStates(*law, s, [v](double) { return v; }, kN, t_end, h);
        INFO("v = " << v);
        // Converged to e^-40 of the transient; 1e-6 relative allows the round-off of the
        // large bristle terms σ0 z and σ1 ż that cancel in the sum.
        CHECK(f == Approx(law->steadyForce(v, kN)).epsilon(1e-6).margin(1e-9));
      }
    }
  }
}

TEST_CASE("dynamic laws: odd symmetry along a velocity history", "[friction][dynamic]") {
  // v(t) = 2 mm/s · sin(2π t / 0.05 s) + 0.5 mm/s: pre-sliding, slip and reversals.
  auto profile = [](double t) { return 2e-3 * std::sin(2.0 * std::numbers::pi * t / 0.05) + 5e-4; };
  for (const std::string& name : dynamicNames()) {
    DYNAMIC_SECTION(name) {
      const auto law = makeFrictionLaw(name);
      std::vector<double> sp = initial(*law, profile(0.0), kN), sm = initial(*law, -profile(0.0), kN);
      for (double t_end : {0.013, 0.05, 0.1}) {
        std::vector<double> a = sp, b = sm;
        const double fp = integrateStates(*law, a, profile, kN, t_end, 1e-6);
        const double fm = integrateStates(*law, b, [&](double t) { return -profile(t); }, kN, t_end, 1e-6);
        INFO("t = " << t_end);
        CHECK(fm == Approx(-fp).epsilon(1e-9).margin(1e-12 * kFs));
      }
    }
  }
}

TEST_CASE("dynamic laws: pre-sliding stiffness", "[friction][dynamic]") {
  const FrictionParameters& p = kDefaults;
  const double n = 2.0 * p.reference_normal_force;  // ≠ N_E, so the load scaling shows
  BlimanSorine2Friction bs2(p);
  const double phi = bs2.fastCoefficient(), eps = p.bliman_sorine_length;
  const std::map<std::string, double> expected = {
      {"dahl", p.sigma0},
      {"lugre", p.sigma0},
      {"lugre-wojtyra", p.sigma0 * n / p.reference_normal_force},
      {"lugre-nondimensional", p.sigma0 * n / p.reference_normal_force},
      {"elasto-plastic", p.sigma0},
      {"reset-integrator", p.sigma0 * (1.0 + p.stiction_coefficient)},
      {"bliman-sorine-1", p.mu_k * n / eps},
      {"bliman-sorine-2", phi * n / (p.bliman_sorine_eta * eps) - (phi - p.mu_k) * n / eps},
      {"gms", p.sigma0},
      {"gonthier", p.sigma0},
      {"liang", p.bristle_stiffness},
      {"armstrong", p.sigma0},
      {"wojewoda", p.sigma0},
      {"bristle", p.sigma0},
      {"leuven", p.sigma0},
  };
  // Harnoy–Friedland's lubricated journal has no junction to deflect: no pre-sliding.
  REQUIRE(expected.size() + 1 == dynamicNames().size());
  for (const auto& [name, k] : expected) {
    DYNAMIC_SECTION(name) {
      const auto law = makeFrictionLaw(name);
      // Creep at 0.1 µm/s for 1 ms: x = 0.1 nm, so the nonlinear terms (σ0 z/g, x/(η εf),
      // (v/vs)² in Gonthier's s) stay below 1e-3 relative.
      const double v = 1e-7, t = 1e-3;
      std::vector<double> s = initial(*law, v, n);
      const double f0 = law->force({v, n, 0.0}, s);
      const double f1 = integrateStates(*law, s, [v](double) { return v; }, n, t, 1e-6);
      CHECK(-(f1 - f0) / (v * t) == Approx(k).epsilon(2e-3));
    }
  }
}

TEST_CASE("Bliman-Sorine 2 breaks away at μs N", "[friction][dynamic]") {
  const auto law = makeFrictionLaw("bliman-sorine-2");
  std::vector<double> s = initial(*law, 1e-3, kN);
  double peak = 0.0;
  // 20 εf of path at 1 mm/s, step 1 µm of path (= η εf / 10).
  integrateStates(*law, s, [](double) { return 1e-3; }, kN, 2.0, 1e-6, &peak);
  CHECK(peak == Approx(kFs).epsilon(1e-4));  // path resolution of the sampled maximum
  CHECK(-law->force({1e-3, kN, 0.0}, s) == Approx(kFc).epsilon(1e-6));
}

TEST_CASE("elasto-plastic: no drift below the break-away deflection", "[friction][dynamic]") {
  // Oscillating pre-sliding with |z| ≤ 0.5 z_ba: purely elastic, z returns to 0 exactly,
  // whereas LuGre creeps (plastic drift) under the same history.
  const double amplitude = 1e-4;  // [m/s]; z amplitude = amplitude·T/2π ≈ 8e-8 m < z_ba/2
  auto profile = [amplitude](double t) { return amplitude * std::sin(2.0 * std::numbers::pi * t / 5e-3); };
  const auto ep = makeFrictionLaw("elasto-plastic");
  const auto lugre = makeFrictionLaw("lugre");
  std::vector<double> a = initial(*ep, 0.0, kN), b = initial(*lugre, 0.0, kN);
  integrateStates(*ep, a, profile, kN, 10 * 5e-3, 1e-6);
  integrateStates(*lugre, b, profile, kN, 10 * 5e-3, 1e-6);
  CHECK(std::abs(a[0]) < 1e-16);  // RK4 of a sine over whole periods: round-off only
  CHECK(std::abs(b[0]) > 1e-12);  // LuGre's drift
}

TEST_CASE("the three LuGre forms coincide at the reference load", "[friction][dynamic]") {
  const double n = kDefaults.reference_normal_force;
  const auto classic = makeFrictionLaw("lugre");
  const auto wojtyra = makeFrictionLaw("lugre-wojtyra");
  const auto nondim = makeFrictionLaw("lugre-nondimensional");
  auto profile = [](double t) { return 5e-3 * std::sin(2.0 * std::numbers::pi * t / 0.02); };
  std::vector<double> a{0.0}, b{0.0}, c{0.0};
  // z̄ = σ0 z /(N_E μk): the nondimensional state is the classic one rescaled.
  const double scale = kDefaults.sigma0 / (n * kDefaults.mu_k);
  for (double t : {0.003, 0.007, 0.011}) {
    const double fa = integrateStates(*classic, a, profile, n, t, 1e-6);
    const double fb = integrateStates(*wojtyra, b, profile, n, t, 1e-6);
    const double fc = integrateStates(*nondim, c, profile, n, t, 1e-6);
    CHECK(fb == Approx(fa).epsilon(1e-12).margin(1e-12));
    CHECK(fc == Approx(fa).epsilon(1e-9).margin(1e-9));
    CHECK(c[0] == Approx(a[0] * scale).epsilon(1e-9).margin(1e-9));
  }
  SECTION("Wojtyra's state does not depend on the load; the force scales with it") {
    std::vector<double> s1{0.0}, s2{0.0};
    const double f1 = integrateStates(*wojtyra, s1, profile, n, 0.01, 1e-6);
    const double f2 = integrateStates(*wojtyra, s2, profile, 3.0 * n, 0.01, 1e-6);
    CHECK(s2[0] == s1[0]);
    const double viscous = kDefaults.sigma2 * profile(0.01);
    CHECK(f2 + viscous == Approx(3.0 * (f1 + viscous)).epsilon(1e-12));
  }
}

TEST_CASE("laws are usable through the interface without allocation", "[friction][factory]") {
  // Every law evaluates force and rate on fixed buffers; a smoke test over the catalogue at
  // the unloaded contact (N = 0), which must give no friction beyond the viscous term.
  for (std::string_view name : frictionLawNames()) {
    const auto law = makeFrictionLaw(name);
    std::vector<double> s(std::size_t(law->stateSize()), 0.0), r(s.size());
    law->initialState({0.0, 0.0, 0.0}, s);
    law->stateRate({1e-3, 0.0, 0.0}, s, r);
    for (double x : r) CHECK(std::isfinite(x));
    const double f = law->force({1e-3, 0.0, 0.0}, s);
    INFO(name);
    // The switch model's stick damping acts at v = 1 mm/s, inside its band.
    CHECK(std::abs(f) <=
          std::max({kDefaults.viscous, kDefaults.sigma2, kDefaults.switch_damping}) * 1e-3 + 1e-15);
  }
}

TEST_CASE("harnoy-friedland: the film lifts the asperities as the journal speeds up", "[friction][dynamic]") {
  const FrictionParameters& p = kDefaults;
  const HarnoyFriedlandFriction law(p);
  const double ne = p.reference_normal_force, vs = p.stribeck_velocity;
  SECTION("at rest the film is thinnest and the asperities hold up to Fs") {
    CHECK(law.steadyEccentricity(0.0, kN) == kMaxEccentricity);
    const std::vector<double> s{kMaxEccentricity};
    CHECK(law.force({0.0, kN, 0.5 * kFs}, s) == -0.5 * kFs);
    CHECK(law.force({0.0, kN, 2.0 * kFs}, s) == Approx(-kFs).epsilon(1e-15));
  }
  SECTION("the asperities lift off at vs under the reference load; a heavier load needs more speed") {
    CHECK(law.steadyEccentricity(vs, ne) == Approx(p.transition_eccentricity).epsilon(1e-12));
    const double lifted = -law.steadyForce(vs, ne);  // the film's drag alone
    CHECK(lifted == Approx(p.viscous * vs / std::sqrt(1.0 - std::pow(p.transition_eccentricity, 2))).epsilon(1e-9));
    CHECK(law.steadyEccentricity(vs, 2.0 * ne) > p.transition_eccentricity);
    CHECK(law.steadyEccentricity(2.0 * vs, ne) < p.transition_eccentricity);
  }
  SECTION("the steady curve falls from Fs (Stribeck), then the film's drag rises with v") {
    double last = kFs;
    for (double v : {1e-6, 1e-5, 1e-4, 3e-4, 6e-4, 9e-4}) {
      const double f = -law.steadyForce(v, kN);
      CHECK(f < last);
      last = f;
    }
    CHECK(-law.steadyForce(10.0, kN) > -law.steadyForce(1.0, kN));
  }
  SECTION("the eccentricity follows a change of speed with the frictional memory τL") {
    std::vector<double> s = initial(law, 1e-4, kN);
    const double from = s[0], to = law.steadyEccentricity(2e-3, kN);
    integrateStates(law, s, [](double) { return 2e-3; }, kN, p.lag_time, 1e-6);
    CHECK(s[0] == Approx(to + (from - to) * std::exp(-1.0)).epsilon(1e-9));
  }
}
