#include "dynamics/model/constrained_response.hpp"

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
  dt_.resize(nv, m);
  minv_dt_.resize(nv, m);
  s_.resize(m, m);
  s_cholesky_.resize(m);
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
  dt_ = d_.transpose();
  scaleByInverseMass(dt_, minv_dt_);
  for (Eigen::Index j = 0; j < m; ++j)  // the lower triangle, all the factorization reads
    for (Eigen::Index i = j; i < m; ++i) s_(i, j) = dt_.col(i).dot(minv_dt_.col(j));
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
  // Two statements: a product inside a sum would be evaluated into a fresh temporary.
  gamma_.noalias() -= (2.0 * alpha_) * (d_ * v);
  gamma_ -= (2.0 * alpha_) * phi_t_;
  gamma_ -= beta_ * beta_ * phi_;
  gamma_current_ = true;
  tmp_m_ = gamma_;
  tmp_m_.noalias() -= d_ * a0_;
  s_cholesky_.solveInPlace(tmp_m_);
  a0_.noalias() += minv_dt_ * tmp_m_;
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
    g_.col(c).noalias() -= minv_dt_ * tmp_m_;
  }
  g_current_ = true;
  return g_;
}

void ConstrainedResponse::inverseMassTimesColumns(const Eigen::Ref<const Eigen::MatrixXd>& jt,
                                                  Eigen::Ref<Eigen::MatrixXd> gjt) {
  const Eigen::Index k = jt.cols(), m = phi_.size();
  scaleByInverseMass(jt, gjt);
  if (m == 0) return;
  if (sparse_) {
    for (Eigen::Index c = 0; c < k; ++c) {  // S⁻¹ D (M⁻¹ Jᵀ), column by column
      sparse_->multiplyD(gjt.col(c), tmp_m_);
      sparse_->solve(tmp_m_);
      sparse_->addInverseMassDt(-1.0, tmp_m_, gjt.col(c));
    }
    return;
  }
  if (columns_work_.cols() < k) columns_work_.resize(m, k);
  auto y = columns_work_.leftCols(k);  // D M⁻¹ Jᵀ, then S⁻¹ D M⁻¹ Jᵀ
  for (Eigen::Index c = 0; c < k; ++c)
    for (Eigen::Index r = 0; r < m; ++r) y(r, c) = minv_dt_.col(r).dot(jt.col(c));
  s_cholesky_.solveInPlace(y);
  for (Eigen::Index c = 0; c < k; ++c)
    for (Eigen::Index r = 0; r < m; ++r) gjt.col(c) -= y(r, c) * minv_dt_.col(r);
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
  // Column loops over Dᵀ and M⁻¹Dᵀ: contiguous, and no product kernel set-up at these sizes.
  for (Eigen::Index r = 0; r < d_.rows(); ++r)
    tmp_m_(r) = phi_t_(r) + feedback_rate * phi_(r) + dt_.col(r).dot(v);
  s_cholesky_.solveInPlace(tmp_m_);
  for (Eigen::Index r = 0; r < d_.rows(); ++r) v -= tmp_m_(r) * minv_dt_.col(r);
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
  for (Eigen::Index r = 0; r < phi_.size(); ++r) dq -= tmp_m_(r) * minv_dt_.col(r);
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
  for (Eigen::Index r = 0; r < d_.rows(); ++r) joint_impulse(r) = dt_.col(r).dot(tmp_v_);
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
  lambda.noalias() = d_ * tmp_v_;
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
  lambda_change.noalias() = d_ * tmp_v_;
  s_cholesky_.solveInPlace(lambda_change);
}

}  // namespace stickslip::dynamics
