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
  if (l_.rows() == n) return;
  l_.resize(n, n);
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
    inverse_[j] = 1.0 / lj[j];
    Eigen::Index end = j + 1;
    for (Eigen::Index i = j + 1; i < k; ++i)
      if ((lj[i] *= inverse_[j]) != 0.0) end = i + 1;
    end_[std::size_t(j)] = end;
  }
  return true;
}

void UpdatedCholesky::forward(double* x, Eigen::Index k) const {
  // L x = rhs in place, column by column: no reduction on the chain, and zeros skipped.
  const Eigen::Index ld = l_.outerStride();
  const double* a = l_.data();
  for (Eigen::Index j = 0; j < k; ++j) {
    const double xj = x[j] *= inverse_[j];
    if (xj == 0.0) continue;
    const double* lj = a + j * ld;
    const Eigen::Index end = end_[std::size_t(j)];
    Eigen::Index i = j + 1;
    // In pairs from an even i: each pair's load meets the last column's store of the same pair
    // whole (a load straddling two stores cannot be forwarded, and stalls).
    if (i % 2 == 1 && i < end) {
      x[i] -= xj * lj[i];
      ++i;
    }
    for (; i + 1 < end; i += 2) {
      x[i] -= xj * lj[i];
      x[i + 1] -= xj * lj[i + 1];
    }
    if (i < end) x[i] -= xj * lj[i];
  }
}

bool UpdatedCholesky::append(const Eigen::MatrixXd& M, const Eigen::VectorXd& b, Eigen::Index i) {
  const Eigen::Index k = size();
  for (Eigen::Index r = 0; r < k; ++r) t_[r] = lower(M, i, indices_[std::size_t(r)]);
  forward(t_.data(), k);  // L l = M_Si: l is L's new row
  const double d = M(i, i) - t_.head(k).squaredNorm();
  if (!(d > 0.0)) return false;
  l_.row(k).head(k) = t_.head(k).transpose();
  for (Eigen::Index j = 0; j < k; ++j)
    if (t_[j] != 0.0) end_[std::size_t(j)] = k + 1;
  end_[std::size_t(k)] = k + 1;
  l_(k, k) = std::sqrt(d);
  inverse_[k] = 1.0 / l_(k, k);
  y_[k] = (b[i] - t_.head(k).dot(y_.head(k))) * inverse_[k];
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
  const Eigen::Index k = size(), ld = l_.outerStride();
  const double* a = l_.data();
  if (k <= kRowSolveTo) {  // by L's rows: one multiply-add between x_j and x_{j−1}, not a sum
    for (Eigen::Index i = 0; i < k; ++i) x[i] = y_[i];
    for (Eigen::Index j = k - 1; j >= 0; --j) {
      const double xj = x[j] *= inverse_[j];
      const double* row = a + j;
      for (Eigen::Index i = 0; i < j; ++i) x[i] -= row[i * ld] * xj;
    }
    return;
  }
  for (Eigen::Index j = k - 1; j >= 0; --j) {  // by L's columns, skipping their zeros below end_
    const double* lj = a + j * ld;
    double even = y_[j], odd = 0.0;  // two sums: half the chain of dependent adds
    Eigen::Index i = j + 1;
    const Eigen::Index end = end_[std::size_t(j)];
    for (; i + 1 < end; i += 2) {
      even -= lj[i] * x[i];
      odd -= lj[i + 1] * x[i + 1];
    }
    if (i < end) even -= lj[i] * x[i];
    x[j] = (even + odd) * inverse_[j];
  }
}

}  // namespace stickslip::lcp
