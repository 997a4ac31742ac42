#include "dynamics/model/sparse_joint_system.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace stickslip::dynamics {

SparseJointSystem::SparseJointSystem(const MultibodySystem& model)
    : model_(model),
      inverse_mass_(model.inverseMassDiagonal() ? *model.inverseMassDiagonal()
                                                : throw std::invalid_argument("SparseJointSystem: expected a diagonal mass matrix")),
      nv_(model.velocitySize()) {
  const std::vector<std::vector<int>> rows = model.jacobianPattern();
  const int m = static_cast<int>(model.constraintCount());
  if (static_cast<int>(rows.size()) != m)
    throw std::invalid_argument("SparseJointSystem: expected a Jacobian pattern of " + std::to_string(m) + " rows");
  d_outer_.assign(1, 0);
  for (const std::vector<int>& row : rows) {
    d_inner_.insert(d_inner_.end(), row.begin(), row.end());
    d_outer_.push_back(static_cast<int>(d_inner_.size()));
  }
  d_values_.resize(d_inner_.size());
  minv_d_values_.resize(d_inner_.size());

  // Per column, D's entries in it with their rows; then per row r the rows s it shares a column
  // with: S's pattern, with the matching pairs of D's entries (a in row r, b in row s) as terms.
  std::vector<std::vector<std::pair<int, int>>> by_column(static_cast<std::size_t>(nv_));  // (row, entry)
  for (int r = 0; r < m; ++r)
    for (int k = d_outer_[r]; k < d_outer_[r + 1]; ++k) by_column[std::size_t(d_inner_[k])].emplace_back(r, k);
  s_outer_.assign(1, 0);
  term_outer_.assign(1, 0);
  std::vector<std::vector<std::pair<int, int>>> terms(static_cast<std::size_t>(m));  // per row s: (a, b)
  std::vector<int> touched;
  for (int r = 0; r < m; ++r) {
    touched.clear();
    for (int a = d_outer_[r]; a < d_outer_[r + 1]; ++a)
      for (const auto& [row, b] : by_column[std::size_t(d_inner_[a])]) {
        auto& t = terms[std::size_t(row)];
        if (t.empty()) touched.push_back(row);
        t.emplace_back(a, b);
      }
    std::sort(touched.begin(), touched.end());
    for (const int row : touched) {
      s_inner_.push_back(row);
      for (const auto& [a, b] : terms[std::size_t(row)]) {
        term_a_.push_back(a);
        term_b_.push_back(b);
      }
      term_outer_.push_back(static_cast<int>(term_a_.size()));
      terms[std::size_t(row)].clear();
    }
    s_outer_.push_back(static_cast<int>(s_inner_.size()));
  }
  s_values_.resize(s_inner_.size());
}

bool SparseJointSystem::update(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::Ref<Eigen::VectorXd> phi) {
  model_.constraintsAndSparseJacobian(t, q, phi, d_values_.data());
  const double* d = d_values_.data();
  double* minv_d = minv_d_values_.data();
  for (std::size_t k = 0; k < d_values_.size(); ++k) minv_d[k] = d[k] * inverse_mass_(d_inner_[k]);
  const int* a = term_a_.data();
  const int* b = term_b_.data();
  for (std::size_t e = 0; e < s_values_.size(); ++e) {
    double sum = 0.0;
    for (int k = term_outer_[e]; k < term_outer_[e + 1]; ++k) sum += d[a[k]] * minv_d[b[k]];
    s_values_[e] = sum;
  }
  const bool factored = lu_.factor(rows(), s_outer_.data(), s_inner_.data(), s_values_.data());
  pivot_ratio_ = factored ? lu_.pivotRatio() : 0.0;
  return pivot_ratio_ >= kSingularPivotRatio;
}

void SparseJointSystem::multiplyD(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) const {
  const int* inner = d_inner_.data();
  const double* d = d_values_.data();
  for (int r = 0; r < rows(); ++r) {
    double sum = 0.0;
    for (int k = d_outer_[std::size_t(r)]; k < d_outer_[std::size_t(r) + 1]; ++k) sum += d[k] * x(inner[k]);
    out(r) = sum;
  }
}

void SparseJointSystem::addInverseMassDt(double scale, const Eigen::Ref<const Eigen::VectorXd>& y,
                                         Eigen::Ref<Eigen::VectorXd> out) const {
  const int* inner = d_inner_.data();
  const double* minv_d = minv_d_values_.data();
  for (int r = 0; r < rows(); ++r) {
    const double yr = scale * y(r);
    for (int k = d_outer_[std::size_t(r)]; k < d_outer_[std::size_t(r) + 1]; ++k) out(inner[k]) += minv_d[k] * yr;
  }
}

void SparseJointSystem::solve(Eigen::Ref<Eigen::VectorXd> x) { lu_.solve(x); }

Eigen::MatrixXd SparseJointSystem::dense() const {
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(rows(), nv_);
  for (int r = 0; r < rows(); ++r)
    for (int k = d_outer_[std::size_t(r)]; k < d_outer_[std::size_t(r) + 1]; ++k) d(r, d_inner_[std::size_t(k)]) = d_values_[std::size_t(k)];
  return d;
}

}  // namespace stickslip::dynamics
