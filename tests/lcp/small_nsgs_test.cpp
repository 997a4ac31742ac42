// NSGS on the stack for a few planar contacts: the solution wherever it answers (closed forms
// for one contact's four modes, Lemke's velocities on seeded problems), and no answer, the
// result untouched, wherever it cannot give one.
#include "lcp/small_nsgs.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "lcp/friction_auto.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"
#include "lcp/solve.hpp"
#include "untouched_result.hpp"

using namespace stickslip::lcp;
using stickslip::test::requireUntouched;
using stickslip::test::untouchedResult;

TEST_CASE("small nsgs: one contact in each of its four modes, in closed form, in one sweep",
          "[lcp][friction][small]") {
  // W = I, μ = 1/2: u = r + q. Open: r = 0. Stick: r = −q inside the cone. Slip with uₜ ≷ 0:
  // rₙ = −qₙ, rₜ = ∓μ rₙ, uₜ = qₜ + rₜ.
  struct Case {
    Eigen::Vector2d q, r, u;
  };
  for (const Case& c :
       {Case{{0.5, 3.0}, {0.0, 0.0}, {0.5, 3.0}}, Case{{-2.0, 0.5}, {2.0, -0.5}, {0.0, 0.0}},
        Case{{-1.0, 2.0}, {1.0, -0.5}, {0.0, 1.5}}, Case{{-1.0, -2.0}, {1.0, 0.5}, {0.0, -1.5}}}) {
    CAPTURE(c.q);
    const FrictionProblem2D p{Eigen::Matrix2d::Identity(), c.q, Eigen::VectorXd::Constant(1, 0.5)};
    FrictionResult out;
    REQUIRE(solveBySmallNsgs(p, 1, out));
    CHECK(out.ok());
    CHECK(out.pivots == 1);
    CHECK(out.r == c.r);
    CHECK(out.u == c.u);
    CHECK(out.residual == 0.0);
  }
}

TEST_CASE("small nsgs: no contacts, nothing to solve", "[lcp][friction][small]") {
  FrictionResult out;
  REQUIRE(
      solveBySmallNsgs({Eigen::MatrixXd(0, 0), Eigen::VectorXd(0), Eigen::VectorXd(0)}, 1, out));
  CHECK(out.ok());
  CHECK(out.r.size() == 0);
  CHECK(out.u.size() == 0);
  CHECK(out.residual == 0.0);
}

TEST_CASE(
    "small nsgs: seeded problems of 1 to 4 contacts, Lemke's velocities to the natural-map "
    "residual 1e-12",
    "[lcp][friction][small]") {
  int answered = 0;
  for (int contacts = 1; contacts <= int(kSmallNsgsContacts); ++contacts)
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      CAPTURE(contacts, seed);
      const FrictionProblem2D p = randomFrictionProblem(contacts, 5100u + seed);
      FrictionResult out;
      if (!solveBySmallNsgs(p, 100, out)) continue;
      ++answered;
      CHECK(out.ok());
      CHECK(out.relative_residual <= kSmallNsgsTolerance);
      const Residual res = residual(p, out.r);
      CHECK(res.relative == Approx(out.relative_residual).margin(1e-15));
      CHECK((out.u - (p.W * out.r + p.q)).cwiseAbs().maxCoeff() <=
            1e-15 * std::max(1.0, p.q.cwiseAbs().maxCoeff()));
      // The velocities are unique for a positive semidefinite W, the reactions need not be.
      const FrictionResult lemke = solveFriction("lemke", p);
      REQUIRE(lemke.ok());
      const double scale = std::max(lemke.u.cwiseAbs().maxCoeff(), p.q.cwiseAbs().maxCoeff());
      CHECK((out.u - lemke.u).cwiseAbs().maxCoeff() <= 1e-9 * scale);
    }
  // Gauss–Seidel need not converge on a singular W of coupled contacts, but on most of these it
  // does.
  CHECK(answered >= 72);
}

TEST_CASE("small nsgs: it sweeps as NsgsSolver on W's compressed copy, to the same reactions",
          "[lcp][friction][small]") {
  // The same local solves in the same order; only the stopping rules differ (natural map here,
  // Siconos' error there), so where both answer, the reactions agree to the tolerance.
  int both = 0;
  for (int contacts = 1; contacts <= int(kSmallNsgsContacts); ++contacts)
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      CAPTURE(contacts, seed);
      const FrictionProblem2D p = randomFrictionProblem(contacts, 500u + seed);
      FrictionResult stack;
      const bool answered = solveBySmallNsgs(p, 200, stack);
      NsgsSolver general;
      const SparseRowMatrix w = p.W.sparseView();
      Eigen::VectorXd r = Eigen::VectorXd::Zero(2 * contacts), u(2 * contacts);
      const NsgsSolver::Outcome o = general.solve(viewOf(w), p.q, p.mu, {1e-12, 200}, r, u);
      if (!answered || o.status != Status::kSuccess) continue;
      ++both;
      CHECK(std::abs(stack.pivots - o.sweeps) <= 2);
      CHECK((stack.r - r).cwiseAbs().maxCoeff() <= 1e-9 * std::max(r.cwiseAbs().maxCoeff(), 1.0));
    }
  CHECK(both >= 15);
}

TEST_CASE("small nsgs: no answer, the result untouched, where it cannot give one",
          "[lcp][friction][small]") {
  FrictionProblem2D p = randomFrictionProblem(2, 3);
  FrictionResult r = untouchedResult(&FrictionResult::r);
  SECTION("a NaN, an infinity, a negative μ") {
    p.W(1, 2) = std::numeric_limits<double>::quiet_NaN();
    CHECK_FALSE(solveBySmallNsgs(p, 100, r));
    p = randomFrictionProblem(2, 3);
    p.q(3) = std::numeric_limits<double>::infinity();
    CHECK_FALSE(solveBySmallNsgs(p, 100, r));
    p = randomFrictionProblem(2, 3);
    p.mu(1) = -0.1;
    CHECK_FALSE(solveBySmallNsgs(p, 100, r));
  }
  SECTION("W or q of the wrong size, more contacts than the stack path takes") {
    p.q.resize(3);
    CHECK_FALSE(solveBySmallNsgs(p, 100, r));
    CHECK_FALSE(solveBySmallNsgs(randomFrictionProblem(int(kSmallNsgsContacts) + 1, 3), 100, r));
  }
  SECTION("a local problem without a solution: a closing contact whose block of W is zero") {
    p.W.setZero();
    p.q(0) = -1.0;
    CHECK_FALSE(solveBySmallNsgs(p, 100, r));
  }
  SECTION(
      "no answer within the sweeps: nearly dependent normals, contracting by c² = 0.98 per sweep") {
    p = {Eigen::Matrix4d::Identity(), Eigen::Vector4d(-1.0, 0.0, -1.0, 0.0),
         Eigen::Vector2d(0.5, 0.5)};
    p.W(0, 2) = p.W(2, 0) = 0.99;
    CHECK_FALSE(solveBySmallNsgs(p, kAutoFewContactsSweeps, r));
  }
  requireUntouched(r, &FrictionResult::r);
}
