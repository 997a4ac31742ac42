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

dynamics::RunResult runBelt(const std::string& solver, double t_end = 20.0, const mechanisms::Belt& belt = {}) {
  const dynamics::RigidScenario s = mechanisms::beltRigid(belt);
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.solver = solver;
  return dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

/// The run's events are the closed form's changes, each within `tolerance` [s]: the block
/// falls behind the belt when it slips (v_t = ẋ − v_b < 0).
void checkEvents(const dynamics::RunResult& run, const std::vector<std::pair<double, std::string>>& reference,
                 double tolerance) {
  REQUIRE(run.events.size() == reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    INFO("event " << i << " at " << run.events[i].t << ": " << dynamics::toString(run.events[i].kind));
    CHECK(std::abs(run.events[i].t - reference[i].first) < tolerance);
    CHECK(run.events[i].kind == (reference[i].second == "stick" ? dynamics::EventKind::kStick
                                                                 : dynamics::EventKind::kSlipNegative));
  }
}

}  // namespace

TEST_CASE("belt event-driven: stick and slip instants of the closed form to 1e-6 s", "[belt][event-driven]") {
  const mechanisms::Belt belt;
  const auto reference = mechanisms::beltClosedForm(belt).events(20.0);
  for (const std::string solver : {"lemke", "trial-and-error", "siconos-lemke"}) {
    const dynamics::RunResult run = runBelt(solver);
    INFO(solver << ": " << run.message);
    REQUIRE(run.ok());
    checkEvents(run, reference, 1e-6);
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

TEST_CASE("belt event-driven: the same cycle at any mass (m and k scaled together), no lift-off",
          "[belt][event-driven]") {
  // ω = √(k/m) and the stick at k x = μs m g do not change: the instants are the 1 kg block's.
  // The thresholds under which a force counts as zero follow the contact's effective mass: at
  // 1e-10 kg an absolute 1e-9 N took the block's weight for none, and the block lifted off the
  // belt at every change (open, impact, and instants 2e-5 s late).
  const auto reference = mechanisms::beltClosedForm(mechanisms::Belt{}).events(20.0);
  for (const double mass : {1e-12, 1e-10, 1e-6, 1e6, 1e12}) {
    mechanisms::Belt belt;
    belt.mass = mass;
    belt.stiffness = 2.0 * mass;
    const dynamics::RunResult run = runBelt("lemke", 20.0, belt);
    INFO("m = " << mass << " kg: " << run.message);
    REQUIRE(run.ok());
    checkEvents(run, reference, 1e-8);
  }
}
