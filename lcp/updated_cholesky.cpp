#include "lcp/updated_cholesky.hpp"

#include <algorithm>
#include <cmath>

namespace stickslip::lcp {

namespace {

/// M_ij read from the lower triangle, whichever order i and j come in.
double lower(const Eigen::MatrixXd& M, Eigen::Index i, Eigen::Index j) {
  return i >= j ? M(i, j) : M(j, i);
}

}  // namespace

void UpdatedCholesky::reset(Eigen::Index n) {
  indices_.clear();
  indices_.reserve(std::size_t(n));
  if (l_.cols() == n) return;
  l_.setZero(n + 3, n);  // 3 rows of padding, so that a short last block of rows reads 4 (forward)
  y_.resize(n);
  inverse_.resize(n);
  t_.resize(n);
  end_.resize(std::size_t(n));
}

bool UpdatedCholesky::factor(const Eigen::MatrixXd& M, const Eigen::VectorXd& b,
                             const std::vector<Eigen::Index>& indices) {
  indices_.clear();
  const auto k = Eigen::Index(indices.size());
  for (Eigen::Index c = 0; c < k; ++c) {
    for (Eigen::Index r = c; r < k; ++r) l_(r, c) = lower(M, indices[std::size_t(r)], indices[std::size_t(c)]);
    y_[c] = b[indices[std::size_t(c)]];
  }
  if (k > kEigenFrom) {
    Eigen::Ref<Eigen::MatrixXd> block = l_.topLeftCorner(k, k);
    Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(block);  // in place, lower triangle
    if (llt.info() != Eigen::Success) return false;
    inverse_.head(k) = block.diagonal().cwiseInverse();
    for (Eigen::Index j = 0; j < k; ++j) end_[std::size_t(j)] = k;
  } else if (!factorSmall(k)) {
    return false;
  }
  forward(y_.data(), k);
  indices_ = indices;
  return true;
}

bool UpdatedCholesky::factorSmall(Eigen::Index k) {
  // Left-looking over raw columns: column j less L(j, c) times each column c < j, from row j
  // down, then scaled by its pivot.
  const Eigen::Index ld = l_.outerStride();
  double* a = l_.data();
  for (Eigen::Index j = 0; j < k; ++j) {
    double* lj = a + j * ld;
    for (Eigen::Index c = 0; c < j; ++c) {
      const double* lc = a + c * ld;
      const double f = lc[j];
      if (f == 0.0) continue;  // M's zeros (diagonal and banded M) cost no column update
      for (Eigen::Index i = j; i < end_[std::size_t(c)]; ++i) lj[i] -= f * lc[i];
    }
    if (!(lj[j] > 0.0)) return false;
    lj[j] = std::sqrt(lj[j]);
    const double inverse = inverse_[j] = 1.0 / lj[j];
    Eigen::Index end = j + 1;
    for (Eigen::Index i = j + 1; i < k; ++i)
      if ((lj[i] *= inverse) != 0.0) end = i + 1;
    end_[std::size_t(j)] = end;
  }
  return true;
}

void UpdatedCholesky::forward(double* x, Eigen::Index k) const {
  // L x = rhs in place, four rows at a time (the last block may have fewer): their sums over
  // the solved x_c run in four independent accumulators over L(i … i+3, c), contiguous in
  // column c, so that no x is stored and reloaded on a chain; columns whose nonzeros end above
  // row i are skipped. In the block's triangle each row is divided by its pivot before it
  // takes the rows above, x_r = (rhs_r − sum_r)/L_rr − Σ (L_rc/L_rr) x_c: the products off
  // the chain, which from one x to the next is then one multiplication and one subtraction.
  const Eigen::Index ld = l_.outerStride();
  const double* a = l_.data();
  for (Eigen::Index i = 0; i < k; i += 4) {
    Eigen::Vector4d sum = Eigen::Vector4d::Zero();
    for (Eigen::Index c = 0; c < i; ++c) {
      const double xc = x[c];
      if (xc == 0.0 || end_[std::size_t(c)] <= i) continue;
      sum.noalias() += Eigen::Vector4d::Map(a + c * ld + i) * xc;
    }
    const double* l0 = a + i * ld + i;  // the 4 × 4 triangle on the diagonal
    const double* l1 = l0 + ld;
    const double* l2 = l1 + ld;
    const Eigen::Index rows = std::min<Eigen::Index>(4, k - i);
    const double x0 = x[i] = (x[i] - sum[0]) * inverse_[i];
    if (rows == 1) return;
    const double d1 = inverse_[i + 1];
    const double x1 = x[i + 1] = (x[i + 1] - sum[1]) * d1 - (l0[1] * d1) * x0;
    if (rows == 2) return;
    const double d2 = inverse_[i + 2];
    const double x2 = x[i + 2] = ((x[i + 2] - sum[2]) * d2 - (l0[2] * d2) * x0) - (l1[2] * d2) * x1;
    if (rows == 3) return;
    const double d3 = inverse_[i + 3];
    x[i + 3] = (((x[i + 3] - sum[3]) * d3 - (l0[3] * d3) * x0) - (l1[3] * d3) * x1) - (l2[3] * d3) * x2;
  }
}

bool UpdatedCholesky::append(const Eigen::MatrixXd& M, const Eigen::VectorXd& b, Eigen::Index i) {
  const Eigen::Index k = size();
  const Eigen::Index n = M.rows();
  const double* m = M.data();
  for (Eigen::Index r = 0; r < k; ++r) {  // M_ri from the lower triangle, without a branch
    const Eigen::Index j = indices_[std::size_t(r)];
    t_[r] = m[j >= i ? j + i * n : i + j * n];
  }
  forward(t_.data(), k);  // L l = M_Si: l is L's new row
  double squares = 0.0, along_y = 0.0;  // lᵀl and lᵀy
  for (Eigen::Index j = 0; j < k; ++j) {
    const double l = t_[j];
    squares += l * l;
    along_y += l * y_[j];
  }
  const double d = M(i, i) - squares;
  if (!(d > 0.0)) return false;
  for (Eigen::Index j = 0; j < k; ++j) {
    l_(k, j) = t_[j];
    if (t_[j] != 0.0) end_[std::size_t(j)] = k + 1;
  }
  end_[std::size_t(k)] = k + 1;
  l_(k, k) = std::sqrt(d);
  inverse_[k] = 1.0 / l_(k, k);
  y_[k] = (b[i] - along_y) * inverse_[k];
  indices_.push_back(i);
  return true;
}

void UpdatedCholesky::remove(Eigen::Index position) {
  const Eigen::Index k = size(), ld = l_.outerStride();
  double* a = l_.data();
  // Without row `position`, row j − 1 ← j holds columns 0 … j: one entry right of the diagonal
  // from `position` on, which a rotation of columns r and r + 1 takes out, r = position … k − 2.
  for (Eigen::Index c = 0; c < k; ++c) {
    double* lc = a + c * ld;
    for (Eigen::Index j = std::max(position + 1, c); j < k; ++j) lc[j - 1] = lc[j];
    auto& end = end_[std::size_t(c)];
    if (end > position) end = std::max(end - 1, std::min(c + 1, k - 1));
  }
  for (Eigen::Index r = position; r + 1 < k; ++r) {
    double *left = a + r * ld, *right = left + ld;
    const double rho = std::sqrt(left[r] * left[r] + right[r] * right[r]), inverse = 1.0 / rho;
    const double c = left[r] * inverse, s = right[r] * inverse;
    left[r] = rho;
    inverse_[r] = inverse;
    for (Eigen::Index i = r + 1; i + 1 < k; ++i) {
      const double l = left[i], m = right[i];
      left[i] = c * l + s * m;
      right[i] = c * m - s * l;
    }
    const double top = y_[r], bottom = y_[r + 1];
    y_[r] = c * top + s * bottom;
    y_[r + 1] = c * bottom - s * top;
    end_[std::size_t(r)] = end_[std::size_t(r + 1)] = std::max(end_[std::size_t(r)], end_[std::size_t(r + 1)]);
  }
  indices_.erase(indices_.begin() + position);
}

void UpdatedCholesky::solve(Eigen::VectorXd& x) const {
  // Lᵀ x = y from the last row up, four rows at a time: their triangle, then each x_c above
  // them less L(j … j+3, c) · x_{j … j+3} — contiguous in column c, one load and store of x_c
  // per four rows; columns whose nonzeros end above row j are skipped. As in `forward`, the
  // triangle divides by the pivots first, and x_j's term comes last in each x_c: from one x to
  // the next the chain is one multiplication and one subtraction.
  const Eigen::Index k = size(), ld = l_.outerStride();
  const double* a = l_.data();
  for (Eigen::Index i = 0; i < k; ++i) x[i] = y_[i];
  Eigen::Index j = k;
  for (; j >= 4; j -= 4) {
    const Eigen::Index top = j - 4;
    const double* l0 = a + top * ld + top;  // the 4 × 4 triangle on the diagonal
    const double* l1 = l0 + ld;
    const double* l2 = l1 + ld;
    const double d0 = inverse_[top], d1 = inverse_[top + 1], d2 = inverse_[top + 2];
    const double x3 = x[top + 3] *= inverse_[top + 3];
    const double x2 = x[top + 2] = x[top + 2] * d2 - (l2[3] * d2) * x3;
    const double x1 = x[top + 1] = (x[top + 1] * d1 - (l1[3] * d1) * x3) - (l1[2] * d1) * x2;
    const double x0 = x[top] = ((x[top] * d0 - (l0[3] * d0) * x3) - (l0[2] * d0) * x2) - (l0[1] * d0) * x1;
    for (Eigen::Index c = 0; c < top; ++c) {
      if (end_[std::size_t(c)] <= top) continue;
      const double* l = a + c * ld + top;
      x[c] = (x[c] - ((l[3] * x3 + l[2] * x2) + l[1] * x1)) - l[0] * x0;
    }
  }
  for (--j; j >= 0; --j) {  // the first rows, one at a time
    const double xj = x[j] *= inverse_[j];
    for (Eigen::Index c = 0; c < j; ++c) x[c] -= a[c * ld + j] * xj;
  }
}

void UpdatedCholesky::solveLast(Eigen::Index m, double* x) const {
  const Eigen::Index top = size() - m;
  for (Eigen::Index r = m - 1; r >= 0; --r) {
    double v = y_[top + r];
    for (Eigen::Index c = r + 1; c < m; ++c) v -= l_(top + c, top + r) * x[c];
    x[r] = v * inverse_[top + r];
  }
}

}  // namespace stickslip::lcp
