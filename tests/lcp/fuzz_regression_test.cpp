// Inputs found by the fuzz targets (fuzz/, scripts/fuzz.sh) or while writing them, kept as
// regression tests: each once crashed, hung or broke an invariant of the library.

#include <catch2/catch.hpp>

#include <limits>
#include <sstream>
#include <string>

#include "lcp/enumeration.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/lemke.hpp"
#include "lcp/message_of.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"
#include "lcp/trial_and_error.hpp"

using namespace stickslip::lcp;

using stickslip::test::messageOf;

TEST_CASE("a sparse matrix too large for dense storage is an input error, not an allocation",
          "[lcp][siconos-format][fuzz]") {
  // fuzz_dat_reader: storage 1 with zero blocks declares a 10⁶×10⁶ all-zero M in five tokens;
  // the reader allocated it densely (8 TB: std::bad_alloc, or an abort under ASan) before it
  // found that q was missing.
  std::istringstream lcp("1000000 1 1000000 1000000 0\n");
  CHECK_THAT(messageOf([&] { readLcpDat(lcp, "huge.dat"); }),
             Catch::Contains("lcp::readLcpDat: huge.dat:1:") &&
                 Catch::Contains("too large for dense storage"));
  std::istringstream fc2d("2 500000 1 1000000 1000000 0\n");
  CHECK_THAT(messageOf([&] { readFc2dDat(fc2d, "huge.dat"); }),
             Catch::Contains("too large for dense storage"));
  // Below the bound the same layout is read, and fails on the missing q.
  std::istringstream small("3 1 3 3 0\n");
  CHECK_THAT(messageOf([&] { readLcpDat(small, "small.dat"); }), Catch::Contains("file ends early"));
}

TEST_CASE("an MLCP without complementarity rows is solved by the reduction",
          "[lcp][mlcp][fuzz]") {
  // fuzz_dat_reader: "0 1 1 0 / 23 / 1" is an MLCP with n = 1, m = 0: A = [23], a = [1]. The
  // reduction's A⁻¹C solve ran Eigen's triangular solver on the empty C, which binds a
  // reference to its null data (UBSan: reference binding to null pointer).
  std::istringstream in("0 1 1 0\n23\n\n1\n");
  const MixedProblem p = readMlcpDat(in, "m0.dat");
  REQUIRE(p.complementaritySize() == 0);
  const MixedResult r = solveMlcp("lemke", p);
  REQUIRE(r.ok());
  CHECK(r.u(0) == Approx(-1.0 / 23.0));
  CHECK(r.v.size() == 0);
}

TEST_CASE("an MLCP with a singular A and no complementarity rows", "[lcp][mlcp][fuzz]") {
  // fuzz_dat_reader: n = 1, m = 0, A = [0]: the null-space reduction took the largest entry
  // of an empty row of E (an Eigen assertion; undefined without assertions). 0·u + a = 0 has
  // no solution for a = 1 and every u for a = 0.
  MixedProblem p;
  p.A = Eigen::MatrixXd::Zero(1, 1);
  p.B.resize(0, 0);
  p.C.resize(1, 0);
  p.D.resize(0, 1);
  p.a = Eigen::VectorXd::Ones(1);
  p.b.resize(0);
  const MixedResult none = solveMlcp("lemke", p);
  CHECK(none.status == Status::kRayTermination);
  CHECK_THAT(none.message, Catch::Contains("inconsistent"));
  p.a.setZero();
  const MixedResult any = solveMlcp("lemke", p);
  CHECK(any.ok());
  // Second finding: with two such rows, E.row(1) of the empty E offset its null data pointer.
  p.A = Eigen::MatrixXd::Zero(2, 2);
  p.C.resize(2, 0);
  p.D.resize(0, 2);
  p.a = Eigen::Vector2d(0.0, -1.0);
  CHECK(solveMlcp("lemke", p).status == Status::kRayTermination);
  p.a.setZero();
  CHECK(solveMlcp("lemke", p).ok());
}

TEST_CASE("an MLCP without free variables is an LCP", "[lcp][mlcp][fuzz]") {
  // fuzz_dat_reader: "0 1 0 1 / 2 / -1" is an MLCP with n = 0, m = 1: B = [2], b = [-1].
  // solveMlcpWithLemke asked the never computed factorization of the empty A whether it is
  // invertible (an Eigen assertion; undefined state without assertions).
  std::istringstream in("0 1 0 1\n2\n-1\n");
  const MixedProblem p = readMlcpDat(in, "n0.dat");
  REQUIRE(p.freeSize() == 0);
  const MixedResult r = solveMlcp("lemke", p);
  REQUIRE(r.ok());
  CHECK(r.v(0) == Approx(0.5));
  CHECK(r.u.size() == 0);
}

TEST_CASE("Lemke tells an overflowing norm of finite entries from NaN/Inf", "[lcp][lemke][fuzz]") {
  // fuzz_lemke: finite entries near DBL_MAX overflow the row sums of |M|; Lemke refused them
  // as "M has a NaN or Inf entry", which is false. It still refuses them, saying why.
  constexpr double kMax = std::numeric_limits<double>::max();
  Problem p;
  p.M.resize(2, 2);
  p.M << kMax, kMax, std::numeric_limits<double>::denorm_min(), 1e300;
  p.q = Eigen::Vector2d(-1.0, 1e-300);
  const Result r = LemkeSolver{}.solve(p);
  CHECK(r.status == Status::kInvalidInput);
  CHECK_THAT(r.message, Catch::Contains("overflows") && !Catch::Contains("NaN"));
  p.M(0, 0) = std::numeric_limits<double>::infinity();
  CHECK_THAT(LemkeSolver{}.solve(p).message, Catch::Contains("NaN or Inf"));
}

TEST_CASE("single contact: the LCP route sticks where trial-and-error does at extreme scales",
          "[lcp][trial-and-error][fuzz]") {
  // fuzz_friction: w = 3.4e-71 with μs N = 36 sticks (|a₀| = 1.8e-305 ≤ w μs N = 8.2e-70), but
  // the unscaled LCP [[w, 1], [−1, 0]] let Lemke accept a⁻ ≈ 1e-69 (round-off next to the
  // force row's 72) and the LCP route reported slip. It now solves the LCP in the contact's
  // units. The other cases stretch the same scales both ways.
  LemkeSolver lemke;
  struct Case {
    double a0, w, N, mu_s, mu_k;
  };
  const Case cases[] = {
      {1.8135168448212458e-305, 3.424123380202701e-71, 6.0, 6.0, 2.0},  // the finding
      {1e-60, 1e-71, 6.0, 6.0, 2.0},                                    // slip, same scales
      {-1e-60, 1e-71, 6.0, 6.0, 2.0},
      {3.0, 1e60, 1e-60, 0.5, 0.25},   // huge w, tiny N: w μs N = 0.5 < 3, slip
      {0.4, 1e60, 1e-60, 0.5, 0.25},   // stick
      {1e200, 1e-200, 1e100, 0.5, 0.1},  // slip
      // fuzz_friction, second finding: |a₀| is 4.4e-11 inside the cone w μs N = 2, far above
      // the contact's tolerance (4e-12), but within Lemke's acceptance test, which returned
      // z = 0 with a⁺ = q₁ < 0 and so "slip".
      {1.9999999999563443, 1.0, 4.0, 0.5, 0.5},
      {-1.9999999999563443, 1.0, 4.0, 0.5, 0.5},
  };
  for (const Case& k : cases) {
    SingleContact c;
    c.free_acceleration = k.a0;
    c.compliance = k.w;
    c.normal_force = k.N;
    c.mu_static = k.mu_s;
    c.mu_kinetic = k.mu_k;
    INFO("a0 = " << k.a0 << ", w = " << k.w << ", N = " << k.N);
    const SingleContactResult t = solveByTrialAndError(c);
    const SingleContactResult l = solveSingleContactWithLemke(c, lemke);
    REQUIRE(t.ok());
    REQUIRE(l.ok());
    CHECK(t.mode == l.mode);
    CHECK(l.friction == Approx(t.friction).epsilon(1e-12).margin(1e-12 * k.mu_s * k.N));
  }
}

TEST_CASE("friction: a positive definite 4-contact problem without friction is solved",
          "[lcp][lemke][friction][fuzz]") {
  // fuzz_friction (crash-51c2970e): W = A Aᵀ + I (positive definite), q = −4, μ = 0 at all
  // four contacts. Lemke ended on a secondary ray after a run of degenerate pivots, though the
  // problem has a solution (exact-arithmetic lexicographic Lemke finds it in 22 pivots).
  Eigen::MatrixXd A(8, 8);
  A << -4, 0.5, 0.5, -4, -4, -4, -4, -4,  //
      0.5, 0.5, 0.5, 0.5, -4, -4, -4, -4,  //
      -4, -4, 0.5, -4, -4, -4, -4, -4,     //
      0.5, 0, -0.5, -4, -4, -4, -4, -4,    //
      0.5, -4, 0.5, -4, -4, -4, -4, -4,    //
      0.5, 0.5, 0.5, -4, -4, -4, -4, -4,   //
      0.5, -4, 0.5, -4, -4, -4, -4, -4,    //
      -0.5, 0.5, -3.5, -4, -4, -4, -4, -4;
  FrictionProblem2D p;
  p.W = A * A.transpose() + Eigen::MatrixXd::Identity(8, 8);
  p.q = Eigen::VectorXd::Constant(8, -4.0);
  p.mu = Eigen::VectorXd::Zero(4);
  LemkeSolver lemke;
  const FrictionResult r = solveFrictionWithLemke(p, lemke);
  INFO(r.status << ": " << r.message);
  REQUIRE(r.ok());
  CHECK(residual(p, r.r).relative <= 1e-12);
  // μ = 0: no tangential force, and the normal forces solve LCP(W_nn, q_n), whose matrix is
  // positive definite, so they are unique; enumeration gives them independently.
  Problem normal;
  normal.M.resize(4, 4);
  normal.q.resize(4);
  for (int i = 0; i < 4; ++i) {
    normal.q(i) = p.q(2 * i);
    for (int j = 0; j < 4; ++j) normal.M(i, j) = p.W(2 * i, 2 * j);
  }
  const Result e = solveByEnumeration(normal);
  REQUIRE(e.ok());
  // Siconos' 2D friction enumeration on the problem itself says the same.
  const FrictionResult s = solveFriction("siconos-enum", p);
  INFO("siconos-enum: " << s.status << ": " << s.message);
  REQUIRE(s.ok());
  for (int i = 0; i < 4; ++i) {
    CHECK(r.r(2 * i) == Approx(e.z(i)).margin(1e-12));
    CHECK(r.r(2 * i + 1) == 0.0);
    CHECK(s.r(2 * i) == Approx(e.z(i)).margin(1e-9));
    CHECK(s.r(2 * i + 1) == Approx(0.0).margin(1e-9));
  }
  // The same problem with friction, μ = 0.25 … 2 (the fuzz target's range), must solve too.
  for (const double mu : {0.25, 1.0, 2.0}) {
    p.mu.setConstant(mu);
    const FrictionResult f = solveFrictionWithLemke(p, lemke);
    INFO("mu = " << mu << ": " << f.status << ": " << f.message);
    CHECK(f.ok());
    CHECK(residual(p, f.r).relative <= 1e-9);
  }
}
