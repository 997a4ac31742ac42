#include "dynamics/routes/minimal_form/minimal_form.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {
namespace {


double signOf(double v) { return v > 0.0 ? 1.0 : v < 0.0 ? -1.0 : 0.0; }

Eigen::Vector2d rot90(const Eigen::Vector2d& a) { return {-a.y(), a.x()}; }
Eigen::Matrix2d planarRotation(double th) {
  Eigen::Matrix2d A;
  A << std::cos(th), -std::sin(th), std::sin(th), std::cos(th);
  return A;
}

}  // namespace

std::vector<int> loopClosingJoints(int bodies, const std::vector<std::pair<BodyIndex, BodyIndex>>& joints) {
  std::vector<int> parent(std::size_t(bodies) + 1);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int a) {
    while (parent[std::size_t(a)] != a) a = parent[std::size_t(a)] = parent[std::size_t(parent[std::size_t(a)])];
    return a;
  };
  std::vector<int> cut;
  for (std::size_t j = 0; j < joints.size(); ++j) {
    const int a = find(joints[j].first + 1), b = find(joints[j].second + 1);
    if (a == b) cut.push_back(int(j));
    else parent[std::size_t(a)] = b;
  }
  return cut;
}

void FrictionalJoint::validate(const PlanarModel& model) const {
  std::ostringstream os;
  const bool exists = joint >= 0 && joint < static_cast<int>(model.joints().size());
  const JointType type = exists ? model.joints()[std::size_t(joint)].type : JointType::kRevolute;
  if (kind == FrictionJointKind::kMechanism) os << "a planar joint's friction, got a Mechanism's joint friction";
  else if (!exists) os << "expected a joint index in [0, " << model.joints().size() << "), got " << joint;
  else if (kind == FrictionJointKind::kRevolute && type != JointType::kRevolute)
    os << "expected joint " << joint << " to be revolute for revolute friction";
  else if (kind == FrictionJointKind::kPrismatic && type != JointType::kTranslational &&
           type != JointType::kPointOnLine)
    os << "expected joint " << joint << " to be translational or point-on-line for prismatic friction";
  else if (kind == FrictionJointKind::kPinInSlot && type != JointType::kPointOnLine)
    os << "expected joint " << joint << " to be point-on-line for pin-in-slot friction";
  else if (kind != FrictionJointKind::kPrismatic && (!(radius > 0.0) || !std::isfinite(radius)))
    os << "expected a lever arm r > 0, got " << radius;
  else if (kind != FrictionJointKind::kPrismatic && (surface_speed || surface_acceleration))
    os << "expected a surface speed on prismatic friction only";

  else if (!(mu_kinetic >= 0.0) || !(mu_static >= mu_kinetic) || !std::isfinite(mu_static))
    os << "expected 0 <= mu_kinetic <= mu_static, got mu_kinetic = " << mu_kinetic
       << ", mu_static = " << mu_static;
  if (!os.str().empty()) throw std::invalid_argument(name + ": " + os.str());
}

void MinimalFormOptions::validate() const {
  std::ostringstream os;
  if (independent.empty()) os << "at least one independent coordinate (the driver first)";
  else if (!(position_tolerance > 0.0)) os << "position_tolerance > 0, got " << position_tolerance;
  else if (max_newton_iterations < 1) os << "max_newton_iterations >= 1, got " << max_newton_iterations;
  else if (!(reaction_tolerance > 0.0)) os << "reaction_tolerance > 0, got " << reaction_tolerance;
  else if (max_reaction_iterations < 1) os << "max_reaction_iterations >= 1, got " << max_reaction_iterations;
  if (!os.str().empty()) throw std::invalid_argument("MinimalFormOptions: expected " + os.str());
}

void MinimalFormSimulationOptions::validate() const {
  std::ostringstream os;
  if (!(t_end > 0.0)) os << "t_end > 0, got " << t_end;
  else if (!(relative_tolerance > 0.0) || !(absolute_tolerance > 0.0))
    os << "tolerances > 0, got " << relative_tolerance << ", " << absolute_tolerance;
  else if (!(max_step >= 0.0)) os << "max_step >= 0, got " << max_step;
  else if (!(output_dt > 0.0)) os << "output_dt > 0, got " << output_dt;
  else if (!(acceleration_tolerance > 0.0)) os << "acceleration_tolerance > 0, got " << acceleration_tolerance;
  else if (max_events < 1) os << "max_events >= 1, got " << max_events;
  else if (max_total_steps < 1) os << "max_total_steps >= 1, got " << max_total_steps;
  if (!os.str().empty()) throw std::invalid_argument("MinimalFormSimulationOptions: expected " + os.str());
}

MinimalForm::MinimalForm(const PlanarModel& model, std::vector<FrictionalJoint> friction,
                         MinimalFormOptions options, const Eigen::VectorXd& x0)
    : system_(model), planar_(&model), friction_(std::move(friction)), opt_(std::move(options)) {
  opt_.validate();
  for (const auto& jt : model.joints())
    if (jt.type == JointType::kRheonomicDriver)
      throw std::invalid_argument("MinimalForm: joint '" + jt.name +
                                  "' is a rheonomic driver; program the driver motion with inverseDynamics()");
  for (const auto& f : friction_) f.validate(model);
  for (const FrictionalJoint& f : friction_)
    if ((f.surface_speed || f.surface_acceleration) && friction_.size() > 1)
      throw std::invalid_argument("MinimalForm: '" + f.name + "' slides on a moving surface, where it sticks at a "
                                  "driver velocity other than the other frictional joints'; Blajer's stick is one");
  for (const UnilateralJoint& u : opt_.unilateral)
    if (u.joint < 0 || u.joint >= int(model.joints().size()) ||
        model.joints()[std::size_t(u.joint)].type != JointType::kPointOnLine || std::abs(u.sign) != 1.0)
      throw std::invalid_argument("MinimalForm: unilateral contact '" + u.name +
                                  "': expected a point-on-line joint and a sign of +1 or -1, got joint " +
                                  std::to_string(u.joint) + " and sign " + std::to_string(u.sign));
  slot_of_.assign(friction_.size(), -1);
  for (std::size_t j = 0; j < friction_.size(); ++j)
    for (std::size_t p = 0; p < friction_.size(); ++p)
      if (friction_[j].kind == FrictionJointKind::kPinInSlot && friction_[p].kind == FrictionJointKind::kPrismatic &&
          friction_[p].joint == friction_[j].joint)
        slot_of_[j] = Eigen::Index(p);
  std::vector<std::pair<BodyIndex, BodyIndex>> pairs;
  for (const PlanarJoint& jt : model.joints()) pairs.emplace_back(jt.body_i, jt.body_j);
  const std::vector<int> cut = opt_.cut_joints.empty() ? loopClosingJoints(model.bodyCount(), pairs) : opt_.cut_joints;
  opt_.closing_rows = 0;
  for (const int j : cut) {
    if (j < 0 || j >= int(model.joints().size()))
      throw std::invalid_argument("MinimalFormOptions: cut joint " + std::to_string(j) + " does not exist");
    opt_.closing_rows += model.joints()[std::size_t(j)].rows;
  }
  moving_surface_ = friction_.size() == 1 && (friction_[0].surface_speed || friction_[0].surface_acceleration);
  initialize(x0);
}

MinimalForm::MinimalForm(const Mechanism& mechanism, MinimalFormOptions options, const Eigen::VectorXd& q0)
    : system_(mechanism), mechanism_(&mechanism), opt_(std::move(options)) {
  opt_.validate();
  if (!mechanism.contacts().empty())
    throw std::invalid_argument("MinimalForm: contact '" + mechanism.contacts().front().name +
                                "': the minimal form of a Mechanism reduces its joints and their friction only");
  if (!opt_.unilateral.empty())
    throw std::invalid_argument("MinimalForm: unilateral contacts are a planar model's joints");
  if (q0.size() == system_.positionSize()) {
    Eigen::VectorXd phi_t(system_.constraintCount());
    system_.constraintTimeDerivative(0.0, q0, phi_t);
    if (phi_t.size() > 0 && phi_t.lpNorm<Eigen::Infinity>() > 0.0)
      throw std::invalid_argument("MinimalForm: a constraint moves in time (a driver); the reduction x' = D(x) u is "
                                  "that of a scleronomic mechanism");
  }
  const std::vector<JointFriction>& jf = mechanism.jointFriction();
  for (std::size_t e = 0; e < jf.size(); ++e) {
    FrictionalJoint f;
    f.name = jf[e].name;
    f.joint = int(e);
    f.kind = FrictionJointKind::kMechanism;
    f.radius = jf[e].lever;
    f.mu_static = jf[e].mu_static;
    f.mu_kinetic = jf[e].mu_kinetic;
    friction_.push_back(f);
    load_.push_back(mechanism.jointFrictionLoad(e));
  }
  slot_of_.assign(friction_.size(), -1);
  initialize(q0);
}

void MinimalForm::initialize(const Eigen::VectorXd& x0) {
  dims_.n = system_.velocitySize();
  dims_.m = system_.constraintCount();
  dims_.k = dims_.n - dims_.m;
  if (dims_.k < 1)
    throw std::invalid_argument("MinimalForm: expected a mechanism with n - m >= 1 degrees of freedom, got n = " +
                                std::to_string(dims_.n) + ", m = " + std::to_string(dims_.m));
  if (Eigen::Index(opt_.independent.size()) != dims_.k)
    throw std::invalid_argument("MinimalForm: expected " + std::to_string(dims_.k) +
                                " independent coordinates (n - m), got " + std::to_string(opt_.independent.size()));
  std::vector<bool> used(std::size_t(dims_.n), false);
  for (const Eigen::Index i : opt_.independent) {
    if (i < 0 || i >= dims_.n || used[std::size_t(i)])
      throw std::invalid_argument("MinimalForm: independent coordinate " + std::to_string(i) +
                                  " out of range [0, " + std::to_string(dims_.n) + ") or repeated");
    used[std::size_t(i)] = true;
  }
  for (Eigen::Index i = 0; i < dims_.n; ++i)
    if (!used[std::size_t(i)]) dependent_.push_back(i);
  if (x0.size() != system_.positionSize())
    throw std::invalid_argument("MinimalForm: expected x0 of size " + std::to_string(system_.positionSize()) +
                                ", got " + std::to_string(x0.size()));
  if (opt_.closing_rows < 0 || opt_.closing_rows > dims_.m)
    throw std::invalid_argument("MinimalFormOptions: expected closing_rows in [0, m], got " +
                                std::to_string(opt_.closing_rows));
  dims_.m2 = opt_.closing_rows;
  dims_.m1 = dims_.m - dims_.m2;
  dims_.k1 = dims_.n - dims_.m1;

  C_.resize(dims_.m, dims_.n);
  MinvCt_.resize(dims_.n, dims_.m);
  Cmu_.setZero(Eigen::Index(friction_.size()), dims_.n);
  phi_.resize(dims_.m);
  gamma_.resize(dims_.m);
  Q_.resize(dims_.n);
  nu_.resize(dims_.n);
  last_x_ = x0;
  Eigen::VectorXd x;
  if (!solvePositions(0.0, x0, x))
    throw std::invalid_argument("MinimalForm: the constraints do not assemble at x0 with these independent "
                                "coordinates (singular C_d or no nearby solution)");
}

bool MinimalForm::solvePositions(double t, const Eigen::Ref<const Eigen::VectorXd>& q, Eigen::VectorXd& x) {
  x = q;
  system_.normalizePositions(x);
  Eigen::MatrixXd Cd(dims_.m, dims_.m);
  Eigen::VectorXd delta = Eigen::VectorXd::Zero(dims_.n);
  for (int it = 0; it <= opt_.max_newton_iterations; ++it) {
    system_.constraints(t, x, phi_);
    if (!phi_.allFinite()) return false;
    if (phi_.lpNorm<Eigen::Infinity>() <= opt_.position_tolerance) {
      last_x_ = x;
      return true;
    }
    if (it == opt_.max_newton_iterations) break;
    system_.jacobian(t, x, C_);
    for (Eigen::Index c = 0; c < dims_.m; ++c) Cd.col(c) = C_.col(dependent_[std::size_t(c)]);
    lu_.compute(Cd);
    if (!(std::abs(lu_.determinant()) > 1e-14 * std::max(1.0, Cd.lpNorm<Eigen::Infinity>()))) return false;
    const Eigen::VectorXd step = lu_.solve(phi_);
    for (Eigen::Index c = 0; c < dims_.m; ++c) delta(dependent_[std::size_t(c)]) = -step(c);
    system_.addToPositions(delta, x);
  }
  return false;
}

double MinimalForm::slidingRate(std::size_t j, double t, const Eigen::VectorXd& x,
                                const Eigen::VectorXd& xdot) const {
  Eigen::VectorXd row(x.size());
  slidingRow(friction_.at(j), x, row);
  return row.dot(xdot) - friction_[j].surfaceSpeed(t);
}

void MinimalForm::slidingRow(const FrictionalJoint& fj, const Eigen::VectorXd& x,
                             Eigen::Ref<Eigen::VectorXd> row) const {
  row.setZero();
  if (fj.kind == FrictionJointKind::kMechanism) {
    mechanism_->addJointFrictionRow(std::size_t(fj.joint), 1.0, row);
    return;
  }
  const PlanarModel& model = *planar_;
  const PlanarJoint& jt = model.joints()[std::size_t(fj.joint)];
  if (fj.kind != FrictionJointKind::kPrismatic) {  // relative rotation
    if (jt.body_i != kGround) row(PlanarModel::coordinate(jt.body_i, 2)) -= 1.0;
    if (jt.body_j != kGround) row(PlanarModel::coordinate(jt.body_j, 2)) += 1.0;
    return;
  }
  // s = t_iᵀ d, d = P_j − P_i, t_i = A_i u_i: ṡ = t_iᵀ ḋ + θ̇_i (R t_i)ᵀ d; this is also the
  // virtual power of a force along t_i at P_j on j and its opposite on i at the same point.
  const double thi = jt.body_i == kGround ? 0.0 : x(PlanarModel::coordinate(jt.body_i, 2));
  const double thj = jt.body_j == kGround ? 0.0 : x(PlanarModel::coordinate(jt.body_j, 2));
  const Eigen::Matrix2d Ai = planarRotation(thi), Aj = planarRotation(thj);
  const Eigen::Vector2d ti = Ai * jt.u_i.normalized();
  const Eigen::Vector2d d = model.pointPosition(x, jt.body_j, jt.s_j) - model.pointPosition(x, jt.body_i, jt.s_i);
  if (jt.body_j != kGround) {
    row.segment<2>(PlanarModel::coordinate(jt.body_j, 0)) += ti;
    row(PlanarModel::coordinate(jt.body_j, 2)) += ti.dot(rot90(Aj * jt.s_j));
  }
  if (jt.body_i != kGround) {
    row.segment<2>(PlanarModel::coordinate(jt.body_i, 0)) -= ti;
    row(PlanarModel::coordinate(jt.body_i, 2)) += -ti.dot(rot90(Ai * jt.s_i)) + rot90(ti).dot(d);
  }
}

double MinimalForm::slidingDrift(std::size_t j, const Eigen::VectorXd& x, const Eigen::VectorXd& xdot) const {
  const FrictionalJoint& fj = friction_.at(j);
  // ṡ = θ̇_j − θ̇_i is linear in ẋ; a Mechanism's rows are constant on its manifold.
  if (fj.kind != FrictionJointKind::kPrismatic) return 0.0;
  const PlanarModel& model = *planar_;
  // ṡ = t_iᵀ ḋ + θ̇_i (R t_i)ᵀ d with Ṙt_i = θ̇_i R t_i and R² = −I:
  // s̈ = t_iᵀ d̈ + 2 θ̇_i (R t_i)ᵀ ḋ + θ̈_i (R t_i)ᵀ d − θ̇_i² t_iᵀ d, and d̈ = ẍ-terms − θ̇_j² A_j s_j + θ̇_i² A_i s_i.
  const PlanarJoint& jt = model.joints()[std::size_t(fj.joint)];
  auto angle = [&](BodyIndex b, const Eigen::VectorXd& v) { return b == kGround ? 0.0 : v(PlanarModel::coordinate(b, 2)); };
  auto velocity = [&](BodyIndex b, const Eigen::Vector2d& s_b) -> Eigen::Vector2d {
    if (b == kGround) return Eigen::Vector2d::Zero();
    return xdot.segment<2>(PlanarModel::coordinate(b, 0)) +
           xdot(PlanarModel::coordinate(b, 2)) * rot90(planarRotation(angle(b, x)) * s_b);
  };
  const double wi = angle(jt.body_i, xdot), wj = angle(jt.body_j, xdot);
  const Eigen::Matrix2d Ai = planarRotation(angle(jt.body_i, x)), Aj = planarRotation(angle(jt.body_j, x));
  const Eigen::Vector2d ti = Ai * jt.u_i.normalized();
  const Eigen::Vector2d d = model.pointPosition(x, jt.body_j, jt.s_j) - model.pointPosition(x, jt.body_i, jt.s_i);
  const Eigen::Vector2d ddot = velocity(jt.body_j, jt.s_j) - velocity(jt.body_i, jt.s_i);
  return 2.0 * wi * rot90(ti).dot(ddot) - wi * wi * ti.dot(d) -
         ti.dot(wj * wj * (Aj * jt.s_j) - wi * wi * (Ai * jt.s_i));
}

double MinimalForm::reactionOf(const FrictionalJoint& fj, const Eigen::VectorXd& lambda) const {
  if (fj.kind == FrictionJointKind::kMechanism)
    return mechanism_->jointFrictionReaction(std::size_t(fj.joint), lambda, Eigen::VectorXd());
  const PlanarJoint& jt = planar_->joints()[std::size_t(fj.joint)];
  // Revolute: the two rows are the global force components; prismatic: the first row is the
  // normal one with a unit normal, so its multiplier is the normal force.
  return fj.kind == FrictionJointKind::kRevolute ? lambda.segment<2>(jt.row).norm() : std::abs(lambda(jt.row));
}

double MinimalForm::reactionOf(Eigen::Index j, const Eigen::VectorXd& lambda, const Eigen::VectorXd& f) const {
  const FrictionalJoint& fj = friction_[std::size_t(j)];
  const Eigen::Index slot = slot_of_[std::size_t(j)];
  // The pin carries the normal force and the slot's friction (Blajer eq. 2.5₄).
  if (slot >= 0) return std::hypot(lambda(planar_->joints()[std::size_t(fj.joint)].row), f(slot));
  return reactionOf(fj, lambda);
}

void MinimalForm::loadGradient(std::size_t j, const Eigen::VectorXd& lambda, RowRef g) const {
  g.setZero();
  for (const JointLoadTerm& term : load_[j]) {
    const Eigen::VectorXd a = term.lambda * lambda;  // the joint's multipliers carry its load
    const double norm = a.norm();
    if (norm > 0.0) g += term.weight / norm * a.transpose() * term.lambda;
  }
}

bool MinimalForm::kinematics(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                             const Eigen::Ref<const Eigen::VectorXd>& u, MinimalFormState& s) {
  const Eigen::Index n = dims_.n, m = dims_.m, k = dims_.k;
  if (!solvePositions(t, q, s.x)) return false;
  system_.jacobian(t, s.x, C_);
  Eigen::MatrixXd Cd(m, m), Ci(m, k);
  for (Eigen::Index c = 0; c < m; ++c) Cd.col(c) = C_.col(dependent_[std::size_t(c)]);
  for (Eigen::Index c = 0; c < k; ++c) Ci.col(c) = C_.col(opt_.independent[std::size_t(c)]);
  lu_.compute(Cd);
  s.D.setZero(n, k);
  const Eigen::MatrixXd Dd = -lu_.solve(Ci);
  for (Eigen::Index c = 0; c < k; ++c) s.D(opt_.independent[std::size_t(c)], c) = 1.0;
  for (Eigen::Index r = 0; r < m; ++r) s.D.row(dependent_[std::size_t(r)]) = Dd.row(r);
  s.xdot = s.D * u;
  system_.gamma(t, s.x, s.xdot, gamma_);
  const Eigen::VectorXd nud = lu_.solve(gamma_);
  nu_.setZero();
  for (Eigen::Index r = 0; r < m; ++r) nu_(dependent_[std::size_t(r)]) = nud(r);
  system_.generalizedForces(t, s.x, s.xdot, Q_);
  Eigen::MatrixXd MD = s.D;
  system_.applyMass(MD);
  Eigen::VectorXd Mnu = nu_;
  system_.applyMass(Mnu);
  s.reduced_mass = s.D.transpose() * MD;
  s.reduced_force = s.D.transpose() * (Q_ - Mnu);
  MinvCt_ = C_.transpose();
  system_.applyInverseMass(MinvCt_);
  Eigen::VectorXd row(n);
  for (std::size_t j = 0; j < friction_.size(); ++j) {
    slidingRow(friction_[j], s.x, row);
    Cmu_.row(Eigen::Index(j)) = row.transpose();
  }
  s.sliding = Cmu_ * s.D;
  s.stick_velocity = s.stick_acceleration = 0.0;
  if (moving_surface_) {  // the only frictional joint, carried by u₀ alone
    const FrictionalJoint& fj = friction_.front();
    const double c = s.sliding(0, 0);
    s.stick_velocity = fj.surfaceSpeed(t) / c;
    const double vs_rate = fj.surface_acceleration ? fj.surface_acceleration(t) : 0.0;
    s.stick_acceleration = (vs_rate - Cmu_.row(0).dot(nu_) - slidingDrift(0, s.x, s.xdot)) / c;
  }
  return s.xdot.allFinite() && s.reduced_force.allFinite();
}

void MinimalForm::normalForces(MinimalFormState& s) const {
  s.normal_force.resize(Eigen::Index(opt_.unilateral.size()));
  for (std::size_t c = 0; c < opt_.unilateral.size(); ++c) {
    const UnilateralJoint& u = opt_.unilateral[c];
    s.normal_force(Eigen::Index(c)) = u.sign * s.lambda(planar_->joints()[std::size_t(u.joint)].row);
  }
}

void MinimalForm::reactions(const FrictionSetting& f, const Eigen::VectorXd& extra, MinimalFormState& s, bool fixed) {
  const Eigen::Index nj = Eigen::Index(friction_.size());
  const auto CMinv = MinvCt_.transpose();
  const Eigen::LDLT<Eigen::MatrixXd> S(CMinv * C_.transpose());
  const Eigen::VectorXd lambda0 = S.solve(CMinv * (Q_ + extra) - gamma_);
  if (fixed) {  // the friction forces are given: λ follows
    s.lambda = lambda0 + (nj > 0 ? Eigen::VectorXd(S.solve(CMinv * (Cmu_.transpose() * s.friction))) : Eigen::VectorXd::Zero(dims_.m));
    for (Eigen::Index j = 0; j < nj; ++j) s.reaction(j) = reactionOf(j, s.lambda, s.friction);
    return;
  }
  // λ = λ₀ + W f_μ (model sign). Without frictional joints W has no columns, and Eigen's
  // triangular solve must not see an empty right-hand side (it takes a reference to its
  // first entry: undefined behaviour).
  const Eigen::MatrixXd W =
      nj > 0 ? Eigen::MatrixXd(S.solve(CMinv * Cmu_.transpose())) : Eigen::MatrixXd(C_.rows(), 0);
  s.friction.setZero(nj);
  s.reaction.setZero(nj);
  s.reaction_converged = true;
  s.reaction_iterations = 0;
  // M ẍ = Q − Cᵀλ + C_μᵀ f_μ  ⇒  C M⁻¹ Cᵀ λ = C M⁻¹ (Q + C_μᵀ f_μ) − γ.
  Eigen::MatrixXd G(nj, dims_.m), H(nj, nj), J(nj, nj);
  Eigen::VectorXd next(nj);
  for (int it = 1;; ++it) {
    s.lambda = lambda0 + W * s.friction;
    G.setZero();
    H.setZero();
    for (Eigen::Index j = 0; j < nj; ++j) {
      const FrictionalJoint& fj = friction_[std::size_t(j)];
      s.reaction(j) = reactionOf(j, s.lambda, s.friction);
      const double arm = fj.kind == FrictionJointKind::kPrismatic ? 1.0 : fj.radius;
      const double gain = -f.direction(j) * f.mu(j) * arm;
      next(j) = gain * s.reaction(j);
      // ∂φ_j/∂λ and ∂φ_j/∂f: the unit direction of the joint's reaction, times −d μ r.
      if (fj.kind == FrictionJointKind::kMechanism) {
        loadGradient(std::size_t(j), s.lambda, G.row(j));
        G.row(j) *= gain;
        continue;
      }
      const Eigen::Index row = planar_->joints()[std::size_t(fj.joint)].row, slot = slot_of_[std::size_t(j)];
      if (fj.kind == FrictionJointKind::kRevolute) {
        const double norm = s.lambda.segment<2>(row).norm();
        if (norm > 0.0) G.row(j).segment<2>(row) = gain * s.lambda.segment<2>(row).transpose() / norm;
      } else if (slot >= 0) {
        if (s.reaction(j) > 0.0) {
          G(j, row) = gain * s.lambda(row) / s.reaction(j);
          H(j, slot) = gain * s.friction(slot) / s.reaction(j);
        }
      } else {
        G(j, row) = gain * signOf(s.lambda(row));
      }
    }
    Eigen::VectorXd step = next - s.friction;
    if (opt_.reaction_newton && nj > 0) {
      // Newton on r(f) = f − φ(λ₀ + W f, f): (I − G W − H) δ = φ − f.
      J = Eigen::MatrixXd::Identity(nj, nj) - G * W - H;
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(J);
      if (std::abs(lu.determinant()) > 1e-12) step = lu.solve(step);
    }
    const double change = step.lpNorm<Eigen::Infinity>(), size = (s.friction + step).lpNorm<Eigen::Infinity>();
    s.friction += step;
    s.reaction_iterations = it;
    if (nj == 0 || change <= opt_.reaction_tolerance * std::max(1.0, size)) break;
    if (it >= opt_.max_reaction_iterations) {
      s.reaction_converged = false;
      break;
    }
  }
  s.lambda = lambda0 + W * s.friction;
  for (Eigen::Index j = 0; j < nj; ++j) s.reaction(j) = reactionOf(j, s.lambda, s.friction);
}

bool MinimalForm::evaluate(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& u, const FrictionSetting& friction,
                           bool locked, MinimalFormState& s) {
  const Eigen::Index k = dims_.k, nj = Eigen::Index(friction_.size());
  if (!kinematics(t, q, u, s)) return false;
  if (locked) {
    // Stiction: u₀ is held at the sticking velocity (u̇₀ = a_s); the other k − 1 move freely
    // (no friction acts on them, C″_μ being zero outside column 0).
    s.udot.setZero(k);
    s.udot(0) = s.stick_acceleration;
    if (k > 1) {
      const Eigen::MatrixXd Mrr = s.reduced_mass.bottomRightCorner(k - 1, k - 1);
      s.udot.tail(k - 1) =
          Mrr.ldlt().solve(s.reduced_force.tail(k - 1) - s.reduced_mass.bottomLeftCorner(k - 1, 1) * s.udot(0));
    }
    s.reaction_iterations = 0;
    s.reaction_converged = true;
    s.friction_force.setZero(k);
    s.reaction.setConstant(nj, NAN);
    s.friction.setConstant(nj, NAN);
    // One joint's friction is the force that holds it (row 0 of 5.4₂); several joints' are
    // indeterminate (Blajer Fig. 8), and so are λ.
    if (nj <= 1 && (nj == 0 || std::abs(s.sliding(0, 0)) > 0.0)) {
      if (nj == 1) s.friction(0) = (s.reduced_mass.row(0).dot(s.udot) - s.reduced_force(0)) / s.sliding(0, 0);
      reactions(FrictionSetting{}, Eigen::VectorXd::Zero(dims_.n), s, true);
      s.friction_force = s.sliding.transpose() * s.friction;
    } else {
      s.lambda.setConstant(dims_.m, NAN);
      s.friction_force(0) = NAN;
    }
    normalForces(s);
    return true;
  }
  FrictionSetting f = friction;
  for (Eigen::Index j = 0; j < nj; ++j)  // NaN: the sign of the present sliding rate
    if (std::isnan(f.direction(j)))
      f.direction(j) = signOf(s.sliding.row(j).dot(u) - friction_[std::size_t(j)].surfaceSpeed(t));
  reactions(f, Eigen::VectorXd::Zero(dims_.n), s);
  s.friction_force = s.sliding.transpose() * s.friction;
  s.udot = s.reduced_mass.ldlt().solve(s.reduced_force + s.friction_force);
  normalForces(s);
  return s.udot.allFinite();
}

FrictionSetting MinimalForm::none() const {
  const Eigen::Index nj = Eigen::Index(friction_.size());
  return {Eigen::VectorXd::Zero(nj), Eigen::VectorXd::Zero(nj)};
}

FrictionSetting MinimalForm::against(const MinimalFormState& s, double sigma, bool static_limit) const {
  FrictionSetting f = none();
  for (std::size_t j = 0; j < friction_.size(); ++j) {
    const Eigen::Index e = Eigen::Index(j);
    f.direction(e) = signOf(s.sliding(e, 0) * sigma);
    f.mu(e) = static_limit ? friction_[j].mu_static : friction_[j].mu_kinetic;
  }
  return f;
}

MinimalForm::InverseDynamics MinimalForm::inverseDynamics(double t, double q, double qd, double qdd,
                                                          const Eigen::VectorXd& drive) {
  if (dims_.k != 1 || !planar_)
    throw std::invalid_argument("MinimalForm::inverseDynamics: expected a planar 1-DoF mechanism, got k = " +
                                std::to_string(dims_.k));
  if (drive.size() != dims_.n)
    throw std::invalid_argument("MinimalForm::inverseDynamics: expected a drive direction of size " +
                                std::to_string(dims_.n) + ", got " + std::to_string(drive.size()));
  InverseDynamics out;
  MinimalFormState s;
  Eigen::VectorXd guess = last_x_;
  guess(opt_.independent.front()) = q;
  const Eigen::VectorXd u = Eigen::VectorXd::Constant(1, qd);
  if (!kinematics(t, guess, u, s))
    throw std::invalid_argument("MinimalForm::inverseDynamics: the positions do not assemble at q = " +
                                std::to_string(q));
  const double bd = s.D.col(0).dot(drive);
  if (!(std::abs(bd) > 1e-12 * std::max(1.0, drive.norm())))
    throw std::invalid_argument("MinimalForm::inverseDynamics: the drive direction does no work on the driver (Dᵀb = 0)");
  const double sigma = qd != 0.0 ? signOf(qd) : signOf(qdd);
  const FrictionSetting f = against(s, sigma, false);
  const Eigen::Index nj = Eigen::Index(friction_.size());
  // With the friction f_μ fixed, τ follows from 5.4₂ and λ from 5.4₃ (τ enters Q as b τ);
  // then f_μ from λ, to a fixed point.
  const auto CMinv = MinvCt_.transpose();
  const Eigen::LDLT<Eigen::MatrixXd> S(CMinv * C_.transpose());
  const Eigen::VectorXd lambda0 = S.solve(CMinv * Q_ - gamma_), wb = S.solve(CMinv * drive);
  const Eigen::MatrixXd W = S.solve(CMinv * Cmu_.transpose());
  Eigen::VectorXd fmu = Eigen::VectorXd::Zero(nj);
  out.reaction.setZero(nj);
  for (int it = 1;; ++it) {
    out.torque = (s.reduced_mass(0, 0) * qdd - s.reduced_force(0) - s.sliding.col(0).dot(fmu)) / bd;
    out.lambda = lambda0 + wb * out.torque + W * fmu;
    double change = 0.0, size = 0.0;
    for (Eigen::Index j = 0; j < nj; ++j) {
      const FrictionalJoint& fj = friction_[std::size_t(j)];
      out.reaction(j) = reactionOf(j, out.lambda, fmu);
      const double arm = fj.kind == FrictionJointKind::kPrismatic ? 1.0 : fj.radius;
      const double next = -f.direction(j) * f.mu(j) * arm * out.reaction(j);
      change = std::max(change, std::abs(next - fmu(j)));
      size = std::max(size, std::abs(next));
      fmu(j) = next;
    }
    out.iterations = it;
    if (change <= opt_.reaction_tolerance * std::max(1.0, size)) {
      out.converged = true;
      break;
    }
    if (it >= opt_.max_reaction_iterations) break;
  }
  out.torque = (s.reduced_mass(0, 0) * qdd - s.reduced_force(0) - s.sliding.col(0).dot(fmu)) / bd;
  out.lambda = lambda0 + wb * out.torque + W * fmu;
  out.x = s.x;
  return out;
}

std::vector<std::pair<double, double>> stickIntervals(const std::vector<ContactEvent>& events, int contact,
                                                      double t_end) {
  std::vector<std::pair<double, double>> out;
  double start = NAN;
  for (const auto& e : events) {
    if (e.contact != contact) continue;
    if (e.kind == EventKind::kStick && std::isnan(start)) start = e.t;
    else if ((e.kind == EventKind::kSlipPositive || e.kind == EventKind::kSlipNegative) && !std::isnan(start)) {
      out.emplace_back(start, e.t);
      start = NAN;
    }
  }
  if (!std::isnan(start)) out.emplace_back(start, t_end);
  return out;
}

namespace {

// The phase machine of simulateMinimalForm.
class Simulation {
 public:
  Simulation(MinimalForm& form, const MinimalFormSimulationOptions& opt)
      : form_(form), opt_(opt), nq_(form.system().positionSize()), k_(form.k()),
        nj_(Eigen::Index(form.friction().size())),
        nu_(Eigen::Index(form.options().unilateral.size())) {
    dir_.setZero(nj_);
    break_away_.setConstant(nj_, NAN);
  }

  MinimalFormRun run(const Eigen::VectorXd& x0, const Eigen::VectorXd& u0);

 private:
  FrictionSetting slipSetting() const {
    FrictionSetting f = form_.none();
    for (Eigen::Index j = 0; j < nj_; ++j) {
      f.direction(j) = dir_(j) != 0.0 ? dir_(j) : NAN;
      f.mu(j) = form_.friction()[std::size_t(j)].mu_kinetic;
    }
    return f;
  }
  bool eval(double t, const Eigen::Ref<const Eigen::VectorXd>& y) {
    if (!form_.evaluate(t, y.head(nq_), y.tail(k_), slipSetting(), stuck_, st_)) {
      failure_ = "the positions do not assemble at t = " + std::to_string(t) + " s";
      return false;
    }
    ++result_.rhs_evaluations;
    result_.reaction_iterations += st_.reaction_iterations;
    result_.max_reaction_iterations = std::max(result_.max_reaction_iterations, st_.reaction_iterations);
    if (!st_.reaction_converged) ++result_.reaction_failures;
    for (Eigen::Index j = 0; j < nj_; ++j)
      for (Eigen::Index c = 1; c < k_; ++c)
        if (std::abs(st_.sliding(j, c)) > 1e-9 * (1.0 + std::abs(st_.sliding(j, 0)))) {
          failure_ = "joint '" + form_.friction()[std::size_t(j)].name +
                     "' slides with an independent velocity other than the driver's: Blajer's stick "
                     "detection needs every sliding rate carried by u0";
          return false;
        }
    return true;
  }
  // Release function while stuck: −σ u̇₀(μs against σ), σ the tendency without friction.
  double release(double t, const Eigen::Ref<const Eigen::VectorXd>& y, double* tendency = nullptr) {
    MinimalFormState s;
    if (!form_.evaluate(t, y.head(nq_), y.tail(k_), form_.none(), false, s)) return 1.0;
    const double held = s.stick_acceleration, a0 = s.udot(0) - held;
    const double scale = 1.0 + std::abs(s.reduced_force(0) / s.reduced_mass(0, 0));
    const double sigma = std::abs(a0) <= opt_.acceleration_tolerance * scale ? 0.0 : signOf(a0);
    if (tendency) *tendency = sigma;
    if (!form_.evaluate(t, y.head(nq_), y.tail(k_), form_.against(s, sigma == 0.0 ? 1.0 : sigma, true), false, s))
      return 1.0;
    return -(sigma == 0.0 ? 1.0 : sigma) * (s.udot(0) - held);
  }
  void roots(double t, const Eigen::Ref<const Eigen::VectorXd>& y, Eigen::Ref<Eigen::VectorXd> g) {
    g.setOnes();
    if (stuck_) g(0) = release(t, y);
    if (stuck_ && nu_ == 0) return;  // nothing else is watched while stuck
    if (!eval(t, y)) return;
    // Lift-off of a unilateral contact kept closed (an indeterminate force is not watched).
    for (Eigen::Index c = 0; c < nu_; ++c)
      if (std::isfinite(st_.normal_force(c))) g(1 + nj_ + c) = st_.normal_force(c);
    if (stuck_) return;
    g(0) = sigma_ * (y(nq_) - st_.stick_velocity);
    for (Eigen::Index j = 0; j < nj_; ++j)
      if (dir_(j) != 0.0) g(1 + j) = dir_(j) * st_.sliding(j, 0) * sigma_;
  }
  // Stops the run if a contact kept closed carries no load at (t, y), or (`step`) if its
  // normal force's root was found: it lifts off there.
  bool liftOff(double t, const Eigen::VectorXd& y, const OdeStep* step = nullptr) {
    if (nu_ == 0 || !eval(t, y)) return false;
    for (Eigen::Index c = 0; c < nu_; ++c)
      if (st_.normal_force(c) <= 0.0 || (step && step->roots[std::size_t(1 + nj_ + c)] != 0)) {
        std::ostringstream os;
        os << "contact '" << form_.options().unilateral[std::size_t(c)].name << "' lifts off at t = " << t
           << " s (its normal force reaches " << st_.normal_force(c)
           << " N): the minimal form keeps its contacts closed; event-driven or Moreau-Jean continue past it";
        result_.run.fail(RunStatus::kLiftOff, os.str());
        return true;
      }
    return false;
  }
  void decide(double t, Eigen::VectorXd& y, bool initial, bool released);
  void event(double t, Eigen::Index j, double direction, bool stick) {
    if (direction == 0.0 && !stick) return;
    result_.run.events.push_back({t, int(j), stick ? EventKind::kStick
                                             : direction > 0 ? EventKind::kSlipPositive
                                                             : EventKind::kSlipNegative});
  }
  void record(double t, const Eigen::VectorXd& y);
  // The integrated positions put back on the manifold before the integrator restarts.
  void assemble(double t, Eigen::VectorXd& y) {
    Eigen::VectorXd x;
    if (form_.solvePositions(t, y.head(nq_), x)) y.head(nq_) = x;
  }

  MinimalForm& form_;
  const MinimalFormSimulationOptions& opt_;
  Eigen::Index nq_, k_, nj_, nu_;  // positions, degrees of freedom, frictional joints, unilateral contacts
  bool stuck_ = false;
  double sigma_ = 1.0, stick_start_ = 0.0;
  Eigen::VectorXd dir_;  // per joint: sign of ṡ_j in this slip phase (0: not yet known)
  Eigen::VectorXd break_away_;  // per joint: when it broke away with its direction unknown (NaN: not)
  MinimalFormState st_;
  std::string failure_;
  MinimalFormRun result_;
  std::vector<Eigen::VectorXd> rows_;
};

void Simulation::decide(double t, Eigen::VectorXd& y, bool initial, bool released) {
  const bool was_stuck = stuck_;
  const Eigen::VectorXd before = dir_;
  MinimalFormState s;  // its x, hence C″_μ and the sticking velocity, do not depend on u
  form_.evaluate(t, y.head(nq_), y.tail(k_), form_.none(), false, s);
  y(nq_) = s.stick_velocity;
  double sigma = 0.0;
  const double g = release(t, y, &sigma);
  stuck_ = !(released && sigma != 0.0) && (sigma == 0.0 || g >= 0.0);
  if (stuck_) {
    if (!was_stuck || initial) {
      stick_start_ = t;
      if (!initial)
        for (Eigen::Index j = 0; j < nj_; ++j) event(t, j, 0.0, true);
    }
    dir_.setZero();
    break_away_.setConstant(NAN);
    return;
  }
  if (was_stuck && !initial) result_.stick_intervals.emplace_back(stick_start_, t);
  sigma_ = sigma;
  for (Eigen::Index j = 0; j < nj_; ++j) {
    dir_(j) = signOf(s.sliding(j, 0) * sigma_);
    if (!initial && (was_stuck || dir_(j) != before(j))) event(t, j, dir_(j), false);
    // At a dead centre its slip's direction shows once it moves: reported then, at this time.
    break_away_(j) = !initial && was_stuck && dir_(j) == 0.0 ? t : NAN;
  }
}

void Simulation::record(double t, const Eigen::VectorXd& y) {
  if (!form_.evaluate(t, y.head(nq_), y.tail(k_), slipSetting(), stuck_, st_)) return;
  const Eigen::Index from = 1 + nq_ + form_.dimensions().n + k_ + form_.dimensions().m;
  Eigen::VectorXd row(from + 2 * nj_);
  row << t, st_.x, st_.xdot, st_.udot, st_.lambda, Eigen::VectorXd::Zero(2 * nj_);
  for (Eigen::Index j = 0; j < nj_; ++j) {
    row(from + 2 * j) = st_.reaction(j);
    row(from + 2 * j + 1) = st_.friction(j);
  }
  rows_.push_back(row);
}

MinimalFormRun Simulation::run(const Eigen::VectorXd& x0, const Eigen::VectorXd& u0) {
  const double start = threadCpuSeconds();
  RunResult& r = result_.run;
  result_.dimensions = form_.dimensions();
  Eigen::VectorXd y(nq_ + k_);
  y << x0, u0;
  CvodeOptions co;
  co.method = opt_.integrator;
  co.relative_tolerance = opt_.relative_tolerance;
  co.absolute_tolerance = opt_.absolute_tolerance;
  co.max_step = opt_.max_step;
  co.max_steps = std::min(co.max_steps, opt_.max_total_steps);
  CvodeIntegrator ode(
      int(nq_ + k_),
      [this](double t, const Eigen::Ref<const Eigen::VectorXd>& yy, Eigen::Ref<Eigen::VectorXd> dy) {
        if (!eval(t, yy)) return false;
        form_.system().positionRate(st_.x, st_.xdot, dy.head(nq_));
        dy.tail(k_) = st_.udot;
        if (stuck_ && !form_.movingSurface()) dy(nq_) = 0.0;  // held exactly at u₀ = 0
        return true;
      },
      co, int(1 + nj_ + nu_),
      [this](double t, const Eigen::Ref<const Eigen::VectorXd>& yy, Eigen::Ref<Eigen::VectorXd> g) { roots(t, yy, g); });
  ode.setRootDirections(std::vector<int>(std::size_t(1 + nj_ + nu_), -1));

  double t = 0.0;
  MinimalFormState s0;
  form_.evaluate(t, y.head(nq_), y.tail(k_), form_.none(), false, s0);
  if (y(nq_) == s0.stick_velocity) decide(t, y, true, false);
  else {
    sigma_ = signOf(y(nq_) - s0.stick_velocity);
    for (Eigen::Index j = 0; j < nj_; ++j) dir_(j) = signOf(s0.sliding(j, 0) * sigma_);
  }
  ode.reset(t, y);
  record(t, y);
  bool lifted = liftOff(t, y);
  long samples = 0, events = 0;
  while (t < opt_.t_end && !lifted) {
    const double t_out = std::min(opt_.t_end, double(samples + 1) * opt_.output_dt);
    const OdeStep step = ode.advance(t_out, y);
    // CVODE stops at the budget (its max_steps): a failure there is the budget's.
    const long taken = r.steps + ode.statistics().steps;
    if (taken > opt_.max_total_steps || (step.status == OdeStatus::kFailure && taken >= opt_.max_total_steps)) {
      r.fail(RunStatus::kLimitReached, "more than max_total_steps = " + std::to_string(opt_.max_total_steps) +
                                           " integrator steps by t = " + std::to_string(step.t) + " s");
      break;
    }
    if (step.status == OdeStatus::kFailure) {
      r.fail(RunStatus::kIntegratorFailure, failure_.empty() ? "CVODE: " + step.message : failure_);
      break;
    }
    t = step.t;
    if (step.status == OdeStatus::kReachedTime) {
      ++samples;
      record(t, y);
      // A joint that started at a dead centre (ṡ_j ≡ 0 at the decision) gets its direction
      // as soon as it moves, so that its next reversal is located.
      bool known = false;
      if (!stuck_ && eval(t, y))
        for (Eigen::Index j = 0; j < nj_; ++j)
          if (dir_(j) == 0.0 && std::abs(st_.sliding(j, 0)) > 1e-9) {
            dir_(j) = signOf(st_.sliding(j, 0) * sigma_);
            known = true;
            if (!std::isnan(break_away_(j))) {
              const ContactEvent e{break_away_(j), int(j), dir_(j) > 0 ? EventKind::kSlipPositive : EventKind::kSlipNegative};
              auto& ev = result_.run.events;
              ev.insert(std::upper_bound(ev.begin(), ev.end(), e, [](const ContactEvent& a, const ContactEvent& b) { return a.t < b.t; }), e);
              break_away_(j) = NAN;
            }
          }
      if (known) {
        r.steps += ode.statistics().steps;
        assemble(t, y);
        ode.reset(t, y);
      }
      continue;
    }
    if (++events > opt_.max_events) {
      r.fail(RunStatus::kLimitReached, "more than max_events events by t = " + std::to_string(t) + " s");
      break;
    }
    if ((lifted = liftOff(t, y, &step))) {
      record(t, y);
      break;
    }
    if (step.roots[0] != 0) {
      decide(t, y, false, stuck_);
    } else {
      for (Eigen::Index j = 0; j < nj_; ++j)
        if (step.roots[std::size_t(1 + j)] != 0) {
          dir_(j) = -dir_(j);
          event(t, j, dir_(j), false);
        }
    }
    record(t, y);
    r.steps += ode.statistics().steps;
    assemble(t, y);
    ode.reset(t, y);
  }
  if (stuck_) result_.stick_intervals.emplace_back(stick_start_, t);
  r.steps += ode.statistics().steps;
  r.t_end = t;
  r.columns = historyColumns(form_.system(), {}, {});
  for (Eigen::Index c = 0; c < k_; ++c) r.columns.push_back("udot" + std::to_string(c));
  for (Eigen::Index c = 0; c < form_.dimensions().m; ++c) r.columns.push_back("lambda" + std::to_string(c));
  for (const FrictionalJoint& j : form_.friction()) {
    r.columns.push_back(j.name + ".reaction");
    r.columns.push_back(j.name + ".F");
  }
  r.history.resize(Eigen::Index(rows_.size()), Eigen::Index(r.columns.size()));
  for (std::size_t i = 0; i < rows_.size(); ++i) r.history.row(Eigen::Index(i)) = rows_[i].transpose();
  if (form_.evaluate(t, y.head(nq_), y.tail(k_), slipSetting(), stuck_, st_)) {
    r.final_q = st_.x;
    r.final_v = st_.xdot;
  }
  r.cpu_seconds = threadCpuSeconds() - start;
  return result_;
}

}  // namespace

MinimalFormRun simulateMinimalForm(MinimalForm& form, const Eigen::VectorXd& x0, const Eigen::VectorXd& u0,
                                   const MinimalFormSimulationOptions& options) {
  options.validate();
  if (x0.size() != form.system().positionSize() || u0.size() != form.k())
    throw std::invalid_argument("simulateMinimalForm: expected x0 of size " +
                                std::to_string(form.system().positionSize()) +
                                " and u0 of size " + std::to_string(form.k()) + ", got " +
                                std::to_string(x0.size()) + " and " + std::to_string(u0.size()));
  Simulation sim(form, options);
  return sim.run(x0, u0);
}

}  // namespace stickslip::dynamics
