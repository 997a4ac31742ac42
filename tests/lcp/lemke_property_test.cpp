// Property tests of LemkeSolver against the enumeration reference and on large SPD problems.
#include <catch2/catch.hpp>
#include <cstdint>

#include "lcp/enumeration.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"

using namespace stickslip::lcp;

namespace {

// P-matrices with n ≤ 10 and O(1) entries (randomPMatrixProblem: symmetric part ≥ I/2, so
// cond ≲ 1e2): both solvers end with an LU solve of the same basis, agreeing to ~1e2·n·ε.
constexpr double kAgreeTol = 1e-10;
// SPD problems up to n = 256 with O(1) entries and λ_min ≥ 0.1: Lemke's final LU re-solve
// leaves a relative residual of ~n·cond·ε ≲ 1e-11 (required by the brief: 1e-10).
constexpr double kPropertyTol = 1e-10;

}  // namespace

TEST_CASE("Lemke property: agrees with enumeration on 200 P-matrix problems",
          "[lcp][lemke][enumeration][property]") {
  LemkeSolver lemke;
  int compared = 0, nontrivial = 0;
  double worst = 0.0;
  for (int n = 1; n <= 10; ++n)
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      INFO("n = " << n << ", seed = " << seed);
      const Problem p = randomPMatrixProblem(n, seed);
      const Result e = solveByEnumeration(p);
      REQUIRE(e.ok());
      const Result l = lemke.solve(p);
      INFO("Lemke: " << l.status << " " << l.message);
      REQUIRE(l.status == Status::kSuccess);
      const double diff = (l.z - e.z).lpNorm<Eigen::Infinity>();
      worst = std::max(worst, diff);
      CHECK(diff < kAgreeTol);  // the P-matrix LCP has a unique solution
      CHECK(l.relative_residual < kAgreeTol);
      CHECK(residual(p, l.z).absolute == Approx(l.residual).margin(1e-15));
      ++compared;
      if ((e.z.array() > 0.0).count() > 0 && (e.z.array() > 0.0).count() < n) ++nontrivial;
    }
  CHECK(compared == 200);
  CHECK(nontrivial > 100);  // most solutions have mixed support, i.e. real pivoting happened
  WARN("Lemke vs enumeration: " << compared << " P-matrix problems, worst |z diff| " << worst);
}

TEST_CASE("Lemke property: SPD problems up to n = 256 reach relative residual 1e-10",
          "[lcp][lemke][property]") {
  LemkeSolver lemke;
  double worst = 0.0;
  int solved = 0;
  for (int n : {1, 2, 5, 16, 32, 64, 128, 256})
    for (std::uint64_t seed = 1; seed <= (n >= 128 ? 2u : 5u); ++seed) {
      INFO("n = " << n << ", seed = " << seed);
      const Problem p = randomSpdProblem(n, seed);
      const Result r = lemke.solve(p);
      INFO("Lemke: " << r.status << " " << r.message);
      CHECK(r.status == Status::kSuccess);
      if (!r.ok()) continue;
      ++solved;
      CHECK(r.relative_residual <= kPropertyTol);
      CHECK(residual(p, r.z).relative == Approx(r.relative_residual).margin(1e-15));
      CHECK((r.z.array() >= 0.0).all());
      worst = std::max(worst, r.relative_residual);
    }
  CHECK(solved == 34);
  WARN("Lemke on SPD: solved " << solved << "/34, worst relative residual " << worst);
}

TEST_CASE("Lemke property: solves singular PSD least-squares LCPs", "[lcp][lemke][property]") {
  // LCP(CᵀC, −Cᵀb) is the optimality system of min ‖C x − b‖² over x ≥ 0, a convex QP that is
  // bounded below, hence solvable; CᵀC is PSD, so Lemke must solve it [Cottle, Pang & Stone
  // 1992, Thm 4.4.9]. C runs over the 4096 complementary matrices of the 12×12 friction LCP
  // of randomFrictionProblem(3, 1); many are singular, so CᵀC is singular PSD and the rounded
  // data may be only nearly solvable. A Lemke failure therefore counts only where the
  // enumeration finds a solution of the rounded problem (relative residual ≤ 1e-9).
  const FrictionReduction red(randomFrictionProblem(3, 1));
  const Eigen::MatrixXd& M = red.lcp().M;
  const Eigen::VectorXd& b = red.lcp().q;
  const Eigen::Index n = b.size();
  LemkeSolver lemke;
  int solved = 0, failures = 0;
  long first_failure = -1;
  double worst = 0.0;
  Eigen::MatrixXd C(n, n);
  for (long mask = 0; mask < (1L << n); ++mask) {
    for (Eigen::Index j = 0; j < n; ++j)
      C.col(j) = (mask >> j & 1) ? Eigen::VectorXd(-M.col(j)) : Eigen::VectorXd::Unit(n, j);
    const Problem p{C.transpose() * C, -C.transpose() * b};
    const Result r = lemke.solve(p);
    if (r.ok()) {
      ++solved;
      worst = std::max(worst, r.relative_residual);
    } else if (solveByEnumeration(p).ok()) {
      if (failures++ == 0) first_failure = mask;
    }
  }
  INFO(failures << " of 4096 not solved by Lemke although enumeration solves them, first at "
                   "mask "
                << first_failure << "; worst relative residual of the " << solved
                << " solved: " << worst);
  CHECK(failures == 0);
  CHECK(worst <= kPropertyTol);
}
