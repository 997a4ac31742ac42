// Static friction equilibrium (dynamics/statics/hold.hpp) against closed forms: the incline, a block
// held in a vise (statically indeterminate friction), a ladder against a wall.
#include "dynamics/statics/hold.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include "standard_gravity.hpp"

using namespace stickslip::dynamics;

namespace {

using stickslip::test::kG;

RigidContact pointOnLine(std::string name, BodyIndex body, Eigen::Vector2d point, Eigen::Vector2d line_point,
                         Eigen::Vector2d normal, double mu) {
  RigidContact c;
  c.name = std::move(name);
  c.body_i = body;
  c.body_j = kGround;
  c.geometry.point_on_i = point;
  c.geometry.line_point_on_j = line_point;
  c.geometry.line_normal_on_j = normal;
  c.mu_static = c.mu_kinetic = mu;
  return c;
}

/// A 2 kg block (a point contact at its centroid) on a slope of angle α through the origin.
RigidScenario incline(double alpha, double mu) {
  RigidScenario s;
  const BodyIndex b = s.model.addBody("block", 2.0, 0.1);
  s.model.setGravity({0.0, -kG});
  s.contacts.push_back(pointOnLine("slope", b, {0, 0}, {0, 0}, {-std::sin(alpha), std::cos(alpha)}, mu));
  s.q0 = Eigen::VectorXd::Zero(3);
  s.v0 = Eigen::VectorXd::Zero(3);
  return s;
}

/// A block (2 kg), its rotation held, between a rigid wall at x = −w/2 (contact "wall") and a
/// jaw at x = w/2 that presses it with P (a linear spring law at the penetration that gives P,
/// contact "jaw"); an applied downward force W on the block.
RigidScenario vise(double mu_wall, double mu_jaw, double p, double w_load, double mass = 2.0) {
  constexpr double kWidth = 0.1;
  const double stiffness = 5e5 * mass;  // 1e6 N/m at 2 kg: the jaw's penetration scales with P / m
  RigidScenario s;
  const BodyIndex b = s.model.addBody("block", mass, 0.05 * mass);
  s.model.setGravity({0.0, -kG});
  s.model.addAngle(kGround, b, 0.0, "no rotation");
  if (w_load != 0.0) s.model.addAppliedForce(b, {0, 0}, [w_load](double) { return Eigen::Vector2d(0.0, -w_load); });
  s.contacts.push_back(pointOnLine("wall", b, {-kWidth / 2, 0}, {-kWidth / 2, 0}, {1, 0}, mu_wall));
  RigidContact jaw = pointOnLine("jaw", b, {kWidth / 2, 0}, {kWidth / 2 - p / stiffness, 0}, {-1, 0}, mu_jaw);
  jaw.normal = RigidContact::Normal::kCompliant;
  jaw.compliant_law = HertzLaw{stiffness, 1.0};
  s.contacts.push_back(jaw);
  s.q0 = Eigen::VectorXd::Zero(3);
  s.v0 = Eigen::VectorXd::Zero(3);
  return s;
}

/// A 2 m ladder (10 kg) at angle θ to the floor, its foot on the floor (contact "floor") and
/// its top against the wall x = 0 (contact "wall").
RigidScenario ladder(double theta, double mu_floor, double mu_wall, double mass = 10.0) {
  constexpr double kLength = 2.0;
  RigidScenario s;
  const BodyIndex b = s.model.addBody("ladder", mass, mass * kLength * kLength / 12.0);
  s.model.setGravity({0.0, -kG});
  s.contacts.push_back(pointOnLine("floor", b, {-kLength / 2, 0}, {0, 0}, {0, 1}, mu_floor));
  s.contacts.push_back(pointOnLine("wall", b, {kLength / 2, 0}, {0, 0}, {1, 0}, mu_wall));
  s.q0.resize(3);
  s.q0 << kLength / 2 * std::cos(theta), kLength / 2 * std::sin(theta), std::numbers::pi - theta;
  s.v0 = Eigen::VectorXd::Zero(3);
  return s;
}

}  // namespace

TEST_CASE("hold: a block on an incline holds iff mu_s >= tan(alpha), with N = m g cos(alpha)", "[hold]") {
  const double alpha = 0.4, tan_a = std::tan(alpha);
  for (double mu : {0.5 * tan_a, 0.999 * tan_a, 1.001 * tan_a, 2.0 * tan_a}) {
    const RigidScenario s = incline(alpha, mu);
    const HoldResult r = analyseHold(s, s.q0);
    CAPTURE(mu, r.margin, r.cross_check);
    CHECK(r.holds == (mu > tan_a));
    CHECK(r.exact);
    CHECK(r.cross_check_ok);
    CHECK(r.indeterminacy == 0);
    REQUIRE(r.elements.size() == 1);
    CHECK(r.elements[0].critical_mu == Approx(tan_a).epsilon(1e-10));
    if (r.holds) {
      CHECK(r.elements[0].normal == Approx(2.0 * kG * std::cos(alpha)).epsilon(1e-12));
      CHECK(std::abs(r.elements[0].friction) == Approx(2.0 * kG * std::sin(alpha)).epsilon(1e-12));
      CHECK(r.elements[0].friction_range.low == r.elements[0].friction_range.high);  // determinate
    } else {
      REQUIRE(r.violated.size() == 1);
      CHECK(r.violated[0].element == "slope");
      CHECK(r.violated[0].kind == "slips");
    }
  }
}

TEST_CASE("hold: a block in a vise is statically indeterminate: the interval of the friction forces", "[hold]") {
  // Vertical balance F_jaw − F_wall = m g + s W (the wall's tangent points down), |F| ≤ μ P.
  const double mu = 0.15, p = 100.0, w = 10.0, mg = 2.0 * kG;
  const RigidScenario s = vise(mu, mu, p, w);
  const HoldResult r = analyseHold(s, s.q0);
  CAPTURE(r.cross_check);
  REQUIRE(r.holds);
  CHECK(r.cross_check_ok);
  CHECK(r.indeterminacy == 1);
  const HoldElement& wall = r.elements[0];
  const HoldElement& jaw = r.elements[1];
  CHECK(wall.normal == Approx(p).epsilon(1e-9));  // the wall's N is determinate
  CHECK(jaw.normal_range.low == Approx(p).epsilon(1e-9));
  CHECK(wall.normal_range.high == Approx(p).epsilon(1e-9));
  // F_wall ∈ [max(−μP, −μP − m g − W), min(μP, μP − m g − W)] = [−15, −14.62].
  CHECK(wall.friction_range.low == Approx(-mu * p).epsilon(1e-9));
  CHECK(wall.friction_range.high == Approx(mu * p - mg - w).epsilon(1e-9));
  CHECK(jaw.friction_range.low == Approx(mg + w - mu * p).epsilon(1e-9));
  CHECK(jaw.friction_range.high == Approx(mu * p).epsilon(1e-9));
  // The witness lies inside both intervals, and in balance.
  CHECK(jaw.friction - wall.friction == Approx(mg + w).epsilon(1e-9));
  // Critical μs of the wall with the jaw's fixed: (m g + W − μ P) / P.
  CHECK(wall.critical_mu == Approx((mg + w - mu * p) / p).epsilon(1e-9));
  // Load factors: m g + s W ∈ [−2 μ P, 2 μ P]; at either end both contacts slip.
  REQUIRE(r.load_factor.loads);
  CHECK(r.load_factor.high == Approx((2 * mu * p - mg) / w).epsilon(1e-9));
  CHECK(r.load_factor.low == Approx((-2 * mu * p - mg) / w).epsilon(1e-9));
  CHECK(r.load_factor.first_high.size() == 2);
  CHECK(r.load_factor.first_low.size() == 2);
  // The joint that holds the block's angle takes the contacts' couple, (w/2)(F_wall + F_jaw) =
  // (w/2)(2 F_wall + m g + W): indeterminate too, ±(w/2)(2 μ P − m g − W) over the holding set.
  REQUIRE(r.lambda_ranges.size() == 1);
  const double couple = 0.05 * (2 * mu * p - mg - w);
  CHECK(r.lambda_ranges[0].low == Approx(-couple).margin(1e-8));  // the bounds are met to the LPs' tolerance
  CHECK(r.lambda_ranges[0].high == Approx(couple).margin(1e-8));
  CHECK(std::abs(r.lambda(0)) <= couple * (1 + 1e-9));

  const RigidScenario loose = vise(mu, mu, 0.5 * (mg + w) / mu * 0.99, w);  // 2 μ P just below m g + W
  const HoldResult l = analyseHold(loose, loose.q0);
  CHECK_FALSE(l.holds);
  CHECK(l.cross_check_ok);
}

TEST_CASE("hold: a ladder against a wall: the classic critical angle tan(theta) = (1 - mu1 mu2) / (2 mu1)",
          "[hold]") {
  const double mu1 = 0.4, mu2 = 0.3;
  const double critical = std::atan((1.0 - mu1 * mu2) / (2.0 * mu1));
  for (double theta : {critical - 1e-4, critical + 1e-4, critical + 0.3}) {
    const RigidScenario s = ladder(theta, mu1, mu2);
    const HoldResult r = analyseHold(s, s.q0);
    CAPTURE(theta, r.margin, r.cross_check);
    CHECK(r.holds == (theta > critical));
    CHECK(r.indeterminacy == 1);
    CHECK(r.exact);
    CHECK(r.cross_check_ok);
    // The floor's critical μs with the wall's fixed: 1 / (2 tan θ + μ2).
    CHECK(r.elements[0].critical_mu == Approx(1.0 / (2.0 * std::tan(theta) + mu2)).epsilon(1e-9));
    // The wall's with the floor's fixed: (1 − 2 μ1 tan θ) / μ1, or 0 when the floor alone holds.
    CHECK(r.elements[1].critical_mu ==
          Approx(std::max(0.0, (1.0 - 2.0 * mu1 * std::tan(theta)) / mu1)).margin(1e-9));
    CHECK_FALSE(r.load_factor.loads);  // gravity only: nothing to scale
  }
}

TEST_CASE("hold: the verdict, critical mu_s and intervals do not depend on the unit of the loads", "[hold]") {
  // The problem is homogeneous in the loads: scaled by k, every force scales by k and nothing
  // else changes. The programs' tolerances must not see the unit (a mass of 1e-20 kg held with
  // μs = 0, 3e8 kg DISAGREED).
  const double mu1 = 0.4, mu2 = 0.3, theta = std::atan((1.0 - mu1 * mu2) / (2.0 * mu1)) + 0.1;
  const double mu = 0.15, p = 100.0, w = 10.0, mg = 2.0 * kG;
  const RigidScenario reference = ladder(theta, mu1, mu2);
  const HoldResult at_one = analyseHold(reference, reference.q0);
  for (double k : {1e-21, 1e-6, 3e7, 1e15}) {
    CAPTURE(k);
    const RigidScenario l = ladder(theta, mu1, mu2, 10.0 * k);
    const HoldResult r = analyseHold(l, l.q0);
    CAPTURE(r.cross_check);
    CHECK(r.holds);
    CHECK(r.cross_check_ok);
    CHECK(r.elements[0].critical_mu == Approx(1.0 / (2.0 * std::tan(theta) + mu2)).epsilon(1e-9));
    for (std::size_t e = 0; e < 2; ++e) {
      CHECK(r.elements[e].normal_range.low / k == Approx(at_one.elements[e].normal_range.low).epsilon(1e-9));
      CHECK(r.elements[e].friction_range.high / k == Approx(at_one.elements[e].friction_range.high).epsilon(1e-9));
    }
    CHECK(r.margin / k == Approx(at_one.margin).epsilon(1e-9));
    const RigidScenario steep = ladder(theta - 0.2, mu1, mu2, 10.0 * k);
    const HoldResult slips = analyseHold(steep, steep.q0);
    CHECK_FALSE(slips.holds);
    CHECK(slips.cross_check_ok);

    const RigidScenario v = vise(mu, mu, p * k, w * k, 2.0 * k);
    const HoldResult rv = analyseHold(v, v.q0);
    CAPTURE(rv.cross_check);
    REQUIRE(rv.holds);
    CHECK(rv.cross_check_ok);
    CHECK(rv.elements[0].friction_range.low / k == Approx(-mu * p).epsilon(1e-9));
    CHECK(rv.elements[0].friction_range.high / k == Approx(mu * p - mg - w).epsilon(1e-9));
    CHECK(rv.elements[0].critical_mu == Approx((mg + w - mu * p) / p).epsilon(1e-9));
    CHECK(rv.load_factor.high == Approx((2 * mu * p - mg) / w).epsilon(1e-9));
  }
}

TEST_CASE("hold: refuses a configuration that is not assembled, penetrates or is driven", "[hold]") {
  RigidScenario s = incline(0.3, 0.5);
  Eigen::VectorXd q = s.q0;
  q(1) = -1e-3;  // below the slope
  CHECK_THROWS_WITH(analyseHold(s, q), Catch::Contains("penetrates"));
  q(1) = 1e-3;  // above it: free, falls
  const HoldResult free = analyseHold(s, q);
  CHECK_FALSE(free.holds);
  CHECK_FALSE(free.elements[0].closed);

  RigidScenario v = vise(0.2, 0.2, 100.0, 0.0);
  q = v.q0;
  q(2) = 1e-3;  // the held rotation is off
  CHECK_THROWS_WITH(analyseHold(v, q), Catch::Contains("not assembled"));

  RigidScenario d;
  const BodyIndex b = d.model.addBody("wheel", 1.0, 0.1);
  d.model.addRevolute(kGround, {0, 0}, b, {0, 0});
  d.model.addRheonomicDriver(
      kGround, b, [](double t) { return t; }, [](double) { return 1.0; }, [](double) { return 0.0; });
  d.q0 = d.v0 = Eigen::VectorXd::Zero(3);
  CHECK_THROWS_WITH(analyseHold(d, d.q0), Catch::Contains("driven"));
}
