// Block pivoting on small dense LCPs: the solution wherever it answers (against Lemke's on
// P-matrices, where the solution is unique), and no answer rather than a wrong one elsewhere.
#include "lcp/small_pivoting.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "siconos_data.hpp"
#include "untouched_result.hpp"

using namespace stickslip::lcp;
using stickslip::test::kSiconosData;
using stickslip::test::requireUntouched;
using stickslip::test::untouchedResult;

TEST_CASE("small pivoting: the unique solution of P-matrix LCPs, as Lemke's", "[lcp][small]") {
  // Every one is answered within n + 2 rounds (the rounds' limit is no fallback they need).
  for (int n = 1; n <= int(kSmallPivotingSize); ++n) {
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      for (const Problem& p :
           {randomSpdProblem(n, 100 * seed + n), randomPMatrixProblem(n, 200 * seed + n)}) {
        const Result lemke = LemkeSolver().solve(p);
        REQUIRE(lemke.ok());
        INFO("n = " << n << ", seed " << seed);
        Result r;
        REQUIRE(solveBySmallPivoting(p, r));
        CHECK(r.ok());
        CHECK(r.relative_residual <= 1e-9);
        CHECK(residual(p, r.z).relative == Approx(r.relative_residual).margin(1e-15));
        CHECK((r.z - lemke.z).lpNorm<Eigen::Infinity>() <=
              1e-9 * std::max(1.0, lemke.z.lpNorm<Eigen::Infinity>()));
        CHECK((r.w - (p.M * r.z + p.q)).lpNorm<Eigen::Infinity>() <=
              1e-13);  // summed in another order
      }
    }
  }
}

TEST_CASE("small pivoting: a triangular P-matrix is solved by one substitution", "[lcp][small]") {
  // The lower and upper triangles of a P-matrix keep its positive diagonal, so are P-matrices:
  // one substitution gives the unique solution, Lemke's.
  for (int n = 1; n <= int(kSmallPivotingSize); ++n) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const Problem full = randomPMatrixProblem(n, 300 * seed + n);
      const Eigen::MatrixXd lower = full.M.triangularView<Eigen::Lower>();
      const Eigen::MatrixXd upper = full.M.triangularView<Eigen::Upper>();
      const Eigen::MatrixXd diagonal = full.M.diagonal().asDiagonal();
      for (const Eigen::MatrixXd* M : {&lower, &upper, &diagonal}) {
        const Problem p{*M, full.q};
        const Result lemke = LemkeSolver().solve(p);
        REQUIRE(lemke.ok());
        INFO("n = " << n << ", seed " << seed << ", M =\n" << *M);
        Result r;
        REQUIRE(solveBySmallPivoting(p, r));
        CHECK(r.pivots == 1);
        CHECK(r.relative_residual <= 1e-12);
        CHECK(residual(p, r.z).relative == Approx(r.relative_residual).margin(1e-15));
        CHECK((r.z - lemke.z).lpNorm<Eigen::Infinity>() <=
              1e-9 * std::max(1.0, lemke.z.lpNorm<Eigen::Infinity>()));
        CHECK((r.w - (p.M * r.z + p.q)).lpNorm<Eigen::Infinity>() <= 1e-13);
      }
    }
  }
}

TEST_CASE("small pivoting: Murty's example, exponential for pivoting methods, in one round",
          "[lcp][small]") {
  // Siconos' lcp_exp_murty as our reader gives it (each line a column): M upper triangular, 1 on
  // the diagonal, 2 above; q = −1. Backward substitution: z = e_{n−1}, w = 1 elsewhere. Block
  // pivoting from the guess F = {all} took six rounds at n = 6; the substitution takes one.
  // Its transpose, lower triangular, by forward substitution: z = e_0.
  for (int n = 1; n <= int(kSmallPivotingSize); ++n) {
    Eigen::MatrixXd upper = Eigen::MatrixXd::Constant(n, n, 2.0);
    upper.triangularView<Eigen::StrictlyLower>().setZero();
    upper.diagonal().setOnes();
    for (const bool transposed : {false, true}) {
      INFO("n = " << n << (transposed ? ", lower" : ", upper"));
      const Problem p{transposed ? Eigen::MatrixXd(upper.transpose()) : upper,
                      -Eigen::VectorXd::Ones(n)};
      const Eigen::Index solved = transposed ? 0 : n - 1;
      Result r;
      REQUIRE(solveBySmallPivoting(p, r));
      Eigen::VectorXd w = Eigen::VectorXd::Ones(n);
      w(solved) = 0.0;
      CHECK(r.z == Eigen::VectorXd::Unit(n, solved));
      CHECK(r.w == w);
      CHECK(r.residual == 0.0);
      CHECK(r.pivots == 1);
    }
  }
  // The file itself.
  Result r;
  REQUIRE(solveBySmallPivoting(readLcpDat(kSiconosData / "lcp" / "lcp_exp_murty.dat"), r));
  CHECK(r.z == Eigen::VectorXd::Unit(6, 5));
  CHECK(r.pivots == 1);
}

TEST_CASE("small pivoting: a first guess by one projected Jacobi step saves rounds",
          "[lcp][small]") {
  // Seeded SPD LCPs of 16 unknowns: 1.6 rounds on average from the Jacobi step's guess, about
  // 2.1 from q's signs alone.
  int rounds = 0;
  for (std::uint64_t seed = 1; seed <= 64; ++seed) {
    Result r;
    REQUIRE(solveBySmallPivoting(randomSpdProblem(16, 300 * seed + 16), r));
    rounds += r.pivots;
  }
  CHECK(rounds / 64.0 <= 1.7);
}

TEST_CASE("small pivoting: a zero on M's diagonal (no Jacobi guess) still gets the answer",
          "[lcp][small]") {
  // M = [B 0; 0 0], B SPD: the last index has w = q = 1 whatever z, so z = (B's solution, 0).
  const Problem b = randomSpdProblem(5, 7);
  Problem p{Eigen::MatrixXd::Zero(6, 6), Eigen::VectorXd::Ones(6)};
  p.M.topLeftCorner(5, 5) = b.M;
  p.q.head(5) = b.q;
  const Result lemke = LemkeSolver().solve(b);
  REQUIRE(lemke.ok());
  Result r;
  REQUIRE(solveBySmallPivoting(p, r));
  CHECK((r.z.head(5) - lemke.z).lpNorm<Eigen::Infinity>() <= 1e-12);
  CHECK(r.z[5] == 0.0);
  CHECK(r.w[5] == 1.0);
}

TEST_CASE("small pivoting: a singular block leaves F, so a PSD problem still gets its answer",
          "[lcp][small]") {
  // Siconos' lcp_CPS_1: M = [1 1; 1 1], q = −1; solutions z₀ + z₁ = 1. F = {0, 1} is singular,
  // so index 1 leaves F: z = (1, 0), w = (0, 0).
  const Problem p{(Eigen::Matrix2d() << 1, 1, 1, 1).finished(), Eigen::Vector2d(-1, -1)};
  Result r;
  REQUIRE(solveBySmallPivoting(p, r));
  CHECK(r.z == Eigen::Vector2d(1, 0));
  CHECK(r.w == Eigen::Vector2d(0, 0));
  CHECK(r.residual == 0.0);
  CHECK(r.pivots == 1);
}

TEST_CASE("small pivoting: q ≥ 0 gives z = 0 in one round", "[lcp][small]") {
  const Problem p{Eigen::Matrix3d::Identity(), Eigen::Vector3d(0, 1, 2)};
  Result r;
  REQUIRE(solveBySmallPivoting(p, r));
  CHECK(r.z == Eigen::Vector3d::Zero());
  CHECK(r.w == p.q);
  CHECK(r.pivots == 1);
}

TEST_CASE("small pivoting: no answer, and the result untouched, where it has none to give",
          "[lcp][small]") {
  // No solution: w₀ = −1 − z₀ < 0 for every z ≥ 0.
  Problem none{Eigen::Matrix3d::Identity(), Eigen::Vector3d(-1, 1, 1)};
  none.M(0, 0) = -1.0;
  Problem nan = none;
  nan.M(2, 1) = std::nan("");
  Problem inf = none;
  inf.q[2] = INFINITY;
  // The same entries in a triangular M, which the substitution reads: NaN below the diagonal,
  // ∞ on it.
  Problem lower_nan{Eigen::Matrix3d::Identity(), Eigen::Vector3d(-1, 1, 1)};
  lower_nan.M(2, 1) = std::nan("");
  Problem diagonal_inf = lower_nan;
  diagonal_inf.M(2, 1) = 0.0;
  diagonal_inf.M(1, 1) = INFINITY;
  const Problem large = randomSpdProblem(int(kSmallPivotingSize) + 1, 1);
  for (const Problem* p : std::initializer_list<const Problem*>{&none, &nan, &inf, &lower_nan,
                                                                &diagonal_inf, &large}) {
    Result r = untouchedResult(&Result::z);
    CHECK_FALSE(solveBySmallPivoting(*p, r));
    requireUntouched(r, &Result::z);
  }
}
