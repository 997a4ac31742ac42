// Lemke's algorithm: edge cases every pivoting solver must survive, textbook problems with
// known solutions, and the matrix classes for which Lemke is guaranteed to work.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"

using namespace stickslip::lcp;

namespace {

Problem make(std::initializer_list<std::initializer_list<double>> rows,
             std::initializer_list<double> q) {
  Problem p;
  const auto n = Eigen::Index(q.size());
  p.M.resize(n, n);
  Eigen::Index i = 0;
  for (const auto& row : rows) {
    Eigen::Index j = 0;
    for (double v : row) p.M(i, j++) = v;
    ++i;
  }
  p.q = Eigen::Map<const Eigen::VectorXd>(q.begin(), n);
  return p;
}

// n ≤ 16 with O(1) entries: the final LU re-solve leaves round-off of a few ε·κ.
constexpr double kLemkeTol = 1e-12;

}  // namespace

TEST_CASE("Lemke edge cases", "[lcp][lemke]") {
  LemkeSolver lemke;
  SECTION("empty problem is solved with no pivot") {
    const Result r = lemke.solve(Problem{Eigen::MatrixXd(0, 0), Eigen::VectorXd(0)});
    CHECK(r.ok());
    CHECK(r.pivots == 0);
    CHECK(r.z.size() == 0);
  }
  SECTION("q >= 0 is solved without pivoting, w = q") {
    const Result r = lemke.solve({Eigen::MatrixXd::Identity(3, 3), Eigen::VectorXd::Ones(3)});
    CHECK(r.ok());
    CHECK(r.pivots == 0);
    CHECK(r.z.isZero());
    CHECK(r.w.isApprox(Eigen::VectorXd::Ones(3)));
  }
  SECTION("q >= 0 with a non-copositive M still returns z = 0") {
    const Result r = lemke.solve(make({{-1.0}}, {0.0}));
    CHECK(r.ok());
    CHECK(r.pivots == 0);
  }
  SECTION("1×1 solvable: M = [2], q = [-1] gives z = 1/2, w = 0") {
    const Result r = lemke.solve(make({{2.0}}, {-1.0}));
    REQUIRE(r.ok());
    CHECK(r.z(0) == Approx(0.5).margin(kLemkeTol));
    CHECK(std::abs(r.w(0)) < kLemkeTol);
    CHECK(r.pivots == 2);  // z₀ enters, then z₁ replaces it
  }
  SECTION("1×1 unsolvable: M = [-1], q = [-1] ends on a secondary ray") {
    const Result r = lemke.solve(make({{-1.0}}, {-1.0}));
    CHECK(r.status == Status::kRayTermination);
    CHECK(r.z.isZero());
    CHECK_FALSE(r.message.empty());
  }
  SECTION("1×1 unsolvable: M = [0], q = [-1] (w = -1 whatever z)") {
    const Result r = lemke.solve(make({{0.0}}, {-1.0}));
    CHECK(r.status == Status::kRayTermination);
  }
  SECTION("size mismatch is invalid input, reported, not thrown") {
    const Result r = lemke.solve({Eigen::MatrixXd::Identity(3, 2), Eigen::VectorXd::Ones(3)});
    CHECK(r.status == Status::kInvalidInput);
    CHECK(r.message.find("3×2") != std::string::npos);
  }
  SECTION("NaN and Inf are invalid input") {
    Problem p = make({{1.0, 0.0}, {0.0, 1.0}}, {-1.0, -1.0});
    p.M(1, 0) = std::numeric_limits<double>::quiet_NaN();
    CHECK(lemke.solve(p).status == Status::kInvalidInput);
    p.M(1, 0) = 0.0;
    p.q(0) = std::numeric_limits<double>::infinity();
    CHECK(lemke.solve(p).status == Status::kInvalidInput);
  }
  SECTION("a non-positive covering vector is invalid input") {
    LemkeOptions o;
    o.covering = Eigen::Vector2d(1.0, 0.0);
    CHECK(LemkeSolver(o).solve(make({{1.0, 0.0}, {0.0, 1.0}}, {-1.0, -1.0})).status ==
          Status::kInvalidInput);
  }
  SECTION("pivot limit is reported as such") {
    LemkeOptions o;
    o.max_pivots = 2;
    const Result r = LemkeSolver(o).solve(randomSpdProblem(20, 3));
    CHECK(r.status == Status::kPivotLimit);
    CHECK(r.pivots == 2);
  }
}

TEST_CASE("Lemke on textbook problems", "[lcp][lemke]") {
  LemkeSolver lemke;
  SECTION("Murty's exponential example needs 2^n pivots (Murty 1988, ch. 6)") {
    // M lower triangular with 1 on the diagonal and 2 below, q = −1: the unique solution is
    // z = (1, 0, …, 0); Lemke with d = 1 visits 2ⁿ bases [Murty 1978].
    for (int n : {2, 4, 6, 8}) {
      Problem p{Eigen::MatrixXd::Identity(n, n), -Eigen::VectorXd::Ones(n)};
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j) p.M(i, j) = 2.0;
      const Result r = lemke.solve(p);
      REQUIRE(r.ok());
      Eigen::VectorXd expected = Eigen::VectorXd::Zero(n);
      expected(0) = 1.0;
      CHECK((r.z - expected).lpNorm<Eigen::Infinity>() < kLemkeTol);
    }
  }
  SECTION("positive definite 2×2 with a planted solution") {
    // M = [[2, 1], [1, 2]], z* = (1, 0), w* = (0, 3) ⇒ q = w* − M z* = (−2, 2).
    const Result r = lemke.solve(make({{2.0, 1.0}, {1.0, 2.0}}, {-2.0, 2.0}));
    REQUIRE(r.ok());
    CHECK((r.z - Eigen::Vector2d(1.0, 0.0)).norm() < kLemkeTol);
    CHECK((r.w - Eigen::Vector2d(0.0, 3.0)).norm() < kLemkeTol);
  }
  SECTION("degenerate: q with equal ratios does not cycle") {
    // Every row ties in the first ratio test, and M is singular PSD.
    const Result r = lemke.solve(make({{1.0, 1.0, 1.0}, {1.0, 1.0, 1.0}, {1.0, 1.0, 1.0}},
                                      {-1.0, -1.0, -1.0}));
    REQUIRE(r.ok());
    CHECK(r.residual < kLemkeTol);
    CHECK(r.z.sum() == Approx(1.0).margin(kLemkeTol));
  }
  SECTION("infeasible copositive-plus problem: w₁ = z₁ − z₂ − 1, w₂ = −z₁ + z₂ − 1") {
    // Adding both rows gives w₁ + w₂ = −2 < 0: no feasible point, Lemke must end on a ray.
    const Result r = lemke.solve(make({{1.0, -1.0}, {-1.0, 1.0}}, {-1.0, -1.0}));
    CHECK(r.status == Status::kRayTermination);
    CHECK(r.z.isZero());
  }
}

TEST_CASE("Lemke on planted P-matrix problems, lexicographic or not, scaled or not",
          "[lcp][lemke]") {
  for (bool lexicographic : {true, false})
    for (bool scale : {true, false}) {
      LemkeOptions o;
      o.lexicographic = lexicographic;
      o.scale = scale;
      LemkeSolver lemke(o);
      for (std::uint64_t seed = 1; seed <= 50; ++seed) {
        const int n = 1 + int(seed % 16);
        Problem p = randomPMatrixProblem(n, seed);
        // Plant a complementary pair: z* on even indices, w* on odd ones.
        Eigen::VectorXd z = Eigen::VectorXd::Zero(n), w = Eigen::VectorXd::Zero(n);
        for (int i = 0; i < n; ++i) (i % 2 ? w(i) : z(i)) = 0.5 + 0.1 * i;
        p.q = w - p.M * z;
        const Result r = lemke.solve(p);
        INFO("seed " << seed << " n " << n << " lex " << lexicographic << " scale " << scale);
        REQUIRE(r.ok());
        CHECK((r.z - z).lpNorm<Eigen::Infinity>() < kLemkeTol);  // unique: M is a P-matrix
        CHECK(r.relative_residual < kLemkeTol);
      }
    }
}

TEST_CASE("Lemke solves SPD problems up to n = 256", "[lcp][lemke]") {
  LemkeSolver lemke;
  for (int n : {2, 8, 32, 64, 128, 256}) {
    for (std::uint64_t seed = 1; seed <= (n <= 64 ? 5u : 2u); ++seed) {
      const Problem p = randomSpdProblem(n, seed);
      const Result r = lemke.solve(p);
      INFO("n " << n << " seed " << seed << " status " << r.status << " " << r.message);
      REQUIRE(r.ok());
      CHECK(r.relative_residual <= 1e-10);
      CHECK((r.z.array() >= 0.0).all());
      CHECK(r.pivots <= 2 * n + 1);  // SPD: each variable enters at most about once
    }
  }
}

TEST_CASE("Lemke reuses its workspace across sizes", "[lcp][lemke]") {
  LemkeSolver lemke;
  Result r;
  for (int n : {5, 12, 5, 30, 1, 12}) {
    const Problem p = randomSpdProblem(n, 77 + n);
    lemke.solve(p, r);
    REQUIRE(r.ok());
    CHECK(r.z.size() == n);
    // Same definition as residual.hpp, summed in another order: equal to a few ε·‖M‖‖z‖.
    CHECK(std::abs(residual(p, r.z).absolute - r.residual) <= 1e-14);
  }
}

TEST_CASE("Lemke with a custom covering vector", "[lcp][lemke]") {
  LemkeOptions o;
  o.covering = Eigen::VectorXd::LinSpaced(10, 1.0, 3.0);
  const Problem p = randomPMatrixProblem(10, 5);
  const Result a = LemkeSolver(o).solve(p), b = LemkeSolver().solve(p);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK((a.z - b.z).lpNorm<Eigen::Infinity>() < kLemkeTol);  // unique solution, any path
}

TEST_CASE("Lemke takes z = 0 when q's negative entries are round-off of zero", "[lcp][lemke]") {
  // The planar-friction LCP of a ball leaving the floor after a bounce: normal velocity
  // 0.0317 m/s, sliding velocity zero up to round-off (±2.2e-16 in the rows λ ± u_t).
  Problem p;
  p.M.resize(4, 4);
  p.M << 1, 0, 0, 0,  //
      0, 3, -3, 1,    //
      0, -3, 3, 1,    //
      0.3, -1, -1, 0;
  p.q.resize(4);
  p.q << 0.031683234375000278, 2.2204460492503131e-16, -2.2204460492503131e-16, 0.0;
  LemkeSolver lemke;
  Result r;
  lemke.solve(p, r);
  REQUIRE(r.ok());
  CHECK(r.pivots == 0);
  CHECK(r.z.isZero(0.0));
  CHECK(r.relative_residual <= 1e-14);
  // A negative entry beyond the acceptance tolerance still needs pivots.
  p.q(2) = -1e-6;
  lemke.solve(p, r);
  REQUIRE(r.ok());
  CHECK(r.pivots > 0);
  CHECK(residual(p, r.z).relative <= 1e-12);
}
