#include "lcp/linear_program.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>

using namespace stickslip::lcp;

TEST_CASE("linear program: a textbook optimum by Lemke and by vertex enumeration, with its binding rows", "[lcp][lp]") {
  // min −x1 − x2 s.t. x1 + 2 x2 ≤ 4, 3 x1 + x2 ≤ 6, x ≥ 0: the vertex (1.6, 1.2), −2.8.
  LinearProgram lp;
  lp.A.resize(4, 2);
  lp.A << 1, 2, 3, 1, -1, 0, 0, -1;
  lp.b.resize(4);
  lp.b << 4, 6, 0, 0;
  lp.c.resize(2);
  lp.c << -1, -1;
  for (LpMethod method : {LpMethod::kLemke, LpMethod::kVertices, LpMethod::kSimplex}) {
    const LpResult r = solveLinearProgram(lp, method);
    REQUIRE(r.status == LpStatus::kOptimal);
    CHECK(r.x(0) == Approx(1.6).epsilon(1e-12));
    CHECK(r.x(1) == Approx(1.2).epsilon(1e-12));
    CHECK(r.objective == Approx(-2.8).epsilon(1e-12));
  }
  // The dual, by either method: c + Aᵀu = 0 with u on the two binding rows only: u = (0.4, 0.2, 0, 0).
  for (LpMethod method : {LpMethod::kLemke, LpMethod::kVertices, LpMethod::kSimplex}) {
    const LpResult r = solveLinearProgram(lp, method);
    CHECK(r.dual(0) == Approx(0.4).epsilon(1e-12));
    CHECK(r.dual(1) == Approx(0.2).epsilon(1e-12));
    CHECK(r.dual(2) == Approx(0.0).margin(1e-12));
    CHECK(r.dual(3) == Approx(0.0).margin(1e-12));
  }
}

TEST_CASE("linear program: at a degenerate vertex, vertex enumeration's dual is that of a dual-feasible basis",
          "[lcp][lp]") {
  // min −x1 − x2 s.t. x1 ≤ 1, x2 ≤ 1, x1 + x2 ≤ 2, x1 − x2 ≤ 0, and x2 ≤ 1 again: five
  // rows tight at (1, 1); the basis {x1 ≤ 1, x2 ≤ 1} gives u = (1, 1), others a negative u.
  LinearProgram lp;
  lp.A.resize(5, 2);
  lp.A << 1, 0, 0, 1, 1, 1, 1, -1, 0, 1;
  lp.b.resize(5);
  lp.b << 1, 1, 2, 0, 1;
  lp.c.resize(2);
  lp.c << -1, -1;
  const LpResult r = solveLinearProgram(lp, LpMethod::kVertices);
  REQUIRE(r.status == LpStatus::kOptimal);
  CHECK(r.objective == Approx(-2.0).epsilon(1e-12));
  CHECK((r.dual.array() >= 0.0).all());
  CHECK((lp.c + lp.A.transpose() * r.dual).lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(std::abs(r.dual.dot(lp.b - lp.A * r.x)) < 1e-12);
}

TEST_CASE("linear program: infeasible and unbounded programs are told apart", "[lcp][lp]") {
  LinearProgram infeasible;  // x ≤ 1 and x ≥ 2
  infeasible.A.resize(2, 1);
  infeasible.A << 1, -1;
  infeasible.b.resize(2);
  infeasible.b << 1, -2;
  LinearProgram unbounded;  // min −x s.t. x ≥ 0
  unbounded.A.resize(1, 1);
  unbounded.A << -1;
  unbounded.b.resize(1);
  unbounded.b << 0;
  unbounded.c.resize(1);
  unbounded.c << -1;
  for (LpMethod method : {LpMethod::kLemke, LpMethod::kVertices, LpMethod::kSimplex}) {
    CHECK(solveLinearProgram(infeasible, method).status == LpStatus::kInfeasible);
    const LpResult u = solveLinearProgram(unbounded, method);
    CHECK(u.status == LpStatus::kUnbounded);
    REQUIRE(u.x.size() == 1);
    CHECK(u.x(0) >= -1e-12);  // a feasible point
  }
  LinearProgram bad = infeasible;
  bad.b.resize(3);
  CHECK_THROWS_AS(solveLinearProgram(bad), std::invalid_argument);
}

TEST_CASE("linear program: Lemke, the simplex and vertex enumeration agree on random bounded programs",
          "[lcp][lp]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    // Two or three variables in the box |x| ≤ 1 plus two random cuts that keep 0 feasible.
    const Eigen::Index n = 2 + trial % 2, m = 2 * n + 2;
    LinearProgram lp;
    lp.A = Eigen::MatrixXd::Zero(m, n);
    lp.b = Eigen::VectorXd::Ones(m);
    for (Eigen::Index i = 0; i < n; ++i) {
      lp.A(2 * i, i) = 1.0;
      lp.A(2 * i + 1, i) = -1.0;
    }
    for (Eigen::Index i = 2 * n; i < m; ++i) {
      for (Eigen::Index j = 0; j < n; ++j) lp.A(i, j) = u(rng);
      lp.b(i) = 0.5 + 0.5 * u(rng);
    }
    lp.c = Eigen::VectorXd::NullaryExpr(n, [&] { return u(rng); });
    const LpResult lemke = solveLinearProgram(lp), enumerated = solveLinearProgram(lp, LpMethod::kVertices);
    const LpResult simplex = solveLinearProgram(lp, LpMethod::kSimplex);
    REQUIRE(lemke.status == LpStatus::kOptimal);
    REQUIRE(enumerated.status == LpStatus::kOptimal);
    REQUIRE(simplex.status == LpStatus::kOptimal);
    CHECK(lemke.objective == Approx(enumerated.objective).margin(1e-10));
    CHECK(simplex.objective == Approx(enumerated.objective).margin(1e-10));
    CHECK(((lp.A * lemke.x - lp.b).array() <= 1e-10).all());
    CHECK(((lp.A * simplex.x - lp.b).array() <= 1e-10).all());
  }
}

TEST_CASE("linear program: the simplex on a degenerate program of near-parallel rows (a disk's cutting planes)",
          "[lcp][lp]") {
  // max t over (x, y, t) with the disk ‖(x, y)‖ ≤ 1 − t written as 400 tangent cuts
  // cos φ x + sin φ y + t ≤ 1 (φ every 1.8°, and ±2^-j for j < 20: a cluster down to 1e-6 rad
  // about 0), plus x ≥ 0.2: at the optimum t = 0.8, (0.2, 0), the cluster's cuts are all
  // within 1e-13 of tight, where pivoting methods meet ties and bases of condition ~1e6.
  LinearProgram lp;
  const int cuts = 400;
  lp.A = Eigen::MatrixXd::Zero(cuts + 1, 3);
  lp.b = Eigen::VectorXd::Ones(cuts + 1);
  for (int k = 0; k < cuts; ++k) {
    const double phi = k < 200 ? 2.0 * 3.141592653589793 * k / 200 : std::ldexp(k % 2 ? 1.0 : -1.0, -((k - 200) % 20));
    lp.A.row(k) << std::cos(phi), std::sin(phi), 1.0;
  }
  lp.A.row(cuts) << -1.0, 0.0, 0.0;
  lp.b(cuts) = -0.2;
  lp.c = Eigen::Vector3d(0.0, 0.0, -1.0);
  const LpResult r = solveLinearProgram(lp, LpMethod::kSimplex);
  REQUIRE(r.status == LpStatus::kOptimal);
  CHECK(((lp.A * r.x - lp.b).array() <= 1e-12).all());
  CHECK((lp.c + lp.A.transpose() * r.dual).lpNorm<Eigen::Infinity>() < 1e-10);
  CHECK(r.x(2) == Approx(0.8).margin(1e-12));  // the cut at φ = 0 is tight at (0.2, 0)
  CHECK(r.x(0) == Approx(0.2).margin(1e-12));
}
