#include "lcp/planar_newton.hpp"

#include <algorithm>
#include <climits>
#include <optional>
#include <sstream>

namespace stickslip::lcp {

void embedPlanar(SparseRowView W, ContactBlocks& blocks) {
  const Eigen::Index nc = W.rows() / 2;
  const int* outer = W.outerIndexPtr();
  const int* inner = W.innerIndexPtr();
  const double* value = W.valuePtr();
  blocks.clear();
  for (Eigen::Index i = 0; i < nc; ++i) {
    // Rows 2i and 2i+1 merged by block column (each sorted by column).
    int a = outer[2 * i], b = outer[2 * i + 1];
    const int a_end = outer[2 * i + 1], b_end = outer[2 * i + 2];
    bool has_diagonal = false;
    while (a < a_end || b < b_end) {
      const int col_a = a < a_end ? inner[a] / 2 : INT_MAX, col_b = b < b_end ? inner[b] / 2 : INT_MAX;
      const int j = std::min(col_a, col_b);
      Eigen::Matrix3d block = Eigen::Matrix3d::Zero();
      for (; a < a_end && inner[a] / 2 == j; ++a) block(0, inner[a] % 2) = value[a];
      for (; b < b_end && inner[b] / 2 == j; ++b) block(1, inner[b] % 2) = value[b];
      if (j == i) {
        block(2, 2) = block(1, 1) > 0.0 ? block(1, 1) : block(0, 0) > 0.0 ? block(0, 0) : 1.0;
        has_diagonal = true;
      }
      blocks.add(j, block);
    }
    if (!has_diagonal) {  // keep the unloaded tangent's row: W_ii is zero here
      Eigen::Matrix3d block = Eigen::Matrix3d::Zero();
      block(2, 2) = 1.0;
      blocks.add(i, block);
    }
    blocks.endRow();
  }
  blocks.finish();
}

AlartCurnierSolver::Outcome PlanarNewtonSolver::solve(SparseRowView W, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                      const Eigen::Ref<const Eigen::VectorXd>& mu, double tolerance,
                                                      int max_iterations, Eigen::Ref<Eigen::VectorXd> r,
                                                      Eigen::Ref<Eigen::VectorXd> u, Eigen::Index bilateral) {
  const Eigen::Index nc = mu.size();
  embedPlanar(W, blocks_);
  q3_.setZero(3 * nc);
  r3_.setZero(3 * nc);
  u3_.resize(3 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) {
    q3_.segment<2>(3 * i) = q.segment<2>(2 * i);
    r3_.segment<2>(3 * i) = r.segment<2>(2 * i);
  }
  AlartCurnierSolver::Outcome total;
  for (int round = 0;; ++round) {
    const int budget = std::min(kNewtonRound, max_iterations - total.iterations);
    const AlartCurnierSolver::Weights weights{.start = round == 0 ? 0.0 : kSigmaStart, .free_steps = kFreeSteps};
    const AlartCurnierSolver::Outcome o = newton_.solve(blocks_, q3_, mu, tolerance, budget, r3_, u3_, weights, bilateral);
    total.iterations += o.iterations;
    total.status = o.status;
    total.error = o.error;
    for (Eigen::Index i = 0; i < nc; ++i) {
      r.segment<2>(2 * i) = r3_.segment<2>(3 * i);
      u.segment<2>(2 * i) = u3_.segment<2>(3 * i);
    }
    if (o.status == Status::kSuccess || total.iterations >= max_iterations) return total;
    // Lost (no descent, or slow): Gauss–Seidel sweeps move every contact towards its own
    // solution, from where Newton's steps converge again.
    const NsgsSolver::Outcome g = nsgs_.solve(W, q, mu, {tolerance, kNsgsSweeps}, r, u, bilateral);
    total.error = g.error;
    if (g.status == Status::kSuccess) {
      total.status = g.status;
      return total;
    }
    if (g.status == Status::kNumericalFailure) return total;
    ++total.iterations;  // the sweeps count as one iteration, so that the loop ends
    for (Eigen::Index i = 0; i < nc; ++i) r3_.segment<2>(3 * i) = r.segment<2>(2 * i);
  }
}

FrictionResult solveFrictionNewton(const SparseFrictionProblem2D& p, double tolerance, int max_iterations,
                                   const Eigen::VectorXd* warm_start, PlanarNewtonSolver* solver) {
  FrictionResult out;
  if (!startSparseSolve(p, "newton", tolerance > 0.0 && max_iterations >= 1, "tolerance > 0 and max_iterations >= 1",
                        warm_start, out))
    return out;
  std::optional<PlanarNewtonSolver> fresh;
  if (!solver) solver = &fresh.emplace();
  const AlartCurnierSolver::Outcome o =
      solver->solve(viewOf(p.W), p.q, p.mu, tolerance, max_iterations, out.r, out.u, p.bilateral);
  out.status = o.status;
  out.pivots = o.iterations;
  out.residual = fc2dResidual(out.r, out.u, p.mu, p.bilateral);
  out.relative_residual = o.error;
  std::ostringstream os;
  if (o.status == Status::kNumericalFailure)
    os << "newton: no step length gives descent, even with the largest proximal weight (error " << o.error << ")";
  else if (o.status == Status::kPivotLimit)
    os << "newton: " << max_iterations << " iterations without reaching error " << tolerance << " (error " << o.error
       << ")";
  out.message = os.str();
  return out;
}

}  // namespace stickslip::lcp
