// Moreau–Jean on a rigid spatial revolute clearance joint (moreau_jean.hpp, Spatial contacts):
// Newton's impact law and the energy, the faceted cone against Siconos' exact one on every
// step's problem, the allocation-free step, and the refusals.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "allocation_counter.hpp"
#include "dynamics/free_journal.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "lcp/facet_violation.hpp"
#include "lcp/friction_facets.hpp"
#include "lcp/siconos_backend.hpp"

using namespace stickslip::dynamics;
using namespace stickslip::dynamics::test;
using Eigen::Vector3d;
using Eigen::VectorXd;

TEST_CASE("moreau-jean, spatial clearance: a radial impact rebounds with Newton's e, losing 1 - e^2 of T",
          "[moreau-jean][spatial]") {
  const double e = 0.9, speed = 0.1;
  FreeJournal f = freeJournal(e, 0.0, false);
  f.v0(0) = speed;  // towards the wall, 0.5 mm away: both rim ends (radial-A, -B) strike at once
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  MoreauJeanOptions o;
  o.h = 1e-6;
  o.t_end = 0.008;  // the impact at 5 ms; back past the centre by 8 ms
  o.output_dt = 0.0;
  const RunResult r = simulateMoreauJean(mechanism, f.q0, f.v0, o);
  REQUIRE(r.ok());
  CHECK(r.final_v(0) == Approx(-e * speed).epsilon(1e-12));
  CHECK(r.final_v.tail(5).norm() < 1e-12);
  CHECK(kineticEnergy(f.model, r.final_v) == Approx(e * e * kineticEnergy(f.model, f.v0)).epsilon(1e-12));
  int impacts = 0;
  for (const ContactEvent& ev : r.events) impacts += ev.kind == EventKind::kImpact;
  CHECK(impacts == 2);
}

TEST_CASE("moreau-jean, spatial clearance: frictionless impacts of a spinning, tilting journal never add energy",
          "[moreau-jean][spatial]") {
  // A journal in a free housing, both spinning: impacts on the rims and the end walls, often
  // two or three contacts at once with coupled impulses. Newton's law on every active contact
  // (also one that separates) makes each step dissipate ½ (1 − e)/(1 + e) Pᵀ W P.
  const FreeJournal f = spinningJournal();
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  MoreauJeanOptions o;
  o.h = 1e-5;
  MoreauJeanStepper stepper(mechanism, o);
  VectorXd q = f.q0, v = f.v0;
  double energy = kineticEnergy(f.model, v), largest_rise = 0.0;
  int solved = 0, multiple = 0;
  for (int k = 0; k < 30000; ++k) {
    REQUIRE(stepper.step(k * o.h, o.h, q, v));
    const double now = kineticEnergy(f.model, v);
    largest_rise = std::max(largest_rise, now - energy);
    energy = now;
    if (const auto* p = stepper.spatialProblem()) {
      ++solved;
      multiple += p->contacts() > 1;
    }
  }
  CAPTURE(largest_rise);
  CHECK(largest_rise <= 1e-13 * kineticEnergy(f.model, f.v0));  // round-off
  CHECK(energy < 0.9 * kineticEnergy(f.model, f.v0));
  CAPTURE(solved, multiple);
  CHECK(solved > 10);
  CHECK(multiple > 0);
}

TEST_CASE("moreau-jean, spatial clearance: each step's faceted answer lies within its bound of Siconos' exact cone",
          "[moreau-jean][spatial][facets]") {
  // Siconos' NSGS drives a frictional run (μ = 0.3); the contact problems it solved are solved
  // again on the faceted cone. Each faceted answer obeys Coulomb's law within the facets' bound,
  // and it approaches the exact one as the facets multiply.
  FreeJournal f = freeJournal(0.5, 0.3, true);
  f.v0 << 0.1, 0.03, 0.02, 3.0, -2.0, 5.0, 0.0, 0.0, 0.0, 0.0, 4.0, -3.0;
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  MoreauJeanOptions o;
  o.h = 1e-5;
  o.solver = "siconos-nsgs";
  MoreauJeanStepper stepper(mechanism, o);
  const std::vector<int> facets{8, 32, 128};
  std::vector<stickslip::lcp::FacetedFrictionSolver> faceted(facets.begin(), facets.end());
  std::vector<double> largest(facets.size(), 0.0);
  VectorXd q = f.q0, v = f.v0;
  int problems = 0, sliding = 0;
  for (int k = 0; k < 30000; ++k) {
    REQUIRE(stepper.step(k * o.h, o.h, q, v));
    const auto* p = stepper.spatialProblem();
    if (p == nullptr || k % 20 != 0) continue;  // every 20th step: 1138 problems
    const stickslip::lcp::FrictionResult& exact = *stepper.spatialResult();
    ++problems;
    for (Eigen::Index i = 0; i < p->contacts(); ++i)
      sliding += exact.r(3 * i) > 0.0 && exact.u.segment<2>(3 * i + 1).norm() > 1e-8;
    for (std::size_t j = 0; j < facets.size(); ++j) {
      stickslip::lcp::FrictionResult ours;
      faceted[j].solve(*p, ours);
      REQUIRE(ours.ok());
      CHECK(stickslip::test::facetViolation(*p, ours, facets[j]) == "");
      // Relative to the problem's impulse scale (an open contact's exact answer is zero).
      const double scale = std::max(exact.r.norm(), p->q.norm() / p->W.norm());
      largest[j] = std::max(largest[j], (ours.r - exact.r).norm() / scale);
    }
  }
  CHECK(problems > 10);
  CHECK(sliding > 0);
  CAPTURE(largest);
  // Within π/k, the angle by which a faceted friction impulse may turn from the exact one's
  // direction, and shrinking with it.
  for (std::size_t j = 0; j < facets.size(); ++j) CHECK(largest[j] <= std::numbers::pi / facets[j]);
  CHECK(largest[1] < largest[0]);
  CHECK(largest[2] < largest[1]);
}

TEST_CASE("moreau-jean, spatial clearance: a step allocates nothing once every active-set size was met",
          "[moreau-jean][spatial][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  // Under gravity the journal comes to rest on the bearing's bottom (e = 0, friction): one or
  // two active contacts, by the faceted Lemke and by our round-cone solvers.
  for (const char* solver : {"lemke", "nsgs", "newton"}) {
    INFO(solver);
    FreeJournal f = freeJournal(0.0, 0.3, false);
    f.model.setGravity(Vector3d(0.0, -9.81, 0.0));
    const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
    MoreauJeanOptions o;
    o.h = 1e-4;
    o.solver = solver;
    MoreauJeanStepper stepper(mechanism, o);
    VectorXd q = f.q0, v = f.v0;
    double t = 0.0;
    for (int k = 0; k < 3000; ++k, t += o.h) REQUIRE(stepper.step(t, o.h, q, v));
    REQUIRE(stepper.spatialProblem() != nullptr);
    bool ok = false;
    const long allocations = allocationsOver(1000, [&] { return stepper.step((t += o.h) - o.h, o.h, q, v); }, ok);
    CHECK(ok);
    CHECK(stepper.spatialProblem() != nullptr);
    CHECK(allocations == 0);
  }
}

TEST_CASE("moreau-jean, spatial clearance: each step's round-cone answer is Siconos' exact one",
          "[moreau-jean][spatial][round][slow]") {
  // Our NSGS on the round cone drives a frictional run (μ = 0.3); every 20th step's problem is
  // solved again by Siconos' Newton: both within Siconos' error 1e-8, the same velocities.
  FreeJournal f = freeJournal(0.5, 0.3, true);
  f.v0 << 0.1, 0.03, 0.02, 3.0, -2.0, 5.0, 0.0, 0.0, 0.0, 0.0, 4.0, -3.0;
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  MoreauJeanOptions o;
  o.h = 1e-5;
  o.solver = "nsgs";
  MoreauJeanStepper stepper(mechanism, o);
  CHECK(stepper.contactSolver() == "nsgs (round cone)");
  VectorXd q = f.q0, v = f.v0;
  int problems = 0, sliding = 0;
  for (int k = 0; k < 30000; ++k) {
    REQUIRE(stepper.step(k * o.h, o.h, q, v));
    const auto* p = stepper.spatialProblem();
    if (p == nullptr || k % 20 != 0) continue;
    const stickslip::lcp::FrictionResult& ours = *stepper.spatialResult();
    ++problems;
    for (Eigen::Index i = 0; i < p->contacts(); ++i)
      sliding += ours.r(3 * i) > 0.0 && ours.u.segment<2>(3 * i + 1).norm() > 1e-8;
    CHECK(stickslip::lcp::siconosFc3dError(*p, ours.r) <= 1e-8);
    const stickslip::lcp::FrictionResult theirs = stickslip::lcp::SiconosFc3dSolver("nsn-ac").solve(*p);
    if (!theirs.ok()) continue;
    CHECK((ours.u - theirs.u).norm() <= 1e-6 * std::max(p->q.norm(), 1e-12));
  }
  CHECK(problems > 10);
  CHECK(sliding > 0);
}

TEST_CASE("moreau-jean, spatial clearance: what it cannot take is refused with the reason", "[moreau-jean][spatial]") {
  FreeJournal f = freeJournal(0.9, 0.2, false);
  const SpatialMechanism rigid(f.model, f.q0, {}, {f.clearance});
  MoreauJeanOptions o;
  o.solver = "cpg";
  CHECK_THROWS_WITH(MoreauJeanStepper(rigid, o), Catch::Contains("auto, round-cone, nsgs, newton, lemke"));
  o.solver = "siconos-cpg";  // an fc2d solver
  CHECK_THROWS_WITH(MoreauJeanStepper(rigid, o), Catch::Contains("'siconos-cpg' is a Siconos solver for planar contacts"));
  o.solver = "lemke";
  o.facets = 2;
  CHECK_THROWS_WITH(MoreauJeanStepper(rigid, o), Catch::Contains("expected facets >= 3, got 2"));
  o.facets = 8;
  f.clearance.rigid = false;  // compliant: the penalty route's
  const SpatialMechanism compliant(f.model, f.q0, {}, {f.clearance});
  CHECK_THROWS_WITH(MoreauJeanStepper(compliant, o), Catch::Contains("expected a unilateral or bilateral rigid contact"));
  f.clearance.rigid = true;
  f.clearance.rigid_restitution.reset();
  CHECK_THROWS_WITH(SpatialMechanism(f.model, f.q0, {}, {f.clearance}), Catch::Contains("a rigid clearance joint needs its rigid_restitution"));
  f.clearance.rigid_restitution = 1.5;
  CHECK_THROWS_WITH(SpatialMechanism(f.model, f.q0, {}, {f.clearance}), Catch::Contains("expected rigid_restitution in [0, 1]"));
}
