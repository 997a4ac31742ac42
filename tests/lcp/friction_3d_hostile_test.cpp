// Hostile spatial friction problems through lcp::solveFriction, every 3D solver name: invalid
// data (μ < 0, NaN) is refused; a W that is no Delassus matrix (not symmetric, indefinite) is
// answered with status, residual and a warning; a "solved" is never claimed unchecked, nor one
// that the problem's units make look solved.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lcp/friction_cone.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/residual.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"
#include "siconos_data.hpp"

using namespace stickslip;

namespace {

lcp::FrictionProblem3D oneContact(const Eigen::Matrix3d& W, const Eigen::Vector3d& q, double mu) {
  return {W, q, Eigen::VectorXd::Constant(1, mu)};
}

/// A success must be checked: our Lemke by the faceted LCP's residual, Siconos' solvers by
/// Siconos' error, and in both uₙ ≥ 0 up to round-off.
void checkClaim(const lcp::FrictionProblem3D& p, const lcp::FrictionResult& s) {
  if (!s.ok()) return;
  REQUIRE(s.r.allFinite());
  if (s.solver == "lemke")
    CHECK(s.relative_residual <= 1e-9);
  else
    CHECK(lcp::siconosFc3dError(p, s.r) <= 1e-8);
  const Eigen::VectorXd u = p.W * s.r + p.q;
  const double scale = std::max(p.q.cwiseAbs().maxCoeff(), p.W.cwiseAbs().maxCoeff() * s.r.cwiseAbs().maxCoeff());
  for (Eigen::Index i = 0; i < p.contacts(); ++i) CHECK(u(3 * i) >= -1e-8 * scale);
}

}  // namespace

TEST_CASE("fc3d hostile: mu < 0 and NaN are refused by every solver", "[lcp][fc3d]") {
  const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
  lcp::FrictionProblem3D negative = oneContact(I, {-1.0, 0.5, 0.0}, -0.3);
  lcp::FrictionProblem3D nan = oneContact(I, {-1.0, 0.5, 0.0}, 0.3);
  nan.W(1, 2) = std::numeric_limits<double>::quiet_NaN();
  for (const auto& [p, says] : {std::pair{negative, "is negative"}, std::pair{nan, "non-finite"}}) {
    for (const std::string& solver : lcp::friction3dSolverNames()) {
      CAPTURE(solver, says);
      // Ours report kInvalidInput, Siconos' backends throw (solve.hpp's contract).
      try {
        const lcp::FrictionResult s = lcp::solveFriction(solver, p);
        CHECK(s.status == lcp::Status::kInvalidInput);
        CHECK_THAT(s.message, Catch::Contains(says));
      } catch (const std::invalid_argument& e) {
        CHECK_THAT(e.what(), Catch::Contains(says));
      }
    }
  }
}

TEST_CASE("fc3d hostile: Siconos' collection raises no Delassus warning", "[lcp][fc3d]") {
  for (const auto& file : stickslip::test::datFiles("fc3d")) {
    CAPTURE(file.filename().string());
    CHECK(lcp::delassusWarning(lcp::readFc3dDat(file)) == "");
  }
  // Within the tolerances: the collection's own round-off (4.6e-4 asymmetry, -2.7e-8 |W|).
  Eigen::Matrix3d W = Eigen::Matrix3d::Identity();
  W(0, 1) = 1e-3;
  CHECK(lcp::delassusWarning(oneContact(W, Eigen::Vector3d::Zero(), 0.5)) == "");
  W(0, 1) = 0.5;
  CHECK_THAT(lcp::delassusWarning(oneContact(W, Eigen::Vector3d::Zero(), 0.5)), Catch::Contains("not symmetric"));
  W = Eigen::Vector3d(1.0, 1.0, -1e-3).asDiagonal();
  CHECK_THAT(lcp::delassusWarning(oneContact(W, Eigen::Vector3d::Zero(), 0.5)), Catch::Contains("indefinite"));
  W(2, 2) = -1e-9;
  CHECK(lcp::delassusWarning(oneContact(W, Eigen::Vector3d::Zero(), 0.5)) == "");
  // No contacts (fuzz_fc3d_reader found the empty problem asserting in Eigen's maxCoeff).
  const lcp::FrictionProblem3D empty = lcp::readFc3dDat(*std::make_unique<std::istringstream>("3 0 0 0 0 0 0"), "e");
  CHECK(empty.contacts() == 0);
  CHECK(lcp::delassusWarning(empty) == "");
  for (const std::string& solver : lcp::friction3dSolverNames()) {
    CAPTURE(solver);
    const lcp::FrictionResult s = lcp::solveFriction(solver, empty);
    CHECK(s.ok());
    CHECK(s.r.size() == 0);
    CHECK(s.warning == "");
  }
}

TEST_CASE("fc3d hostile: non-symmetric or indefinite W is answered with a warning, never unchecked", "[lcp][fc3d]") {
  struct Case {
    const char* name;
    lcp::FrictionProblem3D p;
    const char* warning;
    bool solvable;  // whether a solution exists
  };
  Eigen::MatrixXd asym = Eigen::MatrixXd::Identity(6, 6);
  asym(3, 0) = 4.0;  // contact 1's normal pushed by contact 0's: solvable, r = (1, 0, 0, 0, 0, 0) sticks
  lcp::FrictionProblem3D two{asym, (Eigen::VectorXd(6) << -1, 0.2, 0, -1, 0, 0.3).finished(), Eigen::Vector2d(0.5, 0.0)};
  const Eigen::Matrix3d minus = -Eigen::Matrix3d::Identity();
  const Case cases[] = {
      {"non-symmetric", two, "not symmetric", true},
      {"negative definite, q_n > 0 (r = 0 solves)", oneContact(minus, {1.0, 0.0, 0.0}, 0.3), "indefinite", true},
      {"negative definite, q_n < 0", oneContact(minus, {-1.0, 0.5, 0.0}, 0.3), "indefinite", false},
  };
  for (const Case& c : cases) {
    for (const std::string& solver : lcp::friction3dSolverNames()) {
      CAPTURE(c.name, solver);
      const lcp::FrictionResult s = lcp::solveFriction(solver, c.p);
      INFO(s.message);
      CHECK_THAT(s.warning, Catch::Contains(c.warning));
      CHECK(s.r.size() == c.p.q.size());
      if (!c.solvable) CHECK_FALSE(s.ok());
      checkClaim(c.p, s);
      if (solver == "siconos-nsgs" && c.p.W(0, 0) <= 0.0) {
        // Siconos' NSGS would abort the process on W(0, 0) ≤ 0: refused instead.
        CHECK(s.status == lcp::Status::kInvalidInput);
        CHECK_THAT(s.message, Catch::Contains("W(0, 0) = -1"));
      }
    }
    CHECK(lcp::solveFriction("lemke", c.p).ok() == c.solvable);
  }
}

TEST_CASE("fc3d hostile: data on which Siconos' NSGS would abort the process is refused", "[lcp][fc3d]") {
  // Found by fuzz_fc3d_reader: NSGS asserts its tangential step 2/(s + d) > 0 (s = W₁₁ + W₂₂);
  // here s = −2 and the radicand 4 + 8 − 40 < 0, so 2/(s + 0) < 0.
  Eigen::Matrix3d W = Eigen::Vector3d(1.0, -1.0, -1.0).asDiagonal();
  W(1, 2) = 10.0;
  const lcp::FrictionResult s = lcp::solveFriction("siconos-nsgs", oneContact(W, {-1.0, 0.5, 0.0}, 0.3));
  CHECK(s.status == lcp::Status::kInvalidInput);
  CHECK_THAT(s.message, Catch::Contains("tangential diagonal") && Catch::Contains("= -2"));
  CHECK_THAT(s.warning, Catch::Contains("not symmetric"));
}

TEST_CASE("fc3d hostile: no solution, and Siconos' error made small by a diverging r, is no success", "[lcp][fc3d]") {
  // W = 0 (a Delassus matrix, singular): u = q whatever r, and uₙ = −1 < 0 has no solution.
  // Siconos' proximal solver drives r to ~1e12, where its error, relative to ‖r‖, is 1e-12.
  const lcp::FrictionProblem3D p = oneContact(Eigen::Matrix3d::Zero(), {-1.0, 1.0, 0.0}, 0.5);
  CHECK(lcp::delassusWarning(p) == "");
  for (const std::string& solver : lcp::friction3dSolverNames()) {
    CAPTURE(solver);
    const lcp::FrictionResult s = lcp::solveFriction(solver, p);
    INFO(s.message);
    CHECK_FALSE(s.ok());
    if (solver == "siconos-prox") CHECK_THAT(s.message, Catch::Contains("only relative to |r|"));
  }
}

TEST_CASE("fc3d hostile: heavy problems are solved in W's units, and an answer whose error only the units "
          "hide is flagged",
          "[lcp][fc3d]") {
  // Siconos' boxes with their W times 2^-40 (masses 2^40 times larger): the same problem, with
  // forces 2^40 times larger. Beside them the velocities vanish from Siconos' error.
  lcp::FrictionProblem3D p = lcp::readFc3dDat(stickslip::test::kSiconosData / "fc3d" /
                                              "BoxesStack1-i100000-32.hdf5.dat");
  CHECK(lcp::solveFriction("auto", p).warning == "");
  p.W *= std::ldexp(1.0, -40);
  const double scale = lcp::frictionScale(p.W);  // 2^-31: W's largest entry, 695, times 2^-40
  REQUIRE(scale == std::ldexp(1.0, -31));
  const auto inWUnits = [&](const lcp::FrictionResult& s) {
    return lcp::fc3dError(scale * s.r, s.u, p.mu, p.q.norm());
  };
  // Ours poses it in W's units: solved there to its tolerance (before, 1.2e-7 for Siconos' 4e-17).
  const lcp::FrictionResult ours = lcp::solveFriction("auto", p);
  INFO(ours.message);
  REQUIRE(ours.ok());
  CHECK(inWUnits(ours) <= lcp::RoundConeOptions{}.tolerance);
  CHECK(ours.warning == "");
  // Siconos' NSGS stops on its error in the units given: solved there, 2.5e-6 in W's units.
  const lcp::FrictionResult siconos = lcp::solveFriction("siconos-nsgs", p);
  REQUIRE(siconos.ok());
  CHECK(siconos.relative_residual <= 1e-10);
  CHECK(inWUnits(siconos) > 10.0 * lcp::kUnitsError);
  CHECK_THAT(siconos.warning, Catch::Contains("in W's units (W / 2^-31, the forces times 2^-31) the answer's error "
                                              "is " + lcp::scientific(inWUnits(siconos))) &&
                                  Catch::Contains("which hide it"));
}
