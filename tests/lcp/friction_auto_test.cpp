// `auto` for planar friction (lcp/friction_auto.hpp): NSGS first, Lemke where NSGS stops short,
// answers checked against Lemke and a closed form, and one solver object reused across sizes.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "lcp/friction_auto.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"
#include "lcp/solve.hpp"

using namespace stickslip;

TEST_CASE("auto: decoupled contacts are solved by one NSGS sweep, exactly as Lemke solves them", "[lcp][friction][auto]") {
  // Two contacts that do not see each other: sweep 1 solves each one's local problem exactly.
  lcp::FrictionProblem2D p{Eigen::MatrixXd::Zero(4, 4), Eigen::Vector4d(-1.0, 0.0, -2.0, 1.0), Eigen::Vector2d(0.5, 0.3)};
  p.W.topLeftCorner<2, 2>() << 2.0, 1.0, 1.0, 3.0;
  p.W.bottomRightCorner<2, 2>() << 4.0, 0.0, 0.0, 5.0;
  const lcp::FrictionResult a = lcp::solveFriction("auto", p);
  REQUIRE(a.ok());
  CHECK(a.solver == "nsgs");
  CHECK(a.pivots == 1);
  const lcp::FrictionResult lemke = lcp::solveFriction("lemke", p);
  REQUIRE(lemke.ok());
  CHECK((a.r - lemke.r).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK((a.u - lemke.u).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK(a.relative_residual <= 1e-15);
}

TEST_CASE("auto: on few contacts Lemke takes over when NSGS falls short in its sweeps", "[lcp][friction][auto]") {
  // Two contacts with nearly dependent normals (W_nn = [[1, c], [c, 1]], c = 0.99): Gauss–Seidel
  // contracts by c² per sweep, far from 1e-12 in kAutoFewContactsSweeps sweeps. Both close and
  // stick with rₙ = 1/(1 + c) each, rₜ = 0.
  const double c = 0.99;
  lcp::FrictionProblem2D p{Eigen::Matrix4d::Identity(), Eigen::Vector4d(-1.0, 0.0, -1.0, 0.0), Eigen::Vector2d(0.5, 0.5)};
  p.W(0, 2) = p.W(2, 0) = c;
  const lcp::FrictionResult a = lcp::solveFriction("auto", p);
  REQUIRE(a.ok());
  CHECK(a.solver == "lemke");
  CHECK(a.r(0) == Approx(1.0 / (1.0 + c)).epsilon(1e-14));
  CHECK(a.r(2) == Approx(1.0 / (1.0 + c)).epsilon(1e-14));
  CHECK(std::abs(a.r(1)) + std::abs(a.r(3)) <= 1e-14);
  lcp::NsgsOptions capped;
  capped.max_sweeps = lcp::kAutoFewContactsSweeps;
  capped.exact_finish = false;
  CHECK(lcp::solveFrictionNsgs({p.W.sparseView(), p.q, p.mu}, capped).status == lcp::Status::kPivotLimit);
}

TEST_CASE("auto: seeded frictional contact of 1 to 64 contacts, solved to the natural-map residual 1e-12 with Lemke's velocities",
          "[lcp][friction][auto]") {
  for (const int contacts : {1, 2, 3, 4, 5, 8, 16, 32, 64})
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
      CAPTURE(contacts, seed);
      const lcp::FrictionProblem2D p = lcp::randomFrictionProblem(contacts, 7000u + seed);
      const lcp::FrictionResult a = lcp::solveFriction("auto", p);
      CAPTURE(a.solver, a.message);
      REQUIRE(a.ok());
      CHECK(lcp::residual(p, a.r).relative <= 1e-12);
      CHECK(a.relative_residual == Approx(lcp::residual(p, a.r).relative).margin(1e-15));
      // The velocities are unique for a positive semidefinite W, the reactions need not be.
      const lcp::FrictionResult lemke = lcp::solveFriction("lemke", p);
      REQUIRE(lemke.ok());
      const double scale = std::max(lemke.u.cwiseAbs().maxCoeff(), p.q.cwiseAbs().maxCoeff());
      CHECK((a.u - lemke.u).cwiseAbs().maxCoeff() <= 1e-9 * scale);
    }
}

TEST_CASE("auto: one solver object across problems of changing size answers as fresh ones do, bit for bit",
          "[lcp][friction][auto]") {
  lcp::AutoFrictionSolver reused;
  lcp::FrictionResult out;
  for (const int contacts : {64, 1, 16, 64, 3, 32}) {
    CAPTURE(contacts);
    const lcp::FrictionProblem2D p = lcp::randomFrictionProblem(contacts, 9000u + std::uint64_t(contacts));
    reused.solve(p, out);
    lcp::FrictionResult fresh;
    lcp::AutoFrictionSolver().solve(p, fresh);
    REQUIRE(out.ok());
    CHECK(out.solver == fresh.solver);
    CHECK(out.pivots == fresh.pivots);
    CHECK(out.r == fresh.r);
    CHECK(out.u == fresh.u);
  }
}

TEST_CASE("auto: a non-finite W is refused, naming the entry", "[lcp][friction][auto]") {
  // Few contacts take NSGS on the dense W, more its compressed copy: both refuse.
  for (const int contacts : {3, 6}) {
    INFO(contacts << " contacts");
    lcp::FrictionProblem2D p = lcp::randomFrictionProblem(contacts, 1);
    p.W(3, 4) = std::numeric_limits<double>::quiet_NaN();
    const lcp::FrictionResult a = lcp::solveFriction("auto", p);
    CHECK(a.status == lcp::Status::kInvalidInput);
    CHECK_THAT(a.message, Catch::Contains("W") && Catch::Contains("(3, 4)"));
    p = lcp::randomFrictionProblem(contacts, 1);
    p.mu(2) = -0.1;
    CHECK(lcp::solveFriction("auto", p).status == lcp::Status::kInvalidInput);
  }
}
