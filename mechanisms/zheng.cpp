#include "mechanisms/zheng.hpp"

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/nonsmooth/constrained_response.hpp"

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <variant>
#include <vector>

namespace stickslip::mechanisms {

void ZhengSliderCrank::validate() const {
  std::ostringstream os;
  if (!(crank_radius > 0.0 && crank_mass > 0.0 && rod_a > 0.0 && rod_b > 0.0 && rod_mass > 0.0 &&
        slider_mass > 0.0))
    os << "positive lengths and masses";
  else if (!(journal_radius > 0.0 && bearing_radius > journal_radius))
    os << "0 < journal_radius < bearing_radius, got " << journal_radius << ", " << bearing_radius;
  else if (!(mu_kinetic >= 0.0 && mu_static >= mu_kinetic))
    os << "0 <= mu_kinetic <= mu_static, got " << mu_kinetic << ", " << mu_static;
  else if (!(impact_velocity > 0.0)) os << "impact_velocity > 0, got " << impact_velocity;
  else if (!(rigid_restitution >= 0.0 && rigid_restitution <= 1.0))
    os << "rigid_restitution in [0, 1], got " << rigid_restitution;
  else if (rigid_contact && modified_coulomb && mu_kinetic > 0.0)
    os << "set-valued Coulomb with a rigid clearance joint (the modified Coulomb law needs the "
          "compliant one)";
  if (!os.str().empty()) throw std::invalid_argument("ZhengSliderCrank: expected " + os.str());
}

ZhengSliderCrank zhengExample(const std::string& example) {
  ZhengSliderCrank z;
  if (example == "torque") return z;
  if (example == "rheonomic") {
    z.drive = ZhengSliderCrank::Drive::kRheonomic;
    z.theta1_rate = z.rheonomic_amplitude * 2.0 * std::numbers::pi;
    return z;
  }
  if (example == "equilibrium") {
    z.drive = ZhengSliderCrank::Drive::kFree;
    z.theta1 = std::numbers::pi - 0.01;
    return z;
  }
  throw std::invalid_argument("zhengExample: expected torque, rheonomic or equilibrium, got '" + example + "'");
}

dynamics::RigidScenario zhengRigid(const ZhengSliderCrank& z) {
  z.validate();
  using dynamics::kGround;
  dynamics::RigidScenario s;
  s.name = "zheng";
  dynamics::PlanarModel& m = s.model;
  const double length = z.rod_a + z.rod_b;
  const auto crank = m.addBody("crank", z.crank_mass, z.crank_mass * z.crank_radius * z.crank_radius / 2);
  const auto rod = m.addBody("rod", z.rod_mass, z.rod_mass * length * length / 12);
  // The slider only translates; its inertia is nominal (its angle is held by the guide).
  const auto slider = m.addBody("slider", z.slider_mass, 1e-4);
  m.setGravity({z.gravity, 0.0});
  m.addRevolute(kGround, {0.0, 0.0}, crank, {0.0, 0.0}, "O");
  m.addRevolute(rod, {z.rod_b, 0.0}, slider, {0.0, 0.0}, "B");
  m.addTranslational(kGround, {0.0, 0.0}, {1.0, 0.0}, slider, {0.0, 0.0}, 0.0, "guide");
  if (z.ideal) m.addRevolute(crank, {z.crank_radius, 0.0}, rod, {-z.rod_a, 0.0}, "A");
  m.addViscousDamping(crank, 0.0, z.crank_damping);
  m.addViscousDamping(slider, z.slider_damping, 0.0);
  switch (z.drive) {
    case ZhengSliderCrank::Drive::kTorque: {
      const double t0 = z.torque_amplitude, w = z.torque_frequency;
      m.addAppliedTorque(crank, [t0, w](double t) { return t0 * std::sin(w * t); });
      break;
    }
    case ZhengSliderCrank::Drive::kRheonomic: {
      const double a = z.rheonomic_amplitude, w = 2.0 * std::numbers::pi;
      m.addRheonomicDriver(kGround, crank, [a, w](double t) { return a * std::sin(w * t); },
                           [a, w](double t) { return a * w * std::cos(w * t); },
                           [a, w](double t) { return -a * w * w * std::sin(w * t); }, "driver");
      break;
    }
    case ZhengSliderCrank::Drive::kFree: break;
  }
  if (!z.ideal) {
    dynamics::RigidContact c;
    c.name = "clearance-A";
    c.shape = dynamics::RigidContact::Shape::kJournalBearing;
    c.normal = z.rigid_contact ? dynamics::RigidContact::Normal::kUnilateral
                               : dynamics::RigidContact::Normal::kCompliant;
    c.restitution = z.rigid_restitution;
    c.body_i = crank;
    c.body_j = rod;
    c.journal_bearing.journal_centre_on_i = {z.crank_radius, 0.0};
    c.journal_bearing.bearing_centre_on_j = {-z.rod_a, 0.0};
    c.journal_bearing.journal_radius = z.journal_radius;
    c.journal_bearing.bearing_radius = z.bearing_radius;
    const dynamics::ContactMaterial steel{z.young_modulus, z.poisson_ratio};
    dynamics::HuntCrossleyLaw law;
    law.stiffness = dynamics::journalBearingStiffness(z.bearing_radius, z.journal_radius, steel, steel);
    law.exponent = z.exponent;
    law.restitution = z.restitution;
    law.validate();
    c.compliant_law = law;
    c.impact_velocity = z.impact_velocity;
    if (z.modified_coulomb && z.mu_kinetic > 0.0) {
      dynamics::FrictionParameters p;
      p.mu_k = z.mu_kinetic;
      p.mu_s = z.mu_static;
      p.modified_v0 = z.modified_v0;
      p.modified_v1 = z.modified_v1;
      c.smooth_friction = dynamics::makeFrictionLaw("ambrosio", p);
    } else if (!z.modified_coulomb) {
      c.mu_static = z.mu_static;
      c.mu_kinetic = z.mu_kinetic;
    }
    s.contacts.push_back(c);
  }

  // Positions: the journal pressed into the bearing by the static load of the mechanism
  // with joint A locked (crank and rod welded: the structure a sticking joint makes), at the
  // penetration where the compliant law carries that load; a journal merely touching would
  // start with no normal force and hence no friction.
  const double th1 = z.drive == ZhengSliderCrank::Drive::kRheonomic ? 0.0 : z.theta1;
  const Eigen::Vector2d pin(z.crank_radius * std::cos(th1), z.crank_radius * std::sin(th1));
  const double c = z.ideal ? 0.0 : z.bearing_radius - z.journal_radius;
  Eigen::Vector2d e(-c, 0.0);  // eccentricity r_J − r_B
  const bool at_rest = z.drive == ZhengSliderCrank::Drive::kFree && z.theta1_rate == 0.0;
  // q from the eccentricity e = r_J − r_B: crank at θ1, rod from the bearing to the slider on
  // the x-axis.
  auto place = [&](const Eigen::Vector2d& ecc) {
    const Eigen::Vector2d bearing = pin - ecc;
    const double sin2 = -bearing.y() / length;
    const Eigen::Vector2d u(std::sqrt(1.0 - sin2 * sin2), sin2);
    Eigen::VectorXd q(9);
    q << 0.0, 0.0, th1, bearing + z.rod_a * u, std::atan2(u.y(), u.x()), (bearing + length * u).x(), 0.0, 0.0;
    return q;
  };
  for (int pass = 0; pass < 3; ++pass) {
    s.q0 = place(e);
    if (z.ideal) break;
    dynamics::PlanarModel locked;
    locked.addBody("crank", z.crank_mass, m.body(crank).inertia);
    locked.addBody("rod", z.rod_mass, m.body(rod).inertia);
    locked.addBody("slider", z.slider_mass, 1e-4);
    locked.setGravity({z.gravity, 0.0});
    locked.addRevolute(kGround, {0.0, 0.0}, crank, {0.0, 0.0});
    locked.addRevolute(rod, {z.rod_b, 0.0}, slider, {0.0, 0.0});
    locked.addTranslational(kGround, {0.0, 0.0}, {1.0, 0.0}, slider, {0.0, 0.0});
    // Weld at the journal centre; relative angle as placed.
    const Eigen::Vector2d s_rod = Eigen::Rotation2Dd(-s.q0(5)).toRotationMatrix() * (pin - s.q0.segment<2>(3));
    locked.addFixed(crank, {z.crank_radius, 0.0}, rod, s_rod, s.q0(5) - th1);
    dynamics::ConstrainedResponse response(locked);
    const Eigen::VectorXd rest = Eigen::VectorXd::Zero(9);
    if (!response.update(0.0, s.q0, rest)) throw std::invalid_argument("zhengRigid: " + response.message());
    Eigen::VectorXd lambda(locked.constraintCount());
    response.multipliers(rest, lambda);
    const dynamics::JointReaction weld = locked.reactions(0.0, s.q0, lambda).back();
    const Eigen::Vector2d on_journal = weld.force_on_i;
    const double load = on_journal.norm();
    // The bearing pushes the journal with F = −N n + F_t t at the contact point r_J + R_j n,
    // n = e/|e|, t = R n: its moment about r_J is R_j F_t. Started in motion, the journal
    // takes the load with N alone (F_t = 0: e against the push). At rest (Example III), the
    // contact also carries the weld's torque, F_t = M / R_j — the sticking equilibrium, where
    // the contact force passes off the journal centre as the friction circle allows.
    const double tangential = at_rest ? weld.torque_on_i / z.journal_radius : 0.0;
    const double normal = std::sqrt(std::max(load * load - tangential * tangential, 0.0));
    // A rigid joint carries the load at contact (δ = 0).
    const double delta =
        z.rigid_contact
            ? 0.0
            : std::pow(normal / std::get<dynamics::HuntCrossleyLaw>(*s.contacts[0].compliant_law).stiffness,
                       1.0 / z.exponent);
    // F rotated by −α is (−N, F_t), α the direction of n.
    const double alpha = std::atan2(on_journal.y(), on_journal.x()) - std::atan2(tangential, -normal);
    e = (c + delta) * Eigen::Vector2d(std::cos(alpha), std::sin(alpha));
  }
  if (!z.ideal) s.q0 = place(e);
  // At rest the passes above leave an acceleration of ~1e-5 rad/s² (the weld's load is taken
  // at the previous pass's pose). Gauss–Newton on e makes the real model's acceleration at
  // rest vanish, with the journal stuck: a = a₀ + G J_nᵀ N + G J_tᵀ F_t, F_t from J_t a = 0.
  if (at_rest && !z.ideal && !z.rigid_contact) {
    dynamics::ConstrainedResponse response(m);
    dynamics::ContactKinematics k;
    const Eigen::VectorXd rest = Eigen::VectorXd::Zero(9);
    const dynamics::RigidContact& joint = s.contacts[0];
    auto acceleration = [&](const Eigen::Vector2d& ecc) {
      const Eigen::VectorXd q = place(ecc);
      if (!response.update(0.0, q, rest)) throw std::invalid_argument("zhengRigid: " + response.message());
      dynamics::evaluateContacts(m, s.contacts, 0.0, q, rest, k);
      const double normal = dynamics::normalForce(*joint.compliant_law, -k.gap(0), 0.0, joint.impact_velocity);
      const Eigen::MatrixXd& g = response.inverseMass();
      Eigen::VectorXd a = response.freeAcceleration() + g * (normal * k.jacobian.row(0).transpose());
      const Eigen::VectorXd g_jt = g * k.jacobian.row(1).transpose();
      return Eigen::VectorXd(a - (k.jacobian.row(1).dot(a) / k.jacobian.row(1).dot(g_jt)) * g_jt);
    };
    const double step = 1e-11;  // [m]; e ≈ 1e-4 m, ∂a/∂e ≈ 1e7 s⁻²
    for (int it = 0; it < 8; ++it) {
      const Eigen::VectorXd a = acceleration(e);
      if (a.lpNorm<Eigen::Infinity>() < 1e-12) break;
      Eigen::MatrixXd jac(9, 2);
      for (int i = 0; i < 2; ++i) {
        const Eigen::Vector2d d = step * Eigen::Vector2d::Unit(i);
        jac.col(i) = (acceleration(e + d) - acceleration(e - d)) / (2.0 * step);
      }
      e -= jac.colPivHouseholderQr().solve(a);
    }
    s.q0 = place(e);
  }

  // Velocities: joints (and the driver), the crank's rate, the journal rolling (ġ = v_τ = 0).
  const Eigen::Index mrows = m.constraintCount();
  const bool with_rate = z.drive != ZhengSliderCrank::Drive::kRheonomic;
  const Eigen::Index extra = (z.ideal ? 0 : 2) + (with_rate ? 1 : 0);
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(mrows + extra, 9);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(mrows + extra);
  Eigen::MatrixXd d(mrows, 9);
  m.jacobian(0.0, s.q0, d);
  a.topRows(mrows) = d;
  Eigen::VectorXd phi_t(mrows);
  m.constraintTimeDerivative(0.0, s.q0, phi_t);
  rhs.head(mrows) = -phi_t;
  Eigen::Index row = mrows;
  if (!z.ideal) {
    dynamics::ContactKinematics k;
    dynamics::evaluateContacts(m, s.contacts, 0.0, s.q0, Eigen::VectorXd::Zero(9), k);
    a.middleRows(row, 2) = k.jacobian.topRows(2);
    row += 2;
  }
  if (with_rate) {
    a(row, 2) = 1.0;
    rhs(row) = z.theta1_rate;
  }
  s.v0 = a.colPivHouseholderQr().solve(rhs);
  return s;
}

Eigen::VectorXd zhengDrivingTorque(const dynamics::RigidScenario& s, const dynamics::RunResult& run,
                                   double baumgarte) {
  const auto& joints = s.model.joints();
  Eigen::Index row = -1;
  for (const auto& j : joints)
    if (j.type == dynamics::JointType::kRheonomicDriver) row = j.row;
  if (row < 0) throw std::invalid_argument("zhengDrivingTorque: the scenario has no rheonomic driver");
  const Eigen::Index nq = s.model.positionSize(), nc = Eigen::Index(s.contacts.size());
  if (run.history.cols() != 1 + 2 * nq + 2 * nc)
    throw std::invalid_argument("zhengDrivingTorque: the history does not belong to this scenario");
  dynamics::ConstrainedResponse response(s.model, baumgarte, baumgarte);
  dynamics::ContactKinematics k;
  Eigen::VectorXd torque(run.history.rows()), lambda(s.model.constraintCount()), force(nq);
  for (Eigen::Index i = 0; i < run.history.rows(); ++i) {
    const double t = run.history(i, 0);
    const Eigen::VectorXd q = run.history.row(i).segment(1, nq).transpose();
    const Eigen::VectorXd v = run.history.row(i).segment(1 + nq, nq).transpose();
    dynamics::evaluateContacts(s.model, s.contacts, t, q, v, k);
    force.setZero();
    for (Eigen::Index c = 0; c < nc; ++c)
      force += run.history(i, 1 + 2 * nq + 2 * c) * k.jacobian.row(2 * c).transpose() +
               run.history(i, 2 + 2 * nq + 2 * c) * k.jacobian.row(2 * c + 1).transpose();
    if (!response.update(t, q, v)) throw std::invalid_argument("zhengDrivingTorque: " + response.message());
    response.multipliers(force, lambda);
    torque(i) = -lambda(row);
  }
  return torque;
}

}  // namespace stickslip::mechanisms
