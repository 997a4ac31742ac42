#include "lcp/updated_cholesky.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stickslip::lcp {

namespace {

/// M_ij read from the lower triangle, whichever order i and j come in.
double lower(const Eigen::MatrixXd& M, Eigen::Index i, Eigen::Index j) {
  return i >= j ? M(i, j) : M(j, i);
}

/// A pivot the factor can take: positive and normal. A subnormal one's reciprocal overflows;
/// NaN fails the comparison.
bool usablePivot(double d) { return d >= std::numeric_limits<double>::min(); }

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
  } else if (!factorPanels(k)) {
    return false;
  }
  forward(y_.data(), k);
  indices_ = indices;
  return true;
}

bool UpdatedCholesky::factorPanels(Eigen::Index k) {
  for (Eigen::Index j0 = 0; j0 < k; j0 += 4) {
    const Eigen::Index width = std::min<Eigen::Index>(4, k - j0);
    updatePanel(j0, width);
    if (!factorPanel(j0, width, k)) return false;
  }
  return true;
}

void UpdatedCholesky::updatePanel(Eigen::Index j0, Eigen::Index width) {
  // Columns whose nonzeros end at or above row j0 (block-diagonal or banded M_SS) take no part,
  // and no row below the last nonzero of those that do changes.
  const Eigen::Index ld = l_.outerStride();
  double* a = l_.data();
  double* panel = a + j0 * ld;
  Eigen::Index rows_end = j0;
  for (Eigen::Index c = 0; c < j0; ++c) rows_end = std::max(rows_end, end_[std::size_t(c)]);
  // Four rows at a time: each column c gives 4 × 4 products from two loads and four of the
  // panel's row entries, summed in registers; then one store per panel entry. Rows above a
  // column's diagonal (in the first block) are computed too and never read. A block of four rows
  // ends at rows_end ≤ k, so its panel is four columns wide.
  Eigen::Index i = j0;
  for (; i + 4 <= rows_end; i += 4) {
    Eigen::Vector2d top[4], bottom[4];
    for (int m = 0; m < 4; ++m) top[m] = bottom[m] = Eigen::Vector2d::Zero();
    for (Eigen::Index c = 0; c < j0; ++c) {
      if (end_[std::size_t(c)] <= j0) continue;
      const double* lc = a + c * ld;
      const Eigen::Vector2d upper = Eigen::Vector2d::Map(lc + i);
      const Eigen::Vector2d lower = Eigen::Vector2d::Map(lc + i + 2);
      for (int m = 0; m < 4; ++m) {
        top[m].noalias() += upper * lc[j0 + m];
        bottom[m].noalias() += lower * lc[j0 + m];
      }
    }
    for (int m = 0; m < 4; ++m) {
      Eigen::Vector2d::Map(panel + m * ld + i) -= top[m];
      Eigen::Vector2d::Map(panel + m * ld + i + 2) -= bottom[m];
    }
  }
  for (; i < rows_end; ++i)  // the last rows, one at a time
    for (Eigen::Index c = 0; c < j0; ++c) {
      if (end_[std::size_t(c)] <= j0) continue;
      const double* lc = a + c * ld;
      for (Eigen::Index m = 0; m < width; ++m) panel[m * ld + i] -= lc[j0 + m] * lc[i];
    }
}

bool UpdatedCholesky::factorPanel(Eigen::Index j0, Eigen::Index width, Eigen::Index k) {
  // Left-looking within the panel on unscaled columns a_j = L_jj · L(:, j): column c's share in
  // column j is a_c · (a_c[j] / d_c), d_c = L_cc², so that a division, not a square root,
  // lies on the chain from one pivot to the next. The square roots and the scaling follow.
  const Eigen::Index ld = l_.outerStride();
  double* a = l_.data();
  double pivot[4];
  for (Eigen::Index m = 0; m < width; ++m) {
    const Eigen::Index j = j0 + m;
    double* lj = a + j * ld;
    for (Eigen::Index c = j0; c < j; ++c) {
      const double* lc = a + c * ld;
      const double f = lc[j] * inverse_[c];  // 1 / d_c until the scaling below
      if (f == 0.0) continue;
      for (Eigen::Index r = j; r < k; ++r) lj[r] -= f * lc[r];
    }
    if (!usablePivot(lj[j])) return false;
    pivot[m] = lj[j];
    inverse_[j] = 1.0 / lj[j];
  }
  for (Eigen::Index m = 0; m < width; ++m) {
    const Eigen::Index j = j0 + m;
    double* lj = a + j * ld;
    const double inverse = inverse_[j] = std::sqrt(inverse_[j]);
    lj[j] = pivot[m] * inverse;
    Eigen::Index end = j + 1;
    for (Eigen::Index r = j + 1; r < k; ++r)
      if ((lj[r] *= inverse) != 0.0) end = r + 1;
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
  if (!usablePivot(d)) return false;
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
