// The hanging clearance chain of the scaling benchmark (mechanisms/clearance_chain.hpp): it
// starts closed at every joint, Moreau–Jean by NSGS and by Newton on its block-tridiagonal W
// repeats Lemke's run, "auto" leaves a short chain to Lemke and a long one to Newton, and
// event-driven's sparse path (Newton) gives the dense path's events. With ideal pins in most
// joints, both routes handle the joints sparse (constrained_response.hpp) and repeat the dense
// path's run.
#include <catch2/catch.hpp>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "mechanisms/clearance_chain.hpp"
#include "same_run.hpp"

using namespace stickslip;

namespace {

dynamics::RunResult runChain(int links, const std::string& solver, double t_end) {
  mechanisms::ClearanceChain chain;
  chain.links = links;
  dynamics::MoreauJeanOptions o;
  o.t_end = t_end;
  o.h = 1e-4;
  o.solver = solver;
  return dynamics::simulateMoreauJean(mechanisms::clearanceChainRigid(chain), o);
}

}  // namespace

TEST_CASE("clearance chain: every journal starts on its bearing, pulled down, moving sideways", "[clearance-chain]") {
  mechanisms::ClearanceChain chain;
  chain.links = 6;
  const dynamics::RigidScenario s = mechanisms::clearanceChainRigid(chain);
  const dynamics::PlanarMechanism m(s.model, s.contacts);
  dynamics::ContactKinematics kin;
  m.evaluateContacts(0.0, s.q0, s.v0, kin);
  for (Eigen::Index k = 0; k < 6; ++k) {
    CHECK(std::abs(kin.gap(k)) <= 1e-15);
    CHECK(std::abs(kin.normal_velocity(k)) <= 1e-15);  // a rigid translation keeps the gaps
    CHECK(kin.normal[std::size_t(k)].y() == Approx(1.0));  // the bearing pushes the journal up
  }
  // Contacts k and k + 1 share link k: W's pattern is block-tridiagonal.
  CHECK(kin.jacobian.nonZeros() == 2 * 3 + 5 * 2 * 6);
  CHECK_THROWS_WITH(mechanisms::clearanceChainRigid({.links = 0}), Catch::Contains("links >= 1"));
}

TEST_CASE("clearance chain: Moreau–Jean by NSGS repeats Lemke's run", "[clearance-chain][moreau-jean][nsgs]") {
  const dynamics::RunResult by_lemke = runChain(6, "lemke", 0.5);
  const dynamics::RunResult by_nsgs = runChain(6, "nsgs", 0.5);
  REQUIRE(by_lemke.ok());
  REQUIRE(by_nsgs.ok());
  REQUIRE(by_lemke.events.size() >= 4);
  test::checkSameRun(by_lemke, by_nsgs, 1e-9, 1e-8, 1e-6);
}

TEST_CASE("clearance chain: Moreau–Jean by Newton on the sparse W repeats Lemke's run, short and long",
          "[clearance-chain][moreau-jean][newton]") {
  for (const auto& [links, t_end] : {std::pair{6, 0.5}, std::pair{24, 0.1}}) {
    CAPTURE(links);
    const dynamics::RunResult lemke = runChain(links, "lemke", t_end);
    const dynamics::RunResult newton = runChain(links, "newton", t_end);
    REQUIRE(lemke.ok());
    REQUIRE(newton.ok());
    CHECK(newton.contact_solver == "newton");
    REQUIRE(lemke.events.size() >= 4);
    test::checkSameRun(lemke, newton, 1e-9, 1e-8, 1e-6);
    CHECK(newton.friction_work == Approx(lemke.friction_work).epsilon(1e-6));
  }
  CHECK(runChain(24, "auto", 1e-3).contact_solver == "newton");  // 24 contacts coupled in a row
  CHECK(runChain(5, "auto", 1e-3).contact_solver == "lemke");
  CHECK(runChain(6, "auto", 1e-3).contact_solver == "newton");
}

TEST_CASE("clearance chain: event-driven's sparse path by Newton gives the dense path's events to 1e-9 s",
          "[clearance-chain][event-driven][newton]") {
  mechanisms::ClearanceChain chain;
  chain.links = 16;
  const dynamics::RigidScenario s = mechanisms::clearanceChainRigid(chain);
  dynamics::EventDrivenOptions o;
  o.t_end = 0.05;
  o.output_dt = 0.01;
  o.cross_check = false;
  o.solver = "auto";
  const dynamics::RunResult sparse = dynamics::simulateEventDriven(s, o);
  o.solver = "lemke";
  o.sparse_path = false;
  const dynamics::RunResult dense = dynamics::simulateEventDriven(s, o);
  REQUIRE(sparse.ok());
  REQUIRE(dense.ok());
  CHECK(sparse.contact_solver == "newton");  // 16 contacts coupled in a row
  CHECK(dense.contact_solver == "lemke");
  REQUIRE(dense.events.size() >= 50);
  test::checkSameRun(dense, sparse, 1e-9, 1e-8, 1e-6);
}

namespace {

// The chain of 32 links with clearance in every eighth joint and ideal pins in the others
// (56 joint rows): its joints handled sparse, or dense.
dynamics::RigidScenario pinnedChain(bool sparse) {
  mechanisms::ClearanceChain chain;
  chain.links = 32;
  chain.clearance_every = 8;
  dynamics::RigidScenario s = mechanisms::clearanceChainRigid(chain);
  s.model.setSparseJoints(sparse);
  return s;
}

/// The largest |Φ| of s's joints at (t, q).
double jointDrift(const dynamics::RigidScenario& s, double t, const Eigen::VectorXd& q) {
  Eigen::VectorXd phi(s.model.constraintCount());
  s.model.constraints(t, q, phi);
  return phi.lpNorm<Eigen::Infinity>();
}

}  // namespace

TEST_CASE("pinned chain: event-driven with the joints handled sparse gives the dense path's events",
          "[clearance-chain][event-driven][sparse-joints]") {
  dynamics::EventDrivenOptions o;
  o.t_end = 0.01;
  o.output_dt = 0.01;
  const dynamics::RunResult sparse = dynamics::simulateEventDriven(pinnedChain(true), o);
  const dynamics::RunResult dense = dynamics::simulateEventDriven(pinnedChain(false), o);
  REQUIRE(sparse.ok());
  REQUIRE(dense.ok());
  REQUIRE(dense.events.size() >= 4);
  test::checkSameRun(dense, sparse, 1e-9, 1e-8, 1e-6);
}

TEST_CASE("pinned chain: Moreau–Jean with the joints handled sparse repeats the dense run",
          "[clearance-chain][moreau-jean][sparse-joints]") {
  dynamics::MoreauJeanOptions o;
  o.t_end = 0.05;
  o.h = 1e-4;
  // Without the contacts' position projection the two paths do the same arithmetic in another
  // order: the same events at the same steps.
  o.project_contacts = false;
  const dynamics::RunResult sparse = dynamics::simulateMoreauJean(pinnedChain(true), o);
  const dynamics::RunResult dense = dynamics::simulateMoreauJean(pinnedChain(false), o);
  REQUIRE(sparse.ok());
  REQUIRE(dense.ok());
  REQUIRE(dense.events.size() >= 4);
  test::checkSameRun(dense, sparse, 1e-12, 1e-9, 1e-7);
  // The sparse projection eliminates through the step's joint factorization at q_θ, the dense
  // one factors [D; J_c] at q: both end on the constraints, by different corrections.
  o.project_contacts = true;
  const dynamics::RunResult sparse_projected = dynamics::simulateMoreauJean(pinnedChain(true), o);
  const dynamics::RunResult dense_projected = dynamics::simulateMoreauJean(pinnedChain(false), o);
  REQUIRE(sparse_projected.ok());
  REQUIRE(dense_projected.ok());
  test::checkSameRun(dense_projected, sparse_projected, 1.5 * o.h, 1e-4, 1e-2);
  CHECK(jointDrift(pinnedChain(true), o.t_end, sparse_projected.final_q) <= 1e-6);
}

namespace {

/// The chain of `links` links with clearance in every other joint; with `odd`, an angle held
/// between links 3 and 4 adds one joint row, so that the last block of joint rows is padded.
dynamics::RigidScenario halfPinnedChain(int links, bool odd) {
  mechanisms::ClearanceChain chain;
  chain.links = links;
  chain.clearance_every = 2;
  dynamics::RigidScenario s = mechanisms::clearanceChainRigid(chain);
  if (odd) s.model.addAngle(3, 4, 0.0, "stiff");
  return s;
}

}  // namespace

TEST_CASE("half-pinned chain: Moreau–Jean with the joints in Newton's problem repeats Lemke's run",
          "[clearance-chain][moreau-jean][sparse-joints][newton]") {
  // Clearance in every other joint: 12 contacts coupled through 12 ideal pins, whose 24 rows
  // join Newton's problem as bilateral blocks; an angle between links 3 and 4 makes 25 rows, the
  // last block padded.
  for (const bool odd : {false, true}) {
    for (const bool projected : {false, true}) {
      CAPTURE(odd, projected);
      const dynamics::RigidScenario s = halfPinnedChain(24, odd);
      REQUIRE(s.model.constraintCount() == (odd ? 25 : 24));
      dynamics::MoreauJeanOptions o;
      o.t_end = 0.05;
      o.h = 1e-4;
      o.project_contacts = projected;
      const dynamics::RunResult newton = dynamics::simulateMoreauJean(s, o);
      o.solver = "lemke";
      const dynamics::RunResult lemke = dynamics::simulateMoreauJean(s, o);
      REQUIRE(newton.ok());
      REQUIRE(lemke.ok());
      CHECK(newton.contact_solver == "newton");
      REQUIRE(lemke.events.size() >= 20);
      test::checkSameRun(lemke, newton, 1e-12, 1e-9, 1e-7);
      CHECK(newton.friction_work == Approx(lemke.friction_work).epsilon(1e-9));
      CHECK(jointDrift(s, o.t_end, newton.final_q) <= 1e-6);
    }
  }
}

TEST_CASE("half-pinned chain: event-driven's sparse path with the joints' rows gives the dense path's events",
          "[clearance-chain][event-driven][sparse-joints][newton]") {
  // 32 links, clearance in every other joint: 16 contacts (the sparse path) coupled through 16
  // pins, whose 32 rows join the mode system, the projections and Newton's problems; an angle
  // between links 3 and 4 makes 33 rows, the last block padded.
  for (const bool odd : {false, true}) {
    CAPTURE(odd);
    const dynamics::RigidScenario s = halfPinnedChain(32, odd);
    dynamics::EventDrivenOptions o;
    o.t_end = 0.02;
    o.output_dt = 0.01;
    o.cross_check = false;
    o.solver = "auto";
    const dynamics::RunResult sparse = dynamics::simulateEventDriven(s, o);
    o.solver = "lemke";
    o.sparse_path = false;  // the contacts' W = J G Jᵀ dense, G through the sparse joints
    const dynamics::RunResult dense = dynamics::simulateEventDriven(s, o);
    REQUIRE(sparse.ok());
    REQUIRE(dense.ok());
    CHECK(sparse.contact_solver == "newton");
    REQUIRE(dense.events.size() >= 20);
    test::checkSameRun(dense, sparse, 1e-9, 1e-8, 1e-6);
    CHECK(jointDrift(s, o.t_end, sparse.final_q) <= 1e-8);
  }
}
