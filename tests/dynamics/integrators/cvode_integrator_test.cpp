// CVODE wrapper: closed-form solutions, root location, stiffness, failure reporting.
#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/integrators/cvode_integrator.hpp"

using namespace stickslip::dynamics;

TEST_CASE("CVODE integrates y' = -y to exp(-t) with both methods", "[dynamics][cvode]") {
  for (OdeMethod method : {OdeMethod::kBdf, OdeMethod::kAdams}) {
    CvodeOptions o;
    o.method = method;
    o.relative_tolerance = 1e-10;
    o.absolute_tolerance = 1e-12;
    CvodeIntegrator cv(
        1, [](double, const auto& y, auto dydt) { dydt = -y; return true; }, o);
    Eigen::VectorXd y = Eigen::VectorXd::Constant(1, 1.0);
    cv.reset(0.0, y);
    for (double t : {0.5, 1.0, 2.0, 5.0}) {
      const OdeStep s = cv.advance(t, y);
      REQUIRE(s.status == OdeStatus::kReachedTime);
      CHECK(s.t == t);
      // Global error of a 1e-10 relative tolerance stays within ~1e3 of it over 5 s.
      CHECK(std::abs(y(0) - std::exp(-t)) < 1e-8);
    }
    CHECK(cv.statistics().steps > 0);
  }
}

TEST_CASE("CVODE keeps a harmonic oscillator on its circle", "[dynamics][cvode]") {
  const double omega = std::sqrt(2.0);  // the belt's k/m = 2
  CvodeOptions o;
  o.method = OdeMethod::kAdams;
  o.relative_tolerance = 1e-11;
  o.absolute_tolerance = 1e-13;
  CvodeIntegrator cv(2, [&](double, const auto& y, auto dydt) {
    dydt(0) = y(1);
    dydt(1) = -omega * omega * y(0);
    return true;
  }, o);
  Eigen::VectorXd y(2);
  y << 1.0, 0.0;
  cv.reset(0.0, y);
  REQUIRE(cv.advance(20.0, y).status == OdeStatus::kReachedTime);
  CHECK(std::abs(y(0) - std::cos(omega * 20.0)) < 1e-8);
  CHECK(std::abs(y(1) + omega * std::sin(omega * 20.0)) < 1e-8);
}

TEST_CASE("CVODE locates a root: a ball dropped from 1 m hits the floor at sqrt(2/g)",
          "[dynamics][cvode]") {
  const double g = 9.81;
  // The root is found on CVODE's interpolant, so its time is as accurate as the solution:
  // tight tolerances for a 1e-10 s event time.
  CvodeOptions o;
  o.relative_tolerance = 1e-12;
  o.absolute_tolerance = 1e-14;
  CvodeIntegrator cv(
      2,
      [&](double, const auto& y, auto dydt) {
        dydt(0) = y(1);
        dydt(1) = -g;
        return true;
      },
      o, 1, [](double, const auto& y, auto gout) { gout(0) = y(0); });
  Eigen::VectorXd y(2);
  y << 1.0, 0.0;
  cv.reset(0.0, y);
  const OdeStep s = cv.advance(10.0, y);
  REQUIRE(s.status == OdeStatus::kRoot);
  REQUIRE(s.roots.size() == 1);
  CHECK(s.roots[0] == -1);  // height decreasing through zero
  CHECK(std::abs(s.t - std::sqrt(2.0 / g)) < 1e-10);
  CHECK(std::abs(y(0)) < 1e-9);
  // Restarting after the event (velocity reversed, e = 1) continues to the next bounce.
  y(1) = -y(1);
  y(0) = 0.0;
  cv.reset(s.t, y);
  const OdeStep next = cv.advance(10.0, y);
  REQUIRE(next.status == OdeStatus::kRoot);
  CHECK(std::abs(next.t - 3.0 * std::sqrt(2.0 / g)) < 1e-10);
}

TEST_CASE("BDF handles a stiff problem in few steps — Adams needs many more", "[dynamics][cvode]") {
  // y' = −λ (y − cos t), λ = 1e5: after a fast transient y ≈ cos t + sin t/λ.
  const double lambda = 1e5;
  auto rhs = [&](double t, const auto& y, auto dydt) {
    dydt(0) = -lambda * (y(0) - std::cos(t));
    return true;
  };
  long steps[2] = {0, 0};
  int k = 0;
  for (OdeMethod method : {OdeMethod::kBdf, OdeMethod::kAdams}) {
    CvodeOptions o;
    o.method = method;
    o.relative_tolerance = 1e-6;
    o.absolute_tolerance = 1e-9;
    CvodeIntegrator cv(1, rhs, o);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(1);
    cv.reset(0.0, y);
    REQUIRE(cv.advance(2.0, y).status == OdeStatus::kReachedTime);
    CHECK(std::abs(y(0) - (std::cos(2.0) + std::sin(2.0) / lambda)) < 1e-5);
    steps[k++] = cv.statistics().steps;
  }
  INFO("BDF steps " << steps[0] << ", Adams steps " << steps[1]);
  CHECK(steps[0] < 1000);
  CHECK(steps[1] > 10 * steps[0]);
}

TEST_CASE("CVODE failures are reported, not thrown", "[dynamics][cvode]") {
  SECTION("a right-hand side that fails") {
    CvodeIntegrator cv(1, [](double t, const auto&, auto dydt) {
      dydt(0) = t < 0.5 ? 1.0 : std::nan("");
      return true;
    });
    Eigen::VectorXd y = Eigen::VectorXd::Zero(1);
    cv.reset(0.0, y);
    const OdeStep s = cv.advance(1.0, y);
    CHECK(s.status == OdeStatus::kFailure);
    CHECK(s.message.find("non-finite") != std::string::npos);
  }
  SECTION("too many steps") {
    CvodeOptions o;
    o.max_steps = 5;
    CvodeIntegrator cv(1, [](double t, const auto&, auto dydt) {
      dydt(0) = std::cos(100.0 * t);
      return true;
    }, o);
    Eigen::VectorXd y = Eigen::VectorXd::Zero(1);
    cv.reset(0.0, y);
    const OdeStep s = cv.advance(10.0, y);
    CHECK(s.status == OdeStatus::kFailure);
    CHECK(s.message.find("CV_TOO_MUCH_WORK") != std::string::npos);
  }
  SECTION("bad arguments throw") {
    auto f = [](double, const auto&, auto dydt) { dydt.setZero(); return true; };
    CHECK_THROWS_AS(CvodeIntegrator(0, f), std::invalid_argument);
    CvodeOptions o;
    o.relative_tolerance = 0.0;
    CHECK_THROWS_AS(CvodeIntegrator(1, f, o), std::invalid_argument);
    CvodeIntegrator cv(2, f);
    CHECK_THROWS_AS(cv.reset(0.0, Eigen::VectorXd::Zero(3)), std::invalid_argument);
  }
}
