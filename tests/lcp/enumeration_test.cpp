#include "lcp/enumeration.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>

#include "lcp/random_problems.hpp"
#include "lcp/reduction_test_helpers.hpp"
#include "lcp/residual.hpp"

using namespace stickslip::lcp;

namespace {

// n ≤ 8, O(1) entries, P-matrices from randomPMatrixProblem (condition ≲ 1e2): an LU basis
// solve is accurate to ~1e2·n·ε ≈ 2e-13; 1e-10 leaves three orders of margin.
constexpr double kEnumerationTol = 1e-10;

Problem problem2(double m11, double m12, double m21, double m22, double q1, double q2) {
  Problem p;
  p.M.resize(2, 2);
  p.M << m11, m12, m21, m22;
  p.q.resize(2);
  p.q << q1, q2;
  return p;
}

bool contains(const std::vector<Eigen::VectorXd>& set, const Eigen::VectorXd& z) {
  for (const auto& s : set)
    if ((s - z).lpNorm<Eigen::Infinity>() < kEnumerationTol) return true;
  return false;
}

}  // namespace

TEST_CASE("enumeration recovers planted P-matrix solutions", "[lcp][enumeration]") {
  for (int n = 1; n <= 8; ++n) {
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      std::mt19937_64 rng(1000 * n + seed);
      const test::Planted star = test::plantedPair(n, rng);
      const Problem p = test::plantedLcp(randomPMatrixProblem(n, seed).M, star);
      const Result r = solveByEnumeration(p);
      INFO("n = " << n << ", seed = " << seed);
      REQUIRE(r.status == Status::kSuccess);
      CHECK((r.z - star.z).lpNorm<Eigen::Infinity>() < kEnumerationTol);
      CHECK((r.w - star.w).lpNorm<Eigen::Infinity>() < kEnumerationTol);
      CHECK(r.relative_residual < kEnumerationTol);
      CHECK((r.z.array() >= 0.0).all());
      // A P-matrix LCP has exactly one solution [Cottle, Pang & Stone 1992, Thm 3.3.7].
      CHECK(enumerateSolutions(p).size() == 1);
    }
  }
}

TEST_CASE("enumeration lists every solution of non-unique LCPs", "[lcp][enumeration]") {
  SECTION("M = [[1, 2], [2, 1]], q = (-1, -1) has three solutions") {
    // Two solutions on the axes and the interior one z = (1/3, 1/3), checked by hand.
    const Problem p = problem2(1, 2, 2, 1, -1, -1);
    const auto all = enumerateSolutions(p);
    REQUIRE(all.size() == 3);
    CHECK(contains(all, Eigen::Vector2d(1.0, 0.0)));
    CHECK(contains(all, Eigen::Vector2d(0.0, 1.0)));
    CHECK(contains(all, Eigen::Vector2d(1.0 / 3.0, 1.0 / 3.0)));
    const Result r = solveByEnumeration(p);
    REQUIRE(r.ok());
    CHECK((r.z - Eigen::Vector2d(1.0, 0.0)).lpNorm<Eigen::Infinity>() < kEnumerationTol);  // mask 0b01 first
  }
  SECTION("M = [-1], q = [1] has the solutions z = 0 and z = 1") {
    Problem p{-Eigen::MatrixXd::Identity(1, 1), Eigen::VectorXd::Ones(1)};
    const auto all = enumerateSolutions(p);
    REQUIRE(all.size() == 2);
    CHECK(contains(all, Eigen::VectorXd::Zero(1)));
    CHECK(contains(all, Eigen::VectorXd::Ones(1)));
  }
  SECTION("a degenerate q gives each solution once although several bases produce it") {
    // q = 0 with M = I: every one of the 8 bases is feasible and gives z = 0.
    const Problem p{Eigen::MatrixXd::Identity(3, 3), Eigen::VectorXd::Zero(3)};
    const auto all = enumerateSolutions(p);
    REQUIRE(all.size() == 1);
    CHECK(all[0].isZero());
  }
}

TEST_CASE("enumeration edge cases", "[lcp][enumeration]") {
  SECTION("q >= 0 is solved by the first basis, z = 0") {
    const Result r =
        solveByEnumeration({Eigen::MatrixXd::Identity(3, 3), Eigen::VectorXd::Ones(3)});
    REQUIRE(r.ok());
    CHECK(r.pivots == 1);
    CHECK(r.z.isZero());
    CHECK(r.w == Eigen::VectorXd::Ones(3));
  }
  SECTION("M = [-1], q = [-1] has no solution") {
    const Result r =
        solveByEnumeration({-Eigen::MatrixXd::Identity(1, 1), -Eigen::VectorXd::Ones(1)});
    CHECK(r.status == Status::kRayTermination);
    CHECK(r.pivots == 2);
    CHECK(r.z.isZero());
    CHECK_FALSE(r.message.empty());
    CHECK(
        enumerateSolutions({-Eigen::MatrixXd::Identity(1, 1), -Eigen::VectorXd::Ones(1)}).empty());
  }
  SECTION("the empty problem is solved") {
    const Result r = solveByEnumeration({Eigen::MatrixXd(0, 0), Eigen::VectorXd(0)});
    REQUIRE(r.ok());
    CHECK(r.z.size() == 0);
    CHECK(r.w.size() == 0);
  }
  SECTION("a singular M is handled through its nonsingular bases") {
    // M = [[1, 1], [1, 1]] (PSD, singular), q = (-1, -1): solutions z1 + z2 = 1, z >= 0; the
    // vertices (1, 0) and (0, 1) are found, the singular full basis is skipped.
    const auto all = enumerateSolutions(problem2(1, 1, 1, 1, -1, -1));
    REQUIRE(all.size() == 2);
    CHECK(contains(all, Eigen::Vector2d(1.0, 0.0)));
    CHECK(contains(all, Eigen::Vector2d(0.0, 1.0)));
  }
  SECTION("invalid input is reported, not thrown, by the solver; thrown by the lister") {
    const Problem bad{Eigen::MatrixXd::Identity(2, 2), Eigen::VectorXd::Ones(3)};
    const Result r = solveByEnumeration(bad);
    CHECK(r.status == Status::kInvalidInput);
    CHECK(r.message.find("expected") != std::string::npos);
    CHECK_THROWS_AS(enumerateSolutions(bad), std::invalid_argument);
    EnumerationOptions small;
    small.max_size = 4;
    const Result big = solveByEnumeration(randomSpdProblem(5, 1), small);
    CHECK(big.status == Status::kInvalidInput);
    CHECK(big.message.find("n ≤ 4") != std::string::npos);
  }
}
