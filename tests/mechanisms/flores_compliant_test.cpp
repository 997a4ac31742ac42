// flores-translational with compliant corners (penalty route) against the rigid model: the
// same motion until the first contact, then the same crank angle at 0.2 s within a fraction
// of a percent, small penetrations, energy only dissipated.
#include "mechanisms/flores_compliant.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/nonsmooth/event_driven.hpp"
#include "dynamics/nonsmooth/moreau_jean.hpp"

using namespace stickslip;

TEST_CASE("flores compliant: follows the rigid slider-crank", "[flores][penalty]") {
  mechanisms::FloresCompliant f;
  dynamics::FrictionParameters p;
  p.mu_s = p.mu_k = f.data.mu;
  const std::shared_ptr<const dynamics::FrictionLaw> law = dynamics::makeFrictionLaw("tanh", p);
  mechanisms::FloresPenaltySystem s = mechanisms::floresTranslationalPenalty(f, law);
  dynamics::PenaltyIntegrationOptions o;
  o.t_end = 0.2;
  const dynamics::PenaltyRun compliant = dynamics::simulatePenalty(*s.system, s.y0, o);
  INFO(compliant.message);
  REQUIRE(compliant.status == dynamics::PenaltyStatus::kSuccess);

  const dynamics::RigidScenario rigid = mechanisms::floresTranslational(f.data);
  dynamics::EventDrivenOptions ed;
  ed.t_end = 0.004;  // past the first impact
  const dynamics::NonsmoothRun first =
      dynamics::simulateEventDriven(rigid.model, rigid.contacts, rigid.q0, rigid.v0, ed);
  REQUIRE(first.ok);
  double rigid_impact = -1.0;
  for (const auto& e : first.events)
    if (e.kind == dynamics::EventKind::kImpact && rigid_impact < 0.0) rigid_impact = e.t;
  REQUIRE(rigid_impact > 0.0);
  REQUIRE(!compliant.events.empty());
  CHECK(compliant.events.front().closing);
  CHECK(compliant.events.front().t == Approx(rigid_impact).margin(1e-6));  // same smooth motion

  dynamics::MoreauJeanOptions mj;
  mj.t_end = 0.2;
  mj.h = 1e-5;
  const dynamics::NonsmoothRun moreau =
      dynamics::simulateMoreauJean(rigid.model, rigid.contacts, rigid.q0, rigid.v0, mj);
  REQUIRE(moreau.ok);
  CHECK(compliant.final_state(2) == Approx(moreau.final_q(2)).epsilon(5e-3));

  const Eigen::Index ny = s.system->stateSize();
  double deepest = 0.0;
  for (Eigen::Index i = 0; i < compliant.history.rows(); ++i)
    for (int k = 0; k < 4; ++k) deepest = std::max(deepest, compliant.history(i, 1 + ny + 4 * k));
  CHECK(deepest > 0.0);
  CHECK(deepest < 0.1 * f.data.c);
  const auto energy = compliant.history.col(compliant.history.cols() - 1);
  CHECK(energy.maxCoeff() <= energy(0) * (1.0 + 1e-6));
  CHECK(energy(energy.size() - 1) < energy(0));
}

TEST_CASE("flores compliant: bad stiffness is refused", "[flores][penalty]") {
  mechanisms::FloresCompliant f;
  f.stiffness = -1.0;
  CHECK_THROWS_AS(mechanisms::floresTranslationalPenalty(f, nullptr), std::invalid_argument);
}
