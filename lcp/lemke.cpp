#include "lcp/lemke.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <sstream>

#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

// Variable numbering in the augmented system  I w + N z − d z₀ = q  (N = −M, scaled):
//   w_i → i,   z_j → n + j,   z₀ → 2n.
int complementOf(int var, int n) { return var < n ? var + n : var - n; }

// The power of two nearest below 1/x (x > 0 finite), by exponent arithmetic, so that scaling
// is exact in floating point and costs no libm call.
double powerOfTwoInverse(double x) {
  if (!(x > 0.0) || !std::isfinite(x)) return 1.0;
  const int exponent = int((std::bit_cast<std::uint64_t>(x) >> 52) & 0x7ff) - 1023;
  if (exponent <= -1022 || exponent >= 1023) return 1.0;  // subnormal or huge: leave as is
  return std::bit_cast<double>(std::uint64_t(1023 - exponent) << 52);
}

/// Ends `out` with status s: no solution, NaN residuals.
void failed(Result& out, Status s, const std::string& why, Eigen::Index n) {
  out.status = s;
  out.message = "lemke: " + why;
  out.z.setZero(std::max<Eigen::Index>(n, 0));
  out.w.setZero(std::max<Eigen::Index>(n, 0));
  out.residual = out.relative_residual = std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

LemkeSolver::LemkeSolver(LemkeOptions options) : options_(std::move(options)) {}

Result LemkeSolver::solve(const Problem& p) {
  Result r;
  solve(p, r);
  return r;
}

void LemkeSolver::resize(Eigen::Index n) {
  if (Binv_.rows() == n) return;
  Ms_.resize(n, n);
  Binv_.resize(n, n);
  basis_matrix_.resize(n, n);
  qs_.resize(n);
  row_scale_.resize(n);
  col_scale_.resize(n);
  d_.resize(n);
  x_.resize(n);
  z_prev_.resize(n);
  w_prev_.resize(n);
  column_.resize(n);
  ratio_row_.resize(n);
  trial_.resize(n);
  basis_.resize(n);
  position_.resize(2 * n + 1);
  ties_.reserve(n);
  lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n);
}

void LemkeSolver::solve(const Problem& p, Result& out) {
  attempt(p, out, {options_.scale, false, 1.0});
  if (options_.restarts <= 0 ||
      (out.status != Status::kRayTermination && out.status != Status::kNumericalFailure))
    return;
  // A ray proves infeasibility only in exact arithmetic: on nearly singular M a pivot below
  // the tolerance can end the path early. Retry along other paths (unscaled; another
  // covering vector with a finer tolerance) before reporting the first attempt's outcome.
  first_ = out;
  int pivots = out.pivots;
  // First the same path letting z₀ leave on near ties: ending it there early on a
  // well-posed problem would trade accuracy for nothing, so only a failed path does.
  const Attempt variants[] = {{options_.scale, false, 1.0, true},
                              {!options_.scale, false, 1.0},
                              {options_.scale, true, 1e-2}};
  const int restarts = std::min<int>(options_.restarts, int(std::size(variants)));
  for (int k = 0; k < restarts; ++k) {
    attempt(p, out, variants[k]);
    pivots += out.pivots;
    if (out.ok()) {
      out.pivots = pivots;
      return;
    }
  }
  out = first_;
  out.pivots = pivots;
  out.message += " (restarts along " + std::to_string(restarts) +
                 " other paths failed too)";
}

void LemkeSolver::attempt(const Problem& p, Result& out, const Attempt& how) {
  out.pivots = 0;
  out.message.clear();
  out.zero_tol_used = 0.0;
  if (!validInput(p, out) || solvedAtZero(p, out)) return;
  resize(p.q.size());
  Path path;
  if (!scaleProblem(p, out, how, path)) return;
  out.zero_tol_used = path.tol;
  if (!followPath(p, out, how, path)) return;
  finish(p, out, path);
}

bool LemkeSolver::validInput(const Problem& p, Result& out) const {
  const Eigen::Index n = p.q.size();
  if (p.M.rows() != n || p.M.cols() != n) {
    std::ostringstream os;
    os << "expected M n×n and q of size n, got M " << p.M.rows() << "×" << p.M.cols() << ", q "
       << n;
    failed(out, Status::kInvalidInput, os.str(), n);
    return false;
  }
  std::string why;
  if (!p.q.allFinite())
    why = "q has a NaN or Inf entry";
  else if (options_.covering.size() != 0 &&
           (options_.covering.size() != n || !(options_.covering.array() > 0.0).all() ||
            !options_.covering.allFinite()))
    why = "covering vector must have n = " + std::to_string(n) + " positive finite entries";
  else if (options_.max_pivots < 0)
    why = "max_pivots must be ≥ 0";
  if (why.empty()) return true;
  failed(out, Status::kInvalidInput, why, n);
  return false;
}

bool LemkeSolver::solvedAtZero(const Problem& p, Result& out) const {
  const Eigen::Index n = p.q.size();
  out.z.setZero(n);
  // z = 0 solves it, no pivot, when q ≥ 0 — and also when its negative entries are so small
  // that z = 0 meets the acceptance test itself (relative residual |min q| / ‖q‖∞ ≤
  // accept_tol): round-off of a quantity that is exactly zero, such as the sliding velocity
  // of a contact at rest, on which Lemke would start with a degenerate pivot and could end
  // on a secondary ray.
  const double q_floor =
      n == 0 ? 0.0 : -options_.accept_tol * p.q.cwiseAbs().maxCoeff();
  const bool trivial = n == 0 || (p.q.array() >= q_floor).all();
  if (!trivial) return false;
  if (!p.M.allFinite()) {
    failed(out, Status::kInvalidInput, "M has a NaN or Inf entry", n);
    return true;
  }
  out.w = p.q;
  out.status = Status::kSuccess;
  // z = 0 makes the scale max(‖q‖∞, ‖M‖∞‖z‖∞) = ‖q‖∞, so ‖M‖∞ is not needed (nor a new vector).
  const Residual r = residual(p, out.z, out.w, 0.0);
  out.residual = r.absolute;
  out.relative_residual = r.relative;
  return true;
}

bool LemkeSolver::scaleProblem(const Problem& p, Result& out, const Attempt& how, Path& path) {
  const Eigen::Index n = p.q.size();
  // Positive diagonal scalings M' = R M C, q' = R q keep complementarity (z = C z', w = R⁻¹ w')
  // and bring entries to O(1), which makes one pivot tolerance fit every row. One
  // column-major pass also gathers ‖M‖∞ for the relative residual.
  row_scale_.setZero();
  ratio_row_.setZero();  // row sums of |M|
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) {
      const double a = std::abs(p.M(i, j));
      row_scale_(i) = std::max(row_scale_(i), a);
      ratio_row_(i) += a;
    }
  // Row sums of |M| propagate NaN and Inf, so this also validates M without another pass.
  if (!ratio_row_.allFinite()) {
    failed(out, Status::kInvalidInput,
           p.M.allFinite() ? "‖M‖∞ overflows (a row sum of |M| exceeds the largest double); rescale "
                             "the problem"
                           : "M has a NaN or Inf entry",
           n);
    return false;
  }
  path.norm_M = ratio_row_.maxCoeff();
  if (how.scale) {
    for (Eigen::Index i = 0; i < n; ++i) row_scale_(i) = powerOfTwoInverse(row_scale_(i));
    for (Eigen::Index j = 0; j < n; ++j) {
      double col_max = 0.0;
      for (Eigen::Index i = 0; i < n; ++i)
        col_max = std::max(col_max, row_scale_(i) * std::abs(p.M(i, j)));
      col_scale_(j) = powerOfTwoInverse(col_max);
    }
  } else {
    row_scale_.setOnes();
    col_scale_.setOnes();
  }
  ratio_row_.setZero();
  for (Eigen::Index j = 0; j < n; ++j)
    for (Eigen::Index i = 0; i < n; ++i) {
      Ms_(i, j) = -row_scale_(i) * p.M(i, j) * col_scale_(j);  // N = −M'
      ratio_row_(i) += std::abs(Ms_(i, j));
    }
  const double norm_Ms = ratio_row_.maxCoeff();
  qs_ = row_scale_.cwiseProduct(p.q);
  // The LCP is positively homogeneous in q (z solves (M, q) iff α z solves (M, α q)), so q is
  // brought to O(1) too: the pivot tolerance is absolute, and a q of round-off size (1e-15, a
  // resting contact's data) would otherwise sit below it and end the path on a ray.
  path.q_scale = powerOfTwoInverse(qs_.cwiseAbs().maxCoeff());
  qs_ *= path.q_scale;
  if (options_.covering.size() == n)
    d_ = options_.covering;
  else
    d_.setOnes();
  if (how.alternate_covering)  // a deterministic, non-uniform d takes another pivot path
    for (Eigen::Index i = 0; i < n; ++i) d_(i) *= 1.0 + double((5 * i) % 7) / 7.0;

  // Same rule as defaultZeroTolerance(M'), with the norm gathered above.
  path.tol = how.tol_factor *
             (options_.zero_tol > 0.0 ? options_.zero_tol
                                      : 10.0 * double(n) * std::max(1.0, norm_Ms) *
                                            std::numeric_limits<double>::epsilon());
  path.max_pivots = options_.max_pivots > 0 ? options_.max_pivots : int(100 * (n + 1));
  path.norm_q = p.q.lpNorm<Eigen::Infinity>();
  return true;
}

int LemkeSolver::startBasis(Eigen::Index n, double tol) {
  // Start: basis {w}, B⁻¹ = I, x = q. z₀ enters at the level that makes every w ≥ 0; the
  // row attaining max(−qᵢ/dᵢ) leaves. On ties the largest index keeps the rows of [x, B⁻¹]
  // lexicographically positive (row i becomes eᵢ − (dᵢ/dᵣ)eᵣ, positive iff i < r).
  Binv_.setIdentity();
  x_ = qs_;
  std::fill(position_.begin(), position_.end(), -1);
  for (int i = 0; i < n; ++i) {
    basis_[i] = i;
    position_[i] = i;
  }
  int r = 0;
  double best = -qs_(0) / d_(0);
  for (int i = 1; i < n; ++i) {
    const double t = -qs_(i) / d_(i), eps = tol * std::max(1.0, std::abs(best));
    if (t > best + eps)
      best = t, r = i;
    else if (options_.lexicographic && t >= best - eps)
      r = i;
  }
  column_ = -d_;  // B⁻¹ times the z₀ column
  return r;
}

Residual LemkeSolver::evaluate(const Problem& p, Result& out, const Path& path, const Eigen::VectorXd& basic) const {
  // Reads a solution off a complementary basis, in the scaled variables, and checks it on the
  // original problem (residual.hpp's definition, computed here without allocating).
  const Eigen::Index n = p.q.size();
  // Only basic z are nonzero: w = q + Σ zⱼ Mⱼ over those columns.
  out.z.setZero(n);
  out.w = p.q;
  double z_max = 0.0;
  for (int i = 0; i < n; ++i) {
    if (basis_[i] < n) continue;
    const int j = basis_[i] - int(n);
    const double zj = std::max(basic(i), 0.0) * col_scale_(j) / path.q_scale;
    out.z(j) = zj;
    z_max = std::max(z_max, zj);
    if (zj == 0.0) continue;
    const double* mj = p.M.col(j).data();
    double* w = out.w.data();
    for (Eigen::Index k = 0; k < n; ++k) w[k] += zj * mj[k];
  }
  double abs = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) abs = std::max(abs, std::abs(std::min(out.z(i), out.w(i))));
  const double scale = std::max(path.norm_q, path.norm_M * z_max);
  return Residual{abs, abs == 0.0 ? 0.0 : abs / std::max(scale, std::numeric_limits<double>::min())};
}

void LemkeSolver::resolveBasis(Eigen::VectorXd& x) {
  // x = B⁻¹ q̂ for the current basis by a fresh LU factorization, free of the round-off that the
  // product-form updates accumulate.
  const Eigen::Index n = qs_.size();
  for (int i = 0; i < n; ++i) {
    const int v = basis_[i];
    if (v < n)
      basis_matrix_.col(i) = Eigen::VectorXd::Unit(n, v);
    else
      basis_matrix_.col(i) = Ms_.col(v - n);
  }
  lu_.compute(basis_matrix_);
  x = lu_.solve(qs_);
}

int LemkeSolver::leavingRow(double piv_tol, double min_ratio, double tol) {
  const Eigen::Index n = x_.size();
  const int z0 = int(2 * n);
  ties_.clear();
  const double tie_tol = tol * std::max(1.0, min_ratio);
  for (int i = 0; i < n; ++i)
    if (column_(i) > piv_tol && ratio_row_(i) <= min_ratio + tie_tol) ties_.push_back(i);
  int r = ties_.front();
  if (ties_.size() > 1) {
    if (position_[z0] >= 0 &&
        std::find(ties_.begin(), ties_.end(), position_[z0]) != ties_.end()) {
      r = position_[z0];  // letting z₀ leave ends the run with a solution
    } else if (options_.lexicographic) {
      // Lexicographic minimum of the rows B⁻¹ᵢ / aᵢ among the ties: never cycles.
      for (Eigen::Index k = 0; k < n && ties_.size() > 1; ++k) {
        double lo = std::numeric_limits<double>::infinity();
        for (int i : ties_) lo = std::min(lo, Binv_(i, k) / column_(i));
        const double eps = tol * std::max(1.0, std::abs(lo));
        std::erase_if(ties_, [&](int i) { return Binv_(i, k) / column_(i) > lo + eps; });
      }
      r = ties_.front();
    }
  }
  return r;
}

bool LemkeSolver::followPath(const Problem& p, Result& out, const Attempt& how, const Path& path) {
  const Eigen::Index n = p.q.size();
  const double tol = path.tol;
  const int z0 = int(2 * n);
  int r = startBasis(n, tol);
  int entering = z0;
  for (;;) {
    // Pivot on row r with the entering column a = column_: x ← x − t a, x_r ← t.
    const double ar = column_(r);
    const double t = x_(r) / ar;
    {
      double* x = x_.data();
      const double* a = column_.data();
      for (Eigen::Index i = 0; i < n; ++i) x[i] -= t * a[i];
      x[r] = t;
    }
    // B⁻¹ ← E B⁻¹, column by column; B⁻¹ starts as I and stays sparse for a while, so
    // columns whose row-r entry is zero are skipped.
    {
      const double* a = column_.data();
      for (Eigen::Index j = 0; j < n; ++j) {
        double* col = Binv_.col(j).data();
        const double f = col[r] / ar;
        if (f == 0.0) continue;
        for (Eigen::Index i = 0; i < n; ++i) col[i] -= a[i] * f;
        col[r] = f;
      }
    }
    const int leaving = basis_[r];
    position_[leaving] = -1;
    basis_[r] = entering;
    position_[entering] = r;
    ++out.pivots;
    if (!std::isfinite(t)) {
      failed(out, Status::kNumericalFailure, "non-finite basic value after pivot " + std::to_string(out.pivots), n);
      return false;
    }
    if (leaving == z0) return true;  // complementary basis reached
    if (out.pivots >= path.max_pivots) {
      failed(out, Status::kPivotLimit,
             "no solution after " + std::to_string(out.pivots) + " pivots (limit " +
                 std::to_string(path.max_pivots) + ")",
             n);
      return false;
    }

    // The complement of the leaving variable enters.
    entering = complementOf(leaving, int(n));
    if (entering < n) {
      column_ = Binv_.col(entering);
    } else {
      // a = B⁻¹ N_j, skipping the zeros of N_j (contact problems are sparse).
      double* a = column_.data();
      std::fill(a, a + n, 0.0);
      const double* nj = Ms_.col(entering - n).data();
      for (Eigen::Index k = 0; k < n; ++k) {
        const double s = nj[k];
        if (s == 0.0) continue;
        const double* b = Binv_.col(k).data();
        for (Eigen::Index i = 0; i < n; ++i) a[i] += s * b[i];
      }
    }

    // Minimum ratio test over rows whose basic variable decreases as `entering` grows.
    double column_max = 1.0;
    for (Eigen::Index i = 0; i < n; ++i) column_max = std::max(column_max, std::abs(column_(i)));
    const double piv_tol = tol * column_max;
    double min_ratio = std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) {
      if (column_(i) > piv_tol) {
        ratio_row_(i) = std::max(x_(i), 0.0) / column_(i);
        min_ratio = std::min(min_ratio, ratio_row_(i));
      }
    }
    if (min_ratio == std::numeric_limits<double>::infinity()) {
      failed(out, Status::kRayTermination,
             "secondary ray after " + std::to_string(out.pivots) +
                 " pivots: no solution exists if M is copositive-plus",
             n);
      return false;
    }
    r = leavingRow(piv_tol, min_ratio, tol);
    // z₀ whose ratio ties the minimum in exact arithmetic but misses the tie test: structural
    // ties (with μ = 0 a friction LCP has β⁺ + β⁻ = d z₀ on every sliding row) drift apart by
    // the round-off of the updated B⁻¹, far beyond `tol` on ill-conditioned paths; the smaller
    // ratio then leaves instead of z₀ and the path can end on a secondary ray. Try the
    // complementary basis with z₀ leaving, solved afresh, and take it only if it passes the
    // acceptance test, so a looser tie cannot return a wrong answer. Tried only on a restart
    // after a failed path (Attempt::z0_near_ties).
    const int z0_row = position_[z0];
    if (how.z0_near_ties && z0_row >= 0 && r != z0_row && column_(z0_row) > piv_tol &&
        ratio_row_(z0_row) <= min_ratio + 1e-6 * ratio_row_(z0_row) + tol * std::max(1.0, min_ratio)) {
      basis_[z0_row] = entering;
      resolveBasis(trial_);
      if (trial_.allFinite() && evaluate(p, out, path, trial_).relative <= options_.accept_tol) {
        position_[z0] = -1;
        position_[entering] = z0_row;
        x_ = trial_;
        ++out.pivots;
        return true;
      }
      basis_[z0_row] = z0;
    }
  }
}

void LemkeSolver::finish(const Problem& p, Result& out, const Path& path) {
  Residual res = evaluate(p, out, path, x_);
  if (res.relative > 1e3 * std::numeric_limits<double>::epsilon()) {
    // The product-form updates accumulate round-off; re-solve the final basis directly.
    resolveBasis(x_);  // x_ is no longer needed for pivoting
    z_prev_ = out.z;  // workspace vectors: this runs in time-stepping loops
    w_prev_ = out.w;
    const Residual res_refined = x_.allFinite() ? evaluate(p, out, path, x_) : Residual{HUGE_VAL, HUGE_VAL};
    if (res_refined.absolute <= res.absolute) {
      res = res_refined;
    } else {
      out.z = z_prev_;
      out.w = w_prev_;
    }
  }
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (!(res.relative <= options_.accept_tol)) {
    std::ostringstream os;
    os << "terminal basis gives relative residual " << res.relative << " > " << options_.accept_tol
       << " (ill-conditioned basis)";
    out.status = Status::kNumericalFailure;
    out.message = "lemke: " + os.str();
    return;
  }
  out.status = Status::kSuccess;
}

}  // namespace stickslip::lcp
