// The belt with set-valued Coulomb friction, event-driven: the closed-form stick–slip
// instants of DESIGN.md §7 to 1e-6 s over 20 s.
#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/nonsmooth/event_driven.hpp"
#include "mechanisms/belt.hpp"

using namespace stickslip;

namespace {

dynamics::NonsmoothRun runBelt(const std::string& solver, double t_end = 20.0) {
  const mechanisms::Belt belt;
  const dynamics::RigidScenario s = mechanisms::beltRigid(belt);
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.solver = solver;
  return dynamics::simulateEventDriven(s.model, s.contacts, s.q0, s.v0, o);
}

}  // namespace

TEST_CASE("belt event-driven: stick and slip instants of the closed form to 1e-6 s", "[belt][event-driven]") {
  const mechanisms::Belt belt;
  const auto reference = mechanisms::beltClosedForm(belt).events(20.0);
  for (const std::string solver : {"lemke", "trial-and-error", "siconos-lemke"}) {
    const dynamics::NonsmoothRun run = runBelt(solver);
    INFO(solver << ": " << run.message);
    REQUIRE(run.ok);
    REQUIRE(run.events.size() == reference.size());
    for (std::size_t i = 0; i < reference.size(); ++i) {
      INFO("event " << i << " at " << run.events[i].t << ": " << dynamics::toString(run.events[i].kind));
      CHECK(std::abs(run.events[i].t - reference[i].first) < 1e-6);
      // The block falls behind the belt when it slips: v_t = ẋ − v_b < 0.
      CHECK(run.events[i].kind == (reference[i].second == "stick" ? dynamics::EventKind::kStick
                                                                   : dynamics::EventKind::kSlipNegative));
    }
    CHECK(run.mode_mismatches == 0);
    // Every decision at zero sliding velocity (the initial one and each event) was cross-checked.
    if (solver == "lemke") CHECK(run.mode_checks == long(reference.size()) + 1);
  }
}
