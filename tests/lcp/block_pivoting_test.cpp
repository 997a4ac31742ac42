// Block principal pivoting: on symmetric positive definite M it must give the unique solution
// (checked against Lemke, an independent method, and by the residual); on any other M it must
// fail with a reason, never answer wrongly.
#include "lcp/block_pivoting.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "siconos_data.hpp"

using namespace stickslip::lcp;

TEST_CASE("Block pivoting matches Lemke on seeded SPD problems", "[lcp][block-pivoting]") {
  BlockPivotingSolver bpp;
  LemkeSolver lemke;
  for (const int n : {1, 2, 3, 5, 8, 16, 33, 64, 128}) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
      const Problem p = randomSpdProblem(n, 7919u * std::uint64_t(n) + seed);
      const Result ours = bpp.solve(p), ref = lemke.solve(p);
      INFO("n = " << n << ", seed " << seed << ": " << ours.message);
      REQUIRE(ours.ok());
      REQUIRE(ref.ok());
      CHECK(ours.relative_residual <= 1e-12);
      // The solution is unique: the two methods agree to their round-off.
      CHECK((ours.z - ref.z).cwiseAbs().maxCoeff() <=
            1e-9 * std::max(1.0, ref.z.cwiseAbs().maxCoeff()));
      CHECK(ours.pivots <= 12);  // a few rounds, where Lemke pivots ~n/2 times
    }
  }
}

TEST_CASE("Block pivoting on easy and degenerate SPD problems", "[lcp][block-pivoting]") {
  BlockPivotingSolver bpp;
  SECTION("q ≥ 0: z = 0 in one round") {
    const Problem p{Eigen::MatrixXd::Identity(3, 3) * 2.0, Eigen::Vector3d(1.0, 0.0, 4.0)};
    const Result r = bpp.solve(p);
    REQUIRE(r.ok());
    CHECK(r.z.isZero());
    CHECK(r.pivots == 1);
  }
  SECTION("every z positive: the linear system's solution") {
    Eigen::Matrix2d M;
    M << 2, 1, 1, 2;
    const Problem p{M, Eigen::Vector2d(-3, -3)};
    const Result r = bpp.solve(p);
    REQUIRE(r.ok());
    CHECK(r.z[0] == Approx(1.0).margin(1e-14));
    CHECK(r.z[1] == Approx(1.0).margin(1e-14));
  }
  SECTION("a degenerate vertex (z_i = w_i = 0) is accepted") {
    Eigen::Matrix2d M;
    M << 1, 0, 0, 1;
    const Problem p{M, Eigen::Vector2d(0.0, -1.0)};
    const Result r = bpp.solve(p);
    REQUIRE(r.ok());
    CHECK(r.z[0] == 0.0);
    CHECK(r.z[1] == Approx(1.0));
  }
  SECTION("the empty problem") {
    const Result r = bpp.solve(Problem{Eigen::MatrixXd(0, 0), Eigen::VectorXd(0)});
    CHECK(r.ok());
  }
}

TEST_CASE("Block pivoting joins a cascade of indices ahead: a 1-D obstacle problem",
          "[lcp][block-pivoting]") {
  // A membrane (M = tridiag(−1, 2.01, −1), a Z-matrix) pressed onto an obstacle by a load
  // around x = 0.3: each index that joins F pushes its neighbour's w below 0, one more a round.
  // Joining ahead those that the joiners' new z alone pushes below 0 (for a Z-matrix, only
  // those that would join in a later round anyway), then those that the newest joiners push
  // below 0, and so on, takes 2 rounds: 7 with one pass of the estimate, 15 without it.
  const Eigen::Index n = 200;
  Problem p;
  p.M = Eigen::MatrixXd::Zero(n, n);
  p.q.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    p.M(i, i) = 2.01;
    if (i > 0) p.M(i, i - 1) = p.M(i - 1, i) = -1.0;
    const double x = double(i) / double(n - 1), bump = (x - 0.3) / 0.1;
    p.q[i] = 0.02 - 0.05 * std::exp(-bump * bump);
  }
  BlockPivotingSolver bpp;
  const Result r = bpp.solve(p), ref = LemkeSolver().solve(p);
  REQUIRE(r.ok());
  REQUIRE(ref.ok());
  CHECK((r.z - ref.z).cwiseAbs().maxCoeff() <= 1e-9 * std::max(1.0, ref.z.cwiseAbs().maxCoeff()));
  CHECK(r.pivots <= 2);
}

TEST_CASE("Block pivoting refuses what it cannot solve, with a reason", "[lcp][block-pivoting]") {
  BlockPivotingSolver bpp;
  SECTION("a nonsymmetric P-matrix") {
    const Problem p = randomPMatrixProblem(6, 3);
    const Result r = bpp.solve(p);
    CHECK(r.status == Status::kInvalidInput);
    CHECK_THAT(r.message, Catch::Contains("not symmetric"));
  }
  SECTION("a symmetric indefinite M") {
    Eigen::Matrix2d M;
    M << 1, 2, 2, 1;  // eigenvalues 3 and −1
    // Into a result that holds an earlier solve's answer: a failure leaves z = w = 0.
    Result r = bpp.solve(Problem{Eigen::Matrix2d::Identity(), Eigen::Vector2d(-1, -1)});
    REQUIRE(r.ok());
    bpp.solve(Problem{M, Eigen::Vector2d(-1, -1)}, r);
    CHECK(r.status == Status::kInvalidInput);
    CHECK_THAT(r.message, Catch::Contains("not positive definite"));
    CHECK(r.z == Eigen::Vector2d::Zero());
    CHECK(r.w == Eigen::Vector2d::Zero());
  }
  SECTION("an infinite entry of M, named by its place") {
    Eigen::Matrix2d M = Eigen::Matrix2d::Identity();
    M(1, 0) = INFINITY;
    const Result r = bpp.solve(Problem{M, Eigen::Vector2d(-1, -1)});
    CHECK(r.status == Status::kInvalidInput);
    CHECK_THAT(r.message, Catch::Contains("(1, 0)"));
  }
  SECTION("NaN in q") {
    const Result r = bpp.solve(Problem{Eigen::MatrixXd::Identity(2, 2), Eigen::Vector2d(NAN, 1)});
    CHECK(r.status == Status::kInvalidInput);
    CHECK(r.z.size() == 2);
  }
}

TEST_CASE("Block pivoting on Siconos' LCP collection: solves or refuses, never wrong",
          "[lcp][block-pivoting]") {
  BlockPivotingSolver bpp;
  LemkeSolver lemke;
  int solved = 0;
  for (const auto& file : stickslip::test::datFiles("lcp")) {
    const Problem p = readLcpDat(file);
    const Result r = bpp.solve(p);
    INFO(file.filename().string() << ": " << r.message);
    if (!r.ok()) continue;
    ++solved;
    CHECK(residual(p, r.z).relative <= BlockPivotingSolver::kAcceptTol);
    const Result ref = lemke.solve(p);
    if (ref.ok() &&
        Eigen::LLT<Eigen::MatrixXd>(p.M).info() == Eigen::Success)  // unique: the same z
      CHECK((r.z - ref.z).cwiseAbs().maxCoeff() <=
            1e-8 * std::max(1.0, ref.z.cwiseAbs().maxCoeff()));
  }
  CHECK(solved >= 3);  // lcp_trivial, lcp_mmc and the block copies are symmetric positive definite
}
