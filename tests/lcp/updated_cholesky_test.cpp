// The updated factor must solve M_SS x = b_S as a fresh factorization of the same set does,
// through any sequence of joins and departures, on both sides of the blocked-kernel threshold;
// its last entries alone as the whole solve gives them.
#include "lcp/updated_cholesky.hpp"

#include <catch2/catch.hpp>
#include <numeric>
#include <random>

#include "lcp/random_problems.hpp"

using namespace stickslip::lcp;

namespace {

/// x_S from a dense solve of M_SS x = b_S, in S's order.
Eigen::VectorXd reference(const Eigen::MatrixXd& M, const Eigen::VectorXd& b,
                          const std::vector<Eigen::Index>& S) {
  const auto k = Eigen::Index(S.size());
  if (k == 0) return Eigen::VectorXd(0);
  Eigen::MatrixXd block(k, k);
  Eigen::VectorXd rhs(k);
  for (Eigen::Index r = 0; r < k; ++r) {
    rhs[r] = b[S[std::size_t(r)]];
    for (Eigen::Index c = 0; c < k; ++c) block(r, c) = M(S[std::size_t(r)], S[std::size_t(c)]);
  }
  return block.ldlt().solve(rhs);
}

/// Every index but one in three: 2n/3 of them, not in one run.
std::vector<Eigen::Index> twoInThree(Eigen::Index n) {
  std::vector<Eigen::Index> set;
  for (Eigen::Index i = 0; i < n; ++i)
    if (i % 3 != 1) set.push_back(i);
  return set;
}

/// 60 random joins and departures from a first set, each solve checked against a fresh one.
void joinAndLeave(const Eigen::MatrixXd& M, const Eigen::VectorXd& b,
                  const std::vector<Eigen::Index>& first) {
  const Eigen::Index n = M.rows();
  std::mt19937_64 rng{std::uint64_t(n)};
  UpdatedCholesky factor;
  factor.reset(n);
  REQUIRE(factor.factor(M, b, first));
  std::vector<char> in(std::size_t(n), 0);
  for (const Eigen::Index i : first) in[std::size_t(i)] = 1;
  Eigen::VectorXd x(n);
  for (int step = 0; step < 60; ++step) {
    const auto i = Eigen::Index(rng() % std::uint64_t(n));
    if (in[std::size_t(i)]) {
      const auto& S = factor.indices();
      factor.remove(Eigen::Index(std::find(S.begin(), S.end(), i) - S.begin()));
    } else {
      REQUIRE(factor.append(M, b, i));
    }
    in[std::size_t(i)] = !in[std::size_t(i)];
    factor.solve(x);
    const Eigen::VectorXd ref = reference(M, b, factor.indices());
    INFO("n = " << n << ", step " << step << ", |S| = " << factor.size());
    REQUIRE(factor.size() == std::count(in.begin(), in.end(), 1));
    if (factor.size() > 0)
      CHECK((x.head(factor.size()) - ref).cwiseAbs().maxCoeff() <=
            1e-11 * std::max(1.0, ref.cwiseAbs().maxCoeff()));
    // The last entries alone, from the corner of L: the whole solve's, to round-off.
    const Eigen::Index last = std::min<Eigen::Index>(3, factor.size());
    Eigen::VectorXd tail(last);
    factor.solveLast(last, tail.data());
    if (last > 0)
      CHECK((tail - x.segment(factor.size() - last, last)).cwiseAbs().maxCoeff() <=
            1e-13 * std::max(1.0, x.head(factor.size()).cwiseAbs().maxCoeff()));
  }
}

}  // namespace

TEST_CASE("Updated Cholesky: joins and departures solve as a fresh factor", "[lcp][cholesky]") {
  SECTION("dense M, on both sides of the blocked-kernel threshold") {
    // The first set holds 2n/3 indices: up to 90 by panels (50: 33, a last panel of one column),
    // at 300 through Eigen's blocked LLT.
    for (const int n : {5, 24, 50, 90, 300}) {
      const Problem p = randomSpdProblem(n, 17u + std::uint64_t(n));
      if (n == 300) REQUIRE(2 * n / 3 > UpdatedCholesky::kEigenFrom);
      joinAndLeave(p.M, -p.q, twoInThree(n));
    }
  }
  SECTION("block-diagonal M: the factor's zeros skipped, and kept zero through the updates") {
    const Problem dense = randomSpdProblem(4, 5);
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(20, 20);
    for (Eigen::Index block = 0; block < 5; ++block) M.block(4 * block, 4 * block, 4, 4) = dense.M;
    joinAndLeave(M, Eigen::VectorXd::LinSpaced(20, -1.0, 1.0), twoInThree(20));
  }
  SECTION("tridiagonal M: each panel updated only by the columns that reach it") {
    const Eigen::Index n = 41;
    Eigen::MatrixXd M = 2.01 * Eigen::MatrixXd::Identity(n, n);
    for (Eigen::Index i = 0; i + 1 < n; ++i) M(i, i + 1) = M(i + 1, i) = -1.0;
    joinAndLeave(M, Eigen::VectorXd::LinSpaced(n, -1.0, 1.0), twoInThree(n));
  }
  // A first set in one run, of 34 indices: panels whose blocks of four rows stop short of the
  // set's end, and a last panel of two columns.
  std::vector<Eigen::Index> run(34);
  std::iota(run.begin(), run.end(), Eigen::Index(0));
  SECTION("banded M (six entries each side of the diagonal): updates stop below the band") {
    const Eigen::Index n = 45;
    Eigen::MatrixXd M = 14.0 * Eigen::MatrixXd::Identity(n, n);
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = i + 1; j < std::min(n, i + 7); ++j)
        M(i, j) = M(j, i) = -1.0 / double(j - i);
    joinAndLeave(M, Eigen::VectorXd::LinSpaced(n, -1.0, 1.0), run);
  }
  SECTION("arrow M: the first column reaches every row, the others only their own") {
    const Eigen::Index n = 45;
    Eigen::MatrixXd M = Eigen::VectorXd::LinSpaced(n, 2.0, 3.0).asDiagonal();
    M(0, 0) = double(n);
    for (Eigen::Index i = 1; i < n; ++i) M(i, 0) = M(0, i) = 0.9;
    joinAndLeave(M, Eigen::VectorXd::LinSpaced(n, -1.0, 1.0), run);
  }
}

TEST_CASE("Updated Cholesky refuses a block that is not positive definite", "[lcp][cholesky]") {
  Eigen::Matrix3d M;
  M << 2, 1, 3,  //
      1, 2, 1,   //
      3, 1, 2;   // M_{0,2} = [2 3; 3 2] has the eigenvalue −1
  const Eigen::VectorXd b = Eigen::Vector3d(1, 2, 3);
  UpdatedCholesky factor;
  factor.reset(3);
  REQUIRE(factor.factor(M, b, {0, 1}));
  CHECK_FALSE(factor.append(M, b, 2));
  REQUIRE(factor.size() == 2);  // the set as before the refused join
  Eigen::VectorXd x(3);
  factor.solve(x);
  CHECK(x.head(2).isApprox(Eigen::Vector2d(0.0, 1.0), 1e-14));  // [2 1; 1 2] x = (1, 2)
  CHECK_FALSE(factor.factor(M, b, {0, 2}));
  // A subnormal pivot, whose reciprocal overflows, counts as zero: by panels and by appending.
  const Eigen::Matrix3d tiny = 1e-310 * Eigen::Matrix3d::Identity();
  CHECK_FALSE(factor.factor(tiny, b, {0}));
  REQUIRE(factor.factor(tiny, b, {}));
  CHECK_FALSE(factor.append(tiny, b, 0));
}
