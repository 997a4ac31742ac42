// `auto` for an LCP: on small problems block pivoting's checked answer; beyond, block pivoting's
// for M symmetric positive definite and Lemke's wherever else Lemke solves; where it ends
// without a solution on a small problem, the enumeration's answer, or the finding that there is
// none.
#include "lcp/lcp_auto.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "lcp/block_pivoting.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/small_pivoting.hpp"
#include "siconos_data.hpp"

using namespace stickslip::lcp;
using Catch::Matchers::Contains;

namespace {

/// No solution: w₀ = −1 − z₀ < 0 for every z ≥ 0, whatever the other n − 1 unknowns do.
Problem infeasible(Eigen::Index n) {
  Problem p{Eigen::MatrixXd::Identity(n, n), Eigen::VectorXd::Ones(n)};
  p.M(0, 0) = -1.0;
  p.q[0] = -1.0;
  return p;
}

/// One problem solved by Lemke, by block pivoting and by `auto`, and which solver `auto` took.
struct ThreeWays {
  Result lemke, bpp, automatic;
  std::string answered_by;
};

ThreeWays solveThreeWays(const Problem& p) {
  AutoLcpSolver automatic;
  ThreeWays s{LemkeSolver().solve(p), BlockPivotingSolver().solve(p), automatic.solve(p), {}};
  s.answered_by = automatic.answeredBy();
  return s;
}

}  // namespace

TEST_CASE("lcp auto: a bimatrix game on which Lemke ends on a ray is solved by enumeration",
          "[lcp][auto]") {
  // Siconos' lcp_CPS_3, M = [0 A; A 0] with A = [10 20; 30 15] (stored column by column),
  // q = −1. x = y = (0.1, 0) is an equilibrium: A (0.1, 0) = (1, 3), so w = (0, 2, 0, 2).
  const Problem p = readLcpDat(stickslip::test::kSiconosData / "lcp" / "lcp_CPS_3.dat");
  REQUIRE(LemkeSolver().solve(p).status == Status::kRayTermination);  // the premise
  AutoLcpSolver automatic;
  const Result r = automatic.solve(p);
  INFO(r.message);
  REQUIRE(r.ok());
  CHECK(automatic.answeredBy() == "enum");
  CHECK((r.z - Eigen::Vector4d(0.1, 0.0, 0.1, 0.0)).cwiseAbs().maxCoeff() <= 1e-15);
  CHECK((r.w - Eigen::Vector4d(0.0, 2.0, 0.0, 2.0)).cwiseAbs().maxCoeff() <= 1e-14);
  CHECK(r.relative_residual <= 1e-15);
  CHECK_THAT(r.message, Contains("secondary-ray") && Contains("2^4"));
}

TEST_CASE("lcp auto: small problems answered by block pivoting, as Lemke answers them",
          "[lcp][auto]") {
  for (const Problem& p : {randomSpdProblem(12, 3), randomPMatrixProblem(10, 4)}) {
    const Result lemke = LemkeSolver().solve(p);
    AutoLcpSolver automatic;
    const Result r = automatic.solve(p);
    REQUIRE(lemke.ok());
    REQUIRE(r.ok());
    CHECK(automatic.answeredBy() == "bpp");
    CHECK((r.z - lemke.z).lpNorm<Eigen::Infinity>() <= 1e-12);  // a P-matrix: one solution
  }
}

TEST_CASE(
    "lcp auto: beyond the small size, block pivoting for M symmetric positive definite, "
    "else Lemke",
    "[lcp][auto]") {
  const int n = int(kSmallPivotingSize) + 4;
  SECTION("M symmetric positive definite: block pivoting's answer, Lemke's solution") {
    const ThreeWays s = solveThreeWays(randomSpdProblem(n, 3));
    REQUIRE(s.lemke.ok());
    REQUIRE(s.automatic.ok());
    CHECK(s.answered_by == "bpp");
    CHECK(s.automatic.z == s.bpp.z);  // the same solve: bit for bit
    CHECK((s.automatic.z - s.lemke.z).lpNorm<Eigen::Infinity>() <=
          1e-9 * s.lemke.z.lpNorm<Eigen::Infinity>());
  }
  SECTION("M nonsymmetric: block pivoting refuses it, Lemke's answer unchanged, bit for bit") {
    const ThreeWays s = solveThreeWays(randomPMatrixProblem(n, 4));
    REQUIRE(s.lemke.ok());
    CHECK(s.bpp.status == Status::kInvalidInput);
    CHECK_THAT(s.bpp.message, Contains("not symmetric"));
    CHECK(s.answered_by == "lemke");
    CHECK(s.automatic.z == s.lemke.z);
    CHECK(s.automatic.pivots == s.lemke.pivots);
  }
  SECTION("M symmetric, singular: block pivoting refuses it, Lemke solves it") {
    // M = 1 1ᵀ, q = −1: the solutions are the z ≥ 0 with Σ z = 1 (then w = 0). Block pivoting's
    // first free block, all of M, is singular.
    const ThreeWays s = solveThreeWays({Eigen::MatrixXd::Ones(n, n), -Eigen::VectorXd::Ones(n)});
    CHECK_FALSE(s.bpp.ok());
    REQUIRE(s.automatic.ok());
    CHECK(s.answered_by == "lemke");
    CHECK(s.automatic.relative_residual <= 1e-9);
    CHECK(s.automatic.z.minCoeff() >= 0.0);
    CHECK(std::abs(s.automatic.z.sum() - 1.0) <= 1e-12);
  }
}

TEST_CASE("lcp auto: no solution, said with the enumeration's finding up to its size",
          "[lcp][auto]") {
  for (const Eigen::Index n : {Eigen::Index(1), kAutoEnumerationSize, kAutoEnumerationSize + 1}) {
    AutoLcpSolver automatic;
    const Result r = automatic.solve(infeasible(n));
    INFO("n = " << n << ": " << r.message);
    CHECK(r.status == Status::kRayTermination);  // Lemke's status, kept
    CHECK(automatic.answeredBy() == "lemke");
    const bool enumerated =
        r.message.find("found no solution with a nonsingular basis") != std::string::npos;
    CHECK(enumerated == (n <= kAutoEnumerationSize));
  }
}

TEST_CASE("lcp auto: invalid input is refused without enumeration", "[lcp][auto]") {
  Problem p = infeasible(3);
  p.q[1] = std::nan("");
  const Result r = AutoLcpSolver().solve(p);
  CHECK(r.status == Status::kInvalidInput);
  CHECK_THAT(r.message, !Contains("enumeration"));
}
