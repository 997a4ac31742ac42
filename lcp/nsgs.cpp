#include "lcp/nsgs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lcp/nsgs_finish.hpp"

namespace stickslip::lcp {

double fc2dContactTerm(double mu, const Eigen::Vector2d& r, const Eigen::Vector2d& u) {
  // x = r − û with û = (uₙ + μ|uₜ|, uₜ); p = proj_K(x) on K = {|xₜ| ≤ μ xₙ}.
  double xn = r(0) - (u(0) + mu * std::abs(u(1))), xt = r(1) - u(1);
  const double at = std::abs(xt);
  if (mu * at <= -xn) {  // in the polar cone: projects to the apex
    xn = xt = 0.0;
  } else if (at > mu * xn) {  // outside K: onto its nearer edge
    xn = (mu * at + xn) / (mu * mu + 1.0);
    xt = std::copysign(mu * xn, xt);
  }
  return (r(0) - xn) * (r(0) - xn) + (r(1) - xt) * (r(1) - xt);
}

double fc2dResidual(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                   const Eigen::Ref<const Eigen::VectorXd>& mu, Eigen::Index bilateral) {
  const Eigen::Index contacts = mu.size() - bilateral;
  double sum = u.segment(2 * contacts, 2 * bilateral).squaredNorm();
  for (Eigen::Index i = 0; i < contacts; ++i) sum += fc2dContactTerm(mu(i), r.segment<2>(2 * i), u.segment<2>(2 * i));
  return std::sqrt(sum);
}

bool startSparseSolve(const SparseFrictionProblem2D& p, const char* who, bool limits_valid, const char* limits,
                      const Eigen::VectorXd* warm_start, FrictionResult& out) {
  const Eigen::Index n = p.q.size();
  try {
    p.validate(who);
    if (!limits_valid) throw std::invalid_argument(std::string(who) + ": expected " + limits);
    if (warm_start && warm_start->size() != n)
      throw std::invalid_argument(std::string(who) + ": the warm start has " + std::to_string(warm_start->size()) +
                                  " entries, expected " + std::to_string(n));
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = e.what();
    out.r = Eigen::VectorXd::Zero(n);
    out.u = p.q;
    return false;
  }
  if (warm_start)  // not one conditional expression: its common type would be a new vector
    out.r = *warm_start;
  else
    out.r.setZero(n);
  out.u.resize(n);
  return true;
}

namespace {

/// fc2dError from its residual.
double normalized(double residual, const Eigen::Ref<const Eigen::VectorXd>& r,
                  const Eigen::Ref<const Eigen::VectorXd>& u, double q_norm) {
  const double scale = std::max({r.norm(), u.norm(), q_norm});
  return scale > std::numeric_limits<double>::epsilon() ? residual / scale : residual;
}

}  // namespace

double fc2dError(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                 const Eigen::Ref<const Eigen::VectorXd>& mu, double q_norm, Eigen::Index bilateral) {
  return normalized(fc2dResidual(r, u, mu, bilateral), r, u, q_norm);
}

namespace {

using enum PlanarMode;

/// A bilateral block's local problem: u = A r + b = 0, r free (mode kStick); kNone when A is
/// singular.
PlanarMode solveBilateral(const Eigen::Matrix2d& a, const Eigen::Vector2d& b, Eigen::Vector2d& r) {
  const double det = a(0, 0) * a(1, 1) - a(0, 1) * a(1, 0);
  if (!(std::abs(det) > std::numeric_limits<double>::epsilon() * a.cwiseAbs().maxCoeff() * a.cwiseAbs().maxCoeff()))
    return kNone;
  r = {(-b(0) * a(1, 1) + b(1) * a(0, 1)) / det, (-b(1) * a(0, 0) + b(0) * a(1, 0)) / det};
  return kStick;
}

}  // namespace

FrictionResult solveFrictionNsgs(const SparseFrictionProblem2D& p, const NsgsOptions& options,
                                 const Eigen::VectorXd* warm_start) {
  FrictionResult out;
  NsgsSolver solver;
  solveFrictionNsgs(p, options, solver, out, warm_start);
  return out;
}

void solveFrictionNsgs(const SparseFrictionProblem2D& p, const NsgsOptions& options, NsgsSolver& solver,
                       FrictionResult& out, const Eigen::VectorXd* warm_start) {
  out.message.clear();
  if (!startSparseSolve(p, "nsgs", options.tolerance > 0.0 && options.max_sweeps >= 1 && p.bilateral == 0,
                        "tolerance > 0, max_sweeps >= 1 and no bilateral block (newton takes them)", warm_start, out))
    return;
  // Sweeps in chunks, the finish between them: first once the error reaches kNsgsFinishFrom,
  // then every kNsgsFinishEvery sweeps. Before that, whenever the modes have settled for
  // `settle` sweeps, their active-set solve: with the right modes it ends the solve, exact, where
  // the sweeps would still be converging linearly. Each settle that fails doubles the next.
  const double q_norm = p.q.norm();
  NsgsFinishOutcome finish;
  int finishes = 0, settle = kNsgsSettleSweeps;
  NsgsSolver::Outcome o;
  int sweeps = 0;
  while (true) {
    NsgsOptions chunk = options;
    chunk.max_sweeps = options.max_sweeps - sweeps;
    if (options.exact_finish) {
      chunk.max_sweeps = std::min(chunk.max_sweeps, kNsgsFinishEvery);
      chunk.settle_sweeps = settle;
      chunk.settle_unknowns = kDenseActiveSet;
      if (finishes == 0) chunk.tolerance = std::max(options.tolerance, kNsgsFinishFrom);
    }
    o = solver.solve(viewOf(p.W), p.q, p.mu, chunk, out.r, out.u);
    sweeps += o.sweeps;
    if (o.status == Status::kNumericalFailure || o.error <= options.tolerance) break;
    if (o.settled) {
      settle *= 2;
      if (activeSetStep(p, q_norm, kDenseActiveSet, out.r, out.u, o.error) && o.error <= options.tolerance) {
        o.status = Status::kSuccess;
        o.residual = fc2dResidual(out.r, out.u, p.mu);
        break;
      }
      if (sweeps < options.max_sweeps) continue;
    } else if (options.exact_finish) {
      const NsgsFinishOutcome f = finishNsgs(p, {options.tolerance}, solver, out.r, out.u);
      ++finishes;
      sweeps += f.sweeps;
      finish.rounds += f.rounds;
      finish.largest_block = std::max(finish.largest_block, f.largest_block);
      o.error = f.error;
      o.residual = fc2dResidual(out.r, out.u, p.mu);
      if (f.error <= options.tolerance) {
        o.status = Status::kSuccess;
        break;
      }
    }
    if (sweeps >= options.max_sweeps) {
      o.status = Status::kPivotLimit;
      break;
    }
  }
  out.status = o.status;
  out.pivots = sweeps;
  out.residual = o.residual;
  out.relative_residual = o.error;
  if (o.status == Status::kNumericalFailure) {
    out.message = "nsgs: contact " + std::to_string(o.failed_contact) +
                  "'s local problem has no solution (its diagonal block of W is singular or not positive)";
  } else if (o.status == Status::kPivotLimit) {
    std::ostringstream os;
    os << "nsgs: " << options.max_sweeps << " sweeps without reaching error " << options.tolerance << " (error "
       << o.error << ")";
    out.message = os.str();
  }
  if (finishes > 0)
    out.message += (out.message.empty() ? "nsgs: " : "; ") + std::string("exact finish: ") + std::to_string(finishes) +
                   (finishes == 1 ? " attempt, " : " attempts, ") + std::to_string(finish.rounds) +
                   (finish.rounds == 1 ? " round" : " rounds") + ", largest Lemke block " +
                   std::to_string(finish.largest_block) + " contacts";
}

void NsgsSolver::readColumns(SparseRowView W) {
  const Eigen::Index n = W.rows();
  column_start_.assign(std::size_t(n + 1), 0);
  for (Eigen::Index k = 0; k < W.nonZeros(); ++k) ++column_start_[std::size_t(W.innerIndexPtr()[k] + 1)];
  for (Eigen::Index j = 0; j < n; ++j) column_start_[std::size_t(j + 1)] += column_start_[std::size_t(j)];
  column_row_.resize(std::size_t(W.nonZeros()));
  column_value_.resize(std::size_t(W.nonZeros()));
  column_fill_.assign(column_start_.begin(), column_start_.end() - 1);
  for (Eigen::Index row = 0; row < n; ++row)
    for (SparseRowView::InnerIterator it(W, row); it; ++it) {
      const Eigen::Index at = column_fill_[std::size_t(it.col())]++;
      column_row_[std::size_t(at)] = row;
      column_value_[std::size_t(at)] = it.value();
      if (it.col() / 2 == row / 2) diagonal_[std::size_t(row / 2)](row % 2, it.col() % 2) = it.value();
    }
}

Eigen::Index NsgsSolver::activeUnknowns() const {
  Eigen::Index m = 0;
  for (const PlanarMode mode : mode_) m += lcp::activeUnknowns(mode);
  return m;
}

NsgsSolver::Outcome NsgsSolver::solve(SparseRowView W, const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& mu, const NsgsOptions& options,
                                      Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> u,
                                      Eigen::Index bilateral) {
  const Eigen::Index nc = mu.size();
  if (diagonal_.size() < std::size_t(nc)) diagonal_.resize(std::size_t(nc));
  for (Eigen::Index i = 0; i < nc; ++i) diagonal_[std::size_t(i)].setZero();
  readColumns(W);
  return sweeps(W, q, mu, options, r, u, bilateral);
}

NsgsSolver::Outcome NsgsSolver::sweeps(SparseRowView W, const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& mu,
                                       const NsgsOptions& options, Eigen::Ref<Eigen::VectorXd> r,
                                       Eigen::Ref<Eigen::VectorXd> u, Eigen::Index bilateral) {
  Outcome out;
  const Eigen::Index nc = mu.size(), contacts = nc - bilateral;
  const double q_norm = q.norm();
  auto exactU = [&] {
    u.noalias() = W * r;
    u += q;
  };
  auto measure = [&] {  // the residual and the error of r and u as they stand
    out.residual = fc2dResidual(r, u, mu, bilateral);
    out.error = normalized(out.residual, r, u, q_norm);
  };
  auto measureAfresh = [&] {
    exactU();
    measure();
  };
  auto finish = [&](Status s) {  // r and u as last measured
    out.status = s;
    return out;
  };
  if (r.isZero(0.0))  // a cold start: u = q without the product
    u = q;
  else
    exactU();
  mode_.assign(std::size_t(nc), kNone);
  int unchanged = 0;  // sweeps in a row in which no contact changed its mode
  Eigen::Vector2d local;
  for (int sweep = 1; sweep <= options.max_sweeps; ++sweep) {
    out.sweeps = sweep;
    bool changed = false;
    for (Eigen::Index i = 0; i < nc; ++i) {
      const Eigen::Matrix2d& a = diagonal_[std::size_t(i)];
      const Eigen::Vector2d ri = r.segment<2>(2 * i);
      const Eigen::Vector2d b = u.segment<2>(2 * i) - a * ri;
      const PlanarMode m =
          i < contacts ? solveLocalContact(a, b, mu(i), local) : solveBilateral(a, b, local);
      changed |= m != mode_[std::size_t(i)];
      mode_[std::size_t(i)] = m;
      if (m == kNone) {
        out.failed_contact = i;
        measureAfresh();
        return finish(Status::kNumericalFailure);
      }
      const Eigen::Vector2d delta = local - ri;
      if (delta(0) != 0.0) addColumn(2 * i, delta(0), u);
      if (delta(1) != 0.0) addColumn(2 * i + 1, delta(1), u);
      r.segment<2>(2 * i) = local;
    }
    // u was updated column by column; success is confirmed on u formed afresh, and u is
    // formed afresh every kFreshEvery sweeps so that its round-off cannot build up.
    measure();
    if (out.error <= options.tolerance || sweep % kFreshEvery == 0) {
      measureAfresh();
      if (out.error <= options.tolerance) return finish(Status::kSuccess);
    }
    unchanged = changed ? 0 : unchanged + 1;
    if (options.settle_sweeps > 0 && unchanged >= options.settle_sweeps &&
        activeUnknowns() <= options.settle_unknowns) {
      out.settled = true;
      break;
    }
  }
  measureAfresh();
  return finish(Status::kPivotLimit);
}

}  // namespace stickslip::lcp
