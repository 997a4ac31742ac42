#include "lcp/linear_program.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {
namespace {

/// Calls f(rows) for every subset of k of the m rows, in lexicographic order.
template <class F>
void forEachSubset(Eigen::Index m, Eigen::Index k, F&& f) {
  std::vector<Eigen::Index> rows(static_cast<std::size_t>(k));
  for (Eigen::Index i = 0; i < k; ++i) rows[std::size_t(i)] = i;
  if (k > m) return;
  while (true) {
    f(rows);
    Eigen::Index i = k - 1;
    while (i >= 0 && rows[std::size_t(i)] == m - k + i) --i;
    if (i < 0) return;
    ++rows[std::size_t(i)];
    for (Eigen::Index j = i + 1; j < k; ++j) rows[std::size_t(j)] = rows[std::size_t(j - 1)] + 1;
  }
}

/// The file comment's vertex enumeration.
LpResult solveByVertices(const LinearProgram& lp) {
  const Eigen::Index m = lp.A.rows(), n = lp.A.cols();
  const Eigen::VectorXd c = lp.c.size() ? lp.c : Eigen::VectorXd::Zero(n);
  LpResult out;
  out.lcp_status = Status::kNotRun;
  if (n == 0) {
    out.status = (lp.b.array() >= 0.0).all() ? LpStatus::kOptimal : LpStatus::kInfeasible;
    out.x.resize(0);
    return out;
  }
  if (Eigen::FullPivLU<Eigen::MatrixXd>(lp.A).rank() < n) {
    out.message = "vertex enumeration needs A of full column rank";
    return out;
  }
  const double tol = 1e-9 * std::max(1.0, lp.b.lpNorm<Eigen::Infinity>());
  double best = std::numeric_limits<double>::infinity();
  Eigen::MatrixXd sub(n, n);
  Eigen::VectorXd rhs(n);
  forEachSubset(m, n, [&](const std::vector<Eigen::Index>& rows) {
    for (Eigen::Index i = 0; i < n; ++i) {
      sub.row(i) = lp.A.row(rows[std::size_t(i)]);
      rhs(i) = lp.b(rows[std::size_t(i)]);
    }
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(sub);
    ++out.pivots;
    if (lu.rank() < n) return;
    const Eigen::VectorXd x = lu.solve(rhs);
    if (((lp.A * x - lp.b).array() > tol * std::max(1.0, x.lpNorm<Eigen::Infinity>())).any()) return;
    if (c.dot(x) < best) {
      best = c.dot(x);
      out.x = x;
    }
  });
  if (out.x.size() == 0) {
    out.status = LpStatus::kInfeasible;
    return out;
  }
  out.status = LpStatus::kOptimal;
  out.objective = best;
  // The dual at the optimal vertex: among its tight rows, a basis B with c + A_Bᵀ u_B = 0 and
  // u_B ≥ 0 (a degenerate vertex has several bases; one of them is dual feasible).
  auto withDual = [&]() -> LpResult {
    if (out.status != LpStatus::kOptimal) return out;
    std::vector<Eigen::Index> tight;
    for (Eigen::Index i = 0; i < m; ++i)
      if (lp.b(i) - lp.A.row(i).dot(out.x) <= tol * std::max(1.0, out.x.lpNorm<Eigen::Infinity>())) tight.push_back(i);
    out.dual = Eigen::VectorXd::Zero(m);
    bool dual_found = c.isZero(0.0);
    const double dual_tol = 1e-9 * std::max(1.0, c.lpNorm<Eigen::Infinity>());
    forEachSubset(Eigen::Index(tight.size()), n, [&](const std::vector<Eigen::Index>& k) {
      if (dual_found) return;
      Eigen::MatrixXd basis(n, n);
      for (Eigen::Index i = 0; i < n; ++i) basis.col(i) = lp.A.row(tight[std::size_t(k[std::size_t(i)])]).transpose();
      const Eigen::FullPivLU<Eigen::MatrixXd> lu(basis);
      if (lu.rank() < n) return;
      const Eigen::VectorXd u = lu.solve(-c);
      if (u.minCoeff() < -dual_tol) return;
      for (Eigen::Index i = 0; i < n; ++i) out.dual(tight[std::size_t(k[std::size_t(i)])]) = std::max(0.0, u(i));
      dual_found = true;
    });
    if (!dual_found) {
      out.status = LpStatus::kFailed;
      out.message = "vertex enumeration: no dual-feasible basis among the optimal vertex's tight rows";
    }
    return out;
  };
  if (n == 1) {  // the rays ±1
    for (double d : {1.0, -1.0})
      if ((lp.A.col(0) * d).maxCoeff() <= 0.0 && c(0) * d < 0.0) out.status = LpStatus::kUnbounded;
    return withDual();
  }
  forEachSubset(m, n - 1, [&](const std::vector<Eigen::Index>& rows) {
    Eigen::MatrixXd tight(n - 1, n);
    for (Eigen::Index i = 0; i < n - 1; ++i) tight.row(i) = lp.A.row(rows[std::size_t(i)]);
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(tight);
    if (lu.rank() < n - 1) return;
    const Eigen::VectorXd d = lu.kernel().col(0).normalized();
    const double scale = lp.A.norm() * 1e-12;
    for (double sgn : {1.0, -1.0})
      if ((lp.A * (sgn * d)).maxCoeff() <= scale && sgn * c.dot(d) < -1e-12 * c.norm()) out.status = LpStatus::kUnbounded;
  });
  return withDual();
}

/// The LCP of the file comment for objective c (size n).
Problem optimality(const LinearProgram& lp, const Eigen::VectorXd& c) {
  const Eigen::Index m = lp.A.rows(), n = lp.A.cols();
  Problem p;
  p.M = Eigen::MatrixXd::Zero(2 * n + m, 2 * n + m);
  p.M.block(0, 2 * n, n, m) = lp.A.transpose();
  p.M.block(n, 2 * n, n, m) = -lp.A.transpose();
  p.M.block(2 * n, 0, m, n) = -lp.A;
  p.M.block(2 * n, n, m, n) = lp.A;
  p.q.resize(2 * n + m);
  p.q << c, -c, lp.b;
  return p;
}

/// Lemke's answer against the optimality conditions: A x ≤ b, u ≥ 0, c + Aᵀu = 0 and
/// uᵀ(b − A x) = 0, each relative to its terms' size.
LpResult checked(const LinearProgram& lp, LpResult r) {
  const Eigen::VectorXd c = lp.c.size() ? lp.c : Eigen::VectorXd::Zero(lp.A.cols());
  const Eigen::VectorXd slack = lp.b - lp.A * r.x;
  const double scale = std::max({1.0, lp.b.lpNorm<Eigen::Infinity>(),
                                 (lp.A.cwiseAbs() * r.x.cwiseAbs()).lpNorm<Eigen::Infinity>()});
  const double dual_scale = std::max({1.0, c.lpNorm<Eigen::Infinity>(),
                                      (lp.A.transpose().cwiseAbs() * r.dual).lpNorm<Eigen::Infinity>()});
  const double primal = std::max(0.0, -slack.minCoeff()) / scale;
  const double dual = (c + lp.A.transpose() * r.dual).lpNorm<Eigen::Infinity>() / dual_scale;
  const double gap = std::abs(r.dual.dot(slack)) / (scale * dual_scale);
  if (std::max({primal, dual, gap}) > 1e-9) {
    r.status = LpStatus::kFailed;
    r.message = "Lemke's answer misses the optimality conditions (primal " + std::to_string(primal) +
                ", dual " + std::to_string(dual) + ", gap " + std::to_string(gap) + ")";
  }
  return r;
}

}  // namespace

std::string_view toString(LpStatus s) {
  switch (s) {
    case LpStatus::kOptimal: return "optimal";
    case LpStatus::kInfeasible: return "infeasible";
    case LpStatus::kUnbounded: return "unbounded";
    case LpStatus::kFailed: return "failed";
  }
  return "failed";
}

LpResult solveLinearProgram(const LinearProgram& lp, LpMethod method) {
  const Eigen::Index m = lp.A.rows(), n = lp.A.cols();
  if (lp.b.size() != m || (lp.c.size() != 0 && lp.c.size() != n))
    throw std::invalid_argument("LinearProgram: expected A m×n, b of size m and c of size n or empty, got A " +
                                std::to_string(m) + "×" + std::to_string(n) + ", b " +
                                std::to_string(lp.b.size()) + ", c " + std::to_string(lp.c.size()));
  if (!lp.A.allFinite() || !lp.b.allFinite() || !lp.c.allFinite())
    throw std::invalid_argument("LinearProgram: NaN or Inf in A, b or c");
  if (method == LpMethod::kVertices) return solveByVertices(lp);
  LemkeSolver lemke;
  LpResult out;
  auto take = [&](const Result& r) {
    out.lcp_status = r.status;
    out.lcp_residual = r.relative_residual;
    out.pivots += r.pivots;
    if (r.ok()) {
      out.x = r.z.head(n) - r.z.segment(n, n);
      out.dual = r.z.tail(m);
    }
  };
  auto failed = [&](const Result& r) {
    out.status = LpStatus::kFailed;
    out.message = "the LCP solver stopped with " + std::string(toString(r.status)) +
                  (r.message.empty() ? std::string() : ": " + r.message);
    return out;
  };
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  const Result feasible = lemke.solve(optimality(lp, zero));
  take(feasible);
  if (feasible.status == Status::kRayTermination) {
    out.status = LpStatus::kInfeasible;
    return out;
  }
  if (!feasible.ok()) return failed(feasible);
  if (lp.c.size() == 0 || lp.c.isZero(0.0)) {
    out.status = LpStatus::kOptimal;
    return checked(lp, out);
  }
  const Eigen::VectorXd witness = out.x;
  const Result optimal = lemke.solve(optimality(lp, lp.c));
  take(optimal);
  if (optimal.status == Status::kRayTermination) {
    out.status = LpStatus::kUnbounded;
    out.x = witness;
    return out;
  }
  if (!optimal.ok()) return failed(optimal);
  out.status = LpStatus::kOptimal;
  out.objective = lp.c.dot(out.x);
  return checked(lp, out);
}

}  // namespace stickslip::lcp
