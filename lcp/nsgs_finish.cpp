#include "lcp/nsgs_finish.hpp"

#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "lcp/friction_to_lcp.hpp"
#include "lcp/lemke.hpp"

namespace stickslip::lcp {

namespace {

using RowMatrix = SparseFrictionProblem2D::Matrix;

using enum PlanarMode;

/// The mode an iterate's reaction says: on the apex, inside the cone, or on an edge (within
/// a relative 1e-12, since a Lemke answer puts it there to round-off).
PlanarMode modeOf(double rn, double rt, double mu, double r_scale) {
  if (rn <= 1e-14 * r_scale) return kOpen;
  if (std::abs(rt) < mu * rn * (1.0 - 1e-12)) return kStick;
  return rt < 0.0 ? kSlipPositive : kSlipNegative;
}

/// Step 1: solve the iterate's modes as equations. Returns false when the system is singular.
bool activeSetSolve(const SparseFrictionProblem2D& p, const Eigen::VectorXd& r, Eigen::Index max_unknowns,
                    Eigen::VectorXd& out) {
  const Eigen::Index nc = p.contacts();
  const double r_scale = r.cwiseAbs().maxCoeff();
  std::vector<PlanarMode> mode(std::size_t(nc), kOpen);
  std::vector<Eigen::Index> column(std::size_t(nc), -1);  // first unknown of a closed contact
  Eigen::VectorXd rhs(2 * nc);
  Eigen::Index m = 0;
  for (Eigen::Index i = 0; i < nc; ++i) {
    mode[std::size_t(i)] = modeOf(r(2 * i), r(2 * i + 1), p.mu(i), r_scale);
    if (mode[std::size_t(i)] == kOpen) continue;
    column[std::size_t(i)] = m;
    for (int k = 0; k < activeUnknowns(mode[std::size_t(i)]); ++k) rhs(m++) = -p.q(2 * i + k);
  }
  if (m == 0 || m > max_unknowns) return false;
  // Rows: a sticking contact's uₙ = uₜ = 0, a sliding one's uₙ = 0. Columns: a sticking
  // contact's (rₙ, rₜ), a sliding one's rₙ with its rₜ = ∓μ rₙ folded into the entry.
  auto forEachEntry = [&](auto&& add) {
    for (Eigen::Index i = 0; i < nc; ++i) {
      const PlanarMode mi = mode[std::size_t(i)];
      if (mi == kOpen) continue;
      for (int k = 0; k < activeUnknowns(mi); ++k) {
        const Eigen::Index row = column[std::size_t(i)] + k;
        for (RowMatrix::InnerIterator it(p.W, 2 * i + k); it; ++it) {
          const Eigen::Index j = it.col() / 2;
          const PlanarMode mj = mode[std::size_t(j)];
          const bool tangent = it.col() % 2 == 1;
          if (mj == kOpen) continue;
          if (mj == kStick)
            add(row, column[std::size_t(j)] + (tangent ? 1 : 0), it.value());
          else
            add(row, column[std::size_t(j)],
                tangent ? it.value() * (mj == kSlipPositive ? -p.mu(j) : p.mu(j)) : it.value());
        }
      }
    }
  };
  Eigen::VectorXd x;
  if (m <= kDenseActiveSet) {  // a dense LU is cheaper than a sparse one's analysis
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(m, m);
    forEachEntry([&](Eigen::Index row, Eigen::Index col, double value) { a(row, col) += value; });
    x = Eigen::PartialPivLU<Eigen::MatrixXd>(a).solve(rhs.head(m));
  } else {
    std::vector<Eigen::Triplet<double>> entries;
    entries.reserve(std::size_t(p.W.nonZeros()));
    forEachEntry([&](Eigen::Index row, Eigen::Index col, double value) { entries.emplace_back(row, col, value); });
    Eigen::SparseMatrix<double> a(m, m);
    a.setFromTriplets(entries.begin(), entries.end());
    Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(a);
    if (lu.info() != Eigen::Success) return false;
    x = lu.solve(rhs.head(m));
    if (lu.info() != Eigen::Success) return false;
  }
  if (!x.allFinite()) return false;
  out.setZero(2 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    const PlanarMode mi = mode[std::size_t(i)];
    if (mi == kOpen) continue;
    const double rn = x(column[std::size_t(i)]);
    out(2 * i) = rn;
    out(2 * i + 1) = mi == kStick ? x(column[std::size_t(i)] + 1)
                                  : (mi == kSlipPositive ? -p.mu(i) : p.mu(i)) * rn;
  }
  return true;
}

/// Step 2: the worst contacts and their neighbours as one LCP, the others fixed. Returns the
/// block's size, 0 when Lemke did not solve it (r unchanged then).
Eigen::Index repairWorst(const SparseFrictionProblem2D& p, Eigen::Index max_block, LemkeSolver& lemke,
                         Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  const Eigen::Index nc = p.contacts();
  Eigen::VectorXd term(nc);
  for (Eigen::Index i = 0; i < nc; ++i) term(i) = fc2dContactTerm(p.mu(i), r.segment<2>(2 * i), u.segment<2>(2 * i));
  std::vector<Eigen::Index> worst(static_cast<std::size_t>(nc));
  std::iota(worst.begin(), worst.end(), Eigen::Index(0));
  std::sort(worst.begin(), worst.end(), [&](Eigen::Index a, Eigen::Index b) { return term(a) > term(b); });
  const double threshold = 1e-4 * term(worst.front());  // terms are squares: a factor 100 in error
  std::vector<Eigen::Index> position(std::size_t(nc), -1), block;
  auto take = [&](Eigen::Index i) {
    if (position[std::size_t(i)] >= 0 || Eigen::Index(block.size()) >= max_block) return;
    position[std::size_t(i)] = Eigen::Index(block.size());
    block.push_back(i);
  };
  for (const Eigen::Index i : worst) {
    if (!(term(i) > threshold) || Eigen::Index(block.size()) >= max_block) break;
    take(i);
    for (int k = 0; k < 2; ++k)
      for (RowMatrix::InnerIterator it(p.W, 2 * i + k); it; ++it) take(it.col() / 2);
  }
  const Eigen::Index nb = Eigen::Index(block.size());
  if (nb == 0) return 0;
  FrictionProblem2D local{Eigen::MatrixXd::Zero(2 * nb, 2 * nb), Eigen::VectorXd(2 * nb), Eigen::VectorXd(nb)};
  for (Eigen::Index k = 0; k < nb; ++k) {
    const Eigen::Index i = block[std::size_t(k)];
    local.mu(k) = p.mu(i);
    for (int a = 0; a < 2; ++a) {
      double q = p.q(2 * i + a);  // plus the fixed reactions of the contacts outside the block
      for (RowMatrix::InnerIterator it(p.W, 2 * i + a); it; ++it) {
        const Eigen::Index j = position[std::size_t(it.col() / 2)];
        if (j >= 0)
          local.W(2 * k + a, 2 * j + it.col() % 2) = it.value();
        else
          q += it.value() * r(it.col());
      }
      local.q(2 * k + a) = q;
    }
  }
  const FrictionResult solved = solveFrictionWithLemke(local, lemke);
  if (!solved.ok()) return 0;
  for (Eigen::Index k = 0; k < nb; ++k) r.segment<2>(2 * block[std::size_t(k)]) = solved.r.segment<2>(2 * k);
  return nb;
}

}  // namespace

bool activeSetStep(const SparseFrictionProblem2D& p, double q_norm, Eigen::Index max_unknowns, Eigen::VectorXd& r,
                   Eigen::VectorXd& u, double& error) {
  Eigen::VectorXd candidate;
  if (!activeSetSolve(p, r, max_unknowns, candidate)) return false;
  Eigen::VectorXd candidate_u = p.W * candidate + p.q;
  const double e = fc2dError(candidate, candidate_u, p.mu, q_norm);
  if (!(e < error)) return false;
  r.swap(candidate);
  u.swap(candidate_u);
  error = e;
  return true;
}

NsgsFinishOutcome finishNsgs(const SparseFrictionProblem2D& p, const NsgsFinishOptions& options, NsgsSolver& nsgs,
                             Eigen::VectorXd& r, Eigen::VectorXd& u) {
  NsgsFinishOutcome out;
  const double q_norm = p.q.norm();
  u = p.W * r + p.q;
  double error = fc2dError(r, u, p.mu, q_norm);
  out.error = error;
  Eigen::VectorXd best = r;
  auto noteBest = [&] {
    if (error < out.error) {
      out.error = error;
      best = r;
    }
  };
  LemkeSolver lemke;
  const NsgsOptions between{options.tolerance, options.sweeps_between};
  for (int round = 1; round <= options.rounds && out.error > options.tolerance; ++round) {
    out.rounds = round;
    if (activeSetStep(p, q_norm, p.W.rows(), r, u, error)) {
      noteBest();
      if (error <= options.tolerance) break;
    }
    out.largest_block = std::max(out.largest_block, repairWorst(p, options.max_block, lemke, r, u));
    const NsgsSolver::Outcome swept = nsgs.solve(viewOf(p.W), p.q, p.mu, between, r, u);
    out.sweeps += swept.sweeps;
    error = swept.error;
    noteBest();
  }
  r = best;
  u = p.W * r + p.q;
  return out;
}

}  // namespace stickslip::lcp
