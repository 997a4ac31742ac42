#include "lcp/mlcp_to_lcp.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>

#include "lcp/enumeration.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/reduction_test_helpers.hpp"
#include "lcp/residual.hpp"

using namespace stickslip::lcp;

namespace {

// Sizes ≤ 8 with O(1) entries, A with condition ≤ 4 and a P-matrix Schur complement: the
// reduction and the basis solve each lose at most ~1e2·ε·n; 1e-10 keeps a wide margin.
constexpr double kMlcpTol = 1e-10;

struct PlantedMlcp {
  MixedProblem problem;
  Eigen::VectorXd u, v, w;
  Eigen::MatrixXd schur;
};

/// A z-unique MLCP: its Schur complement S = B − D A⁻¹ C is a P-matrix chosen first, then
/// B := S + D A⁻¹ C; (u*, v*, w*) planted by a := −A u* − C v*, b := w* − D u* − B v*.
PlantedMlcp plantedMlcp(int nu, int m, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  PlantedMlcp out;
  MixedProblem& p = out.problem;
  p.A = test::wellConditioned(nu, rng);
  p.C = test::uniform(nu, m, rng);
  p.D = test::uniform(m, nu, rng);
  out.schur = randomPMatrixProblem(m, seed).M;
  p.B = out.schur;  // Eigen's LU asserts on an empty A (nu = 0)
  if (nu > 0) p.B += p.D * p.A.fullPivLu().solve(p.C);
  const test::Planted vw = test::plantedPair(m, rng);
  out.u = test::uniform(nu, 1, rng);
  out.v = vw.z;
  out.w = vw.w;
  p.a = -p.A * out.u - p.C * out.v;
  p.b = out.w - p.D * out.u - p.B * out.v;
  return out;
}

}  // namespace

TEST_CASE("MLCP Schur reduction round-trips planted solutions", "[lcp][mlcp]") {
  for (int nu : {0, 1, 3, 5})
    for (int m : {1, 2, 4, 8})
      for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        INFO("nu = " << nu << ", m = " << m << ", seed = " << seed);
        const PlantedMlcp pm = plantedMlcp(nu, m, 100 * nu + 10 * m + seed);
        const MlcpReduction red(pm.problem);
        CHECK((red.lcp().M - pm.schur).lpNorm<Eigen::Infinity>() < kMlcpTol);
        // The planted v* solves the reduced LCP, and recover maps it back to (u*, w*).
        CHECK(residual(red.lcp(), pm.v).relative < kMlcpTol);
        const MlcpReduction::Recovered back = red.recover(pm.v);
        CHECK((back.u - pm.u).lpNorm<Eigen::Infinity>() < kMlcpTol);
        CHECK((back.w - pm.w).lpNorm<Eigen::Infinity>() < kMlcpTol);
        // An independent solve of the reduced LCP returns the (unique) planted solution.
        const Result r = solveByEnumeration(red.lcp());
        REQUIRE(r.ok());
        CHECK((r.z - pm.v).lpNorm<Eigen::Infinity>() < kMlcpTol);
        const MlcpReduction::Recovered sol = red.recover(r.z);
        CHECK(residual(pm.problem, sol.u, r.z).relative < kMlcpTol);
      }
}

TEST_CASE("MLCP reduction rejects A that is not square or not invertible", "[lcp][mlcp]") {
  PlantedMlcp pm = plantedMlcp(3, 2, 7);
  SECTION("singular A") {
    MixedProblem p = pm.problem;
    p.A.row(2) = p.A.row(0) + p.A.row(1);
    CHECK_THROWS_WITH(MlcpReduction(p), Catch::Contains("A is singular"));
    LemkeSolver lemke;
    // Solved through the null-space reduction instead.
    const MixedResult r = solveMlcpWithLemke(p, lemke);
    INFO(r.message);
    CHECK(r.ok());
    CHECK(r.relative_residual <= kMlcpTol);
    SECTION("redundant equality (row 2 = row 0 + row 1 in A, C and a): solved, u not unique") {
      p.C.row(2) = p.C.row(0) + p.C.row(1);
      p.a(2) = p.a(0) + p.a(1);
      const MixedResult s = solveMlcpWithLemke(p, lemke);
      INFO(s.message);
      CHECK(s.ok());
      CHECK(s.relative_residual <= kMlcpTol);
      CHECK(s.u.size() == 3);
      CHECK(s.v.size() == 2);
    }
    SECTION("contradictory equalities (row 2 = row 0 + row 1 in A and C, not in a): no solution") {
      p.C.row(2) = p.C.row(0) + p.C.row(1);
      p.a(2) = p.a(0) + p.a(1) + 1.0;
      const MixedResult s = solveMlcpWithLemke(p, lemke);
      CHECK(s.status == Status::kRayTermination);
      CHECK_THAT(s.message, Catch::Contains("inconsistent"));
    }
  }
  SECTION("ill-conditioned A") {
    MixedProblem p = pm.problem;
    p.A.row(2) = p.A.row(0) + 1e-15 * p.A.row(1);
    CHECK_THROWS_WITH(MlcpReduction(p), Catch::Contains("A is singular or ill-conditioned"));
  }
  SECTION("rectangular A") {
    MixedProblem p;
    p.A = Eigen::MatrixXd::Ones(3, 2);
    p.C = Eigen::MatrixXd::Zero(3, 1);
    p.D = Eigen::MatrixXd::Zero(1, 2);
    p.B = Eigen::MatrixXd::Identity(1, 1);
    p.a = Eigen::VectorXd::Zero(3);
    p.b = Eigen::VectorXd::Zero(1);
    CHECK_THROWS_WITH(MlcpReduction(p), Catch::Contains("expected A square"));
  }
  SECTION("malformed problem and wrong recover size") {
    MixedProblem p = pm.problem;
    p.b.resize(5);
    CHECK_THROWS_AS(MlcpReduction(p), std::invalid_argument);
    CHECK_THROWS_AS(MlcpReduction(pm.problem).recover(Eigen::VectorXd::Zero(3)),
                    std::invalid_argument);
  }
}

TEST_CASE("solveMlcpWithLemke recovers planted MLCP solutions", "[lcp][mlcp][lemke]") {
  LemkeSolver lemke;
  for (int nu : {0, 2, 6})
    for (int m : {1, 3, 10, 30})
      for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        INFO("nu = " << nu << ", m = " << m << ", seed = " << seed);
        const PlantedMlcp pm = plantedMlcp(nu, m, 7000 + 100 * nu + 10 * m + seed);
        const MixedResult r = solveMlcpWithLemke(pm.problem, lemke);
        REQUIRE(r.status == Status::kSuccess);
        CHECK(r.relative_residual < kMlcpTol);
        CHECK((r.v - pm.v).lpNorm<Eigen::Infinity>() < kMlcpTol);
        CHECK((r.u - pm.u).lpNorm<Eigen::Infinity>() < kMlcpTol);
        CHECK((r.w - pm.w).lpNorm<Eigen::Infinity>() < kMlcpTol);
      }
}
