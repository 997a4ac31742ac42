// Fixed-step RK4: fourth-order convergence on the harmonic oscillator, failure propagation,
// contract violations.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <utility>
#include <stdexcept>

#include "dynamics/integrators/rk4.hpp"

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

namespace {
/// ẏ = a(t) − d(t) y as a RelaxingDerivative (drive and decay of y(0); y(1) a clock ṫ = 1, which
/// never relaxes).
Rk4::RelaxingDerivative relaxing(std::function<double(double)> a, std::function<double(double)> d) {
  return [a, d](double t, const Eigen::Ref<const VectorXd>& y, const Rk4::RelaxedStage& stage, Eigen::Ref<VectorXd> ydot,
                Eigen::Ref<VectorXd> drive, Eigen::Ref<VectorXd> decay) {
    drive << a(t), 0.0;
    decay << d(t), 0.0;
    ydot << (stage.relaxes(0) ? Rk4::meanRate(y(0), a(t), d(t), stage.step) : a(t) - d(t) * y(0)), 1.0;
    return true;
  };
}
/// The same as a plain Derivative (nothing relaxed).
Rk4::Derivative unrelaxed(const Rk4::RelaxingDerivative& f) {
  return [f](double t, const Eigen::Ref<const VectorXd>& y, Eigen::Ref<VectorXd> ydot) {
    VectorXd drive(2), decay(2);
    return f(t, y, {}, ydot, drive, decay);
  };
}
}  // namespace

TEST_CASE("RK4 relaxes a fast linear decay exactly, where its own stages blow up", "[dynamics][rk4]") {
  // ẏ = a − d y with d h = 1000: RK4's amplification 1 − dh + … grows without bound; the relaxed
  // step is exact for constant a and d: y(t) = a/d + (y0 − a/d) e^{−dt}.
  const double a = 3.0, d = 1e5, h = 1e-2;
  Rk4 rk4(2);
  VectorXd y(2), plain(2);
  y << 1.0, 0.0;
  plain = y;
  const auto f = relaxing([a](double) { return a; }, [d](double) { return d; });
  const Rk4::Derivative g = unrelaxed(f);
  for (int k = 0; k < 5; ++k) {
    REQUIRE(rk4.step(f, k * h, h, y));
    REQUIRE(rk4.step(g, k * h, h, plain));
  }
  CHECK(y(0) == Approx(a / d + (1.0 - a / d) * std::exp(-d * 5 * h)).epsilon(1e-14));
  CHECK(y(1) == Approx(5 * h).epsilon(1e-14));  // the clock keeps RK4's update
  CHECK(rk4.relaxedSteps() == 5);
  CHECK(rk4.relaxedMismatch()(0) == Approx(0.0).margin(1e-15));  // constant a, d: the rates are exact
  CHECK(std::abs(plain(0)) > 1e10);
  // The relaxed value and its limits: τ = 0 is y0, d = 0 is a straight line, d = +∞ is 0 (the
  // bristle erased); the mean rate over a step.
  CHECK(Rk4::relaxed(0.7, 2.0, 4.0, 0.0) == 0.7);
  CHECK(Rk4::relaxed(0.7, 2.0, 0.0, 0.5) == Approx(1.7));
  CHECK(Rk4::relaxed(0.7, 2.0, std::numeric_limits<double>::infinity(), 0.5) == 0.0);
  CHECK(Rk4::meanRate(0.7, 2.0, 4.0, 0.5) == Approx((0.5 + 0.2 * std::exp(-2.0) - 0.7) / 0.5).epsilon(1e-14));
}

TEST_CASE("RK4 with relaxing components: plain RK4 while slow, second order while relaxed, and a decay "
          "that grows within a step redoes it",
          "[dynamics][rk4]") {
  // Slow (d h ≤ 0.05): bit for bit RK4's own step.
  {
    const auto f = relaxing([](double t) { return std::cos(t); }, [](double t) { return 1.0 + t; });
    const Rk4::Derivative g = unrelaxed(f);
    Rk4 rk4(2);
    VectorXd y(2), plain(2);
    y << 0.3, 0.0;
    plain = y;
    for (int k = 0; k < 40; ++k) {
      REQUIRE(rk4.step(f, k * 0.025, 0.025, y));
      REQUIRE(rk4.step(g, k * 0.025, 0.025, plain));
    }
    CHECK(y == plain);
    CHECK(rk4.relaxedSteps() == 0);
  }
  // Relaxed all along (d h ≥ 0.5): a(t) = sin 3t, d(t) = 100 (1 + t) on [0, 1]. The reference
  // is RK4 at h = 1e-5 (d h ≤ 0.002); the error falls fourfold per halving of h.
  const auto a = [](double t) { return std::sin(3.0 * t); };
  const auto d = [](double t) { return 100.0 * (1.0 + t); };
  const auto solve = [&](double h) {
    Rk4 rk4(2);
    VectorXd y(2);
    y << 1.0, 0.0;
    const auto f = relaxing(a, d);
    const int n = int(std::lround(1.0 / h));
    for (int k = 0; k < n; ++k) REQUIRE(rk4.step(f, k * h, h, y));
    return std::pair{y(0), double(rk4.relaxedSteps()) / n};
  };
  const auto [reference, relaxed0] = solve(1e-5);
  const auto [y1, relaxed1] = solve(0.01);
  const auto [y2, relaxed2] = solve(0.005);
  CHECK(relaxed0 == 0.0);
  CHECK(relaxed1 == 1.0);
  CHECK(relaxed2 == 1.0);
  const double e1 = std::abs(y1 - reference), e2 = std::abs(y2 - reference);
  CAPTURE(e1, e2, reference);
  CHECK(e1 < 1e-3 * std::abs(reference));
  CHECK(e1 / e2 > 3.5);
  // A decay that rises from 0 to d h = 4 within one step (d = 4·10⁶ t², h = 0.01): the step is
  // redone relaxed, and with a = 0 it is exact, y = e^{−∫d} = e^{−4/3} (Simpson's rule integrates
  // t² exactly). RK4's own stages give 0.167.
  Rk4 rk4(2);
  VectorXd y(2);
  y << 1.0, 0.0;
  REQUIRE(rk4.step(relaxing([](double) { return 0.0; }, [](double t) { return 4e6 * t * t; }), 0.0, 0.01, y));
  CHECK(rk4.relaxedSteps() == 1);
  CHECK(y(0) == Approx(std::exp(-4.0 / 3.0)).epsilon(1e-12));
  // The stages' mean rates, each the mean over h of its own frozen decay (e^{−d_i h} − 1)/h,
  // change y by Σ w_i (e^{−d_i h} − 1) with d h = 0, 1, 1, 4: what they leave of the true change
  // is the mismatch a rate-driven force is owed. The clock owes nothing.
  CHECK(rk4.relaxedMismatch()(0) ==
        Approx(std::exp(-4.0 / 3.0) - (1.0 + 4.0 * std::exp(-1.0) + std::exp(-4.0)) / 6.0).epsilon(1e-12));
  CHECK(rk4.relaxedMismatch()(1) == 0.0);
}
