// solveFrictionLoop (dynamics/friction/friction_loop.hpp) on loops with known roots.
#include <catch2/catch.hpp>

#include <cmath>

#include "dynamics/friction/friction_loop.hpp"

using stickslip::dynamics::solveFrictionLoop;

TEST_CASE("friction loop: Coulomb-type law has the closed-form root", "[friction-loop]") {
  // F = −μ N, N = a + b F  ⇒  N = a / (1 + b μ) for a > 0, 1 + bμ > 0.
  for (const double b : {-2.0, -0.5, 0.0, 0.4, 3.0}) {
    const double a = 2.5, mu = 0.15;
    const auto s = solveFrictionLoop(a, b, [&](double n) { return -mu * n; });
    INFO("b = " << b);
    REQUIRE(s.converged);
    CHECK(s.normal_magnitude == Approx(a / (1.0 + b * mu)).epsilon(1e-12));
    CHECK(s.force == Approx(-mu * s.normal_magnitude).epsilon(1e-12));
    CHECK(s.normal == Approx(a + b * s.force).epsilon(1e-14));
    CHECK(s.iterations <= 6);
  }
}

TEST_CASE("friction loop: a 1/N term (LuGre-like) gives the quadratic's root",
          "[friction-loop]") {
  // F = A + C/N. On the branch a + bF > 0: N² − (a + bA) N − bC = 0; on a + bF < 0:
  // N² + (a + bA) N + bC = 0, which has no real root here ((a + bA)² < 4bC): one solution.
  const double a = 1.0, b = 0.5, A = -10.0, C = 60.0;
  const auto s = solveFrictionLoop(a, b, [&](double n) { return A + C / n; });
  REQUIRE(s.converged);
  const double p = a + b * A;
  CHECK(p * p < 4.0 * b * C);
  CHECK(s.normal_magnitude == Approx(0.5 * (p + std::sqrt(p * p + 4.0 * b * C))).epsilon(1e-10));
  CHECK(s.normal > 0.0);
}

TEST_CASE("friction loop: with several roots the one found solves the loop",
          "[friction-loop]") {
  // Same law with A = −30: roots 1.89 (a + bF > 0), 2.64 and 11.36 (a + bF < 0).
  const double a = 1.0, b = 0.5, A = -30.0, C = 60.0;
  const auto s = solveFrictionLoop(a, b, [&](double n) { return A + C / n; });
  REQUIRE(s.converged);
  CHECK(std::abs(s.normal_magnitude - std::abs(a + b * (A + C / s.normal_magnitude))) < 1e-10);
  const double p = a + b * A;
  const double roots[] = {0.5 * (p + std::sqrt(p * p + 4.0 * b * C)),
                          0.5 * (-p - std::sqrt(p * p - 4.0 * b * C)),
                          0.5 * (-p + std::sqrt(p * p - 4.0 * b * C))};
  double nearest = 1e300;
  for (double r : roots) nearest = std::min(nearest, std::abs(r - s.normal_magnitude));
  CHECK(nearest < 1e-9);
}

TEST_CASE("friction loop: no friction leaves the reaction", "[friction-loop]") {
  const auto s = solveFrictionLoop(-1.5, 0.3, [](double) { return 0.0; });
  REQUIRE(s.converged);
  CHECK(s.normal_magnitude == 1.5);
  CHECK(s.normal == -1.5);
  CHECK(s.iterations == 1);
}

TEST_CASE("friction loop: a reaction in the plane (a revolute joint) has the closed-form root", "[friction-loop]") {
  // R(F) = a + b F with a = (3, 0), b = (0, 2); F = −μ |R| ⇒ N² = 9 + 4 μ² N², N = 3 / √(1 − 4μ²).
  const double mu = 0.2;
  const auto s = solveFrictionLoop([](double f) { return std::hypot(3.0, 2.0 * f); },
                                   [&](double n) { return -mu * n; });
  REQUIRE(s.converged);
  CHECK(s.normal_magnitude == Approx(3.0 / std::sqrt(1.0 - 4.0 * mu * mu)).epsilon(1e-12));
  CHECK(s.force == Approx(-mu * s.normal_magnitude).epsilon(1e-12));
}
