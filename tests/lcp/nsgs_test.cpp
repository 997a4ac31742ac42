// Nonsmooth Gauss–Seidel for planar friction (lcp/nsgs.hpp) against Lemke's exact solutions
// (with the global Newton, lcp/planar_newton.hpp, on the random problems),
// Siconos' error measure by hand, and the structure it exploits.
#include <catch2/catch.hpp>
#include <cmath>

#include "lcp/nsgs.hpp"
#include "lcp/nsgs_finish.hpp"
#include "lcp/planar_newton.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"
#include "siconos_data.hpp"

using namespace stickslip;

namespace {

lcp::SparseFrictionProblem2D sparse(const lcp::FrictionProblem2D& p) { return {p.W.sparseView(), p.q, p.mu}; }

}  // namespace

TEST_CASE("nsgs and newton: solve random planar friction problems that Lemke solves, to Siconos' error 1e-12",
          "[nsgs][newton][friction]") {
  // Of 50: a coupled, singular W may stall Gauss–Seidel; Newton solves nearly all.
  for (const auto& [solver, at_least] : {std::pair{"nsgs", 45}, std::pair{"newton", 48}}) {
    CAPTURE(solver);
    int solved = 0;
    for (const int nc : {1, 2, 5, 10, 20})
      for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const lcp::FrictionProblem2D p = lcp::randomFrictionProblem(nc, seed);
        const lcp::FrictionResult lemke = lcp::solveFriction("lemke", p);
        REQUIRE(lemke.ok());
        const lcp::FrictionResult r = std::string(solver) == "nsgs" ? lcp::solveFrictionNsgs(sparse(p))
                                                                    : lcp::solveFrictionNewton(sparse(p));
        CAPTURE(nc, seed, r.message);
        if (!r.ok()) continue;  // counted below
        ++solved;
        CHECK(r.relative_residual <= 1e-12);
        CHECK(lcp::fc2dError(r.r, p.W * r.r + p.q, p.mu, p.q.norm()) <= 1e-12);
        CHECK(lcp::residual(p, r.r).relative <= 1e-9);  // our natural map agrees
        // Where the normal reactions are unique (W's normal part nonsingular), they agree.
        if (nc <= 2) CHECK((r.r - lemke.r).cwiseAbs().maxCoeff() <= 1e-6 * std::max(1.0, lemke.r.cwiseAbs().maxCoeff()));
      }
    CHECK(solved >= at_least);
  }
}

TEST_CASE("nsgs: Siconos' fc2d problems give Lemke's reactions", "[nsgs][friction][siconos-data]") {
  for (const auto& file : test::datFiles("fc2d")) {
    const lcp::FrictionProblem2D p = lcp::readFc2dDat(file);
    const lcp::FrictionResult lemke = lcp::solveFriction("lemke", p);
    const lcp::FrictionResult nsgs = lcp::solveFriction("nsgs", p);
    CAPTURE(file.filename().string(), nsgs.message);
    REQUIRE(lemke.ok());
    REQUIRE(nsgs.ok());
    CHECK(nsgs.residual <= 1e-9 * std::max(1.0, p.q.cwiseAbs().maxCoeff()));
    CHECK((nsgs.r - lemke.r).cwiseAbs().maxCoeff() <= 1e-7 * std::max(1.0, lemke.r.cwiseAbs().maxCoeff()));
  }
}

TEST_CASE("nsgs: decoupled contacts are solved in one sweep, each exactly, at 2000 contacts",
          "[nsgs][friction][structure]") {
  // Block-diagonal W (contacts coupled only through forces, as the belt chain): after one
  // sweep every local problem is the whole problem. Each block is a one-contact problem
  // from the generator; Lemke solves it alone for the reference.
  const int nc = 2000;
  lcp::SparseFrictionProblem2D p;
  p.W.resize(2 * nc, 2 * nc);
  p.q.resize(2 * nc);
  p.mu.resize(nc);
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::VectorXd expected(2 * nc);
  for (int i = 0; i < nc; ++i) {
    const lcp::FrictionProblem2D one = lcp::randomFrictionProblem(1, std::uint64_t(i) + 100);
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b) entries.emplace_back(2 * i + a, 2 * i + b, one.W(a, b));
    p.q.segment<2>(2 * i) = one.q;
    p.mu(i) = one.mu(0);
    const lcp::FrictionResult r = lcp::solveFriction("lemke", one);
    REQUIRE(r.ok());
    expected.segment<2>(2 * i) = r.r;
  }
  p.W.setFromTriplets(entries.begin(), entries.end());
  const lcp::FrictionResult nsgs = lcp::solveFrictionNsgs(p);
  REQUIRE(nsgs.ok());
  CHECK(nsgs.pivots == 1);  // sweeps
  CHECK((nsgs.r - expected).cwiseAbs().maxCoeff() <= 1e-10 * std::max(1.0, expected.cwiseAbs().maxCoeff()));
}

TEST_CASE("nsgs: Siconos' error measure, warm start, limits and bad input", "[nsgs][friction]") {
  SECTION("the measure by hand on one contact") {
    // r = (1, 0.5), u = (0, 0.2), μ = 0.3: x = r − (uₙ + μ|uₜ|, uₜ) = (0.94, 0.3); |xₜ| = 0.3 >
    // μ xₙ = 0.282, so x projects on the edge: pₙ = (μ·0.3 + 0.94)/(μ² + 1), pₜ = μ pₙ.
    const Eigen::Vector2d r{1.0, 0.5}, u{0.0, 0.2};
    const Eigen::VectorXd mu = Eigen::VectorXd::Constant(1, 0.3);
    const double pn = (0.3 * 0.3 + 0.94) / 1.09, pt = 0.3 * pn;
    const double expected = std::hypot(1.0 - pn, 0.5 - pt) / std::max(r.norm(), u.norm());
    CHECK(lcp::fc2dError(r, u, mu, 0.0) == Approx(expected).epsilon(1e-14));
    // A sticking solution (u = 0, inside the cone) has error 0.
    CHECK(lcp::fc2dError(Eigen::Vector2d{1.0, 0.1}, Eigen::Vector2d::Zero(), mu, 1.0) == 0.0);
  }
  // A coupled problem that takes Gauss–Seidel several sweeps.
  lcp::FrictionProblem2D p;
  lcp::FrictionResult first;
  for (std::uint64_t seed = 1; seed < 100 && first.pivots < 3; ++seed) {
    p = lcp::randomFrictionProblem(10, seed);
    first = lcp::solveFrictionNsgs(sparse(p));
  }
  REQUIRE(first.ok());
  REQUIRE(first.pivots >= 3);
  SECTION("a warm start at the solution stops after one sweep") {
    const lcp::FrictionResult again = lcp::solveFrictionNsgs(sparse(p), {}, &first.r);
    REQUIRE(again.ok());
    CHECK(again.pivots == 1);
  }
  SECTION("too few sweeps: the limit, with the error reached") {
    const lcp::FrictionResult short_run = lcp::solveFrictionNsgs(sparse(p), {1e-12, 1, false});
    CHECK(short_run.status == lcp::Status::kPivotLimit);
    CHECK(short_run.message.find("1 sweeps") != std::string::npos);
    CHECK(short_run.relative_residual > 1e-12);
  }
  SECTION("bad input is reported, not thrown") {
    lcp::SparseFrictionProblem2D bad = sparse(p);
    bad.mu.conservativeResize(3);
    CHECK(lcp::solveFrictionNsgs(bad).status == lcp::Status::kInvalidInput);
    bad = sparse(p);
    bad.mu(0) = -0.1;
    CHECK(lcp::solveFrictionNsgs(bad).status == lcp::Status::kInvalidInput);
    Eigen::VectorXd warm(3);
    CHECK(lcp::solveFrictionNsgs(sparse(p), {}, &warm).status == lcp::Status::kInvalidInput);
  }
}

TEST_CASE("nsgs: the exact finish solves the granular pile on which sweeps alone stall", "[nsgs][friction][finish]") {
  // 2020 contacts, W hyperstatic and printed to six digits: Gauss–Seidel stalls above 1e-7.
  const lcp::SparseFrictionProblem2D p =
      lcp::readFc2dDatSparse(test::kSiconosData / "fc2d-more" / "fc2d_granularflowonwall_02020_00213.dat");
  const lcp::FrictionResult swept = lcp::solveFrictionNsgs(p, {1e-12, 3000, false});
  CHECK(swept.status == lcp::Status::kPivotLimit);
  CHECK(swept.relative_residual > 1e-7);
  const lcp::FrictionResult finished = lcp::solveFrictionNsgs(p, {1e-12, 3000, true});
  CAPTURE(finished.message);
  REQUIRE(finished.ok());
  CHECK(finished.pivots < 3000);
  CHECK_THAT(finished.message, Catch::Contains("exact finish"));
  CHECK(lcp::fc2dError(finished.r, p.W * finished.r + p.q, p.mu, p.q.norm()) <= 1e-12);
  CHECK(lcp::residual(p, finished.r).relative <= 1e-12);  // the independent natural map agrees
}

TEST_CASE("nsgs: the exact finish ends at Lemke's velocities from a rough iterate, and never worsens one",
          "[nsgs][friction][finish]") {
  int finished = 0, tried = 0;
  for (const int nc : {5, 10, 20})
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      const lcp::FrictionProblem2D dense = lcp::randomFrictionProblem(nc, seed);
      const lcp::SparseFrictionProblem2D p = sparse(dense);
      const lcp::FrictionResult lemke = lcp::solveFriction("lemke", dense);
      REQUIRE(lemke.ok());
      // Two sweeps from zero: an iterate with many modes still wrong.
      lcp::NsgsSolver nsgs;
      Eigen::VectorXd r = Eigen::VectorXd::Zero(2 * nc), u(2 * nc);
      const double before = nsgs.solve(lcp::viewOf(p.W), p.q, p.mu, {1e-12, 2}, r, u).error;
      const lcp::NsgsFinishOutcome out = lcp::finishNsgs(p, {1e-12}, nsgs, r, u);
      CAPTURE(nc, seed, before, out.error, out.rounds);
      ++tried;
      CHECK(out.error <= before);
      CHECK(out.error == Approx(lcp::fc2dError(r, p.W * r + p.q, p.mu, p.q.norm())).margin(1e-15));
      if (out.error > 1e-12) continue;
      ++finished;
      const double scale = std::max(lemke.u.cwiseAbs().maxCoeff(), p.q.cwiseAbs().maxCoeff());
      CHECK((u - lemke.u).cwiseAbs().maxCoeff() <= 1e-9 * scale);
    }
  CHECK(finished >= tried * 9 / 10);
}

TEST_CASE("nsgs: once the modes settle, their active-set solve ends the sweeps exact at Lemke's velocities",
          "[nsgs][friction][finish]") {
  // Gauss–Seidel converges linearly where coupled; its modes settle long before its error
  // reaches the finish's 1e-6. Counted: the sweeps with the settled solves against those of
  // the sweeps alone to the same error.
  int with_settle = 0, sweeps_alone = 0, settled_stops = 0;
  for (const int nc : {16, 32})
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      const lcp::FrictionProblem2D dense = lcp::randomFrictionProblem(nc, seed);
      const lcp::SparseFrictionProblem2D p = sparse(dense);
      const lcp::FrictionResult lemke = lcp::solveFriction("lemke", dense);
      REQUIRE(lemke.ok());
      const lcp::FrictionResult r = lcp::solveFrictionNsgs(p);
      lcp::NsgsOptions alone;
      alone.exact_finish = false;
      const lcp::FrictionResult plain = lcp::solveFrictionNsgs(p, alone);
      CAPTURE(nc, seed, r.message, r.pivots, plain.pivots);
      REQUIRE(r.ok());
      CHECK(r.relative_residual <= 1e-12);
      const double scale = std::max(lemke.u.cwiseAbs().maxCoeff(), p.q.cwiseAbs().maxCoeff());
      CHECK((r.u - lemke.u).cwiseAbs().maxCoeff() <= 1e-9 * scale);
      with_settle += r.pivots;
      sweeps_alone += plain.ok() ? plain.pivots : alone.max_sweeps;
      // The sweeps' own stop: no mode changed over the last settle_sweeps, within the cap.
      lcp::NsgsSolver nsgs;
      lcp::NsgsOptions settle;
      settle.settle_sweeps = 3;
      settle.settle_unknowns = 2 * nc;
      Eigen::VectorXd x = Eigen::VectorXd::Zero(2 * nc), u(2 * nc);
      const lcp::NsgsSolver::Outcome o = nsgs.solve(lcp::viewOf(p.W), p.q, p.mu, settle, x, u);
      if (!o.settled) continue;
      ++settled_stops;
      CHECK(o.sweeps >= 4);  // the first sweep sets the modes, three more keep them
      CHECK(o.status == lcp::Status::kPivotLimit);
      settle.settle_unknowns = 0;  // every closed contact has an unknown: never settled now
      x.setZero();
      CHECK_FALSE(nsgs.solve(lcp::viewOf(p.W), p.q, p.mu, settle, x, u).settled);
    }
  CHECK(settled_stops >= 10);
  CHECK(2 * with_settle < sweeps_alone);
}

TEST_CASE("nsgs: a success on Siconos' error whose residual is far above it is a numerical failure",
          "[nsgs][friction]") {
  // W indefinite: the sweeps take r to ~1e154, where Siconos' error (normalized by |r|)
  // vanishes while the natural map stays at 8e-2 of its scale.
  lcp::FrictionProblem2D p;
  p.W.resize(4, 4);
  p.W << 0.5, -1.4, -1, 0.5, 1.3, 0.5, 0.4, 0.4, -1.2, 0.4, 0.9, 0.6, -1.2, -1, 1.1, -1.4;
  p.q = Eigen::Vector4d(-1.1, 1.6, -0.9, -0.7);
  p.mu = Eigen::Vector2d(0.8, 0.3);
  const lcp::FrictionResult r = lcp::solveFriction("nsgs", p);
  CHECK(r.status == lcp::Status::kNumericalFailure);
  CHECK(r.relative_residual > 1e-2);
  CHECK(r.message.find("met its tolerance, but the relative residual is") != std::string::npos);
}
