#include "lcp/linear_program.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
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
LpResult checked(const LinearProgram& lp, LpResult r, const std::string& who = "Lemke") {
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
    std::ostringstream text;
    text << std::setprecision(3) << who << "'s answer misses the optimality conditions (primal " << primal
         << ", dual " << dual << ", gap " << gap << ")";
    r.message = text.str();
  }
  return r;
}

/// The file comment's simplex: the dual  min bᵀu  s.t.  Aᵀu = −c, u ≥ 0, revised (the basis
/// factored again at every step from the original data, so that round-off does not accumulate
/// over the near-parallel rows of a polygon), phase I with an artificial per equation.
class DualSimplex {
 public:
  /// `harris`: the ratio test's relative tolerance (0: the textbook test). Workspaces are sized
  /// here; the pivots allocate nothing.
  DualSimplex(const LinearProgram& lp, const Eigen::VectorXd& c, double harris)
      : lp_(lp), m_(lp.A.rows()), n_(lp.A.cols()), flip_(n_), rhs_(n_), level_(n_), pi_(n_), d_(n_), entering_(n_),
        scaled_(n_), reduced_(m_), basis_matrix_(n_, n_), lu_(n_, n_), lu_transposed_(n_, n_), in_basis_(std::size_t(m_ + n_), 0),
        harris_(harris) {
    // Rows j: s_j (Aᵀu)_j + a_j = s_j (−c_j) ≥ 0; columns u (m), then a (n).
    for (Eigen::Index j = 0; j < n_; ++j) {
      flip_(j) = -c(j) < 0.0 ? -1.0 : 1.0;
      rhs_(j) = -flip_(j) * c(j);
      basis_.push_back(m_ + j);
      in_basis_[std::size_t(m_ + j)] = 1;
    }
    tol_ = 1e-12 * std::max({1.0, lp.A.lpNorm<Eigen::Infinity>(), lp.b.lpNorm<Eigen::Infinity>(),
                              c.lpNorm<Eigen::Infinity>()});
  }

  /// Phase I, then phase II; kUnbounded: no dual point; kInfeasible: a ray of the dual.
  LpStatus run(int& pivots) {
    Eigen::VectorXd cost = Eigen::VectorXd::Zero(m_ + n_);
    cost.tail(n_).setOnes();
    if (minimize(cost, m_ + n_, pivots) != LpStatus::kOptimal) return LpStatus::kFailed;
    if (cost(basis_).dot(level_) > tol_ * double(std::max<Eigen::Index>(1, n_))) return LpStatus::kUnbounded;
    driveOutArtificials();
    cost.head(m_) = lp_.b;
    cost.tail(n_).setZero();
    const LpStatus s = minimize(cost, m_, pivots);
    return s == LpStatus::kUnbounded ? LpStatus::kInfeasible : s;
  }

  /// The primal x (the simplex multipliers of the equations, y_j = s_j π_j) and the dual u.
  void solution(Eigen::VectorXd& x, Eigen::VectorXd& u) const {
    x = flip_.cwiseProduct(pi_);
    u = Eigen::VectorXd::Zero(m_);
    for (Eigen::Index r = 0; r < n_; ++r)
      if (basis_[std::size_t(r)] < m_) u(basis_[std::size_t(r)]) = std::max(0.0, level_(r));
  }

 private:
  const LinearProgram& lp_;
  Eigen::Index m_, n_;
  Eigen::VectorXd flip_, rhs_, level_, pi_, d_, entering_, scaled_, reduced_;
  Eigen::MatrixXd basis_matrix_;
  /// B and Bᵀ factored with full pivoting: the bases of a polygon's near-parallel rows are
  /// ill-conditioned, and partial pivoting steers the cuts elsewhere (4× the programs on
  /// box_on_slope.yaml).
  Eigen::FullPivLU<Eigen::MatrixXd> lu_, lu_transposed_;
  std::vector<Eigen::Index> basis_;
  std::vector<char> in_basis_;
  double tol_ = 0.0, harris_ = 0.0;

  /// Column k of the equations (s ∘ A_kᵀ for u_k, e_j for the artificial a_j) into `out`.
  void column(Eigen::Index k, Eigen::VectorXd& out) const {
    if (k < m_) {
      out = flip_.cwiseProduct(lp_.A.row(k).transpose());
    } else {
      out.setZero();
      out(k - m_) = 1.0;
    }
  }
  /// The basis factored again from the original data, its levels and multipliers for `cost`.
  void factor(const Eigen::VectorXd& cost) {
    for (Eigen::Index r = 0; r < n_; ++r) {
      column(basis_[std::size_t(r)], entering_);
      basis_matrix_.col(r) = entering_;
    }
    lu_.compute(basis_matrix_);
    lu_transposed_.compute(basis_matrix_.transpose());
    level_ = lu_.solve(rhs_);
    for (Eigen::Index r = 0; r < n_; ++r) scaled_(r) = cost(basis_[std::size_t(r)]);
    pi_ = lu_transposed_.solve(scaled_);
  }
  void swap(Eigen::Index row, Eigen::Index k) {
    in_basis_[std::size_t(basis_[std::size_t(row)])] = 0;
    in_basis_[std::size_t(k)] = 1;
    basis_[std::size_t(row)] = k;
  }
  /// After phase I: each artificial still basic (at level ~0) swapped for the u column with the
  /// largest pivot in its row, (B⁻ᵀ e_r)ᵀ column, so that phase II's steps cannot move it (A has
  /// full column rank in the programs here; an artificial without a pivot is a redundant row
  /// and stays).
  void driveOutArtificials() {
    for (Eigen::Index r = 0; r < n_; ++r) {
      if (basis_[std::size_t(r)] < m_) continue;
      factor(Eigen::VectorXd::Zero(m_ + n_));
      const Eigen::VectorXd row = lu_transposed_.solve(Eigen::VectorXd::Unit(n_, r));
      reduced_ = (lp_.A * flip_.cwiseProduct(row)).cwiseAbs();
      Eigen::Index best = -1;
      double size = 1e-9;
      for (Eigen::Index k = 0; k < m_; ++k)
        if (!in_basis_[std::size_t(k)] && reduced_(k) > size) best = k, size = reduced_(k);
      if (best >= 0) swap(r, best);
    }
  }
  /// Minimizes costᵀ(u, a), the columns below `columns` allowed to enter; kUnbounded on a ray.
  /// Dantzig's entering column and Harris' two-pass ratio test (the largest pivot among the
  /// rows within a tolerance of the least ratio, so that no near-singular basis is entered);
  /// Bland's rule after 50 n steps, which cannot cycle.
  LpStatus minimize(const Eigen::VectorXd& cost, Eigen::Index columns, int& pivots) {
    const double slack = harris_ * std::max(1.0, rhs_.lpNorm<Eigen::Infinity>());
    for (int step = 0; step < 20000; ++step) {
      const bool bland = step > 50 * n_;
      factor(cost);
      // Reduced costs: b_k − (A (s ∘ π))_k for u_k, cost − π_j for a_j.
      scaled_ = flip_.cwiseProduct(pi_);
      reduced_.noalias() = lp_.A * scaled_;
      Eigen::Index enter = -1;
      double most = -tol_;
      for (Eigen::Index k = 0; k < columns && !(bland && enter >= 0); ++k) {
        if (in_basis_[std::size_t(k)]) continue;
        const double r = k < m_ ? cost(k) - reduced_(k) : cost(k) - pi_(k - m_);
        if (r < most) enter = k, most = bland ? most : r;
      }
      if (enter < 0) return LpStatus::kOptimal;
      column(enter, entering_);
      d_ = lu_.solve(entering_);
      const double pivot_tol = 1e-9 * d_.lpNorm<Eigen::Infinity>();
      double bound = std::numeric_limits<double>::infinity();  // pass 1: the relaxed least ratio
      for (Eigen::Index r = 0; r < n_; ++r)
        if (d_(r) > pivot_tol) bound = std::min(bound, (std::max(0.0, level_(r)) + slack) / d_(r));
      if (!std::isfinite(bound)) return LpStatus::kUnbounded;
      Eigen::Index leave = -1;  // pass 2: the largest pivot within it (Bland: the smallest index)
      for (Eigen::Index r = 0; r < n_; ++r) {
        if (!(d_(r) > pivot_tol) || std::max(0.0, level_(r)) / d_(r) > bound) continue;
        if (leave < 0 || (bland ? basis_[std::size_t(r)] < basis_[std::size_t(leave)] : d_(r) > d_(leave))) leave = r;
      }
      swap(leave, enter);
      ++pivots;
    }
    return LpStatus::kFailed;
  }
};

/// The program by DualSimplex: its optimum, or a ray of the dual (the primal is infeasible), or
/// no dual point (then the primal is unbounded if it is feasible: the program with c = 0 decides).
/// Harris' tolerance lets levels go negative by up to itself at each step: an answer that then
/// misses the optimality conditions is sought again with a tighter one.
LpResult solveBySimplex(const LinearProgram& lp) {
  const Eigen::Index n = lp.A.cols();
  const Eigen::VectorXd c = lp.c.size() ? lp.c : Eigen::VectorXd::Zero(n);
  LpResult out;
  for (double harris : {1e-9, 1e-12, 0.0}) {
    out = LpResult{};
    auto solve = [&](const Eigen::VectorXd& objective) {
      DualSimplex s(lp, objective, harris);
      const LpStatus status = s.run(out.pivots);
      if (status == LpStatus::kOptimal) s.solution(out.x, out.dual);
      return status;
    };
    const LpStatus status = solve(c);
    if (status == LpStatus::kOptimal) {
      out.status = LpStatus::kOptimal;
      out.objective = c.dot(out.x);
      out = checked(lp, out, "the simplex");
      if (out.status == LpStatus::kOptimal) return out;
      continue;
    }
    if (status == LpStatus::kFailed) {
      out.message = "the simplex did not finish";
      continue;
    }
    if (status == LpStatus::kUnbounded && !c.isZero(0.0))  // no dual point: feasible at all?
      out.status = solve(Eigen::VectorXd::Zero(n)) == LpStatus::kOptimal ? LpStatus::kUnbounded : LpStatus::kInfeasible;
    else
      out.status = LpStatus::kInfeasible;
    return out;
  }
  return out;
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
  if (method == LpMethod::kSimplex) return solveBySimplex(lp);
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
