#include "lcp/trial_and_error.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "lcp/lemke.hpp"
#include "lcp/residual.hpp"

using namespace stickslip::lcp;

namespace {

// Both routes compute F and a from the same few operations on O(scale) numbers; Lemke adds a
// 2×2 basis solve. Agreement to round-off: 1e-13 relative to |a₀| + w μs N (≈ 450 ε).
constexpr double kAgree = 1e-13;

SingleContact contact(double a0, double w, double N, double mu_s, double mu_k) {
  SingleContact c;
  c.free_acceleration = a0;
  c.compliance = w;
  c.normal_force = N;
  c.mu_static = mu_s;
  c.mu_kinetic = mu_k;
  return c;
}

/// Both routes on c; they must succeed and agree. Returns the trial-and-error result.
SingleContactResult bothAgree(const SingleContact& c, LemkeSolver& lemke) {
  const SingleContactResult t = solveByTrialAndError(c);
  const SingleContactResult l = solveSingleContactWithLemke(c, lemke);
  const double scale = std::abs(c.free_acceleration) + c.compliance * c.mu_static * c.normal_force;
  INFO("a0 = " << c.free_acceleration << ", w = " << c.compliance << ", N = " << c.normal_force
               << ", mu_s = " << c.mu_static << ", mu_k = " << c.mu_kinetic);
  INFO("trial-and-error " << toString(t.mode) << " F = " << t.friction
                          << " a = " << t.acceleration);
  INFO("LCP " << toString(l.mode) << " F = " << l.friction << " a = " << l.acceleration << " ("
              << l.message << ")");
  REQUIRE(t.ok());
  REQUIRE(l.ok());
  CHECK(t.mode == l.mode);
  CHECK(std::abs(t.friction - l.friction) * c.compliance <= kAgree * scale);
  CHECK(std::abs(t.acceleration - l.acceleration) <= kAgree * scale);
  // The physics, whichever route: the force law and a = a₀ + w F.
  CHECK(std::abs(c.free_acceleration + c.compliance * t.friction - t.acceleration) <=
        kAgree * scale);
  switch (t.mode) {
    case ContactMode::kStick:
      CHECK(t.acceleration == 0.0);
      CHECK(std::abs(t.friction) * c.compliance <=
            c.compliance * c.mu_static * c.normal_force + kAgree * scale);
      break;
    case ContactMode::kSlipPositive:
      CHECK(t.acceleration > 0.0);
      CHECK(t.friction == -c.mu_kinetic * c.normal_force);
      break;
    case ContactMode::kSlipNegative:
      CHECK(t.acceleration < 0.0);
      CHECK(t.friction == c.mu_kinetic * c.normal_force);
      break;
  }
  return t;
}

}  // namespace

TEST_CASE("single-contact LCP is the saturation LCP of Zheng et al. §3", "[lcp][trial-and-error]") {
  const Problem p = singleContactLcp(contact(0.3, 2.0, 5.0, 0.4, 0.2));
  Eigen::Matrix2d M;
  M << 2.0, 1.0, -1.0, 0.0;
  CHECK(p.M == M);
  CHECK(p.q == Eigen::Vector2d(0.3 - 2.0 * 0.4 * 5.0, 2.0 * 0.4 * 5.0));
}

TEST_CASE("trial-and-error equals the LCP route on random single contacts",
          "[lcp][trial-and-error][lemke]") {
  std::mt19937_64 rng(2018);
  std::uniform_real_distribution<double> a0(-3.0, 3.0), w(0.1, 2.0), N(0.0, 2.0), mu(0.0, 1.0),
      ratio(0.0, 1.0);
  std::bernoulli_distribution no_load(0.05);
  LemkeSolver lemke;
  int stick = 0, slip_positive = 0, slip_negative = 0;
  for (int i = 0; i < 10000; ++i) {
    const double mu_s = mu(rng);
    SingleContact c =
        contact(a0(rng), w(rng), no_load(rng) ? 0.0 : N(rng), mu_s, mu_s * ratio(rng));
    switch (bothAgree(c, lemke).mode) {
      case ContactMode::kStick:
        ++stick;
        break;
      case ContactMode::kSlipPositive:
        ++slip_positive;
        break;
      case ContactMode::kSlipNegative:
        ++slip_negative;
        break;
    }
  }
  INFO("stick " << stick << ", slip+ " << slip_positive << ", slip- " << slip_negative);
  CHECK(stick >= 1000);
  CHECK(slip_positive >= 1000);
  CHECK(slip_negative >= 1000);
  CHECK(stick + slip_positive + slip_negative == 10000);
}

TEST_CASE("trial-and-error and LCP agree on the boundary cases", "[lcp][trial-and-error][lemke]") {
  LemkeSolver lemke;
  // w = 0.5, μs = 0.25, N = 8: w μs N = 1 and μs N = 2 exactly in binary.
  SECTION("|F| = μs N exactly sticks, in both directions") {
    for (double s : {1.0, -1.0}) {
      const SingleContactResult r = bothAgree(contact(s * 1.0, 0.5, 8.0, 0.25, 0.125), lemke);
      CHECK(r.mode == ContactMode::kStick);
      CHECK(r.friction == -s * 2.0);
    }
  }
  SECTION("just beyond the static bound slips with kinetic friction") {
    for (double s : {1.0, -1.0}) {
      const SingleContactResult r =
          bothAgree(contact(s * (1.0 + 1e-9), 0.5, 8.0, 0.25, 0.125), lemke);
      CHECK(r.mode == (s > 0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative));
      CHECK(r.friction == -s * 1.0);
      CHECK(r.acceleration == Approx(s * (0.5 + 1e-9)).epsilon(1e-12));
    }
  }
  SECTION("N = 0: no friction, slip unless a0 = 0") {
    CHECK(bothAgree(contact(0.7, 0.5, 0.0, 0.25, 0.125), lemke).mode == ContactMode::kSlipPositive);
    CHECK(bothAgree(contact(-0.7, 0.5, 0.0, 0.25, 0.125), lemke).mode ==
          ContactMode::kSlipNegative);
    const SingleContactResult r = bothAgree(contact(0.0, 0.5, 0.0, 0.25, 0.125), lemke);
    CHECK(r.mode == ContactMode::kStick);
    CHECK(r.friction == 0.0);
    CHECK(r.acceleration == 0.0);
  }
  SECTION("a0 = 0 sticks with zero force") {
    const SingleContactResult r = bothAgree(contact(0.0, 0.5, 8.0, 0.25, 0.125), lemke);
    CHECK(r.mode == ContactMode::kStick);
    CHECK(r.friction == 0.0);
  }
  SECTION("μs = μk: the force is continuous at break-away") {
    const SingleContactResult r = bothAgree(contact(1.0 + 1e-9, 0.5, 8.0, 0.25, 0.25), lemke);
    CHECK(r.mode == ContactMode::kSlipPositive);
    CHECK(r.friction == -2.0);
    CHECK(r.acceleration == Approx(1e-9).margin(1e-15));
  }
  SECTION("μs = μk = 0: frictionless") {
    const SingleContactResult r = bothAgree(contact(-0.3, 0.5, 8.0, 0.0, 0.0), lemke);
    CHECK(r.mode == ContactMode::kSlipNegative);
    CHECK(r.friction == 0.0);
    CHECK(r.acceleration == -0.3);
  }
}

TEST_CASE("block on an incline sticks iff tan α ≤ μs", "[lcp][trial-and-error][lemke]") {
  // DESIGN.md §7: mass m on a slope α, x down the slope: a₀ = g sin α, w = 1/m,
  // N = m g cos α. With μs = 0.5 the critical angle is atan(0.5).
  const double m = 2.0, g = 9.81, mu_s = 0.5, mu_k = 0.3;
  const double critical = std::atan(mu_s);
  LemkeSolver lemke;
  for (double alpha : {0.0, 0.2, critical - 1e-6, critical + 1e-6, 0.8, 1.2}) {
    INFO("alpha = " << alpha);
    const SingleContactResult r = bothAgree(
        contact(g * std::sin(alpha), 1.0 / m, m * g * std::cos(alpha), mu_s, mu_k), lemke);
    CHECK((r.mode == ContactMode::kStick) == (alpha <= critical));
    if (r.mode == ContactMode::kSlipPositive)
      CHECK(r.acceleration == Approx(g * (std::sin(alpha) - mu_k * std::cos(alpha))));
  }
}

TEST_CASE("single-contact input is validated", "[lcp][trial-and-error]") {
  LemkeSolver lemke;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const SingleContact& c :
       {contact(1.0, 0.0, 1.0, 0.5, 0.3), contact(1.0, -1.0, 1.0, 0.5, 0.3),
        contact(1.0, 1.0, -1.0, 0.5, 0.3), contact(1.0, 1.0, 1.0, 0.3, 0.5),
        contact(1.0, 1.0, 1.0, 0.5, -0.1), contact(nan, 1.0, 1.0, 0.5, 0.3)}) {
    CHECK_THROWS_WITH(c.validate(), Catch::Contains("expected"));
    CHECK(solveByTrialAndError(c).status == Status::kInvalidInput);
    CHECK(solveSingleContactWithLemke(c, lemke).status == Status::kInvalidInput);
    CHECK_THROWS_AS(singleContactLcp(c), std::invalid_argument);
  }
}
