// Numerical faults stop a run with the time and the cause, keeping what was computed.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "dynamics/nonsmooth/event_driven.hpp"
#include "dynamics/nonsmooth/moreau_jean.hpp"
#include "mechanisms/belt.hpp"

using namespace stickslip;

TEST_CASE("guards: a force turning NaN stops both nonsmooth formulations at that time",
          "[guards][event-driven][moreau-jean]") {
  dynamics::RigidScenario s = mechanisms::beltRigid({});
  // A user force that breaks at t = 0.5 s.
  s.model.addGeneralizedForce([](double t, const Eigen::Ref<const Eigen::VectorXd>&,
                                 const Eigen::Ref<const Eigen::VectorXd>&,
                                 Eigen::Ref<Eigen::VectorXd> forces) {
    if (t > 0.5) forces(0) += std::numeric_limits<double>::quiet_NaN();
  });
  dynamics::MoreauJeanOptions mj;
  mj.t_end = 1.0;
  const dynamics::NonsmoothRun a = dynamics::simulateMoreauJean(s.model, s.contacts, s.q0, s.v0, mj);
  CHECK_FALSE(a.ok);
  CHECK_THAT(a.message, Catch::Contains("NaN"));
  CHECK(a.t_end == Approx(0.5).margin(2e-4));
  CHECK(a.final_q.allFinite());  // the last good state, not the broken one
  REQUIRE(a.history.rows() > 100);
  CHECK(a.history.allFinite());

  dynamics::EventDrivenOptions ed;
  ed.t_end = 1.0;
  const dynamics::NonsmoothRun b = dynamics::simulateEventDriven(s.model, s.contacts, s.q0, s.v0, ed);
  CHECK_FALSE(b.ok);
  CHECK(b.t_end <= 0.5 + 1e-6);
  CHECK_THAT(b.message, Catch::Contains("non-finite") && Catch::Contains("t = 0.5"));
  CHECK(b.final_q.allFinite());
}
