#include "mechanisms/roller_crank.hpp"

#include "mechanisms/friction_loop.hpp"

#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

namespace stickslip::mechanisms {

void RollerCrank::validate() const {
  const auto fail = [](const std::string& what, double got) {
    throw std::invalid_argument("RollerCrank: expected " + what + ", got " + std::to_string(got));
  };
  const auto positive = [&](const char* name, double x) {
    if (!(std::isfinite(x) && x > 0.0)) fail(std::string(name) + " > 0", x);
  };
  positive("crank_length", crank_length);
  positive("crank_mass", crank_mass);
  positive("crank_inertia", crank_inertia);
  positive("rod_length", rod_length);
  positive("rod_mass", rod_mass);
  positive("rod_inertia", rod_inertia);
  positive("roller_radius", roller_radius);
  positive("roller_mass", roller_mass);
  positive("roller_inertia", roller_inertia);
  if (!(std::isfinite(roller_height) && roller_height > roller_radius))
    fail("roller_height > roller_radius", roller_height);
  if (!(std::isfinite(gravity) && gravity >= 0.0)) fail("gravity ≥ 0", gravity);
  if (!std::isfinite(crank_angle)) fail("a finite crank_angle", crank_angle);
  if (!std::isfinite(crank_rate)) fail("a finite crank_rate", crank_rate);
  if (!(std::isfinite(baumgarte_alpha) && baumgarte_alpha >= 0.0))
    fail("baumgarte_alpha ≥ 0", baumgarte_alpha);
  if (!(std::isfinite(baumgarte_beta) && baumgarte_beta >= 0.0))
    fail("baumgarte_beta ≥ 0", baumgarte_beta);
  // The rod must reach the roller's line from the crank pin, away from the vertical.
  const double rise = roller_height - crank_length * std::sin(crank_angle);
  if (!(std::abs(rise) < rod_length))
    fail("|roller_height − crank_length·sin(crank_angle)| < rod_length", rise);
}

dynamics::FrictionParameters rollerCrankFrictionParameters() {
  dynamics::FrictionParameters p;
  p.mu_s = 0.15;
  p.mu_k = 0.1;
  p.stribeck_velocity = 1e-3;
  p.stribeck_exponent = 2.0;
  p.sigma0 = 1e5;
  p.sigma1 = std::sqrt(1e5);
  p.sigma2 = 0.0;
  p.viscous = 0.0;
  return p;
}

namespace {

// Bodies crank, rod, roller (kCrank, kRod, kRoller), gravity and the three revolutes, which
// both builds share.
void addLinks(const RollerCrank& rc, dynamics::PlanarModel& m) {
  using Eigen::Vector2d;
  const double l1 = rc.crank_length, l2 = rc.rod_length;
  m.addBody("crank", rc.crank_mass, rc.crank_inertia);
  m.addBody("rod", rc.rod_mass, rc.rod_inertia);
  m.addBody("roller", rc.roller_mass, rc.roller_inertia);
  m.setGravity(Vector2d(0.0, -rc.gravity));
  constexpr auto crank = RollerCrankSystem::kCrank, rod = RollerCrankSystem::kRod, roller = RollerCrankSystem::kRoller;
  m.addRevolute(dynamics::kGround, Vector2d::Zero(), crank, Vector2d(-0.5 * l1, 0.0), "ground-crank");
  m.addRevolute(crank, Vector2d(0.5 * l1, 0.0), rod, Vector2d(-0.5 * l2, 0.0), "crank-rod");
  m.addRevolute(rod, Vector2d(0.5 * l2, 0.0), roller, Vector2d::Zero(), "rod-roller");
}

}  // namespace

RollerCrankSystem::RollerCrankSystem(const RollerCrank& rc,
                                     std::shared_ptr<const dynamics::FrictionLaw> friction)
    : rc_(rc), friction_(std::move(friction)) {
  rc_.validate();
  using Eigen::Vector2d;
  addLinks(rc_, model_);
  const int height = model_.addPointOnLine(dynamics::kGround, Vector2d(0.0, rc_.roller_height),
                                           Vector2d::UnitX(), kRoller, Vector2d::Zero(),
                                           "roller-height");
  row_y_ = model_.joints()[std::size_t(height)].row;
  nz_ = friction_ ? friction_->stateSize() : 0;

  const Eigen::Index n = model_.velocitySize(), m = model_.constraintCount();
  phi_.resize(m);
  phi_t_.resize(m);
  gamma_.resize(m);
  rhs_.resize(m);
  lambda0_.resize(m);
  lambda1_.resize(m);
  q_force_.resize(n);
  jt_ = Eigen::VectorXd::Zero(n);
  jt_(dynamics::PlanarModel::coordinate(kRoller, 0)) = 1.0;
  jt_(dynamics::PlanarModel::coordinate(kRoller, 2)) = rc_.roller_radius;
  jac_.resize(m, n);
  jac_minv_.resize(m, n);
  mass_inv_ = model_.massDiagonal().cwiseInverse();
  w_.resize(m, m);
  ldlt_.compute(Eigen::MatrixXd::Identity(m, m));  // sizes its storage (see dynamics/eom_solver.cpp)
}

Eigen::VectorXd RollerCrankSystem::initialState() const {
  const double l1 = rc_.crank_length, l2 = rc_.rod_length, h = rc_.roller_height;
  const Eigen::Vector2d pin = l1 * Eigen::Vector2d(std::cos(rc_.crank_angle), std::sin(rc_.crank_angle));
  const Eigen::Vector2d centre(pin.x() + std::sqrt(l2 * l2 - (h - pin.y()) * (h - pin.y())), h);
  const double rod_angle = std::atan2(centre.y() - pin.y(), centre.x() - pin.x());
  Eigen::VectorXd y = Eigen::VectorXd::Zero(stateSize());
  const Eigen::Index n = model_.velocitySize(), m = model_.constraintCount();
  y.segment<3>(3 * kCrank) << 0.5 * pin, rc_.crank_angle;
  y.segment<3>(3 * kRod) << 0.5 * (pin + centre), rod_angle;
  y.segment<3>(3 * kRoller) << centre, 0.0;

  // Velocities: D v = −Φt (= 0), θ̇₁ given, v_s = J_t v = 0 (pure rolling): n equations.
  Eigen::MatrixXd a(n, n);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
  Eigen::MatrixXd jac(m, n);
  Eigen::VectorXd phi_t(m);
  model_.jacobian(0.0, y.head(n), jac);
  model_.constraintTimeDerivative(0.0, y.head(n), phi_t);
  a.topRows(m) = jac;
  b.head(m) = -phi_t;
  a.row(m).setZero();
  a(m, dynamics::PlanarModel::coordinate(kCrank, 2)) = 1.0;
  b(m) = rc_.crank_rate;
  a.row(m + 1) = jt_.transpose();
  y.segment(n, n) = a.fullPivLu().solve(b);

  if (friction_) {
    const dynamics::FrictionInput in{0.0, 0.0, 0.0};
    friction_->initialState(in, std::span<double>(y.data() + 2 * n, std::size_t(nz_)));
  }
  return y;
}

double RollerCrankSystem::lawForce(double v, double n, const Eigen::Ref<const Eigen::VectorXd>& z) const {
  return friction_->force({v, n, 0.0}, std::span<const double>(z.data(), std::size_t(nz_)));
}

bool RollerCrankSystem::derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                   Eigen::Ref<Eigen::VectorXd> ydot) {
  const Eigen::Index n = model_.velocitySize();
  const auto q = y.head(n);
  const auto v = y.segment(n, n);
  const auto z = y.segment(2 * n, nz_);

  model_.constraintsAndJacobian(t, q, phi_, jac_);
  model_.constraintTimeDerivative(t, q, phi_t_);
  model_.gamma(t, q, v, gamma_);
  model_.generalizedForces(t, q, v, q_force_);
  // Baumgarte: γ̃ = γ − 2α Φ̇ − β² Φ, Φ̇ = D v + Φt.
  gamma_.noalias() -= 2.0 * rc_.baumgarte_alpha * (jac_ * v);
  gamma_ -= 2.0 * rc_.baumgarte_alpha * phi_t_ + rc_.baumgarte_beta * rc_.baumgarte_beta * phi_;

  jac_minv_ = jac_ * mass_inv_.asDiagonal();
  w_.noalias() = jac_minv_ * jac_.transpose();
  ldlt_.compute(w_);
  if (ldlt_.info() != Eigen::Success || ldlt_.vectorD().cwiseAbs().minCoeff() <=
                                            1e-12 * ldlt_.vectorD().cwiseAbs().maxCoeff())
    return false;
  rhs_.noalias() = jac_minv_ * q_force_;
  rhs_ -= gamma_;
  lambda0_ = ldlt_.solve(rhs_);
  rhs_.noalias() = jac_minv_ * jt_;
  lambda1_ = ldlt_.solve(rhs_);

  // N(F) = a + b F; F = law(v_s, |N|, z) (friction_loop.hpp).
  const double a = -lambda0_(row_y_), b = -lambda1_(row_y_);
  const double vs = v(dynamics::PlanarModel::coordinate(kRoller, 0)) +
                    rc_.roller_radius * v(dynamics::PlanarModel::coordinate(kRoller, 2));
  FrictionLoopSolution loop;
  loop.converged = true;
  if (friction_) {
    loop = solveFrictionLoop(a, b, [&](double normal) { return lawForce(vs, normal, z); });
    if (!loop.converged) {
      contact_.loop_iterations = loop.iterations;
      contact_.loop_residual = loop.residual;
      return false;
    }
  }
  const double force = loop.force;

  ydot.head(n) = v;
  auto vdot = ydot.segment(n, n);
  vdot = q_force_ + force * jt_;
  lambda0_ += force * lambda1_;
  vdot.noalias() -= jac_.transpose() * lambda0_;
  vdot = vdot.cwiseProduct(mass_inv_);
  const double normal = -lambda0_(row_y_);
  if (friction_ && nz_ > 0)
    friction_->stateRate({vs, std::abs(normal), 0.0},
                         std::span<const double>(z.data(), std::size_t(nz_)),
                         std::span<double>(ydot.data() + 2 * n, std::size_t(nz_)));
  ydot(2 * n + nz_) = force * vs;
  contact_ = {vs, normal, force, vdot(dynamics::PlanarModel::coordinate(kRoller, 2)),
              loop.iterations, loop.residual};
  return ydot.allFinite();
}

double RollerCrankSystem::mechanicalEnergy(const Eigen::Ref<const Eigen::VectorXd>& y) const {
  const Eigen::Index n = model_.velocitySize();
  return model_.kineticEnergy(y.segment(n, n)) + model_.potentialEnergy(y.head(n));
}

double RollerCrankSystem::constraintResidual(const Eigen::Ref<const Eigen::VectorXd>& y) const {
  model_.constraints(0.0, y.head(model_.positionSize()), phi_);
  return phi_.lpNorm<Eigen::Infinity>();
}

double RollerCrankSystem::velocityResidual(const Eigen::Ref<const Eigen::VectorXd>& y) const {
  const Eigen::Index n = model_.velocitySize();
  model_.jacobian(0.0, y.head(n), jac_);
  model_.constraintTimeDerivative(0.0, y.head(n), phi_t_);
  phi_t_.noalias() += jac_ * y.segment(n, n);
  return phi_t_.lpNorm<Eigen::Infinity>();
}

dynamics::RigidScenario rollerCrankRigid(const RollerCrank& rc) {
  rc.validate();
  using Eigen::Vector2d;
  dynamics::RigidScenario s;
  s.name = "roller-crank";
  dynamics::PlanarModel& m = s.model;
  addLinks(rc, m);
  dynamics::RigidContact c;
  c.name = "roller-ground";
  c.normal = dynamics::RigidContact::Normal::kBilateral;
  c.body_i = RollerCrankSystem::kRoller;
  c.radius = rc.roller_radius;
  c.geometry.line_point_on_j = Vector2d(0.0, rc.roller_height - rc.roller_radius);
  const dynamics::FrictionParameters f = rollerCrankFrictionParameters();
  c.mu_static = f.mu_s;
  c.mu_kinetic = f.mu_k;
  s.contacts.push_back(c);
  const Eigen::VectorXd y = RollerCrankSystem(rc, nullptr).initialState();
  const Eigen::Index n = m.velocitySize();
  s.q0 = y.head(n);
  s.v0 = y.segment(n, n);
  return s;
}

}  // namespace stickslip::mechanisms
