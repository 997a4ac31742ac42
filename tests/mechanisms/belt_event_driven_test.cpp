// The belt with set-valued Coulomb friction, event-driven: the closed-form stick–slip
// instants of DESIGN.md §7 to 1e-6 s over 20 s.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "mechanisms/belt.hpp"

using namespace stickslip;

namespace {

dynamics::RunResult runBelt(const std::string& solver, double t_end = 20.0) {
  const mechanisms::Belt belt;
  const dynamics::RigidScenario s = mechanisms::beltRigid(belt);
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.solver = solver;
  return dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

}  // namespace

TEST_CASE("belt event-driven: stick and slip instants of the closed form to 1e-6 s", "[belt][event-driven]") {
  const mechanisms::Belt belt;
  const auto reference = mechanisms::beltClosedForm(belt).events(20.0);
  for (const std::string solver : {"lemke", "trial-and-error", "siconos-lemke"}) {
    const dynamics::RunResult run = runBelt(solver);
    INFO(solver << ": " << run.message);
    REQUIRE(run.ok());
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

TEST_CASE("event-driven: the progress callback sees the time advance to t_end", "[event-driven][progress]") {
  const dynamics::RigidScenario s = mechanisms::beltRigid(mechanisms::Belt{});
  dynamics::EventDrivenOptions o;
  o.t_end = 8.0;  // past the first break-away at 7.3575 s
  std::vector<double> seen;
  o.progress = [&seen](double t) { seen.push_back(t); };
  const dynamics::RunResult r = dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
  REQUIRE(r.ok());
  REQUIRE(seen.size() >= std::size_t(o.t_end / o.output_dt));  // every sample, and the events
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(seen.back() == Approx(o.t_end).epsilon(1e-12));
}
