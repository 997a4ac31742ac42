#include "lcp/friction_to_lcp.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "lcp/enumeration.hpp"
#include "lcp/friction_hlcp.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/reduction_test_helpers.hpp"
#include "lcp/residual.hpp"

using namespace stickslip::lcp;

namespace {

// Hand-computed cases are exact up to a few ε of O(1) data.
constexpr double kExactTol = 1e-14;
// Required by the brief for every solve: relative friction residual. Lemke's final LU
// re-solve leaves ~n·cond·ε; with 4·nc ≤ 256 and O(1) data that is orders below 1e-10.
constexpr double kReductionTol = 1e-10;

FrictionProblem2D singleContact(double wnn, double wnt, double wtt, double qn, double qt,
                                double mu) {
  FrictionProblem2D p;
  p.W.resize(2, 2);
  p.W << wnn, wnt, wnt, wtt;
  p.q = Eigen::Vector2d(qn, qt);
  p.mu = Eigen::VectorXd::Constant(1, mu);
  return p;
}

enum class Kind { kSeparated, kStick, kSlip };

/// A planted friction solution: a Delassus matrix from randomFrictionProblem, per contact a
/// mode drawn at random and (r*, u*) satisfying it exactly; q := u* − W r*.
struct PlantedFriction {
  FrictionProblem2D problem;
  Eigen::VectorXd r, u;
};
PlantedFriction plantedFriction(int nc, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> kind(0, 2);
  std::uniform_real_distribution<double> mag(0.5, 1.5), frac(-0.9, 0.9);
  std::bernoulli_distribution positive(0.5);
  PlantedFriction out;
  out.problem = randomFrictionProblem(nc, seed);
  out.r = Eigen::VectorXd::Zero(2 * nc);
  out.u = Eigen::VectorXd::Zero(2 * nc);
  for (int i = 0; i < nc; ++i) {
    const double mu = out.problem.mu(i);
    switch (Kind(kind(rng))) {
      case Kind::kSeparated:
        out.u(2 * i) = mag(rng);
        out.u(2 * i + 1) = frac(rng);
        break;
      case Kind::kStick:
        out.r(2 * i) = mag(rng);
        out.r(2 * i + 1) = frac(rng) * mu * out.r(2 * i);
        break;
      case Kind::kSlip: {
        const double s = positive(rng) ? 1.0 : -1.0;
        out.r(2 * i) = mag(rng);
        out.r(2 * i + 1) = -s * mu * out.r(2 * i);
        out.u(2 * i + 1) = s * mag(rng);
        break;
      }
    }
  }
  out.problem.q = out.u - out.problem.W * out.r;
  return out;
}

/// Classifies the active contacts of a solution: |uₜ| small ⇒ stick, else slip.
struct ModeCount {
  int stick = 0, slip = 0, separated = 0;
};
void classify(const FrictionProblem2D& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u,
              ModeCount& count) {
  const double scale = std::max(1.0, u.lpNorm<Eigen::Infinity>());
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    if (r(2 * i) <= 1e-9 * scale) {
      ++count.separated;
    } else if (std::abs(u(2 * i + 1)) <= 1e-9 * scale) {
      ++count.stick;
    } else {
      ++count.slip;
      // Sliding: the force is on the boundary opposite to uₜ.
      CHECK(r(2 * i + 1) ==
            Approx(-p.mu(i) * r(2 * i) * (u(2 * i + 1) > 0 ? 1 : -1)).margin(1e-9 * scale));
    }
  }
}

/// min over x ≥ 0 of ‖C x − b‖₂ by the active-set method of Lawson & Hanson (1974, ch. 23),
/// least squares on the passive set by complete orthogonal decomposition (rank-safe).
double nnlsDistance(const Eigen::MatrixXd& C, const Eigen::VectorXd& b) {
  const Eigen::Index n = C.cols();
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  std::vector<bool> passive(n, false);
  const double tol = 1e-12 * (1.0 + b.norm()) * (1.0 + C.norm());
  for (Eigen::Index outer = 0; outer < 3 * n; ++outer) {
    const Eigen::VectorXd grad = C.transpose() * (b - C * x);
    Eigen::Index enter = -1;
    double best = tol;
    for (Eigen::Index j = 0; j < n; ++j)
      if (!passive[j] && grad(j) > best) best = grad(j), enter = j;
    if (enter < 0) break;
    passive[enter] = true;
    for (Eigen::Index inner = 0; inner < 3 * n; ++inner) {
      std::vector<Eigen::Index> idx;
      for (Eigen::Index j = 0; j < n; ++j)
        if (passive[j]) idx.push_back(j);
      Eigen::MatrixXd Cp(C.rows(), Eigen::Index(idx.size()));
      for (std::size_t k = 0; k < idx.size(); ++k) Cp.col(Eigen::Index(k)) = C.col(idx[k]);
      const Eigen::VectorXd zp = Cp.completeOrthogonalDecomposition().solve(b);
      Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
      bool positive = true;
      for (std::size_t k = 0; k < idx.size(); ++k) {
        z(idx[k]) = zp(Eigen::Index(k));
        positive = positive && zp(Eigen::Index(k)) > 0.0;
      }
      if (positive) {
        x = z;
        break;
      }
      double alpha = 1.0;
      for (Eigen::Index j : idx)
        if (z(j) <= 0.0) alpha = std::min(alpha, x(j) / (x(j) - z(j)));
      x += alpha * (z - x);
      for (Eigen::Index j : idx)
        if (x(j) <= 1e-14) passive[j] = false, x(j) = 0.0;
    }
  }
  return (C * x - b).norm();
}

}  // namespace

TEST_CASE("friction reduction: one contact by hand", "[lcp][friction]") {
  // W = I, q = (−1, qt), μ = 0.5: rₙ = 1; stick (rₜ = −qt) iff |qt| ≤ 0.5, else
  // rₜ = −0.5 sign(qt) and uₜ = qt + rₜ.
  LemkeSolver lemke;
  for (double qt : {0.0, 0.3, -0.3, 2.0, -2.0}) {
    INFO("qt = " << qt);
    const FrictionProblem2D p = singleContact(1.0, 0.0, 1.0, -1.0, qt, 0.5);
    const bool stick = std::abs(qt) <= 0.5;
    const double rt = stick ? -qt : -0.5 * (qt > 0 ? 1 : -1);
    const Eigen::Vector2d r_expected(1.0, rt), u_expected(0.0, qt + rt);
    const FrictionReduction red(p);
    REQUIRE(red.lcp().size() == 4);
    // The exact (r, u) maps to an exact LCP solution.
    CHECK(residual(red.lcp(), red.lcpSolutionFrom(r_expected, u_expected)).absolute < kExactTol);
    const Result e = solveByEnumeration(red.lcp());
    REQUIRE(e.ok());
    CHECK((red.reactions(e.z) - r_expected).lpNorm<Eigen::Infinity>() < kExactTol);
    const FrictionResult f = solveFrictionWithLemke(p, lemke);
    REQUIRE(f.ok());
    CHECK((f.r - r_expected).lpNorm<Eigen::Infinity>() < kExactTol);
    CHECK((f.u - u_expected).lpNorm<Eigen::Infinity>() < kExactTol);
    CHECK(f.relative_residual < kExactTol);
  }
  SECTION("separating contact: q ≥ 0 gives r = 0") {
    const FrictionResult f =
        solveFrictionWithLemke(singleContact(2.0, 0.3, 1.0, 0.4, -0.7, 0.3), lemke);
    REQUIRE(f.ok());
    CHECK(f.r.isZero());
    CHECK(f.u == Eigen::Vector2d(0.4, -0.7));
  }
}

TEST_CASE("Lemke's friction solution does not depend on the units of mass", "[lcp][friction][lemke]") {
  // A block of m kg on a slope, u = W r + q with W = I/m: the reactions are m times the 1 kg
  // ones, sticking (tan α < μ) or sliding, one-sided or held to the slope (HLCP). Lemke once
  // lost digits in proportion to m, and the residual counted a slip's round-off m times over:
  // numerical failure from 1e7 kg.
  const double g = 9.81, mu = 0.4;
  for (const double alpha : {0.2, 0.5})
    for (const bool two_sided : {false, true})
      for (const double mass : {1e-15, 1e-6, 1.0, 1e7, 1e10, 1e15}) {
        const FrictionProblem2D p = singleContact(1.0 / mass, 0.0, 1.0 / mass, -g * std::cos(alpha),
                                                  g * std::sin(alpha), mu);
        LemkeSolver lemke;
        const FrictionResult r = two_sided ? solveFrictionHlcpWithLemke(p, {true}, lemke)
                                           : solveFrictionWithLemke(p, lemke);
        INFO("alpha " << alpha << (two_sided ? ", two-sided" : "") << ", m = " << mass << " kg: " << r.message);
        CHECK(r.ok());
        if (!r.ok()) continue;
        CHECK(r.relative_residual < 1e-14);
        const double rt = std::tan(alpha) <= mu ? -g * std::sin(alpha) : -mu * g * std::cos(alpha);
        CHECK(r.r(0) / mass == Approx(g * std::cos(alpha)).epsilon(1e-14));
        CHECK(r.r(1) / mass == Approx(rt).epsilon(1e-14));
      }
}

TEST_CASE("friction reduction round-trips planted solutions", "[lcp][friction]") {
  ModeCount count;
  for (int nc : {1, 2, 3})
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      INFO("nc = " << nc << ", seed = " << seed);
      const PlantedFriction pf = plantedFriction(nc, 300 * nc + seed);
      REQUIRE(residual(pf.problem, pf.r).relative < kReductionTol);
      const FrictionReduction red(pf.problem);
      const Eigen::VectorXd z = red.lcpSolutionFrom(pf.r, pf.u);
      CHECK(residual(red.lcp(), z).relative < kReductionTol);
      CHECK((red.reactions(z) - pf.r).lpNorm<Eigen::Infinity>() == 0.0);
      // Independent solve (enumeration, 2^(4 nc) bases): any solution of the LCP maps back to
      // a friction solution (not necessarily the planted one: W may be singular).
      const Result e = solveByEnumeration(red.lcp());
      REQUIRE(e.ok());
      const Eigen::VectorXd r = red.reactions(e.z);
      CHECK(residual(pf.problem, r).relative < kReductionTol);
      classify(pf.problem, r, pf.problem.W * r + pf.problem.q, count);
    }
  CHECK(count.stick > 10);
  CHECK(count.slip > 10);
}

/// Splits q into its components in range(W) and null(W) (W symmetric PSD; eigenvalues below
/// 1e-10·λmax count as zero).
struct RangeSplit {
  Eigen::VectorXd in_range;
  double null_part = 0.0;  ///< ‖q − in_range‖∞
  bool singular = false;
};
RangeSplit splitByRange(const FrictionProblem2D& p) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(p.W);
  const double cut = 1e-10 * std::max(es.eigenvalues().maxCoeff(), 1e-300);
  const Eigen::Index zero = (es.eigenvalues().array() < cut).count();  // ascending order
  const Eigen::MatrixXd N = es.eigenvectors().leftCols(zero);
  RangeSplit out;
  out.in_range = p.q - N * (N.transpose() * p.q);
  out.null_part = (p.q - out.in_range).lpNorm<Eigen::Infinity>();
  out.singular = zero > 0;
  return out;
}

TEST_CASE("Lemke solves random planar friction problems with q in range(W)",
          "[lcp][friction][lemke]") {
  // With q = J v (as from a mechanism) q lies in range(W), the condition under which Lemke
  // processes the copositive reduced LCP (friction_to_lcp.hpp). The generator draws q freely,
  // so it is projected here; for nonsingular W nothing changes.
  LemkeSolver lemke;
  ModeCount count;
  double worst = 0.0;
  int solved = 0;
  for (int nc : {1, 2, 3, 5, 8, 16, 32, 64})
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      INFO("nc = " << nc << ", seed = " << seed);
      FrictionProblem2D p = randomFrictionProblem(nc, seed);
      p.q = splitByRange(p).in_range;
      const FrictionResult f = solveFrictionWithLemke(p, lemke);
      INFO("status " << f.status << ": " << f.message);
      CHECK(f.status == Status::kSuccess);
      if (!f.ok()) continue;
      ++solved;
      CHECK(f.relative_residual <= kReductionTol);
      worst = std::max(worst, f.relative_residual);
      CHECK((f.u - (p.W * f.r + p.q)).lpNorm<Eigen::Infinity>() == 0.0);
      classify(p, f.r, f.u, count);
    }
  INFO("stick " << count.stick << ", slip " << count.slip << ", separated " << count.separated
                << ", worst relative residual " << worst);
  CHECK(solved == 64);
  CHECK(count.stick > 20);
  CHECK(count.slip > 20);
  CHECK(count.separated > 20);
  WARN("friction/Lemke, q in range(W): solved "
       << solved << "/64, stick " << count.stick << ", slip " << count.slip << ", separated "
       << count.separated << ", worst relative residual " << worst);
}

TEST_CASE("Lemke on raw randomFrictionProblem instances", "[lcp][friction][lemke]") {
  // The same 64 instances with the generator's own q = J v + nonnegative normal gaps: solvable
  // by construction (qᵀr ≥ 0 for every cone reaction with W r = 0), so Lemke must solve all;
  // a ray would be allowed only where q is incompatible with a singular W (next test).
  LemkeSolver lemke;
  int solved = 0, rays = 0;
  for (int nc : {1, 2, 3, 5, 8, 16, 32, 64})
    for (std::uint64_t seed = 1; seed <= 8; ++seed) {
      INFO("nc = " << nc << ", seed = " << seed);
      const FrictionProblem2D p = randomFrictionProblem(nc, seed);
      const RangeSplit split = splitByRange(p);
      const bool compatible = split.null_part <= 1e-10 * p.q.lpNorm<Eigen::Infinity>();
      const FrictionResult f = solveFrictionWithLemke(p, lemke);
      INFO("status " << f.status << ": " << f.message);
      if (f.ok()) {
        ++solved;
        CHECK(f.relative_residual <= kReductionTol);
      } else {
        ++rays;
        CHECK(f.status == Status::kRayTermination);
        CHECK_FALSE(compatible);
      }
    }
  CHECK(solved + rays == 64);
  CHECK(solved == 64);
  WARN("friction/Lemke, raw generator q: solved " << solved << "/64, secondary rays " << rays
                                                  << " (all on singular W with q not in range(W))");
}

TEST_CASE("a particle squeezed between two closing walls has no solution: Lemke ends on a ray",
          "[lcp][friction][lemke]") {
  // A unit point mass between the walls y = 0 (normal +y) and y = h (normal −y), both gaps
  // closing at unit speed: uₙ₁ = rₙ₁ − rₙ₂ − 1 and uₙ₂ = rₙ₂ − rₙ₁ − 1 sum to −2 < 0 for any
  // reactions, so no solution exists (W is singular and q is not in its range).
  // LCP(M, q̂) is solvable iff q̂ lies in one of the 2ⁿ complementary cones
  // pos{−M_j (j ∈ S), e_j (j ∉ S)} [Murty 1988, §1.3], whatever the rank of the basis. The
  // distance of q̂ to each cone is a nonnegative least-squares problem, solved here by
  // Lawson–Hanson, independently of Lemke: every cone must stay well away.
  FrictionProblem2D p;
  Eigen::MatrixXd J(4, 2);  // rows (n₁, t₁, n₂, t₂), columns (ẋ, ẏ)
  J << 0, 1, 1, 0, 0, -1, -1, 0;
  p.W = J * J.transpose();
  p.q = Eigen::Vector4d(-1.0, 0.0, -1.0, 0.0);
  p.mu = Eigen::Vector2d(0.3, 0.3);
  const FrictionReduction red(p);
  const Eigen::MatrixXd& M = red.lcp().M;
  const Eigen::VectorXd& q = red.lcp().q;
  const Eigen::Index n = q.size();
  double nearest = std::numeric_limits<double>::infinity();
  Eigen::MatrixXd C(n, n);
  for (long mask = 0; mask < (1L << n); ++mask) {
    for (Eigen::Index j = 0; j < n; ++j)
      C.col(j) = (mask >> j & 1) ? Eigen::VectorXd(-M.col(j)) : Eigen::VectorXd::Unit(n, j);
    nearest = std::min(nearest, nnlsDistance(C, q));
  }
  CHECK(nearest > 0.5);
  LemkeSolver lemke;
  CHECK(solveFrictionWithLemke(p, lemke).status == Status::kRayTermination);
  SECTION("the NNLS distance itself: zero inside a cone, positive outside") {
    const Eigen::Matrix2d I = Eigen::Matrix2d::Identity();
    CHECK(nnlsDistance(I, Eigen::Vector2d(1.0, 2.0)) < 1e-15);
    CHECK(nnlsDistance(I, Eigen::Vector2d(-3.0, 4.0)) == Approx(3.0));
  }
}

TEST_CASE("Lemke solves planted friction problems", "[lcp][friction][lemke]") {
  // Solvable by construction, also when W is singular (2 nc > degrees of freedom for nc ≥ 4).
  LemkeSolver lemke;
  for (int nc : {4, 16, 64})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      INFO("nc = " << nc << ", seed = " << seed);
      const PlantedFriction pf = plantedFriction(nc, 9000 + 100 * nc + seed);
      const FrictionResult f = solveFrictionWithLemke(pf.problem, lemke);
      INFO("status " << f.status << ": " << f.message);
      CHECK(f.status == Status::kSuccess);
      CHECK(f.relative_residual <= kReductionTol);
    }
}

TEST_CASE("friction reduction rejects malformed input", "[lcp][friction]") {
  FrictionProblem2D p = singleContact(1.0, 0.0, 1.0, -1.0, 0.0, 0.5);
  p.mu(0) = -0.1;
  CHECK_THROWS_WITH(FrictionReduction(p), Catch::Contains("negative"));
  LemkeSolver lemke;
  const FrictionResult f = solveFrictionWithLemke(p, lemke);
  CHECK(f.status == Status::kInvalidInput);
  CHECK(f.r.size() == 2);
  const FrictionReduction red(singleContact(1.0, 0.0, 1.0, -1.0, 0.0, 0.5));
  CHECK_THROWS_AS(red.reactions(Eigen::VectorXd::Zero(3)), std::invalid_argument);
}
