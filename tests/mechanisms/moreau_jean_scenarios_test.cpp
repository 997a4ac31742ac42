// Moreau–Jean on the built-in rigid scenarios with known answers: the belt's closed-form
// stick–slip cycle (DESIGN.md §7), the bouncing ball's restitution and the spinning disk's
// rolling speed. Time-stepping resolves events to O(h).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/bouncing_ball.hpp"
#include "mechanisms/dupont.hpp"

using namespace stickslip;
using dynamics::EventKind;

namespace {

dynamics::RunResult runScenario(const dynamics::RigidScenario& s,
                                   const dynamics::MoreauJeanOptions& o) {
  return dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

std::string describe(const dynamics::RunResult& run) {
  std::string out;
  for (const auto& e : run.events)
    out += std::to_string(e.t) + " " + std::string(dynamics::toString(e.kind)) + "; ";
  return out;
}

/// (t, "slip" | "stick") mode changes of contact 0, as beltClosedForm lists them.
std::vector<std::pair<double, std::string>> stickSlipEvents(const dynamics::RunResult& run) {
  std::vector<std::pair<double, std::string>> out;
  for (const auto& e : run.events) {
    if (e.kind == EventKind::kStick) out.emplace_back(e.t, "stick");
    if (e.kind == EventKind::kSlipPositive || e.kind == EventKind::kSlipNegative)
      out.emplace_back(e.t, "slip");
  }
  return out;
}

dynamics::RunResult checkBeltEvents(const std::string& solver) {
  const mechanisms::Belt belt;
  const dynamics::RigidScenario s = mechanisms::beltRigid(belt);
  dynamics::MoreauJeanOptions o;
  o.t_end = 20.0;
  o.h = 1e-4;
  o.solver = solver;
  const dynamics::RunResult run = runScenario(s, o);
  INFO(run.message);
  INFO(describe(run));
  REQUIRE(run.ok());
  const auto expected = mechanisms::beltClosedForm(belt).events(o.t_end);
  const auto got = stickSlipEvents(run);
  // Nothing but stick/slip changes: the block never leaves the belt.
  CHECK(got.size() == run.events.size());
  REQUIRE(got.size() == expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    INFO("event " << k << " " << expected[k].second << " at " << expected[k].first);
    CHECK(got[k].second == expected[k].second);
    // O(h): within a step of the closed form (moreau_jean_accuracy_test.cpp); 2 steps here.
    CHECK(got[k].first == Approx(expected[k].first).margin(2e-4));
  }
  CHECK(run.steps == 200000);
  CHECK(run.t_end == Approx(20.0).epsilon(1e-15));
  return run;
}

}  // namespace

TEST_CASE("moreau-jean belt: stick and slip instants of the closed form within 2e-4 s (h = 1e-4)",
          "[moreau-jean][belt]") {
  checkBeltEvents("lemke");
}

TEST_CASE("moreau-jean belt: Siconos' fc2d solvers give the same events as our Lemke",
          "[moreau-jean][belt][siconos]") {
  const dynamics::RunResult ours = checkBeltEvents("lemke");
  for (const char* solver : {"siconos-lemke", "siconos-nsgs"}) {
    DYNAMIC_SECTION(solver) {
      const dynamics::RunResult theirs = checkBeltEvents(solver);
      // The same step decides each event: the problems differ only in round-off.
      REQUIRE(theirs.events.size() == ours.events.size());
      for (std::size_t k = 0; k < ours.events.size(); ++k) {
        CHECK(theirs.events[k].kind == ours.events[k].kind);
        CHECK(theirs.events[k].t == Approx(ours.events[k].t).margin(1e-9));
      }
    }
  }
}

TEST_CASE(
    "moreau-jean belt: the stuck block moves with the belt and the friction force "
    "balances the spring",
    "[moreau-jean][belt]") {
  const mechanisms::Belt belt;
  const dynamics::RigidScenario s = mechanisms::beltRigid(belt);
  dynamics::MoreauJeanOptions o;
  o.t_end = 5.0;  // stuck throughout (break-away at 7.36 s)
  o.h = 1e-3;
  const auto run = runScenario(s, o);
  REQUIRE(run.ok());
  CHECK(run.events.empty());
  // Columns t, x, y, θ, ẋ, ẏ, θ̇, N, F.
  const auto last = run.history.row(run.history.rows() - 1);
  CHECK(last(1) == Approx(belt.belt_speed * o.t_end).margin(1e-12));
  CHECK(last(4) == Approx(belt.belt_speed).margin(1e-12));
  CHECK(last(7) == Approx(belt.mass * belt.gravity).epsilon(1e-12));
  // F balances the spring at the mean position of the step's velocity update.
  CHECK(last(8) == Approx(belt.stiffness * last(1)).margin(belt.stiffness * belt.belt_speed * o.h));
  CHECK(std::abs(last(2)) < 1e-12);  // no penetration under a resting contact
}

TEST_CASE("moreau-jean ball: each impact scales the normal velocity by -e", "[moreau-jean][ball]") {
  mechanisms::BouncingBall ball;
  ball.restitution = 0.5;
  ball.height = 1.0;
  const dynamics::RigidScenario s = mechanisms::bouncingBall(ball);
  dynamics::MoreauJeanOptions o;
  o.t_end = 1.5;
  o.h = 1e-4;
  o.output_dt = 0.0;  // every step, to read the velocities on both sides of an impact
  const auto run = runScenario(s, o);
  REQUIRE(run.ok());
  std::vector<double> ratios;
  for (const auto& e : run.events) {
    if (e.kind != EventKind::kImpact) continue;
    // Timed at the middle of its step: the step ends at row k.
    const Eigen::Index k = static_cast<Eigen::Index>(std::llround(e.t / o.h + 0.5));
    REQUIRE(run.history(k, 0) == Approx(e.t + 0.5 * o.h));
    const double before = run.history(k - 1, 5), after = run.history(k, 5);  // ẏ
    ratios.push_back(-after / before);
  }
  // Drop from y0 − r = 0.9 m: impacts at 0.428 s, then flights of 2e·v/g = 0.428 s, 0.214 s...
  REQUIRE(ratios.size() >= 3);
  for (double r : ratios) {
    // Newton's law is imposed on ġ at the start of the step: −ġ⁺/ġ⁻ = e exactly; the history
    // samples ẏ one step earlier, a relative change g h / |ẏ| ≤ 1e-3 here.
    CHECK(r == Approx(ball.restitution).margin(2e-3));
  }
  // Penetration stays O(h |ẏ|).
  CHECK(run.history.col(2).minCoeff() > ball.radius - 1e-3);
}

TEST_CASE("moreau-jean ball: a spinning disk ends rolling at (2 v0 - r w0) / 3",
          "[moreau-jean][ball][friction]") {
  mechanisms::BouncingBall ball;
  ball.radius = 0.1;
  ball.height = ball.radius;  // on the floor
  ball.restitution = 0.0;
  ball.mu_static = ball.mu_kinetic = 0.3;
  ball.velocity_x = 2.0;
  ball.spin = 10.0;  // counter-clockwise: backspin for a disk moving to +x
  const dynamics::RigidScenario s = mechanisms::bouncingBall(ball);
  dynamics::MoreauJeanOptions o;
  o.t_end = 1.0;
  o.h = 1e-4;
  const auto run = runScenario(s, o);
  REQUIRE(run.ok());
  const double rolling = (2.0 * ball.velocity_x - ball.radius * ball.spin) / 3.0;
  // Angular momentum about the contact point is conserved by every step's impulses (gravity
  // and the normal impulse have no moment about it), so only round-off remains.
  CHECK(run.final_v(0) == Approx(rolling).margin(1e-10));
  CHECK(run.final_v(0) + ball.radius * run.final_v(2) == Approx(0.0).margin(1e-10));
  // Slip, then exactly one stick event: it stays rolling.
  INFO(describe(run));
  REQUIRE(run.events.size() == 1);
  CHECK(run.events[0].kind == EventKind::kStick);
  // Slip ends when μ g t = |Δẋ| = |2 − 1| → t = 1 / (0.3 · 9.81) = 0.340 s.
  CHECK(run.events[0].t == Approx(1.0 / (0.3 * 9.81)).margin(2e-4));
}

TEST_CASE(
    "moreau-jean dupont: a bilateral slot whose load changes wall, mode changes within "
    "1e-3 s of the closed form",
    "[moreau-jean][dupont]") {
  const mechanisms::Dupont d;
  const auto reference = mechanisms::dupontReference(d, 10.0);
  REQUIRE(reference.size() == 10);
  dynamics::MoreauJeanOptions o;
  o.t_end = 10.0;
  o.h = 1e-4;
  const dynamics::RunResult run = runScenario(mechanisms::dupontRigid(d), o);
  INFO(run.message);
  INFO(describe(run));
  REQUIRE(run.ok());
  // A velocity reversal inside a step shows as one step of stick (the impulse can stop m1,
  // the next step's μs N h cannot hold it): drop sticks of one step between slips.
  std::vector<dynamics::ContactEvent> events;
  for (std::size_t k = 0; k < run.events.size(); ++k) {
    const bool blip = run.events[k].kind == EventKind::kStick && k + 1 < run.events.size() &&
                      run.events[k + 1].t - run.events[k].t < 1.5 * o.h;
    if (blip) {
      events.push_back({run.events[k].t, run.events[k].contact, run.events[k + 1].kind});
      ++k;
    } else {
      events.push_back(run.events[k]);
    }
  }
  REQUIRE(events.size() == reference.size());
  for (std::size_t k = 0; k < reference.size(); ++k) {
    INFO("event " << k << " " << reference[k].second << " at " << reference[k].first);
    CHECK(std::string(dynamics::toString(events[k].kind)) == reference[k].second);
    // O(h): the friction bound μ |N| follows F2, and a reversal is seen in the step in which
    // the impulse can stop m1.
    CHECK(events[k].t == Approx(reference[k].first).margin(1e-3));
  }
  // The normal impulse changes sign with F2 = 50 cos 0.8 t (the loaded wall switches near
  // t = π / 1.6 = 1.96 s): N = m1 F2 / (m1 + m2) in the history.
  const Eigen::Index n_col = 1 + 6 + 6;  // t, q (2 bodies), v, then N, F of the slot
  bool positive = false, negative = false;
  for (Eigen::Index k = 1; k < run.history.rows(); ++k) {
    const double t = run.history(k, 0), expected = d.m1 * 50.0 * std::cos(0.8 * t) / (d.m1 + d.m2);
    positive |= run.history(k, n_col) > 1.0;
    negative |= run.history(k, n_col) < -1.0;
    CHECK(std::abs(run.history(k, n_col)) == Approx(std::abs(expected)).margin(0.05));
  }
  CHECK(positive);
  CHECK(negative);
}
