#include "mechanisms/blajer.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "dynamics/minimal_form_route.hpp"
#include "mechanisms/builtin_models.hpp"

namespace stickslip::mechanisms {
namespace {

using dynamics::kGround;
using dynamics::PlanarModel;

void checkCommon(const char* who, std::initializer_list<double> positive, double mu_ts, double mu_tk,
                 double mu_rs, double mu_rk, double d) {
  std::ostringstream os;
  for (const double v : positive)
    if (!(v > 0.0) || !std::isfinite(v)) os << "masses and lengths > 0, got " << v;
  if (os.str().empty() && (!(mu_tk >= 0.0) || !(mu_ts >= mu_tk) || !(mu_rk >= 0.0) || !(mu_rs >= mu_rk)))
    os << "0 <= mu_k <= mu_s, got mu_t " << mu_ts << "/" << mu_tk << ", mu_r " << mu_rs << "/" << mu_rk;
  if (os.str().empty() && !(d > 0.0)) os << "d > 0, got " << d;
  if (!os.str().empty()) throw std::invalid_argument(std::string(who) + ": expected " + os.str());
}

dynamics::RevoluteFriction revoluteRigid(std::string name, int joint, double d, double mus, double muk) {
  dynamics::RevoluteFriction f;
  f.name = std::move(name);
  f.joint = joint;
  f.radius = d;
  f.mu_static = mus;
  f.mu_kinetic = muk;
  return f;
}

// Guess for a crank–coupler chain: crank angle t1, coupler angle t2, link centres.
Eigen::VectorXd chainGuess(double a1, double a2, double t1, double t2, const Eigen::Vector3d& third) {
  Eigen::VectorXd q(9);
  const Eigen::Vector2d A(2 * a1 * std::cos(t1), 2 * a1 * std::sin(t1));
  q << a1 * std::cos(t1), a1 * std::sin(t1), t1, A.x() + a2 * std::cos(t2), A.y() + a2 * std::sin(t2), t2,
      third;
  return q;
}

struct Blajer2Bodies {
  dynamics::BodyIndex crank, rod, slider = kGround;
  int O, A, B;
};

Blajer2Bodies blajer2Common(const Blajer2& b, PlanarModel& model) {
  Blajer2Bodies k;
  k.crank = model.addBody("crank", b.m1, b.m1 * b.a1 * b.a1 / 3.0);
  k.rod = model.addBody("rod", b.m2, b.m2 * b.a2 * b.a2 / 3.0);
  if (!b.pin_in_slot) k.slider = model.addBody("slider", b.m3, b.m3 * 0.01);  // its rotation is held
  model.setGravity({b.g, 0.0});
  const double t0 = b.torque_amplitude, w = b.torque_frequency;
  model.addAppliedTorque(k.crank, [t0, w](double t) { return t0 * std::sin(w * t); });
  k.O = model.addRevolute(kGround, {0.0, 0.0}, k.crank, {-b.a1, 0.0}, "O");
  k.A = model.addRevolute(k.crank, {b.a1, 0.0}, k.rod, {-b.a2, 0.0}, "A");
  return k;
}

}  // namespace

void Blajer1::validate() const {
  checkCommon("Blajer1", {m1, m2, m3, a1, a2, a3}, mu_ts, mu_tk, mu_rs, mu_rk, d);
  if (!(2 * a2 > 2 * a3 + 2 * a1))
    throw std::invalid_argument("Blajer1: expected a2 > a1 + a3 so that the crank turns fully, got a1 = " +
                                std::to_string(a1) + ", a2 = " + std::to_string(a2) + ", a3 = " + std::to_string(a3));
}

void Blajer2::validate() const {
  checkCommon("Blajer2", {m1, m2, m3, a1, a2}, mu_ts, mu_tk, mu_rs, mu_rk, d);
  if (!(a2 > a1)) throw std::invalid_argument("Blajer2: expected a rod longer than the crank (a2 > a1)");
  if (!std::isfinite(torque_amplitude + torque_frequency))
    throw std::invalid_argument("Blajer2: expected a finite torque amplitude and frequency");
}

MinimalFormScenario blajer1MinimalForm(const Blajer1& b) { return dynamics::minimalFormModel(blajer1Rigid(b)); }

dynamics::RigidScenario blajer1Rigid(const Blajer1& b) {
  b.validate();
  const auto on = [](bool x) { return x ? 1.0 : 0.0; };
  dynamics::RigidScenario s = builtinModel(
      "blajer-1", {{"m1", b.m1}, {"m2", b.m2}, {"m3", b.m3}, {"a1", b.a1}, {"a2", b.a2}, {"a3", b.a3}, {"g", b.g},
                   {"mu_ts", b.mu_ts}, {"mu_tk", b.mu_tk}, {"mu_rs", b.mu_rs}, {"mu_rk", b.mu_rk}, {"d", b.d},
                   {"friction_O", on(b.frictional.O)}, {"friction_A", on(b.frictional.A)},
                   {"friction_B", on(b.frictional.B)}, {"friction_guide", on(b.frictional.guide)},
                   {"friction", on(b.friction)}, {"theta1", b.theta1}});
  if (b.torque) s.model.addAppliedTorque(0, b.torque);  // on link 1
  return s;
}

MinimalFormScenario blajer2MinimalForm(const Blajer2& b) {
  b.validate();
  return dynamics::minimalFormModel(blajer2Rigid(b));
}

dynamics::RigidScenario blajer2Rigid(const Blajer2& b) {
  b.validate();
  dynamics::RigidScenario s;
  s.name = "blajer-2";
  const Blajer2Bodies k = blajer2Common(b, s.model);
  if (b.frictional.O) s.joint_friction.push_back(revoluteRigid("O", k.O, b.d, b.mu_rs, b.mu_rk));
  if (b.frictional.A) s.joint_friction.push_back(revoluteRigid("A", k.A, b.d, b.mu_rs, b.mu_rk));
  // The slot along x: the rod's end B (Blajer's pin-in-slot joint, its pin turning with friction
  // under the slot's force), or the slider's centre, B the slider's revolute joint to the rod
  // and the slider's angle held (B before the guide: the guide then closes the loop, as Blajer
  // cuts it, m2 = 2 rows).
  dynamics::RigidContact guide;
  guide.name = "guide";
  guide.normal = dynamics::RigidContact::Normal::kBilateral;
  guide.body_j = kGround;
  if (b.pin_in_slot) {
    guide.body_i = k.rod;
    guide.geometry.point_on_i = {b.a2, 0.0};
    if (b.frictional.B) {
      dynamics::RevoluteFriction pin = revoluteRigid("B", 0, b.d, b.mu_rs, b.mu_rk);
      pin.slot = 0;
      s.joint_friction.push_back(pin);
    }
  } else {
    guide.body_i = k.slider;
    const int B = s.model.addRevolute(k.rod, {b.a2, 0.0}, k.slider, {0.0, 0.0}, "B");
    s.model.addAngle(kGround, k.slider, 0.0, "guide angle");
    if (b.frictional.B) s.joint_friction.push_back(revoluteRigid("B", B, b.d, b.mu_rs, b.mu_rk));
  }
  if (b.frictional.guide) {
    guide.mu_static = b.mu_ts;
    guide.mu_kinetic = b.mu_tk;
  }
  s.contacts.push_back(guide);
  const Eigen::VectorXd chain = chainGuess(b.a1, b.a2, 0.0, 0.0, Eigen::Vector3d(2 * (b.a1 + b.a2), 0.0, 0.0));
  s.q0 = b.pin_in_slot ? Eigen::VectorXd(chain.head(6)) : chain;
  s.v0 = Eigen::VectorXd::Zero(s.q0.size());
  return s;
}

MinimalFormScenario dupontMinimalForm(const Dupont& d) { return dynamics::minimalFormModel(dupontRigid(d)); }

}  // namespace stickslip::mechanisms
