// The global nonsmooth Newton for planar friction (lcp/planar_newton.hpp) against Lemke's exact
// solutions: Siconos' fc2d collection, and the coupled chain it exists for, where Gauss–Seidel
// stalls (random problems: nsgs_test.cpp, with NSGS).
#include <catch2/catch.hpp>
#include <cmath>

#include "lcp/nsgs.hpp"
#include "lcp/planar_newton.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"
#include "siconos_data.hpp"

using namespace stickslip;

namespace {

/// W = J M⁻¹ Jᵀ of a hanging chain of n links (m = 0.1 kg, L = 0.1 m): contact k joins the top
/// of link k to the bottom of link k − 1 (the ground for k = 0), its normal tilted by a few
/// degrees, so that every contact is coupled to its neighbours. Each is pushed in (q_n < 0) and
/// slides (q_t ≠ 0); μ = 0.1.
lcp::SparseFrictionProblem2D hangingChain(int n, std::uint64_t seed) {
  const double m = 0.1, L = 0.1, minv[3] = {1.0 / m, 1.0 / m, 12.0 / (m * L * L)};
  std::vector<Eigen::Triplet<double>> j_entries;
  lcp::SparseFrictionProblem2D p;
  p.q.resize(2 * n);
  p.mu = Eigen::VectorXd::Constant(n, 0.1);
  std::uint64_t state = seed;
  const auto uniform = [&] {  // a fixed LCG: the same problem on every machine
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) * 0x1.0p-53;
  };
  for (int k = 0; k < n; ++k) {
    const double tilt = 0.1 * (uniform() - 0.5);
    const Eigen::Vector2d normal(std::sin(tilt), std::cos(tilt)), tangent(normal.y(), -normal.x());
    for (const auto& [body, lever, sign] : {std::tuple{k, 0.5 * L, 1.0}, std::tuple{k - 1, -0.5 * L, -1.0}}) {
      if (body < 0) continue;
      for (const auto& [row, d] : {std::pair{2 * k, normal}, std::pair{2 * k + 1, tangent}}) {
        j_entries.emplace_back(row, 3 * body, sign * d.x());
        j_entries.emplace_back(row, 3 * body + 1, sign * d.y());
        j_entries.emplace_back(row, 3 * body + 2, sign * (-lever * d.x()));  // (0, lever) × d
      }
    }
    p.q(2 * k) = -0.0005 * (1.0 + uniform());
    p.q(2 * k + 1) = 2.0 * (uniform() - 0.5);
  }
  Eigen::SparseMatrix<double> J(2 * n, 3 * n);
  J.setFromTriplets(j_entries.begin(), j_entries.end());
  Eigen::VectorXd d(3 * n);
  for (int b = 0; b < n; ++b)
    for (int c = 0; c < 3; ++c) d(3 * b + c) = minv[c];
  p.W = J * d.asDiagonal() * J.transpose();
  return p;
}

}  // namespace

TEST_CASE("newton: Siconos' fc2d problems, to Siconos' error 1e-12 with Lemke's velocities, but the pile of 2020 grains", "[newton][friction][siconos-data]") {
  std::vector<std::filesystem::path> files = test::datFiles("fc2d");
  for (const auto& f : test::datFiles("fc2d-more")) files.push_back(f);
  for (const auto& file : files) {
    const lcp::SparseFrictionProblem2D p = lcp::readFc2dDatSparse(file);
    const lcp::FrictionResult newton = lcp::solveFriction("newton", p);
    CAPTURE(file.filename().string(), newton.message);
    if (p.contacts() == 2020) {
      // A granular pile, hyperstatic (W of rank far below 2 nc): Newton's steps run along W's
      // null directions and it stops short, saying so; NSGS with the exact finish solves it
      // (sparse_friction_test.cpp), and "auto" takes NSGS for such decoupled-in-groups piles.
      CHECK(newton.status == lcp::Status::kPivotLimit);
      CHECK(newton.message.find("without reaching error 1e-12") != std::string::npos);
      continue;
    }
    REQUIRE(newton.ok());
    CHECK(lcp::fc2dError(newton.r, newton.u, p.mu, p.q.norm()) <= 1e-12);
    CHECK(lcp::residual(p, newton.r).absolute <= 1e-12 * std::max(1.0, p.q.cwiseAbs().maxCoeff()));
    if (p.contacts() > 700) continue;  // Lemke's dense pivots: minutes
    const lcp::FrictionResult lemke = lcp::solveFriction("lemke", lcp::FrictionProblem2D{Eigen::MatrixXd(p.W), p.q, p.mu});
    REQUIRE(lemke.ok());
    const double scale = std::max(lemke.u.cwiseAbs().maxCoeff(), p.q.cwiseAbs().maxCoeff());
    CHECK((newton.u - lemke.u).cwiseAbs().maxCoeff() <= 1e-6 * scale + 1e-14);
  }
}

TEST_CASE("newton: a hanging chain of 200 coupled contacts, where Gauss–Seidel stalls",
          "[newton][friction][structure]") {
  const lcp::SparseFrictionProblem2D p = hangingChain(200, 7);
  const lcp::FrictionResult newton = lcp::solveFriction("newton", p);
  CAPTURE(newton.message);
  REQUIRE(newton.ok());
  // From r = 0, with 85 of the 200 contacts slipping: about a hundred iterations (warm-started
  // in a time loop, a few: bench_scaling).
  CHECK(newton.pivots <= 150);
  CHECK(lcp::fc2dError(newton.r, newton.u, p.mu, p.q.norm()) <= 1e-12);
  lcp::NsgsOptions sweeps;
  sweeps.max_sweeps = 2000;
  sweeps.exact_finish = false;
  CHECK_FALSE(lcp::solveFrictionNsgs(p, sweeps).ok());
  // W is positive definite here (2 rows per contact, 3 coordinates per link): the solution is
  // unique, and Lemke's is it.
  const lcp::FrictionResult lemke = lcp::solveFriction("lemke", lcp::FrictionProblem2D{Eigen::MatrixXd(p.W), p.q, p.mu});
  REQUIRE(lemke.ok());
  CHECK((newton.r - lemke.r).cwiseAbs().maxCoeff() <= 1e-8 * lemke.r.cwiseAbs().maxCoeff());
  // Some contacts stick and some slip: the set-valued law is exercised.
  int sticking = 0, slipping = 0;
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    if (lemke.r(2 * i) <= 0.0) continue;
    (std::abs(std::abs(lemke.r(2 * i + 1)) - p.mu(i) * lemke.r(2 * i)) <= 1e-9 * lemke.r(2 * i) ? slipping : sticking)++;
  }
  CHECK(sticking > 0);
  CHECK(slipping > 0);
}

TEST_CASE("newton: bad input is refused with the reason, and a warm start at the solution takes no iteration",
          "[newton][friction]") {
  lcp::SparseFrictionProblem2D p = hangingChain(10, 3);
  const lcp::FrictionResult first = lcp::solveFrictionNewton(p);
  REQUIRE(first.ok());
  const lcp::FrictionResult again = lcp::solveFrictionNewton(p, 1e-12, 200, &first.r);
  CHECK(again.ok());
  CHECK(again.pivots == 0);
  const Eigen::VectorXd short_start = Eigen::VectorXd::Zero(3);
  CHECK(lcp::solveFrictionNewton(p, 1e-12, 200, &short_start).message.find("warm start") != std::string::npos);
  CHECK(lcp::solveFrictionNewton(p, 0.0).status == lcp::Status::kInvalidInput);
  p.mu(0) = -1.0;
  CHECK(lcp::solveFrictionNewton(p).status == lcp::Status::kInvalidInput);
}

TEST_CASE("newton and nsgs: joint rows as bilateral blocks give the contacts of the reduced W = J G Jᵀ",
          "[newton][nsgs][friction][bilateral]") {
  // A hanging chain of n links: contacts at the even joints (rows J, as hangingChain's), ideal
  // pins at the odd ones (rows D: the pin's two world directions), M⁻¹ diagonal. The augmented
  // problem [J; D] M⁻¹ [J; D]ᵀ with D's blocks bilateral (u_D = 0, λ free) eliminates to
  // W = J G Jᵀ, G = M⁻¹ − M⁻¹Dᵀ (D M⁻¹ Dᵀ)⁻¹ D M⁻¹, which Lemke solves densely.
  const int n = 24, nc = n / 2, pins = n / 2;
  const double m = 0.1, L = 0.1;
  Eigen::VectorXd minv(3 * n);
  for (int b = 0; b < n; ++b) minv.segment<3>(3 * b) << 1.0 / m, 1.0 / m, 12.0 / (m * L * L);
  std::vector<Eigen::Triplet<double>> rows;
  std::uint64_t state = 11;
  const auto uniform = [&] {  // a fixed LCG: the same problem on every machine
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return double(state >> 11) * 0x1.0p-53;
  };
  Eigen::VectorXd q = Eigen::VectorXd::Zero(2 * (nc + pins)), mu = Eigen::VectorXd::Zero(nc + pins);
  for (int k = 0; k < n; ++k) {
    const bool contact = k % 2 == 0;
    const int row0 = contact ? 2 * (k / 2) : 2 * nc + 2 * (k / 2);
    const double tilt = contact ? 0.1 * (uniform() - 0.5) : 0.0;
    const Eigen::Vector2d d0(std::sin(tilt), std::cos(tilt)), d1(d0.y(), -d0.x());
    for (const auto& [body, lever, sign] : {std::tuple{k, 0.5 * L, 1.0}, std::tuple{k - 1, -0.5 * L, -1.0}}) {
      if (body < 0) continue;
      for (const auto& [row, d] : {std::pair{row0, d0}, std::pair{row0 + 1, d1}}) {
        rows.emplace_back(row, 3 * body, sign * d.x());
        rows.emplace_back(row, 3 * body + 1, sign * d.y());
        rows.emplace_back(row, 3 * body + 2, sign * (-lever * d.x()));
      }
    }
    if (contact) {
      q(row0) = -0.0005 * (1.0 + uniform());
      q(row0 + 1) = 2.0 * (uniform() - 0.5);
      mu(k / 2) = 0.1;
    }
  }
  Eigen::SparseMatrix<double> R(2 * (nc + pins), 3 * n);
  R.setFromTriplets(rows.begin(), rows.end());
  const lcp::SparseRowMatrix augmented = R * minv.asDiagonal() * R.transpose();

  const Eigen::MatrixXd r_dense(R), j = r_dense.topRows(2 * nc), d = r_dense.bottomRows(2 * pins);
  const Eigen::MatrixXd s = d * minv.asDiagonal() * d.transpose();
  const Eigen::MatrixXd g = Eigen::MatrixXd(minv.asDiagonal()) -
                            minv.asDiagonal() * d.transpose() * s.ldlt().solve(d * minv.asDiagonal());
  const lcp::FrictionResult lemke =
      lcp::solveFriction("lemke", lcp::FrictionProblem2D{j * g * j.transpose(), q.head(2 * nc), mu.head(nc)});
  REQUIRE(lemke.ok());

  Eigen::VectorXd r = Eigen::VectorXd::Zero(q.size()), u(q.size());
  lcp::PlanarNewtonSolver newton;
  const lcp::AlartCurnierSolver::Outcome o = newton.solve(lcp::viewOf(augmented), q, mu, 1e-12, 200, r, u, pins);
  REQUIRE(o.status == lcp::Status::kSuccess);
  CHECK(u.tail(2 * pins).cwiseAbs().maxCoeff() <= 1e-10 * u.head(2 * nc).cwiseAbs().maxCoeff());
  CHECK((r.head(2 * nc) - lemke.r).cwiseAbs().maxCoeff() <= 1e-8 * lemke.r.cwiseAbs().maxCoeff());
  // The joints' impulses are those that keep D v unchanged: λ = −S⁻¹ D M⁻¹ Jᵀ P.
  const Eigen::VectorXd lambda = -s.ldlt().solve(d * minv.asDiagonal() * j.transpose() * lemke.r);
  CHECK((r.tail(2 * pins) - lambda).cwiseAbs().maxCoeff() <= 1e-8 * lambda.cwiseAbs().maxCoeff());

  // Gauss–Seidel on the same blocks converges too, slowly along the pins.
  r.setZero();
  lcp::NsgsSolver nsgs;
  const lcp::NsgsSolver::Outcome g_out = nsgs.solve(lcp::viewOf(augmented), q, mu, {1e-10, 200000}, r, u, pins);
  REQUIRE(g_out.status == lcp::Status::kSuccess);
  CHECK((r.head(2 * nc) - lemke.r).cwiseAbs().maxCoeff() <= 1e-6 * lemke.r.cwiseAbs().maxCoeff());
  // A bilateral block whose diagonal is singular has no local solution: named, not guessed.
  lcp::SparseRowMatrix singular = augmented;
  singular.coeffRef(2 * nc, 2 * nc) = singular.coeffRef(2 * nc + 1, 2 * nc + 1) = 0.0;
  for (lcp::SparseRowMatrix::InnerIterator it(singular, 2 * nc); it; ++it) it.valueRef() = 0.0;
  r.setZero();
  const lcp::NsgsSolver::Outcome bad = nsgs.solve(lcp::viewOf(singular), q, mu, {1e-10, 10}, r, u, pins);
  CHECK(bad.status == lcp::Status::kNumericalFailure);
  CHECK(bad.failed_contact == nc);
}
