#include "dynamics/contact/normal_law.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

using namespace stickslip::dynamics;

namespace {

const ContactMaterial kSteel{207e9, 0.3};  // review Table 5, Muvengei Table I, DESIGN §7

/// One impact of a mass m on a wall through a normal law: m δ̈ = −F(δ, δ̇, v₀), starting at
/// first contact, δ = 0 and δ̇ = v₀ > 0, up to separation (δ < 0, where F = 0 and the speed
/// stays constant). Classical RK4 with `steps` steps over 1.3× the Hertz contact time
/// t_c ≈ 2.94 (m² / (K² v₀))^(1/5) (elastic sphere, n = 1.5). Returns the restitution
/// measured from the energies, √(E_after / E_before) = |δ̇_after| / v₀.
template <class Law>
double measuredRestitution(const Law& law, double m, double v0, int steps) {
  const double tc = 2.94 * std::pow(m * m / (law.stiffness * law.stiffness * v0), 0.2);
  const double h = 1.3 * tc / steps;
  const auto acc = [&](double d, double dd) { return -law.force(d, dd, v0) / m; };
  double d = 0.0, v = v0;
  for (int i = 0; i < 4 * steps; ++i) {
    const double k1x = v, k1v = acc(d, v);
    const double k2x = v + 0.5 * h * k1v, k2v = acc(d + 0.5 * h * k1x, k2x);
    const double k3x = v + 0.5 * h * k2v, k3v = acc(d + 0.5 * h * k2x, k3x);
    const double k4x = v + h * k3v, k4v = acc(d + h * k3x, k4x);
    d += h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x);
    v += h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    if (d < 0.0) return std::sqrt((0.5 * m * v * v) / (0.5 * m * v0 * v0));
  }
  FAIL("the mass did not separate within 4 contact times");
  return 0.0;
}

/// Work done on the contact, ∮ F dδ = ∫ F δ̇ dt, along the prescribed loading–unloading cycle
/// δ(t) = δ_max sin(ω t), t ∈ [0, π/ω], impact velocity δ̇⁽⁻⁾ = δ_max ω; composite Simpson.
/// Positive: energy dissipated by the contact.
template <class Law>
double cycleWork(const Law& law, double delta_max, double omega, int intervals) {
  const double v_in = delta_max * omega;
  const double h = std::numbers::pi / omega / intervals;
  double sum = 0.0;
  for (int i = 0; i <= intervals; ++i) {
    const double t = i * h;
    const double d = delta_max * std::sin(omega * t), dd = v_in * std::cos(omega * t);
    const double w = (i == 0 || i == intervals) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    sum += w * law.force(d, dd, v_in) * dd;
  }
  return sum * h / 3.0;
}

template <class Law>
Law dissipative(double k, double ce) {
  Law law;
  law.stiffness = k;
  law.restitution = ce;
  return law;
}

}  // namespace

// Hand computation (steel, E = 207 GPa, ν = 0.3):
//   σ = (1 − 0.09) / 207e9 = 4.396135266e-12 1/Pa,  4 / (3 (σ + σ)) = 1.516483516e11 Pa.
// Internal contact R* = R_B R_J / (R_B − R_J):
//   review Table 5: R_B = 10 mm, R_J = 9.9 mm → R* = 0.99 m, √R* = 0.9949874371,
//     K = 1.508882047e11 N/m^1.5;
//   Muvengei Table I: nominal bearing diameter 10 mm → R_B = 5 mm, radial clearance 0.5 mm
//     (their Fig. 7 case) → R_J = 4.5 mm, R* = 0.045 m, √R* = 0.2121320344,
//     K = 3.216947334e10 N/m^1.5 (the table gives no K; the bearing diameter is read as the
//     bearing's, not the journal's);
//   DESIGN §7 (Zheng et al. cases): R_J = 10 mm, R_B = 10.1 mm → R* = 1.01 m,
//     √R* = 1.004987562, K = 1.524047072e11 N/m^1.5.
// (Thesis Table 4.3 lists K = 6.71e10 for R = 10 / 9.5 mm without stating E and ν; steel as
// above gives 6.61e10 for R* = 0.19 m, 1.5 % lower.)
TEST_CASE("Hertz stiffness of the journal-bearing cases", "[dynamics][contact][hertz]") {
  constexpr double kRel = 1e-9;  // the hand values above carry 10 significant digits
  CHECK(kSteel.compliance() == Approx(4.396135266e-12).epsilon(kRel));
  CHECK(journalBearingStiffness(0.010, 0.0099, kSteel, kSteel) ==
        Approx(1.508882047e11).epsilon(kRel));
  CHECK(journalBearingStiffness(0.005, 0.0045, kSteel, kSteel) ==
        Approx(3.216947334e10).epsilon(kRel));
  CHECK(journalBearingStiffness(0.0101, 0.010, kSteel, kSteel) ==
        Approx(1.524047072e11).epsilon(kRel));
  CHECK(effectiveRadiusInternal(0.010, 0.0099) == Approx(0.99).epsilon(1e-12));

  SECTION("external contact of two equal spheres: R* = R/2") {
    // K = 1.516483516e11 · √0.005 (= 0.07071067812) = 1.072315778e10 N/m^1.5
    CHECK(hertzStiffness(kSteel, kSteel, effectiveRadiusExternal(0.01, 0.01)) ==
          Approx(1.072315778e10).epsilon(kRel));
  }
  SECTION("dissimilar materials add their compliances") {
    const ContactMaterial aluminium{70e9, 0.33};  // σ = 0.8911 / 70e9 = 1.273e-11
    const double k = hertzStiffness(kSteel, aluminium, 0.99);
    CHECK(k ==
          Approx(4.0 / (3.0 * (4.396135266e-12 + 0.8911 / 70e9)) * std::sqrt(0.99)).epsilon(kRel));
  }
  SECTION("contract violations throw") {
    CHECK_THROWS_AS(effectiveRadiusInternal(0.0099, 0.010), std::invalid_argument);
    CHECK_THROWS_AS(effectiveRadiusInternal(0.010, 0.010), std::invalid_argument);
    CHECK_THROWS_AS(effectiveRadiusInternal(0.010, -0.001), std::invalid_argument);
    CHECK_THROWS_AS(effectiveRadiusExternal(0.0, 0.01), std::invalid_argument);
    CHECK_THROWS_AS(hertzStiffness(ContactMaterial{0.0, 0.3}, kSteel, 0.1), std::invalid_argument);
    CHECK_THROWS_AS(hertzStiffness(ContactMaterial{207e9, 0.6}, kSteel, 0.1),
                    std::invalid_argument);
    CHECK_THROWS_WITH(hertzStiffness(kSteel, kSteel, -1.0),
                      Catch::Contains("expected effective radius R* > 0, got -1"));
    HertzLaw hertz;
    CHECK_THROWS_AS(hertz.validate(), std::invalid_argument);  // K = 0
    auto ln = dissipative<LankaraniNikraveshLaw>(1e10, 1.2);
    CHECK_THROWS_WITH(ln.validate(), Catch::Contains("expected restitution c_e in [0, 1]"));
    auto fl = dissipative<FloresLaw>(1e10, 0.0);
    CHECK_THROWS_AS(fl.validate(), std::invalid_argument);
  }
}

TEST_CASE("normal laws: zero without penetration, never pull", "[dynamics][contact][law]") {
  const double k = 1.508882047e11;
  HertzLaw hertz{k, 1.5};
  const auto hc = dissipative<HuntCrossleyLaw>(k, 0.2);
  const auto ln = dissipative<LankaraniNikraveshLaw>(k, 0.2);
  const auto fl = dissipative<FloresLaw>(k, 0.2);
  REQUIRE_NOTHROW(hertz.validate());
  REQUIRE_NOTHROW(hc.validate());
  REQUIRE_NOTHROW(ln.validate());
  REQUIRE_NOTHROW(fl.validate());

  SECTION("the elastic part is K δ^1.5") {
    CHECK(hertz.force(1e-5) == Approx(k * std::pow(1e-5, 1.5)).epsilon(1e-14));
    HertzLaw linear{1e6, 1.0};
    CHECK(linear.force(2e-3) == Approx(2e3).epsilon(1e-14));
    CHECK(ln.force(1e-5, 0.0, 1.0) == Approx(hertz.force(1e-5)).epsilon(1e-14));
  }
  SECTION("seeded random states") {
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> pen(-1e-4, 1e-4), rate(-10.0, 10.0), v_in(1e-3, 5.0);
    for (int i = 0; i < 10000; ++i) {
      const double d = pen(rng), dd = rate(rng), v = v_in(rng);
      for (const double f :
           {hertz.force(d, dd, v), hc.force(d, dd, v), ln.force(d, dd, v), fl.force(d, dd, v)}) {
        CHECK(f >= 0.0);
        if (d <= 0.0) CHECK(f == 0.0);
      }
      if (d > 0.0) CHECK(hertz.force(d, dd, v) > 0.0);
    }
  }
  SECTION("exactly zero at contact and in separation, whatever the rate") {
    for (const double dd : {-5.0, 0.0, 5.0}) {
      CHECK(hc.force(0.0, dd, 1.0) == 0.0);
      CHECK(ln.force(-1e-9, dd, 1.0) == 0.0);
      CHECK(fl.force(0.0, dd, 1.0) == 0.0);
    }
  }
  SECTION("a fast separation would make Hunt-Crossley pull; the law clamps it to 0") {
    // bracket 1 + 3(1 − cₑ)/2 · δ̇/δ̇⁽⁻⁾ = 1 − 1.2 = −0.2 at δ̇ = −δ̇⁽⁻⁾, cₑ = 0.2
    CHECK(hc.force(1e-5, -1.0, 1.0) == 0.0);
    // Lankarani–Nikravesh keeps 1 − 3(1 − cₑ²)/4 > 0 for |δ̇| ≤ δ̇⁽⁻⁾
    CHECK(ln.force(1e-5, -1.0, 1.0) ==
          Approx(hertz.force(1e-5) * (1.0 - 0.75 * 0.96)).epsilon(1e-14));
  }
  SECTION("the impact velocity is floored by min_impact_velocity") {
    CHECK(ln.hysteresisFactor(0.0) == ln.hysteresisFactor(ln.min_impact_velocity));
    CHECK(std::isfinite(ln.force(1e-6, 1e-3, 0.0)));
    CHECK(ln.hysteresisFactor(2.0) == Approx(0.75 * k * 0.96 / 2.0).epsilon(1e-15));
    CHECK(hc.hysteresisFactor(2.0) == Approx(1.5 * k * 0.8 / 2.0).epsilon(1e-15));
    CHECK(fl.hysteresisFactor(2.0) == Approx(1.6 * k * 0.8 / (0.2 * 2.0)).epsilon(1e-15));
  }
}

// The rebound of one impact. With F = K δⁿ (1 + a δ̇/v₀), the scaled problem depends on a (so on
// cₑ) only, not on m, K or v₀; the RK4 result converges to 8 digits at 1000 steps per contact
// time, and we use 4000. Measured restitution √(E_after/E_before):
//   cₑ     Hunt–Crossley   Lankarani–Nikravesh   Flores et al.
//   0.9    0.9090          0.9132                0.8939
//   0.7    0.7680          0.7960                0.6832
//   0.5    0.6630          0.7252                0.4704
// Lankarani–Nikravesh meets cₑ within 5 % at 0.9 (+1.5 %) but not at 0.7 (+13.7 %: it keeps
// 63 % of the energy instead of 49 %); at 0.5 it gives 0.725 (+45 %), so its χ, derived for
// little dissipation, is unfit for low restitution, as the thesis (§1.2.2) warns. The energy
// lost at 0.9 is 1 − 0.9132² = 0.166 of E_before instead of 1 − 0.81 = 0.19 (−12.6 %).
TEST_CASE("restitution of one impact on a compliant contact", "[dynamics][contact][impact]") {
  constexpr int kSteps = 4000;
  const double m = 0.05, v0 = 0.5;  // journal mass of review Table 5, a moderate impact speed
  const double k = 1.508882047e11;

  SECTION("Hertz is elastic") {
    CHECK(measuredRestitution(HertzLaw{k, 1.5}, m, v0, kSteps) == Approx(1.0).epsilon(1e-9));
  }
  SECTION("Lankarani-Nikravesh") {
    const double e09 =
        measuredRestitution(dissipative<LankaraniNikraveshLaw>(k, 0.9), m, v0, kSteps);
    CHECK(std::abs(e09 - 0.9) <= 0.05 * 0.9);
    CHECK(e09 == Approx(0.91318).epsilon(1e-4));
    // Outside the law's range: characterised, not within 5 % (see the table above).
    const double e07 =
        measuredRestitution(dissipative<LankaraniNikraveshLaw>(k, 0.7), m, v0, kSteps);
    CHECK(e07 == Approx(0.79597).epsilon(1e-4));
    CHECK(e07 > 0.7);  // under-dissipates
    const double e05 =
        measuredRestitution(dissipative<LankaraniNikraveshLaw>(k, 0.5), m, v0, kSteps);
    CHECK(e05 == Approx(0.72524).epsilon(1e-4));
  }
  SECTION("Hunt-Crossley") {
    const double e09 = measuredRestitution(dissipative<HuntCrossleyLaw>(k, 0.9), m, v0, kSteps);
    CHECK(std::abs(e09 - 0.9) <= 0.05 * 0.9);
    CHECK(e09 == Approx(0.90903).epsilon(1e-4));
    CHECK(measuredRestitution(dissipative<HuntCrossleyLaw>(k, 0.7), m, v0, kSteps) ==
          Approx(0.76799).epsilon(1e-4));
  }
  SECTION("Flores et al. stays within 5 % down to cₑ = 0.7 and within 6 % at 0.5") {
    for (const double ce : {0.9, 0.7}) {
      const double e = measuredRestitution(dissipative<FloresLaw>(k, ce), m, v0, kSteps);
      INFO("c_e = " << ce << ", measured " << e);
      CHECK(std::abs(e - ce) <= 0.05 * ce);
    }
    const double e05 = measuredRestitution(dissipative<FloresLaw>(k, 0.5), m, v0, kSteps);
    CHECK(std::abs(e05 - 0.5) <= 0.06 * 0.5);
  }
  SECTION("the outcome is independent of m, K and v0") {
    const auto ln = dissipative<LankaraniNikraveshLaw>(1e8, 0.9);
    CHECK(measuredRestitution(ln, 3.0, 0.05, kSteps) == Approx(0.91318).epsilon(1e-4));
  }
}

TEST_CASE("force-penetration loops: the dissipative laws dissipate, Hertz does not",
          "[dynamics][contact][hysteresis]") {
  const double k = 1.508882047e11, delta_max = 2e-6, omega = 2e4;
  const double elastic_energy = k * std::pow(delta_max, 2.5) / 2.5;  // ∫₀^δmax K δ^1.5 dδ
  constexpr int kIntervals = 20000;  // Simpson on a smooth integrand; √δ at the ends costs ~1e-8

  const double w_hertz = cycleWork(HertzLaw{k, 1.5}, delta_max, omega, kIntervals);
  CHECK(std::abs(w_hertz) < 1e-6 * elastic_energy);

  for (const double ce : {0.9, 0.7}) {
    const double w_hc =
        cycleWork(dissipative<HuntCrossleyLaw>(k, ce), delta_max, omega, kIntervals);
    const double w_ln =
        cycleWork(dissipative<LankaraniNikraveshLaw>(k, ce), delta_max, omega, kIntervals);
    INFO("c_e = " << ce << ": HC " << w_hc / elastic_energy << ", LN " << w_ln / elastic_energy
                  << " of the elastic energy");
    CHECK(w_hc > 1e-3 * elastic_energy);
    CHECK(w_ln > 1e-3 * elastic_energy);
    CHECK(w_hc < elastic_energy);  // a loop cannot lose more than it stored on loading
    CHECK(w_ln < elastic_energy);
    // ∮ F dδ = χ ∫ δⁿ δ̇² dt exactly, for the law's χ (no clamp is active: δ̇ ≥ −δ̇⁽⁻⁾).
    const double v_in = delta_max * omega;
    const auto ln = dissipative<LankaraniNikraveshLaw>(k, ce);
    double damping_integral = 0.0;
    const double h = std::numbers::pi / omega / kIntervals;
    for (int i = 0; i <= kIntervals; ++i) {
      const double t = i * h;
      const double d = delta_max * std::sin(omega * t), dd = v_in * std::cos(omega * t);
      const double w = (i == 0 || i == kIntervals) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
      damping_integral += w * std::pow(std::max(d, 0.0), 1.5) * dd * dd;
    }
    damping_integral *= h / 3.0;
    CHECK(w_ln == Approx(ln.hysteresisFactor(v_in) * damping_integral).epsilon(1e-6));
  }
  SECTION("loading lies above unloading at every penetration") {
    const auto ln = dissipative<LankaraniNikraveshLaw>(k, 0.8);
    const auto hc = dissipative<HuntCrossleyLaw>(k, 0.8);
    for (const double d : {1e-7, 5e-7, 1e-6, 1.9e-6}) {
      CHECK(ln.force(d, 0.01, 0.04) > ln.force(d, -0.01, 0.04));
      CHECK(hc.force(d, 0.01, 0.04) > hc.force(d, -0.01, 0.04));
      CHECK(HertzLaw{k, 1.5}.force(d, 0.01, 0.04) == HertzLaw{k, 1.5}.force(d, -0.01, 0.04));
    }
  }
}

namespace {

/// Central differences of F in δ and δ̇ at relative steps 1e-6 of the scales δ_max and
/// v_max: truncation ~(1e-6)² relative, round-off ~ε/1e-6 ≈ 2e-10 relative to F's scale.
template <class Law>
void checkDerivatives(const Law& law, std::mt19937& rng) {
  constexpr double kDeltaMax = 1e-4, kRateMax = 2.0, kRel = 1e-6;
  std::uniform_real_distribution<double> pen(0.02 * kDeltaMax, kDeltaMax),
      rate(-kRateMax, kRateMax), v_in(0.1, kRateMax);
  const double f_scale = law.stiffness * std::pow(kDeltaMax, law.exponent);
  for (int i = 0; i < 200; ++i) {
    const double d = pen(rng), dd = rate(rng), v = v_in(rng);
    const double hd = kRel * kDeltaMax, hr = kRel * kRateMax;
    // Skip the few samples within one step of the clamp's kink, where F is not smooth.
    if (law.force(d, dd - 2 * hr, v) == 0.0 || law.force(d, dd + 2 * hr, v) == 0.0) {
      if (law.force(d, dd, v) == 0.0) {  // clamped: F ≡ 0 there, so are its derivatives
        CHECK(law.derivatives(d, dd, v).d_penetration == 0.0);
        CHECK(law.derivatives(d, dd, v).d_rate == 0.0);
      }
      continue;
    }
    const NormalForceDerivatives g = law.derivatives(d, dd, v);
    const double fd_d = (law.force(d + hd, dd, v) - law.force(d - hd, dd, v)) / (2 * hd);
    const double fd_r = (law.force(d, dd + hr, v) - law.force(d, dd - hr, v)) / (2 * hr);
    INFO("delta = " << d << ", rate = " << dd << ", v_in = " << v);
    CHECK(g.d_penetration == Approx(fd_d).margin(1e-6 * f_scale / kDeltaMax));
    CHECK(g.d_rate == Approx(fd_r).margin(1e-6 * f_scale / kRateMax));
  }
}

}  // namespace

TEST_CASE("normal law derivatives against central differences", "[dynamics][contact][law]") {
  std::mt19937 rng(29);
  const double k = 1.508882047e11;
  checkDerivatives(HertzLaw{k, 1.5}, rng);
  checkDerivatives(HertzLaw{1e9, 1.0}, rng);
  checkDerivatives(HertzLaw{1e12, 2.2}, rng);
  for (const double ce : {0.9, 0.3}) {  // 0.3 makes Hunt–Crossley's clamp reachable
    checkDerivatives(dissipative<HuntCrossleyLaw>(k, ce), rng);
    checkDerivatives(dissipative<LankaraniNikraveshLaw>(k, ce), rng);
    checkDerivatives(dissipative<FloresLaw>(k, ce), rng);
  }
  SECTION("zero outside the contact and where the clamp holds F at 0") {
    const auto hc = dissipative<HuntCrossleyLaw>(k, 0.2);
    CHECK(hc.derivatives(-1e-6, 1.0, 1.0).d_penetration == 0.0);
    CHECK(hc.derivatives(-1e-6, 1.0, 1.0).d_rate == 0.0);
    CHECK(hc.force(1e-5, -1.0, 1.0) == 0.0);
    CHECK(hc.derivatives(1e-5, -1.0, 1.0).d_penetration == 0.0);
    CHECK(hc.derivatives(1e-5, -1.0, 1.0).d_rate == 0.0);
    CHECK(HertzLaw{k, 1.5}.derivatives(0.0).d_penetration == 0.0);
  }
}
