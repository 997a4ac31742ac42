// The hanging clearance chain of the scaling benchmark (mechanisms/clearance_chain.hpp): it
// starts closed at every joint, Moreau–Jean by NSGS on its block-tridiagonal W repeats Lemke's
// run, and "auto" leaves such a coupled chain to Lemke.
#include <catch2/catch.hpp>

#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "mechanisms/clearance_chain.hpp"
#include "same_run.hpp"

using namespace stickslip;

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

TEST_CASE("clearance chain: Moreau–Jean by NSGS repeats Lemke's run, and auto chooses Lemke for it",
          "[clearance-chain][moreau-jean][nsgs]") {
  mechanisms::ClearanceChain chain;
  chain.links = 6;
  const dynamics::RigidScenario s = mechanisms::clearanceChainRigid(chain);
  dynamics::MoreauJeanOptions o;
  o.t_end = 0.5;
  o.h = 1e-4;
  const dynamics::RunResult by_auto = dynamics::simulateMoreauJean(s, o);
  o.solver = "nsgs";
  const dynamics::RunResult by_nsgs = dynamics::simulateMoreauJean(s, o);
  REQUIRE(by_auto.ok());
  REQUIRE(by_nsgs.ok());
  CHECK(by_auto.contact_solver == "lemke");  // six contacts coupled in a row
  REQUIRE(by_auto.events.size() >= 4);
  test::checkSameRun(by_auto, by_nsgs, 1e-9, 1e-8, 1e-6);
}
