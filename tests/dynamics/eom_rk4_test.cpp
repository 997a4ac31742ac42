// Fixed-step RK4: fourth-order convergence on the harmonic oscillator, failure propagation,
// contract violations.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "dynamics/rk4.hpp"

using stickslip::dynamics::Rk4;
using Eigen::VectorXd;

namespace {
/// ẏ = (y₂, −y₁): y(t) = (cos t, −sin t) from (1, 0).
double errorAtOne(double h) {
  Rk4 rk4(2);
  const Rk4::Derivative f = [](double, const Eigen::Ref<const VectorXd>& y, Eigen::Ref<VectorXd> d) {
    d << y(1), -y(0);
    return true;
  };
  VectorXd y(2);
  y << 1.0, 0.0;
  const int n = static_cast<int>(std::lround(1.0 / h));
  for (int k = 0; k < n; ++k) REQUIRE(rk4.step(f, k * h, h, y));
  return std::hypot(y(0) - std::cos(1.0), y(1) + std::sin(1.0));
}
}  // namespace

TEST_CASE("RK4 converges at fourth order", "[dynamics][rk4]") {
  const double e1 = errorAtOne(0.1), e2 = errorAtOne(0.05);
  // Global error C h⁴ with C ≈ t/120 = 1/120: 8e-7 at h = 0.1.
  CHECK(e1 < 2e-6);
  CHECK(e1 / e2 == Approx(16.0).epsilon(0.05));
}

TEST_CASE("RK4 exact on a cubic in t", "[dynamics][rk4]") {
  // Simpson's rule is exact for cubics: ẏ = t³ integrates to t⁴/4 without error.
  Rk4 rk4(1);
  const Rk4::Derivative f = [](double t, const Eigen::Ref<const VectorXd>&, Eigen::Ref<VectorXd> d) {
    d(0) = t * t * t;
    return true;
  };
  VectorXd y = VectorXd::Zero(1);
  for (int k = 0; k < 10; ++k) rk4.step(f, 0.3 * k, 0.3, y);
  CHECK(y(0) == Approx(std::pow(3.0, 4) / 4.0).epsilon(1e-14));
}

TEST_CASE("RK4 stops on a failed derivative and checks its contract", "[dynamics][rk4]") {
  Rk4 rk4(2);
  int calls = 0;
  const Rk4::Derivative fails = [&](double, const Eigen::Ref<const VectorXd>&, Eigen::Ref<VectorXd> d) {
    d.setOnes();
    return ++calls < 3;
  };
  VectorXd y = VectorXd::Zero(2);
  CHECK_FALSE(rk4.step(fails, 0.0, 0.1, y));
  CHECK(y.isZero());  // unchanged
  CHECK_THROWS_AS(rk4.step(fails, 0.0, 0.0, y), std::invalid_argument);
  VectorXd wrong(3);
  CHECK_THROWS_AS(rk4.step(fails, 0.0, 0.1, wrong), std::invalid_argument);
  CHECK_THROWS_AS(Rk4(-1), std::invalid_argument);
}
