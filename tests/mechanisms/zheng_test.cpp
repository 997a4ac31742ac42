// Zheng, Zhang & Wang's slider-crank with a revolute clearance joint in permanent contact
// (compliant normal force, set-valued Coulomb friction), Example I, event-driven.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "mechanisms/zheng.hpp"

using namespace stickslip;

namespace {

dynamics::RunResult run(const mechanisms::ZhengSliderCrank& z, double t_end, std::string solver = "lemke") {
  const dynamics::RigidScenario s = mechanisms::zhengRigid(z);
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.integrator = dynamics::OdeMethod::kBdf;  // the compliant contact is stiff
  o.relative_tolerance = 1e-8;
  o.absolute_tolerance = 1e-12;
  o.velocity_tolerance = 1e-5;  // Zheng et al.'s zero tangential velocity
  o.output_dt = 1e-2;
  o.solver = std::move(solver);
  return dynamics::simulateEventDriven(s, o);
}

}  // namespace

TEST_CASE("zheng I: the initial state is consistent and the journal is pressed into the bearing",
          "[zheng]") {
  const dynamics::RigidScenario s = mechanisms::zhengRigid(mechanisms::zhengExample("torque"));
  Eigen::VectorXd phi(s.model.constraintCount());
  s.model.constraints(0.0, s.q0, phi);
  CHECK(phi.lpNorm<Eigen::Infinity>() < 1e-12);
  dynamics::ContactKinematics k;
  dynamics::evaluateContacts(s.model, s.contacts, 0.0, s.q0, s.v0, k);
  // Penetration of a few tenths of a micrometre carries the weight (about 10 N).
  CHECK(k.gap(0) < 0.0);
  CHECK(k.gap(0) > -1e-6);
}

TEST_CASE("zheng I: dry Coulomb sticks at the reversals — LCP and trial-and-error runs are identical",
          "[zheng][event-driven]") {
  mechanisms::ZhengSliderCrank z = mechanisms::zhengExample("torque");
  z.mu_kinetic = 0.10;
  z.mu_static = 0.11;
  const dynamics::RunResult by_lcp = run(z, 2.0, "lemke");
  const dynamics::RunResult by_trial = run(z, 2.0, "trial-and-error");
  INFO(by_lcp.message << by_trial.message);
  REQUIRE(by_lcp.ok());
  REQUIRE(by_trial.ok());
  int sticks = 0;
  for (const auto& e : by_lcp.events) sticks += e.kind == dynamics::EventKind::kStick;
  CHECK(sticks >= 3);
  CHECK(by_lcp.mode_mismatches == 0);
  CHECK(by_lcp.mode_checks > 2 * sticks);
  REQUIRE(by_lcp.history.rows() == by_trial.history.rows());
  CHECK((by_lcp.history.col(3) - by_trial.history.col(3)).lpNorm<Eigen::Infinity>() <= 1e-10);
}

TEST_CASE("zheng I: without friction the clearance joint follows the ideal mechanism within 1e-3 rad",
          "[zheng][event-driven]") {
  mechanisms::ZhengSliderCrank z = mechanisms::zhengExample("torque");
  const dynamics::RunResult clearance = run(z, 1.0);
  z.ideal = true;
  const dynamics::RunResult ideal = run(z, 1.0);
  REQUIRE(clearance.ok());
  REQUIRE(ideal.ok());
  REQUIRE(clearance.events.empty());
  REQUIRE(clearance.history.rows() == ideal.history.rows());  // no events: the same samples
  const double worst = (clearance.history.col(3) - ideal.history.col(3)).lpNorm<Eigen::Infinity>();
  INFO("max |theta1 - theta1_ideal| = " << worst);
  CHECK(worst < 1e-3);
  CHECK(ideal.history.col(3).cwiseAbs().maxCoeff() > 0.1);  // it does move
}

TEST_CASE("zheng III: dry Coulomb holds the crank at pi - 0.01, without friction it falls",
          "[zheng][event-driven]") {
  // Started at rest in the sticking equilibrium (the contact carries the locked joint's force
  // and torque), static friction holds the mechanism; without friction nothing can.
  mechanisms::ZhengSliderCrank z = mechanisms::zhengExample("equilibrium");
  z.mu_kinetic = 0.15;
  z.mu_static = 0.20;
  const dynamics::RunResult dry = run(z, 5.0);
  INFO(dry.message);
  REQUIRE(dry.ok());
  const double start = std::numbers::pi - 0.01;
  const Eigen::Index cols = dry.history.cols();
  CHECK((dry.history.col(3).array() - start).abs().maxCoeff() < 1e-9);
  const auto normal = dry.history.col(cols - 2).array(), friction = dry.history.col(cols - 1).array();
  CHECK(friction.abs().minCoeff() > 0.05 * normal.maxCoeff());              // static friction works
  CHECK((friction.abs() <= z.mu_static * normal + 1e-9).all());             // inside the cone
  for (const auto& e : dry.events) CHECK(e.kind == dynamics::EventKind::kStick);

  // Modified Coulomb has no force below v0 = 1e-4 m/s: at rest it cannot hold.
  z.modified_coulomb = true;
  const dynamics::RunResult modified = run(z, 1.5);
  REQUIRE(modified.ok());
  CHECK(modified.history.col(3).minCoeff() < 0.5);
  CHECK(modified.events.empty());  // regularized: no stick or slip modes

  z.modified_coulomb = false;
  z.mu_kinetic = z.mu_static = 0.0;
  const dynamics::RunResult frictionless = run(z, 5.0);
  REQUIRE(frictionless.ok());
  CHECK(frictionless.history.col(3).minCoeff() < 0.5);  // swings down through θ1 ≈ 0
}

TEST_CASE("zheng: modified Coulomb is Ambrosio's law on the sliding velocity, not set-valued",
          "[zheng][event-driven]") {
  mechanisms::ZhengSliderCrank z = mechanisms::zhengExample("torque");
  z.mu_kinetic = 0.10;
  z.mu_static = 0.11;
  z.modified_coulomb = true;
  const dynamics::RigidScenario s = mechanisms::zhengRigid(z);
  REQUIRE(s.contacts.size() == 1);
  const dynamics::RigidContact& c = s.contacts[0];
  REQUIRE(c.smooth_friction);
  CHECK(c.smooth_friction->name() == "ambrosio");
  CHECK_FALSE(c.frictional());
  // Full μk N from v1 on, nothing below v0, half way on the ramp.
  CHECK(c.smooth_friction->force({2e-3, 10.0, 0.0}, {}) == Approx(-1.0));
  CHECK(c.smooth_friction->force({-5e-5, 10.0, 0.0}, {}) == 0.0);
  CHECK(c.smooth_friction->force({5.5e-4, 10.0, 0.0}, {}) == Approx(-0.5));
  // Set-valued friction and a regularized law together are refused.
  dynamics::RigidContact both = c;
  both.mu_kinetic = both.mu_static = 0.1;
  CHECK_THROWS_WITH(both.validate(s.model), Catch::Contains("mu_static = mu_kinetic = 0"));
  dynamics::RigidContact rigid = c;
  rigid.normal = dynamics::RigidContact::Normal::kUnilateral;
  CHECK_THROWS_WITH(rigid.validate(s.model), Catch::Contains("compliant contact only"));
}
