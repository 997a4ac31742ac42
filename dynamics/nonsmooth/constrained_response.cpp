#include "dynamics/nonsmooth/constrained_response.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::dynamics {

ConstrainedResponse::ConstrainedResponse(const PlanarModel& model, double baumgarte_alpha,
                                         double baumgarte_beta)
    : model_(model), alpha_(baumgarte_alpha), beta_(baumgarte_beta) {
  if (!(alpha_ >= 0.0) || !(beta_ >= 0.0))
    throw std::invalid_argument("ConstrainedResponse: expected Baumgarte alpha, beta >= 0");
  const Eigen::Index nv = model.velocitySize(), m = model.constraintCount();
  inv_mass_ = model.massDiagonal().cwiseInverse();
  forces_.resize(nv);
  a0_.resize(nv);
  tmp_v_.resize(nv);
  phi_.resize(m);
  phi_t_.resize(m);
  gamma_.resize(m);
  tmp_m_.resize(m);
  d_.resize(m, nv);
  minv_dt_.resize(nv, m);
  s_.resize(m, m);
  g_.resize(nv, nv);
  s_llt_ = Eigen::LLT<Eigen::MatrixXd>(m);
}

bool ConstrainedResponse::update(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                 const Eigen::Ref<const Eigen::VectorXd>& v) {
  model_.generalizedForces(t, q, v, forces_);
  a0_ = inv_mass_.cwiseProduct(forces_);
  g_current_ = false;
  if (d_.rows() == 0) return true;
  model_.jacobian(t, q, d_);
  model_.constraints(t, q, phi_);
  model_.constraintTimeDerivative(t, q, phi_t_);
  model_.gamma(t, q, v, gamma_);
  // Two statements: a product inside a sum would be evaluated into a fresh temporary.
  gamma_.noalias() -= (2.0 * alpha_) * (d_ * v);
  gamma_ -= (2.0 * alpha_) * phi_t_;
  gamma_ -= beta_ * beta_ * phi_;
  minv_dt_.noalias() = inv_mass_.asDiagonal() * d_.transpose();
  s_.noalias() = d_.lazyProduct(minv_dt_);  // small: coefficient-wise beats the blocked kernel
  s_llt_.compute(s_);
  // Cholesky of the PSD S: a pivot far below the largest (or a failure) means D is
  // rank-deficient.
  const auto piv = s_llt_.matrixLLT().diagonal();  // an expression: no temporary
  const double largest = piv.cwiseAbs().maxCoeff();
  if (s_llt_.info() != Eigen::Success || !(piv.minCoeff() > 1e-6 * largest)) {
    std::ostringstream os;
    os << "joint Jacobian is rank-deficient at t = " << t
       << " s (dead centre or redundant joints): smallest Cholesky pivot of D M^-1 D^T is "
       << piv.minCoeff() << ", largest " << largest;
    message_ = os.str();
    return false;
  }
  tmp_m_ = gamma_;
  tmp_m_.noalias() -= d_ * a0_;
  s_llt_.solveInPlace(tmp_m_);
  a0_.noalias() += minv_dt_ * tmp_m_;
  return true;
}

const Eigen::MatrixXd& ConstrainedResponse::inverseMass() {
  if (g_current_) return g_;
  g_.setZero();
  g_.diagonal() = inv_mass_;
  // G = M⁻¹ − M⁻¹Dᵀ S⁻¹ D M⁻¹, column by column through S⁻¹ (D M⁻¹) = S⁻¹ minv_dtᵀ.
  for (Eigen::Index c = 0; c < g_.cols() && d_.rows() > 0; ++c) {
    tmp_m_ = minv_dt_.row(c).transpose();
    s_llt_.solveInPlace(tmp_m_);
    g_.col(c).noalias() -= minv_dt_ * tmp_m_;
  }
  g_current_ = true;
  return g_;
}

void ConstrainedResponse::rowsTimesInverseMass(const Eigen::Ref<const Eigen::MatrixXd>& j,
                                               Eigen::Ref<Eigen::MatrixXd> jg) {
  jg = j * inv_mass_.asDiagonal();
  if (d_.rows() == 0) return;
  if (rows_work_.cols() < j.rows()) rows_work_.resize(d_.rows(), j.rows());
  auto y = rows_work_.leftCols(j.rows());
  y.noalias() = minv_dt_.transpose().lazyProduct(j.transpose());  // (J M⁻¹Dᵀ)ᵀ
  s_llt_.solveInPlace(y);
  jg.noalias() -= y.transpose().lazyProduct(minv_dt_.transpose());
}

void ConstrainedResponse::projectVelocity(Eigen::Ref<Eigen::VectorXd> v, double feedback_rate) {
  if (d_.rows() == 0) return;
  tmp_m_ = phi_t_;
  tmp_m_ += feedback_rate * phi_;
  tmp_m_.noalias() += d_ * v;
  s_llt_.solveInPlace(tmp_m_);
  v.noalias() -= minv_dt_ * tmp_m_;
}

void ConstrainedResponse::multipliers(const Eigen::Ref<const Eigen::VectorXd>& contact_force,
                                      Eigen::Ref<Eigen::VectorXd> lambda) {
  if (d_.rows() == 0) return;
  tmp_v_ = inv_mass_.cwiseProduct(forces_ + contact_force);
  lambda.noalias() = d_ * tmp_v_;
  lambda -= gamma_;
  s_llt_.solveInPlace(lambda);
}

}  // namespace stickslip::dynamics
