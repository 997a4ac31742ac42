// The review's journal in a bearing as a rigid revolute clearance joint (unilateral
// journal-bearing contact, Newton impacts, Coulomb friction), by both nonsmooth formulations.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/journal_bearing.hpp"

using namespace stickslip;

namespace {

std::vector<double> impactTimes(const dynamics::RunResult& r) {
  std::vector<double> t;
  for (const auto& e : r.events)
    if (e.kind == dynamics::EventKind::kImpact) t.push_back(e.t);
  return t;
}

dynamics::RunResult eventDrivenRun(const dynamics::RigidScenario& s, double t_end) {
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  return dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

dynamics::RunResult moreauJean(const dynamics::RigidScenario& s, double t_end) {
  dynamics::MoreauJeanOptions o;
  o.t_end = t_end;
  o.h = 1e-5;
  return dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

/// Kinetic plus potential energy of the journal (y up, gravity −y).
double energy(const mechanisms::JournalBearing& jb, const Eigen::VectorXd& q,
              const Eigen::VectorXd& v) {
  return 0.5 * jb.mass * v.head<2>().squaredNorm() + 0.5 * jb.inertia * v(2) * v(2) +
         jb.mass * jb.gravity * q(1);
}

}  // namespace

TEST_CASE("journal-bearing rigid, frictionless: straight bounces at the closed-form instants",
          "[journal-bearing][event-driven][moreau-jean]") {
  // Dropped from the centre it falls c, hits the bottom at t1 = √(2c/g) with v1 = g t1 and
  // rebounds straight up with e v1: the k-th flight lasts 2 e^k v1 / g.
  const mechanisms::JournalBearing jb;  // Table 5: no friction
  const dynamics::RigidScenario s = mechanisms::journalBearingRigid(jb);
  const double g = jb.gravity, t1 = std::sqrt(2.0 * jb.clearance() / g), v1 = g * t1;
  std::vector<double> expected{t1};
  for (int k = 1; k < 6; ++k)
    expected.push_back(expected.back() + 2.0 * std::pow(jb.restitution, k) * v1 / g);

  const dynamics::RunResult ed = eventDrivenRun(s, 0.06);
  INFO(ed.message);
  REQUIRE(ed.ok());
  const std::vector<double> ed_impacts = impactTimes(ed);
  REQUIRE(ed_impacts.size() >= expected.size());
  for (std::size_t k = 0; k < expected.size(); ++k)
    CHECK(ed_impacts[k] == Approx(expected[k]).margin(1e-9));

  const dynamics::RunResult mj = moreauJean(s, 0.06);
  REQUIRE(mj.ok());
  const std::vector<double> mj_impacts = impactTimes(mj);
  REQUIRE(mj_impacts.size() >= expected.size());
  // Impacts land on step ends: each bounce may start up to about two steps (h = 1e-5 s) late,
  // and the delays add up over the bounces.
  for (std::size_t k = 0; k < expected.size(); ++k)
    CHECK(mj_impacts[k] == Approx(expected[k]).margin(2e-5 * double(k + 1)));
  CHECK(std::abs(mj.final_q(0)) < 1e-12);  // no friction, no spin coupling: x stays 0
}

TEST_CASE(
    "journal-bearing rigid, mu = 0.1: both formulations agree, the spin couples in, energy "
    "only decreases",
    "[journal-bearing][event-driven][moreau-jean]") {
  mechanisms::JournalBearing jb;
  jb.mu_static = jb.mu_kinetic = 0.1;
  const dynamics::RigidScenario s = mechanisms::journalBearingRigid(jb);
  const dynamics::RunResult ed = eventDrivenRun(s, 0.25), mj = moreauJean(s, 0.25);
  INFO(ed.message << mj.message);
  REQUIRE(ed.ok());
  REQUIRE(mj.ok());
  const std::vector<double> a = impactTimes(ed), b = impactTimes(mj);
  REQUIRE(a.size() >= 4);
  REQUIRE(b.size() >= 4);
  for (std::size_t k = 0; k < 4; ++k) CHECK(b[k] == Approx(a[k]).margin(5e-5));
  // Friction at the impacts turns the clockwise spin into sideways motion.
  CHECK(std::abs(ed.final_q(0)) > 1e-6);
  const double e0 = energy(jb, s.q0, s.v0);
  for (const auto* r : {&ed, &mj}) {
    CHECK(energy(jb, r->final_q, r->final_v) < e0);
    for (Eigen::Index i = 0; i < r->history.rows(); ++i) {
      const Eigen::VectorXd q = r->history.row(i).segment(1, 3).transpose();
      const Eigen::VectorXd v = r->history.row(i).segment(4, 3).transpose();
      CHECK(energy(jb, q, v) <= e0 * (1.0 + 1e-9));
      CHECK(q.head<2>().norm() <= jb.clearance() * (1.0 + 1e-3));  // inside the bearing
    }
  }
}

TEST_CASE("journal-bearing rigid: bad friction is refused", "[journal-bearing]") {
  mechanisms::JournalBearing jb;
  jb.mu_kinetic = -0.1;
  CHECK_THROWS_WITH(mechanisms::journalBearingRigid(jb), Catch::Contains("mu_kinetic >= 0"));
  jb.mu_kinetic = 0.2;
  jb.mu_static = 0.1;
  CHECK_THROWS_WITH(mechanisms::journalBearingRigid(jb), Catch::Contains("mu_static >= mu_kinetic"));
}
