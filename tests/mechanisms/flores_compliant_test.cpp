// flores-translational with compliant corners (penalty route) against the rigid model: the
// same motion until the first contact, then the same crank angle at 0.2 s within a fraction
// of a percent, small penetrations, energy only dissipated.
#include "mechanisms/flores_compliant.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/routes/penalty/penalty_route.hpp"

using namespace stickslip;

TEST_CASE("flores compliant: follows the rigid slider-crank", "[flores][penalty]") {
  mechanisms::FloresCompliant f;
  const dynamics::RigidScenario s = mechanisms::floresTranslationalCompliant(f);
  REQUIRE(s.contacts.size() == 4);
  dynamics::PenaltyRouteOptions o;  // as `stickslip run flores-translational`: tanh, BDF
  o.friction_law = "tanh";
  o.integration.t_end = 0.2;
  o.integration.output_dt = 1e-5;
  const dynamics::RunResult compliant = dynamics::simulatePenaltyRoute(s, o);
  INFO(compliant.message);
  REQUIRE(compliant.ok());

  const dynamics::RigidScenario rigid = mechanisms::floresTranslational(f.data);
  dynamics::EventDrivenOptions ed;
  ed.t_end = 0.004;  // past the first impact
  const dynamics::RunResult first =
      dynamics::simulateEventDriven(dynamics::PlanarMechanism(rigid.model, rigid.contacts), rigid.q0, rigid.v0, ed);
  REQUIRE(first.ok());
  double rigid_impact = -1.0;
  for (const auto& e : first.events)
    if (e.kind == dynamics::EventKind::kImpact && rigid_impact < 0.0) rigid_impact = e.t;
  REQUIRE(rigid_impact > 0.0);
  REQUIRE(!compliant.events.empty());
  CHECK(compliant.events.front().kind == dynamics::EventKind::kClose);
  CHECK(compliant.events.front().t == Approx(rigid_impact).margin(1e-6));  // same smooth motion

  dynamics::MoreauJeanOptions mj;
  mj.t_end = 0.2;
  mj.h = 1e-5;
  const dynamics::RunResult moreau =
      dynamics::simulateMoreauJean(dynamics::PlanarMechanism(rigid.model, rigid.contacts), rigid.q0, rigid.v0, mj);
  REQUIRE(moreau.ok());
  CHECK(compliant.final_q(2) == Approx(moreau.final_q(2)).epsilon(5e-3));

  // Penetrations from the recorded states; the energy T + V + Σ K δⁿ⁺¹/(n + 1) only falls.
  const Eigen::Index n = s.model.positionSize();
  dynamics::ContactKinematics k;
  double deepest = 0.0, first_energy = 0.0, last_energy = 0.0, highest = 0.0;
  for (Eigen::Index i = 0; i < compliant.history.rows(); ++i) {
    const Eigen::VectorXd q = compliant.history.row(i).segment(1, n).transpose();
    const Eigen::VectorXd v = compliant.history.row(i).segment(1 + n, n).transpose();
    dynamics::evaluateContacts(s.model, s.contacts, compliant.history(i, 0), q, v, k, false);
    double energy = s.model.kineticEnergy(v) + s.model.potentialEnergy(q);
    for (Eigen::Index c = 0; c < 4; ++c) {
      const double delta = std::max(-k.gap(c), 0.0);
      deepest = std::max(deepest, delta);
      energy += f.stiffness * std::pow(delta, f.exponent + 1.0) / (f.exponent + 1.0);
    }
    if (i == 0) first_energy = energy;
    highest = std::max(highest, energy);
    last_energy = energy;
  }
  CHECK(deepest > 0.0);
  CHECK(deepest < 0.1 * f.data.c);
  CHECK(highest <= first_energy * (1.0 + 1e-6));
  CHECK(last_energy < first_energy);
}

TEST_CASE("flores compliant: bad stiffness is refused", "[flores][penalty]") {
  mechanisms::FloresCompliant f;
  f.stiffness = -1.0;
  CHECK_THROWS_AS(mechanisms::floresTranslationalCompliant(f), std::invalid_argument);
}
