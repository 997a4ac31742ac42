#include "dynamics/model/eom_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace stickslip::dynamics {

using Eigen::Index;
using Eigen::VectorXd;

std::string_view toString(EomMethod m) {
  switch (m) {
    case EomMethod::kLagrange: return "lagrange";
    case EomMethod::kBaumgarte: return "baumgarte";
    case EomMethod::kPenalty: return "penalty";
    case EomMethod::kAugmentedLagrangian: return "augmented-lagrangian";
    case EomMethod::kCoordinatePartitioning: return "coordinate-partitioning";
    case EomMethod::kNullSpace: return "null-space";
    case EomMethod::kMoorePenrose: return "moore-penrose";
    case EomMethod::kDirectCorrection: return "direct-correction";
  }
  return "unknown";
}

const std::vector<EomMethod>& allEomMethods() {
  static const std::vector<EomMethod> all{
      EomMethod::kLagrange,       EomMethod::kBaumgarte,
      EomMethod::kPenalty,        EomMethod::kAugmentedLagrangian,
      EomMethod::kCoordinatePartitioning, EomMethod::kNullSpace,
      EomMethod::kMoorePenrose,   EomMethod::kDirectCorrection};
  return all;
}

std::string_view toString(EomStatus s) {
  switch (s) {
    case EomStatus::kSuccess: return "success";
    case EomStatus::kSingular: return "singular";
    case EomStatus::kNotConverged: return "not-converged";
  }
  return "unknown";
}

namespace {

void require(bool ok, const std::string& what, double got) {
  if (!ok)
    throw std::invalid_argument("EomSolver: expected " + what + ", got " + std::to_string(got));
}

/// An LDLT of a symmetric positive semi-definite matrix is treated as singular when its
/// smallest pivot is below tol times its largest (no allocation, unlike rcond()).
bool ldltSingular(const Eigen::LDLT<Eigen::MatrixXd>& ldlt, double tol) {
  if (ldlt.info() != Eigen::Success) return true;
  if (ldlt.rows() == 0) return false;
  const auto d = ldlt.vectorD().cwiseAbs();
  return !(d.minCoeff() > tol * d.maxCoeff());
}

bool luSingular(const Eigen::PartialPivLU<Eigen::MatrixXd>& lu, double tol) {
  if (lu.rows() == 0) return false;
  const auto d = lu.matrixLU().diagonal().cwiseAbs();
  return !(d.minCoeff() > tol * d.maxCoeff());
}

}  // namespace

std::string describeDependentRows(const MultibodySystem& system, const Eigen::MatrixXd& jacobian) {
  const Index m = jacobian.rows();
  if (m == 0) return "";
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(jacobian, Eigen::ComputeFullU);
  const auto& sigma = svd.singularValues();
  // With m > nv the rows beyond nv are dependent whatever q is: U's last column is null.
  const Index k = m - 1;
  const double smallest = k < sigma.size() ? sigma(k) : 0.0;
  std::ostringstream os;
  os << " (smallest/largest singular value "
     << (sigma.size() > 0 && sigma(0) > 0.0 ? smallest / sigma(0) : 0.0) << "); dependent rows:";
  const auto u = svd.matrixU().col(k);
  const double big = u.cwiseAbs().maxCoeff();
  const char* sep = " ";
  for (Index r = 0; r < m; ++r)
    if (std::abs(u(r)) >= 1e-3 * big) {
      os << sep << system.constraintRowName(r);
      sep = ", ";
    }
  return os.str();
}

EomSolver::EomSolver(const MultibodySystem& system, EomMethod method, EomOptions options)
    : system_(system),
      method_(method),
      options_(options),
      nq_(system.positionSize()),
      nv_(system.velocitySize()),
      m_(system.constraintCount()) {
  require(options.baumgarte_alpha >= 0.0, "baumgarte_alpha >= 0", options.baumgarte_alpha);
  require(options.baumgarte_beta >= 0.0, "baumgarte_beta >= 0", options.baumgarte_beta);
  require(options.penalty_damping >= 0.0, "penalty_damping >= 0", options.penalty_damping);
  require(options.penalty_frequency >= 0.0, "penalty_frequency >= 0", options.penalty_frequency);
  require(options.augmented_tol > 0.0, "augmented_tol > 0", options.augmented_tol);
  require(options.augmented_max_iterations >= 1, "augmented_max_iterations >= 1",
          options.augmented_max_iterations);
  require(options.correction_tol > 0.0, "correction_tol > 0", options.correction_tol);
  require(options.correction_max_iterations >= 1, "correction_max_iterations >= 1",
          options.correction_max_iterations);
  require(options.rank_tol > 0.0 && options.rank_tol < 1.0, "rank_tol in (0, 1)", options.rank_tol);
  // M by its blocks (MultibodySystem); dense only for the methods that combine it with other
  // matrices: the penalty forms (M + a DᵀD), the null space (Nᵀ M) and Moore–Penrose (M^{-1/2}).
  const bool dense = method_ == EomMethod::kPenalty || method_ == EomMethod::kAugmentedLagrangian ||
                     method_ == EomMethod::kNullSpace || method_ == EomMethod::kMoorePenrose;
  double largest_mass = 1.0;
  if (dense) {
    mass_.setIdentity(nv_, nv_);
    system.applyMass(mass_);
    require(nv_ == 0 || Eigen::LLT<Eigen::MatrixXd>(mass_).info() == Eigen::Success,
            "a symmetric positive definite mass matrix, smallest diagonal entry",
            nv_ == 0 ? 0.0 : mass_.diagonal().minCoeff());
    if (nv_ > 0) largest_mass = mass_.diagonal().maxCoeff();
    if (method_ == EomMethod::kMoorePenrose)
      mass_inv_sqrt_ = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(mass_).operatorInverseSqrt();
  }
  penalty_ = options.penalty > 0.0 ? options.penalty : 1e7 * largest_mass;

  forces_.setZero(nv_);
  rhs_n_.setZero(nv_);
  vdot_prev_.setZero(nv_);
  tmp_n_.setZero(nv_);
  gamma_.setZero(m_);
  phi_.setZero(m_);
  phi_t_.setZero(m_);
  phi_dot_.setZero(m_);
  rhs_m_.setZero(m_);
  lambda_.setZero(m_);
  tmp_m_.setZero(m_);
  tmp_r_.setZero(m_);
  jac_.setZero(m_, nv_);
  jac_minv_.setZero(m_, nv_);
  minv_jt_.setZero(nv_, m_);
  w_.setZero(m_, m_);
  // Sized by factoring an identity: assigning a fresh LDLT(m) would copy its status, which
  // Eigen leaves uninitialized until the first compute().
  ldlt_w_.compute(Eigen::MatrixXd::Identity(m_, m_));
  switch (method_) {
    case EomMethod::kPenalty:
    case EomMethod::kAugmentedLagrangian:
      p_.setZero(nv_, nv_);
      ldlt_p_.compute(Eigen::MatrixXd::Identity(nv_, nv_));
      break;
    case EomMethod::kCoordinatePartitioning:
    case EomMethod::kNullSpace:
      lu_select_ = Eigen::FullPivLU<Eigen::MatrixXd>(m_, nv_);
      lu_u_ = Eigen::PartialPivLU<Eigen::MatrixXd>(m_);
      jac_u_.setZero(m_, m_);
      jac_w_.setZero(m_, std::max<Index>(nv_ - m_, 0));
      null_basis_.setZero(nv_, std::max<Index>(nv_ - m_, 0));
      ns_matrix_.setZero(nv_, nv_);
      lu_ns_ = Eigen::PartialPivLU<Eigen::MatrixXd>(nv_);
      dependent_.reserve(static_cast<std::size_t>(m_));
      independent_.reserve(static_cast<std::size_t>(nv_));
      break;
    case EomMethod::kMoorePenrose:
      svd_ = Eigen::JacobiSVD<Eigen::MatrixXd>(m_, nv_, Eigen::ComputeThinU | Eigen::ComputeThinV);
      break;
    default: break;
  }
}

void EomSolver::checkSizes(const char* who, Index q, Index v) const {
  if (q != nq_ || v != nv_)
    throw std::invalid_argument(std::string("EomSolver::") + who + ": expected q of size " +
                                std::to_string(nq_) + " and v of size " + std::to_string(nv_) +
                                ", got " + std::to_string(q) + " and " + std::to_string(v));
}

EomStatus EomSolver::accelerations(double t, const Eigen::Ref<const VectorXd>& q,
                                   const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> vdot) {
  checkSizes("accelerations", q.size(), v.size());
  if (vdot.size() != nv_) checkSizes("accelerations (v̇)", nq_, vdot.size());
  factored_ = false;
  system_.generalizedForces(t, q, v, forces_);
  system_.jacobianAndGamma(t, q, v, jac_, gamma_);
  iterations_ = 0;
  EomStatus status = EomStatus::kSingular;
  switch (method_) {
    case EomMethod::kBaumgarte:
      stabilizationTerms(t, q, v);
      gamma_ -= 2.0 * options_.baumgarte_alpha * phi_dot_ +
                options_.baumgarte_beta * options_.baumgarte_beta * phi_;
      status = lagrange(t, q, vdot);
      break;
    case EomMethod::kPenalty:
    case EomMethod::kAugmentedLagrangian: status = penalty(t, q, v, vdot); break;
    case EomMethod::kNullSpace: status = nullSpace(vdot); break;
    case EomMethod::kMoorePenrose: status = moorePenrose(vdot); break;
    case EomMethod::kLagrange:
    case EomMethod::kCoordinatePartitioning:
    case EomMethod::kDirectCorrection: status = lagrange(t, q, vdot); break;
  }
  return describe(status, t, q, "accelerations");
}

EomStatus EomSolver::accelerationsUnderNewForces(double t, const Eigen::Ref<const VectorXd>& q,
                                                 const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> vdot) {
  if (!factored_) return accelerations(t, q, v, vdot);
  checkSizes("accelerationsUnderNewForces", q.size(), v.size());
  if (vdot.size() != nv_) checkSizes("accelerationsUnderNewForces (v̇)", nq_, vdot.size());
  system_.generalizedForces(t, q, v, forces_);
  lagrangeSolve(vdot);
  return describe(EomStatus::kSuccess, t, q, "accelerations");
}

EomStatus EomSolver::describe(EomStatus status, double t, const Eigen::Ref<const VectorXd>& q,
                              const char* where) {
  if (status == EomStatus::kSuccess) {
    if (!failure_.empty()) failure_.clear();
    return status;
  }
  // Only on failure, so the SVD's allocations do not touch the time loop.
  std::ostringstream os;
  os << "EOM solve (" << toString(method_) << ", " << where << ") failed at t = " << t << " s: ";
  if (status == EomStatus::kNotConverged) {
    os << "no convergence in " << iterations_ << " iterations";
  } else {
    // The left singular vector of the smallest singular value of D combines the rows that
    // have become dependent; name those with a noticeable weight.
    system_.jacobian(t, q, jac_);
    os << "singular constraint Jacobian" << describeDependentRows(system_, jac_)
       << " — a singular configuration (dead centre, toggle, folded linkage) or redundant joints";
  }
  failure_ = os.str();
  return status;
}

void EomSolver::stabilizationTerms(double t, const Eigen::Ref<const VectorXd>& q,
                                   const Eigen::Ref<const VectorXd>& v) {
  system_.constraints(t, q, phi_);
  system_.constraintTimeDerivative(t, q, phi_t_);
  phi_dot_.noalias() = jac_ * v;
  phi_dot_ += phi_t_;
}

EomStatus EomSolver::lagrange(double /*t*/, const Eigen::Ref<const VectorXd>& /*q*/,
                              Eigen::Ref<VectorXd> vdot) {
  minv_jt_ = jac_.transpose();
  system_.applyInverseMass(minv_jt_);  // M⁻¹Dᵀ
  w_.noalias() = jac_ * minv_jt_;
  ldlt_w_.compute(w_);
  if (ldltSingular(ldlt_w_, options_.rank_tol)) return EomStatus::kSingular;
  factored_ = true;
  lagrangeSolve(vdot);
  return EomStatus::kSuccess;
}

void EomSolver::lagrangeSolve(Eigen::Ref<VectorXd> vdot) {
  rhs_m_.noalias() = minv_jt_.transpose() * forces_;
  rhs_m_ -= gamma_;
  lambda_ = ldlt_w_.solve(rhs_m_);
  rhs_n_ = forces_;
  rhs_n_.noalias() -= jac_.transpose() * lambda_;
  vdot = rhs_n_;
  system_.applyInverseMass(vdot);
}

EomStatus EomSolver::penalty(double t, const Eigen::Ref<const VectorXd>& q,
                             const Eigen::Ref<const VectorXd>& v, Eigen::Ref<VectorXd> vdot) {
  stabilizationTerms(t, q, v);
  const double mu = options_.penalty_damping, omega = options_.penalty_frequency;
  // tmp_m_ = −γ + 2μω Φ̇ + ω² Φ: the violation terms the penalty force reacts to.
  tmp_m_ = 2.0 * mu * omega * phi_dot_ + omega * omega * phi_ - gamma_;
  p_.noalias() = penalty_ * jac_.transpose() * jac_;
  p_ += mass_;
  ldlt_p_.compute(p_);
  if (ldltSingular(ldlt_p_, std::numeric_limits<double>::epsilon())) return EomStatus::kSingular;
  tmp_n_.noalias() = jac_.transpose() * tmp_m_;  // Dᵀ(−γ + f)
  if (method_ == EomMethod::kPenalty) {
    rhs_n_ = forces_ - penalty_ * tmp_n_;
    vdot = ldlt_p_.solve(rhs_n_);
    lambda_ = tmp_m_;
    lambda_.noalias() += jac_ * vdot;
    lambda_ *= penalty_;
    return EomStatus::kSuccess;
  }
  vdot_prev_ = forces_;  // v̇₀ = M⁻¹Q: the unconstrained system, λ₀ = 0
  system_.applyInverseMass(vdot_prev_);
  lambda_.setZero();
  double previous_change = std::numeric_limits<double>::infinity();
  for (iterations_ = 1; iterations_ <= options_.augmented_max_iterations; ++iterations_) {
    rhs_n_.noalias() = mass_ * vdot_prev_;
    rhs_n_ -= penalty_ * tmp_n_;
    vdot = ldlt_p_.solve(rhs_n_);
    tmp_r_ = tmp_m_;
    tmp_r_.noalias() += jac_ * vdot;
    lambda_ += penalty_ * tmp_r_;
    const double change = (vdot - vdot_prev_).norm();
    const double scale = std::max(1.0, vdot.norm());
    vdot_prev_ = vdot;
    if (change <= options_.augmented_tol * scale) return EomStatus::kSuccess;
    // P is ill-conditioned by design (cond ≈ a‖D‖²/min Mᵢᵢ): once the change stops shrinking
    // it is round-off fed back through λ, and further iterations only add to it.
    if (change > 0.5 * previous_change && change <= std::sqrt(options_.augmented_tol) * scale)
      return EomStatus::kSuccess;
    previous_change = change;
  }
  iterations_ = options_.augmented_max_iterations;
  return EomStatus::kNotConverged;
}

bool EomSolver::selectPartition() {
  lu_select_.setThreshold(options_.rank_tol);
  lu_select_.compute(jac_);
  if (lu_select_.rank() < m_) return false;
  // Full pivoting puts the best-conditioned columns first: they become dependent.
  const auto& perm = lu_select_.permutationQ().indices();
  dependent_.clear();
  independent_.clear();
  for (Index k = 0; k < nv_; ++k) (k < m_ ? dependent_ : independent_).push_back(perm(k));
  partitioned_ = true;
  return true;
}

bool EomSolver::factorDependent() {
  for (Index c = 0; c < m_; ++c) jac_u_.col(c) = jac_.col(dependent_[static_cast<std::size_t>(c)]);
  lu_u_.compute(jac_u_);
  // Re-partition when the dependent block degrades (the mechanism moved away from the
  // configuration the partition was chosen at).
  if (luSingular(lu_u_, 1e-3)) {
    if (!selectPartition()) return false;
    for (Index c = 0; c < m_; ++c) jac_u_.col(c) = jac_.col(dependent_[static_cast<std::size_t>(c)]);
    lu_u_.compute(jac_u_);
    if (luSingular(lu_u_, options_.rank_tol)) return false;
  }
  for (Index c = 0; c + m_ < nv_; ++c) jac_w_.col(c) = jac_.col(independent_[static_cast<std::size_t>(c)]);
  return true;
}

EomStatus EomSolver::nullSpace(Eigen::Ref<VectorXd> vdot) {
  if (!partitioned_ && !selectPartition()) return EomStatus::kSingular;
  if (!factorDependent()) return EomStatus::kSingular;
  const Index dof = nv_ - m_;
  null_basis_.setZero();
  for (Index c = 0; c < dof; ++c) {
    tmp_m_ = lu_u_.solve(jac_w_.col(c));
    for (Index r = 0; r < m_; ++r) null_basis_(dependent_[static_cast<std::size_t>(r)], c) = -tmp_m_(r);
    null_basis_(independent_[static_cast<std::size_t>(c)], c) = 1.0;
  }
  ns_matrix_.topRows(m_) = jac_;
  ns_matrix_.bottomRows(dof).noalias() = null_basis_.transpose() * mass_;
  lu_ns_.compute(ns_matrix_);
  if (luSingular(lu_ns_, options_.rank_tol)) return EomStatus::kSingular;
  rhs_n_.head(m_) = gamma_;
  rhs_n_.tail(dof).noalias() = null_basis_.transpose() * forces_;
  vdot = lu_ns_.solve(rhs_n_);
  // Dᵀλ = Q − M v̇; its dependent rows give D_uᵀ λ = (Q − M v̇)_u.
  tmp_n_ = forces_;
  tmp_n_.noalias() -= mass_ * vdot;
  for (Index r = 0; r < m_; ++r) tmp_m_(r) = tmp_n_(dependent_[static_cast<std::size_t>(r)]);
  // D_u = Pᵀ L U, so D_u⁻ᵀ = Pᵀ L⁻ᵀ U⁻ᵀ; written out because PartialPivLU's transposed
  // solve allocates temporaries.
  lu_u_.matrixLU().triangularView<Eigen::Upper>().transpose().solveInPlace(tmp_m_);
  lu_u_.matrixLU().triangularView<Eigen::UnitLower>().transpose().solveInPlace(tmp_m_);
  lambda_.noalias() = lu_u_.permutationP().transpose() * tmp_m_;
  return EomStatus::kSuccess;
}

EomStatus EomSolver::moorePenrose(Eigen::Ref<VectorXd> vdot) {
  jac_minv_.noalias() = jac_ * mass_inv_sqrt_;  // C = D M^{-1/2}
  svd_.compute(jac_minv_);
  const auto& sigma = svd_.singularValues();
  const double cutoff = options_.rank_tol * (sigma.size() > 0 ? sigma(0) : 0.0);
  tmp_n_ = forces_;  // v̇_unc = M⁻¹Q
  system_.applyInverseMass(tmp_n_);
  rhs_m_ = gamma_;
  rhs_m_.noalias() -= jac_ * tmp_n_;
  // y = C⁺ b = V Σ⁺ Uᵀ b
  tmp_m_.noalias() = svd_.matrixU().transpose() * rhs_m_;
  for (Index k = 0; k < sigma.size(); ++k) tmp_m_(k) = sigma(k) > cutoff ? tmp_m_(k) / sigma(k) : 0.0;
  rhs_n_.noalias() = svd_.matrixV() * tmp_m_;
  vdot = tmp_n_;
  vdot.noalias() += mass_inv_sqrt_ * rhs_n_;
  // Cᵀλ = −y, y in the row space of C: λ = −(C⁺)ᵀ y = −U Σ⁺ Vᵀ y.
  tmp_r_.noalias() = svd_.matrixV().transpose() * rhs_n_;
  for (Index k = 0; k < sigma.size(); ++k) tmp_r_(k) = sigma(k) > cutoff ? -tmp_r_(k) / sigma(k) : 0.0;
  lambda_.noalias() = svd_.matrixU() * tmp_r_;
  return EomStatus::kSuccess;
}

EomStatus EomSolver::derivative(double t, const Eigen::Ref<const VectorXd>& y,
                                Eigen::Ref<VectorXd> ydot) {
  if (y.size() != nq_ + nv_ || ydot.size() != nq_ + nv_)
    throw std::invalid_argument("EomSolver::derivative: expected y and ẏ of size " +
                                std::to_string(nq_ + nv_) + ", got " + std::to_string(y.size()) +
                                " and " + std::to_string(ydot.size()));
  system_.positionRate(y.head(nq_), y.tail(nv_), ydot.head(nq_));
  return accelerations(t, y.head(nq_), y.tail(nv_), ydot.tail(nv_));
}

EomStatus EomSolver::project(double t, Eigen::Ref<VectorXd> q, Eigen::Ref<VectorXd> v) {
  checkSizes("project", q.size(), v.size());
  factored_ = false;  // the corrections factor their own matrices in the same workspace
  iterations_ = 0;
  EomStatus status = EomStatus::kSuccess;
  if (method_ == EomMethod::kCoordinatePartitioning) status = partitionProject(t, q, v);
  if (method_ == EomMethod::kDirectCorrection) status = directCorrection(t, q, v);
  return describe(status, t, q, "projection");
}

EomStatus EomSolver::partitionProject(double t, Eigen::Ref<VectorXd> q, Eigen::Ref<VectorXd> v) {
  system_.jacobian(t, q, jac_);
  if (!partitioned_ && !selectPartition()) return EomStatus::kSingular;
  system_.constraints(t, q, phi_);
  while (phi_.norm() > options_.correction_tol) {
    if (iterations_ == options_.correction_max_iterations) return EomStatus::kNotConverged;
    if (!factorDependent()) return EomStatus::kSingular;
    tmp_m_ = lu_u_.solve(phi_);
    tmp_n_.setZero();
    for (Index r = 0; r < m_; ++r) tmp_n_(dependent_[static_cast<std::size_t>(r)]) = -tmp_m_(r);
    system_.addToPositions(tmp_n_, q);
    ++iterations_;
    system_.jacobian(t, q, jac_);
    system_.constraints(t, q, phi_);
  }
  if (!factorDependent()) return EomStatus::kSingular;
  system_.constraintTimeDerivative(t, q, phi_t_);
  rhs_m_ = -phi_t_;
  for (Index c = 0; c + m_ < nv_; ++c) rhs_m_ -= jac_w_.col(c) * v(independent_[static_cast<std::size_t>(c)]);
  tmp_m_ = lu_u_.solve(rhs_m_);
  for (Index r = 0; r < m_; ++r) v(dependent_[static_cast<std::size_t>(r)]) = tmp_m_(r);
  return EomStatus::kSuccess;
}

EomStatus EomSolver::directCorrection(double t, Eigen::Ref<VectorXd> q, Eigen::Ref<VectorXd> v) {
  system_.constraints(t, q, phi_);
  auto factor = [&]() {
    system_.jacobian(t, q, jac_);
    w_.noalias() = jac_ * jac_.transpose();
    ldlt_w_.compute(w_);
    return !ldltSingular(ldlt_w_, options_.rank_tol);
  };
  while (phi_.norm() > options_.correction_tol) {
    if (iterations_ == options_.correction_max_iterations) return EomStatus::kNotConverged;
    if (!factor()) return EomStatus::kSingular;
    tmp_m_ = ldlt_w_.solve(phi_);
    tmp_n_.noalias() = -jac_.transpose() * tmp_m_;
    system_.addToPositions(tmp_n_, q);
    ++iterations_;
    system_.constraints(t, q, phi_);
  }
  if (!factor()) return EomStatus::kSingular;
  system_.constraintTimeDerivative(t, q, phi_t_);
  phi_dot_.noalias() = jac_ * v;
  phi_dot_ += phi_t_;
  tmp_m_ = ldlt_w_.solve(phi_dot_);
  v.noalias() -= jac_.transpose() * tmp_m_;
  return EomStatus::kSuccess;
}

}  // namespace stickslip::dynamics
