// Spatial friction on the round cone by our own solvers (lcp/round_cone.hpp): the cone's
// geometry and Siconos' error measure against Siconos' own, the exact local solve, and every
// problem of Siconos' fc3d collection solved to its error 1e-8, checked independently of our
// residual (cone, complementarity, Coulomb's direction) and against Siconos' answers.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>

#include "lcp/friction_cone.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"
#include "siconos_data.hpp"

using namespace stickslip;
using Eigen::Matrix3d;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

/// Coulomb's law checked term by term, not through any natural map: per contact r ∈ K, uₙ ≥ 0,
/// rₙuₙ = 0, and a closed contact either sticks (uₜ = 0) or slips with rₜ = −μ rₙ uₜ/‖uₜ‖.
/// Tolerances relative to the problem's velocity scale (‖q‖∞, ‖W‖‖r‖). Returns "" or the first
/// violation.
std::string coulombViolation(const lcp::FrictionProblem3D& p, const VectorXd& r, double tol) {
  const VectorXd u = p.W * r + p.q;
  const double rmax = std::max(r.cwiseAbs().maxCoeff(), 1e-300);
  const double vscale = std::max(p.q.cwiseAbs().maxCoeff(), p.W.cwiseAbs().maxCoeff() * rmax);
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    const Vector3d ri = r.segment<3>(3 * i), ui = u.segment<3>(3 * i);
    const double mu = p.mu(i), rt = ri.tail<2>().norm(), ut = ui.tail<2>().norm();
    const std::string at = " at contact " + std::to_string(i);
    if (ri(0) < -tol * rmax || rt > mu * ri(0) + tol * rmax) return "r outside the cone" + at;
    if (ui(0) < -tol * vscale) return "u_n < 0" + at;
    if (ri(0) * ui(0) > tol * rmax * vscale) return "r_n u_n > 0" + at;
    if (ri(0) <= tol * rmax || ut <= tol * vscale) continue;  // open, or stuck
    const Eigen::Vector2d expected = -mu * ri(0) * ui.tail<2>() / ut;
    if ((ri.tail<2>() - expected).norm() > tol * rmax + 1e-6 * mu * ri(0)) return "slip not opposed to u_t" + at;
  }
  return "";
}

}  // namespace

TEST_CASE("round cone: the projection and Siconos' error measure agree with Siconos' own", "[lcp][fc3d][round]") {
  std::mt19937 rng(7);
  std::normal_distribution<double> g;
  for (int k = 0; k < 200; ++k) {
    const Vector3d x{g(rng), g(rng), g(rng)};
    const double mu = k % 10 == 0 ? 0.0 : std::abs(g(rng));
    const Vector3d p = lcp::projectOnCone(x, mu);
    // p ∈ K, x − p ⊥ p, and x − p in the polar cone: the three conditions of a projection.
    CHECK(p.tail<2>().norm() <= mu * p(0) + 1e-12);
    CHECK(std::abs((x - p).dot(p)) <= 1e-12 * (1.0 + x.squaredNorm()));
    const Vector3d d = x - p;
    CHECK(mu * d.tail<2>().norm() <= -d(0) + 1e-12);
  }
  for (const auto& file : test::datFiles("fc3d")) {
    const lcp::FrictionProblem3D p = lcp::readFc3dDat(file);
    VectorXd r(p.q.size());
    for (Eigen::Index i = 0; i < r.size(); ++i) r(i) = g(rng);
    const VectorXd u = p.W * r + p.q;
    CAPTURE(file.filename().string());
    CHECK(lcp::fc3dError(r, u, p.mu, p.q.norm()) == Approx(lcp::siconosFc3dError(p, r)).epsilon(1e-10));
  }
}

TEST_CASE("round cone: one contact's problem solved exactly in each mode", "[lcp][fc3d][round]") {
  std::mt19937 rng(11);
  std::normal_distribution<double> g;
  int modes[3] = {0, 0, 0};
  for (int k = 0; k < 3000; ++k) {
    Matrix3d m;
    for (int a = 0; a < 9; ++a) m(a) = g(rng);
    const Matrix3d A = m * m.transpose() + 0.1 * Matrix3d::Identity();  // a Delassus block: SPD
    const Vector3d b{g(rng), g(rng), g(rng)};
    const double mu = k % 50 == 0 ? 0.0 : 0.05 + std::abs(g(rng)) * 0.5;
    Vector3d r;
    lcp::ConeMode mode{};
    REQUIRE(lcp::solveContact(A, b, mu, r, &mode));
    ++modes[int(mode)];
    lcp::FrictionProblem3D p{A, b, VectorXd::Constant(1, mu)};
    CAPTURE(k, mu, A, b.transpose(), r.transpose());
    CHECK(coulombViolation(p, r, 1e-9) == "");
    CHECK(lcp::fc3dError(r, A * r + b, p.mu, b.norm()) <= 1e-12);
  }
  CHECK(modes[0] > 100);  // open
  CHECK(modes[1] > 100);  // stick
  CHECK(modes[2] > 100);  // slip
}

TEST_CASE("round cone: every problem of Siconos' fc3d collection solved to its error 1e-8 by auto",
          "[lcp][fc3d][round][slow]") {
  for (const auto& file : test::datFiles("fc3d")) {
    const lcp::FrictionProblem3D p = lcp::readFc3dDat(file);
    CAPTURE(file.filename().string());
    lcp::RoundConeOptions o;
    o.tolerance = 1e-8;
    lcp::FrictionResult ours;
    lcp::RoundConeSolver(o).solve(p, ours);
    REQUIRE(ours.ok());
    CHECK(lcp::siconosFc3dError(p, ours.r) <= 1e-8);
    CHECK((ours.u - (p.W * ours.r + p.q)).norm() <= 1e-12 * (p.q.norm() + p.W.norm() * ours.r.norm()));
    CHECK(coulombViolation(p, ours.r, 1e-6) == "");
    // Against Siconos' Newton or prox where it reached the tolerance: the same velocities (the
    // reactions of a hyperstatic W are not unique; W r is).
    for (const char* name : {"nsn-ac", "prox"}) {
      if (std::string(name) == "nsn-ac" && p.contacts() > 100) continue;  // its dense Newton: minutes
      lcp::SiconosOptions so;
      so.tolerance = 1e-10;
      const lcp::FrictionResult theirs = lcp::SiconosFc3dSolver(name, so).solve(p);
      if (!(lcp::siconosFc3dError(p, theirs.r) <= 1e-10)) continue;
      const double scale = std::max(p.q.norm(), (p.W * ours.r).norm());
      CAPTURE(name);
      CHECK((ours.u - theirs.u).norm() <= 1e-4 * scale);
      break;
    }
  }
}

TEST_CASE("round cone: the journal's hyperstatic steps (W of rank 6 in 12) solved by auto, a wedged one reported",
          "[lcp][fc3d][round]") {
  const std::filesystem::path folder = test::kSiconosData.parent_path() / "fc3d-journal";
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    const lcp::FrictionProblem3D p = lcp::readFc3dDat(folder / ("journal-4-contacts-" + std::string(name) + ".dat"));
    CAPTURE(name);
    lcp::FrictionResult ours;
    lcp::RoundConeSolver().solve(p, ours);
    CAPTURE(ours.message);
    REQUIRE(ours.ok());
    CHECK(lcp::siconosFc3dError(p, ours.r) <= 1e-10);
    CHECK(coulombViolation(p, ours.r, 1e-8) == "");
  }
  // -d by auto against our NSGS alone, another algorithm: the same velocities (unique where W
  // is rank-deficient, unlike the impulses).
  const lcp::FrictionProblem3D d = lcp::readFc3dDat(folder / "journal-4-contacts-d.dat");
  lcp::FrictionResult ours, sweeps;
  lcp::RoundConeSolver().solve(d, ours);
  lcp::RoundConeOptions nsgs;
  nsgs.method = lcp::RoundConeMethod::kNsgs;
  nsgs.max_sweeps = 1000000;
  lcp::RoundConeSolver(nsgs).solve(d, sweeps);
  CAPTURE(sweeps.message);
  REQUIRE(sweeps.ok());
  CHECK((ours.u - sweeps.u).norm() <= 1e-6 * d.q.norm());
  // And against Siconos' Newton where it solves it: it does with some BLAS kernels only
  // (OpenBLAS' Haswell kernel, not its SkylakeX one), so only its answer is checked, not its success.
  lcp::SiconosOptions so;
  so.tolerance = 1e-10;
  const lcp::FrictionResult theirs = lcp::SiconosFc3dSolver("nsn-ac", so).solve(d);
  if (lcp::siconosFc3dError(d, theirs.r) <= 1e-10)
    CHECK((ours.u - theirs.u).norm() <= 1e-6 * d.q.norm());
  else
    WARN("Siconos' nsn-ac does not solve journal-4-contacts-d with this machine's BLAS kernel");
  // Wedged (μ = 1 on both rims): no bounded solution, and auto says it did not reach the tolerance.
  const lcp::FrictionProblem3D wedged = lcp::readFc3dDat(folder / "journal-wedged-mu1.dat");
  lcp::FrictionResult none;
  lcp::RoundConeSolver().solve(wedged, none);
  CHECK(none.status == lcp::Status::kPivotLimit);
  CHECK(none.message.find("not reached") != std::string::npos);
}

TEST_CASE("round cone: nsgs and newton alone, warm starts, and the choice auto makes", "[lcp][fc3d][round]") {
  const lcp::FrictionProblem3D rover = lcp::readFc3dDat(test::kSiconosData / "fc3d" / "Rover1039.dat");
  for (const char* method : {"nsgs", "newton", "auto"}) {
    lcp::RoundConeOptions o;
    o.method = lcp::roundConeMethod(method);
    lcp::RoundConeSolver solver(o);
    lcp::FrictionResult r;
    solver.solve(rover, r);
    CAPTURE(method, r.message);
    REQUIRE(r.ok());
    CHECK(r.relative_residual <= o.tolerance);
    CHECK(lcp::siconosFc3dError(rover, r.r) <= 1e-9);
    // Warm from its own answer: done at once.
    const VectorXd warm = r.r;
    solver.solve(rover, r, &warm);
    CHECK(r.ok());
    CHECK(r.pivots <= 1);
  }
  // A single contact: one sweep is exact, and auto says it took NSGS.
  const lcp::FrictionResult one = lcp::solveFriction("auto", lcp::readFc3dDat(test::kSiconosData / "fc3d" / "FrictionContact3D_1c.dat"));
  CHECK(one.ok());
  CHECK(one.solver == "nsgs");
  CHECK(one.pivots == 1);
  CHECK_THROWS_WITH(lcp::roundConeMethod("prox"), Catch::Contains("valid: auto, nsgs, newton"));
}

TEST_CASE("round cone: hostile problems are refused or reported, never solved wrongly", "[lcp][fc3d][round]") {
  const auto one = [](Matrix3d W, Vector3d q, double mu) { return lcp::FrictionProblem3D{W, q, VectorXd::Constant(1, mu)}; };
  for (const char* solver : {"auto", "nsgs", "newton"}) {
    CAPTURE(solver);
    // μ < 0 and NaN: invalid input with the reason.
    lcp::FrictionResult r = lcp::solveFriction(solver, one(Matrix3d::Identity(), {-1, 0.5, 0}, -0.3));
    CHECK(r.status == lcp::Status::kInvalidInput);
    CHECK_THAT(r.message, Catch::Contains("negative"));
    Matrix3d nan = Matrix3d::Identity();
    nan(1, 1) = std::nan("");
    CHECK(lcp::solveFriction(solver, one(nan, {-1, 0.5, 0}, 0.3)).status == lcp::Status::kInvalidInput);
    // W = 0 pushed in, and W negative definite: no solution, none claimed.
    CHECK_FALSE(lcp::solveFriction(solver, one(Matrix3d::Zero(), {-1, 1, 0}, 0.5)).ok());
    CHECK_FALSE(lcp::solveFriction(solver, one(-Matrix3d::Identity(), {-1, 0.5, 0}, 0.3)).ok());
    // Rank-deficient W: two identical contacts (a hyperstatic pair) share the load.
    Eigen::MatrixXd W(6, 6);
    const Matrix3d A = Vector3d(1, 2, 2).asDiagonal();
    W << A, A, A, A;
    const lcp::FrictionProblem3D pair{W, (VectorXd(6) << -1, 0.3, 0, -1, 0.3, 0).finished(), Eigen::Vector2d(0.5, 0.5)};
    r = lcp::solveFriction(solver, pair);
    CAPTURE(r.message);
    CHECK(r.ok());
    CHECK(coulombViolation(pair, r.r, 1e-8) == "");
  }
}
