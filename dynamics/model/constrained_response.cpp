#include "dynamics/model/constrained_response.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "dynamics/model/eom_solver.hpp"

namespace stickslip::dynamics {

ConstrainedResponse::ConstrainedResponse(const MultibodySystem& model, double baumgarte_alpha,
                                         double baumgarte_beta)
    : model_(model), inverse_mass_diagonal_(model.inverseMassDiagonal()), alpha_(baumgarte_alpha),
      beta_(baumgarte_beta) {
  if (!(alpha_ >= 0.0) || !(beta_ >= 0.0))
    throw std::invalid_argument("ConstrainedResponse: expected Baumgarte alpha, beta >= 0");
  const Eigen::Index nv = model.velocitySize(), m = model.constraintCount();
  forces_.resize(nv);
  a0_.resize(nv);
  tmp_v_.resize(nv);
  phi_.resize(m);
  phi_t_.resize(m);
  gamma_.resize(m);
  tmp_m_.resize(m);
  free_lambda_.resize(m);
  if (m >= kSparseJointRows && model.inverseMassDiagonal() && !model.jacobianPattern().empty()) {
    sparse_ = std::make_unique<SparseJointSystem>(model);
    return;
  }
  d_.resize(m, nv);
  minv_dt_.resize(nv, m);
  s_.setZero(m, m);
  s_cholesky_.resize(m);
  spans_ = model.jointRowSpans();
  if (Eigen::Index(spans_.size()) != m) spans_.assign(std::size_t(m), {0, nv});
  // S(i, j) = 0 unless the spans of rows i and j meet: S's profile (the first j of row i) and
  // the last row of each column of S's lower triangle.
  std::vector<Eigen::Index> profile(std::size_t(m), 0);
  s_last_.resize(std::size_t(m));
  for (Eigen::Index k = 0; k < m; ++k) s_last_[std::size_t(k)] = k;
  auto meet = [&](Eigen::Index i, Eigen::Index j) {
    return std::max(spans_[std::size_t(i)].first, spans_[std::size_t(j)].first) <
           std::min(spans_[std::size_t(i)].second, spans_[std::size_t(j)].second);
  };
  for (Eigen::Index i = 0; i < m; ++i) {
    Eigen::Index j = 0;
    while (j < i && !meet(i, j)) ++j;
    profile[std::size_t(i)] = j;
    for (Eigen::Index k = j; k <= i; ++k)
      if (meet(i, k)) s_last_[std::size_t(k)] = i;
  }
  // Column c of D is zero outside the rows whose spans hold c.
  column_rows_.assign(std::size_t(nv), {0, 0});
  for (Eigen::Index c = 0; c < nv; ++c) {
    Eigen::Index first = m, end = 0;
    for (Eigen::Index r = 0; r < m; ++r)
      if (spans_[std::size_t(r)].first <= c && c < spans_[std::size_t(r)].second) {
        first = std::min(first, r);
        end = r + 1;
      }
    if (first < end) column_rows_[std::size_t(c)] = {first, end};
  }
  s_cholesky_.setProfile(profile.data());
}

void ConstrainedResponse::scaleByInverseMass(const Eigen::Ref<const Eigen::MatrixXd>& x,
                                             Eigen::Ref<Eigen::MatrixXd> out) const {
  if (inverse_mass_diagonal_) {
    out.noalias() = inverse_mass_diagonal_->asDiagonal() * x;
  } else {
    out = x;
    model_.applyInverseMass(out);
  }
}

// Plain loops by columns in the two products below: over a few entries each, an Eigen
// expression's set-up costs more than the arithmetic, and a dot product's sum is a chain.
void ConstrainedResponse::multiplyD(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) const {
  out.setZero();
  for (Eigen::Index c = 0; c < d_.cols(); ++c) {
    const auto [b, e] = column_rows_[std::size_t(c)];
    addScaled(x(c), d_.col(c).data(), out.data(), b, e);
  }
}

void ConstrainedResponse::addInverseMassDt(double scale, const Eigen::Ref<const Eigen::VectorXd>& y,
                                           Eigen::Ref<Eigen::VectorXd> out) const {
  for (Eigen::Index r = 0; r < minv_dt_.cols(); ++r) {
    const auto [b, e] = spans_[std::size_t(r)];
    addScaled(scale * y(r), minv_dt_.col(r).data(), out.data(), b, e);
  }
}

bool ConstrainedResponse::factorJoints(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                       const Eigen::Ref<const Eigen::VectorXd>& v, bool with_gamma) {
  model_.generalizedForces(t, q, v, forces_);
  scaleByInverseMass(forces_, a0_);
  g_current_ = false;
  gamma_current_ = false;
  const Eigen::Index m = phi_.size();
  if (m == 0) return true;
  model_.constraintTimeDerivative(t, q, phi_t_);
  if (sparse_) {
    if (sparse_->update(t, q, phi_)) return true;
    std::ostringstream os;
    os << "joint Jacobian is rank-deficient at t = " << t
       << " s (dead centre or redundant joints): the pivot ratio of D M^-1 D^T's sparse LU is "
       << sparse_->pivotRatio();
    // The rows are named by a dense SVD of D: seconds beyond a few hundred rows.
    if (m <= kNamedRowsUpTo) os << describeDependentRows(model_, sparse_->dense());
    message_ = os.str();
    return false;
  }
  if (with_gamma) model_.constraintsJacobianAndGamma(t, q, v, phi_, d_, gamma_);
  else model_.constraintsAndJacobian(t, q, phi_, d_);
  minv_dt_ = d_.transpose();
  if (inverse_mass_diagonal_) minv_dt_.array().colwise() *= inverse_mass_diagonal_->array();
  else model_.applyInverseMass(minv_dt_);
  // The lower triangle, all the factorization reads, column j = D's columns in j's span
  // times M⁻¹Dᵀ(c, j), over the rows whose spans meet j's.
  for (Eigen::Index j = 0; j < m; ++j) {
    double* sj = s_.col(j).data();
    const Eigen::Index end = s_last_[std::size_t(j)] + 1;
    std::fill(sj + j, sj + end, 0.0);
    for (Eigen::Index c = spans_[std::size_t(j)].first; c < spans_[std::size_t(j)].second; ++c)
      addScaled(minv_dt_(c, j), d_.col(c).data(), sj, j, end);
  }
  // Cholesky of the PSD S: a pivot far below the largest (or a failure) means D is
  // rank-deficient.
  const bool factored = s_cholesky_.compute(s_);
  const auto piv = s_cholesky_.pivots();  // an expression: no temporary
  const double largest = piv.maxCoeff();
  if (factored && piv.minCoeff() > 1e-6 * largest) return true;
  std::ostringstream os;
  os << "joint Jacobian is rank-deficient at t = " << t
     << " s (dead centre or redundant joints): smallest Cholesky pivot of D M^-1 D^T is "
     << piv.minCoeff() << ", largest " << largest
     << describeDependentRows(model_, d_);
  message_ = os.str();
  return false;
}

bool ConstrainedResponse::updateVelocityLevel(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                              const Eigen::Ref<const Eigen::VectorXd>& v) {
  return factorJoints(t, q, v, false);
}

bool ConstrainedResponse::update(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v) {
  if (!factorJoints(t, q, v, true)) return false;
  if (phi_.size() == 0) return true;
  if (sparse_) {
    model_.gamma(t, q, v, gamma_);
    sparse_->multiplyD(v, tmp_m_);
    gamma_ -= (2.0 * alpha_) * (tmp_m_ + phi_t_);
    gamma_ -= beta_ * beta_ * phi_;
    gamma_current_ = true;
    sparse_->multiplyD(a0_, tmp_m_);
    tmp_m_ = gamma_ - tmp_m_;
    sparse_->solve(tmp_m_);
    sparse_->addInverseMassDt(1.0, tmp_m_, a0_);
    free_lambda_ = -tmp_m_;
    return true;
  }
  multiplyD(v, tmp_m_);
  gamma_ -= (2.0 * alpha_) * (tmp_m_ + phi_t_);
  gamma_ -= beta_ * beta_ * phi_;
  gamma_current_ = true;
  multiplyD(a0_, tmp_m_);
  tmp_m_ = gamma_ - tmp_m_;
  s_cholesky_.solveInPlace(tmp_m_);
  addInverseMassDt(1.0, tmp_m_, a0_);
  free_lambda_ = -tmp_m_;
  return true;
}

const Eigen::MatrixXd& ConstrainedResponse::inverseMass() {
  if (g_current_) return g_;
  if (sparse_) {  // G's columns are G's products with the unit vectors
    g_.resize(model_.velocitySize(), model_.velocitySize());
    inverseMassTimesColumns(Eigen::MatrixXd::Identity(g_.rows(), g_.cols()), g_);
    g_current_ = true;
    return g_;
  }
  g_.setIdentity(model_.velocitySize(), model_.velocitySize());
  model_.applyInverseMass(g_);
  // G = M⁻¹ − M⁻¹Dᵀ S⁻¹ D M⁻¹, column by column through S⁻¹ (D M⁻¹) = S⁻¹ minv_dtᵀ.
  for (Eigen::Index c = 0; c < g_.cols() && d_.rows() > 0; ++c) {
    tmp_m_ = minv_dt_.row(c).transpose();
    s_cholesky_.solveInPlace(tmp_m_);
    addInverseMassDt(-1.0, tmp_m_, g_.col(c));
  }
  g_current_ = true;
  return g_;
}

void ConstrainedResponse::inverseMassTimesColumns(const Eigen::Ref<const Eigen::MatrixXd>& jt,
                                                  Eigen::Ref<Eigen::MatrixXd> gjt) {
  const Eigen::Index k = jt.cols(), m = phi_.size();
  if (sparse_) {  // column by column through tmp_m_: no m × k workspace
    scaleByInverseMass(jt, gjt);
    for (Eigen::Index c = 0; c < k && m > 0; ++c) {
      sparse_->multiplyD(gjt.col(c), tmp_m_);
      sparse_->solve(tmp_m_);
      sparse_->addInverseMassDt(-1.0, tmp_m_, gjt.col(c));
    }
    return;
  }
  if (columns_work_.cols() < k) columns_work_.resize(m, k);
  inverseMassTimesColumns(jt, gjt, columns_work_.leftCols(k));
}

void ConstrainedResponse::inverseMassTimesColumns(const Eigen::Ref<const Eigen::MatrixXd>& jt,
                                                  Eigen::Ref<Eigen::MatrixXd> gjt,
                                                  Eigen::Ref<Eigen::MatrixXd> lambda_change) {
  const Eigen::Index k = jt.cols(), m = phi_.size();
  scaleByInverseMass(jt, gjt);
  if (m == 0) return;
  auto y = lambda_change;  // D M⁻¹ Jᵀ, then S⁻¹ D M⁻¹ Jᵀ
  if (sparse_) {
    for (Eigen::Index c = 0; c < k; ++c) {  // column by column
      sparse_->multiplyD(gjt.col(c), y.col(c));
      sparse_->solve(y.col(c));
      sparse_->addInverseMassDt(-1.0, y.col(c), gjt.col(c));
    }
    return;
  }
  for (Eigen::Index c = 0; c < k; ++c) multiplyD(gjt.col(c), y.col(c));
  s_cholesky_.solveInPlace(y);
  for (Eigen::Index c = 0; c < k; ++c) addInverseMassDt(-1.0, y.col(c), gjt.col(c));
}

void ConstrainedResponse::projectVelocity(Eigen::Ref<Eigen::VectorXd> v, double feedback_rate) {
  if (phi_.size() == 0) return;
  if (sparse_) {
    sparse_->multiplyD(v, tmp_m_);
    tmp_m_ += phi_t_ + feedback_rate * phi_;
    sparse_->solve(tmp_m_);
    sparse_->addInverseMassDt(-1.0, tmp_m_, v);
    return;
  }
  multiplyD(v, tmp_m_);
  tmp_m_ += phi_t_ + feedback_rate * phi_;
  s_cholesky_.solveInPlace(tmp_m_);
  addInverseMassDt(-1.0, tmp_m_, v);
}

void ConstrainedResponse::jointCorrection(const Eigen::Ref<const Eigen::VectorXd>& phi, Eigen::Ref<Eigen::VectorXd> dq) {
  dq.setZero();
  if (phi_.size() == 0) return;
  tmp_m_ = phi;
  if (sparse_) {
    sparse_->solve(tmp_m_);
    sparse_->addInverseMassDt(-1.0, tmp_m_, dq);
    return;
  }
  s_cholesky_.solveInPlace(tmp_m_);
  addInverseMassDt(-1.0, tmp_m_, dq);
}

void ConstrainedResponse::jointImpulse(const Eigen::Ref<const Eigen::VectorXd>& velocity_change,
                                       const Eigen::Ref<const Eigen::VectorXd>& impulse,
                                       Eigen::Ref<Eigen::VectorXd> joint_impulse) {
  if (phi_.size() == 0) return;
  scaleByInverseMass(impulse, tmp_v_);
  tmp_v_ -= velocity_change;
  if (sparse_) {
    sparse_->multiplyD(tmp_v_, joint_impulse);
    sparse_->solve(joint_impulse);
    return;
  }
  multiplyD(tmp_v_, joint_impulse);
  s_cholesky_.solveInPlace(joint_impulse);
}

void ConstrainedResponse::multipliers(const Eigen::Ref<const Eigen::VectorXd>& contact_force,
                                      Eigen::Ref<Eigen::VectorXd> lambda) {
  if (phi_.size() == 0) return;
  if (!gamma_current_)
    throw std::logic_error("ConstrainedResponse::multipliers: expected update() first, not "
                           "updateVelocityLevel()");
  tmp_v_ = forces_ + contact_force;
  model_.applyInverseMass(tmp_v_);
  if (sparse_) {
    sparse_->multiplyD(tmp_v_, lambda);
    lambda -= gamma_;
    sparse_->solve(lambda);
    return;
  }
  multiplyD(tmp_v_, lambda);
  lambda -= gamma_;
  s_cholesky_.solveInPlace(lambda);
}

void ConstrainedResponse::multiplierChange(const Eigen::Ref<const Eigen::VectorXd>& force_change,
                                           Eigen::Ref<Eigen::VectorXd> lambda_change) {
  if (phi_.size() == 0) return;
  tmp_v_ = force_change;
  model_.applyInverseMass(tmp_v_);
  if (sparse_) {
    sparse_->multiplyD(tmp_v_, lambda_change);
    sparse_->solve(lambda_change);
    return;
  }
  multiplyD(tmp_v_, lambda_change);
  s_cholesky_.solveInPlace(lambda_change);
}

}  // namespace stickslip::dynamics
