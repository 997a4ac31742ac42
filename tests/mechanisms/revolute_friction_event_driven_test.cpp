// Friction in an ideal revolute joint, event-driven, against independent references: a wheel
// on a fixed axle (constant reaction: the closed-form Coulomb reference) and a pendulum whose
// pivot reaction depends on its motion (an RK4 integration of the 1-DoF equation with the
// friction torque solved by fixed point).
#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/coulomb_reference.hpp"
#include "standard_gravity.hpp"

using namespace stickslip;
using dynamics::EventKind;

namespace {

using stickslip::test::kG;

dynamics::RigidScenario pivoted(double mass, double inertia, const Eigen::Vector2d& centre_offset,
                                double mu_s, double mu_k, double radius) {
  dynamics::RigidScenario s;
  const auto body = s.model.addBody("body", mass, inertia);
  s.model.setGravity({0.0, -kG});
  // Pivot at the ground origin, at local point −centre_offset of the body.
  const int pin = s.model.addRevolute(dynamics::kGround, {0.0, 0.0}, body, -centre_offset, "pivot");
  s.joint_friction.push_back({"pivot friction", pin, radius, mu_s, mu_k});
  s.q0 = Eigen::Vector3d(centre_offset.x(), centre_offset.y(), 0.0);
  s.v0 = Eigen::VectorXd::Zero(3);
  return s;
}

}  // namespace

TEST_CASE("revolute friction: a torque-driven wheel on its axle matches the Coulomb reference",
          "[joint-friction][event-driven]") {
  const double m = 2.0, rho = 0.2, J = m * rho * rho / 2.0, r = 0.05, mu_s = 0.5, mu_k = 0.3;
  dynamics::RigidScenario s = pivoted(m, J, {0.0, 0.0}, mu_s, mu_k, r);
  s.model.addAppliedTorque(0, [](double t) { return 3.0 * std::sin(2.0 * t); });
  mechanisms::CoulombCoordinate c;
  c.mass = J;
  c.mu_static = mu_s;
  c.mu_kinetic = mu_k;
  c.force = [](double t) { return 3.0 * std::sin(2.0 * t); };
  c.force_integral = [](double t) { return 1.5 * (1.0 - std::cos(2.0 * t)); };
  c.normal = [=](double) { return r * m * kG; };  // the axle carries the weight only
  c.normal_integral = [=](double t) { return r * m * kG * t; };
  const auto reference = mechanisms::coulombReference(c, 8.0);
  REQUIRE(reference.size() >= 4);
  dynamics::EventDrivenOptions o;
  o.t_end = 8.0;
  const dynamics::RunResult run = dynamics::simulateEventDriven(s, o);
  INFO(run.message);
  REQUIRE(run.ok());
  REQUIRE(run.events.size() == reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    INFO("event " << i);
    CHECK(run.events[i].contact == 0);  // the first (only) joint friction, no contacts
    CHECK(std::abs(run.events[i].t - reference[i].first) < 1e-6);
    CHECK(std::string(dynamics::toString(run.events[i].kind)) == reference[i].second);
  }
  // History: t, q (3), v (3), |R|, T. While stuck, T balances the drive.
  const Eigen::MatrixXd& h = run.history;
  for (Eigen::Index i = 0; i < h.rows(); ++i) {
    CHECK(h(i, 7) == Approx(m * kG).epsilon(1e-9));
    if (h(i, 0) < reference[0].first - 1e-3) CHECK(h(i, 8) == Approx(-3.0 * std::sin(2.0 * h(i, 0))).margin(1e-9));
  }
}

namespace {

/// Pendulum (uniform bar of length L pivoted at one end) with pivot friction, by RK4 on
/// J_O φ̈ = −m g (L/2) cos φ + T(φ̈), T = −s μk r |R|, R = m a_G − m g, with s the sign of φ̇:
/// the times at which φ̇ changes sign (each located by bisecting the step length, so that no
/// step crosses the friction jump), and whether it then sticks (|m g L/2 cos φ| ≤ μs r m g).
std::vector<std::pair<double, std::string>> pendulumReference(double m, double L, double phi0,
                                                              double mu_s, double mu_k, double r,
                                                              double t_end) {
  const double l = L / 2, Jo = m * L * L / 3;
  auto accel = [&](double phi, double w, double s) {
    double a = -m * kG * l * std::cos(phi) / Jo;
    for (int i = 0; i < 200; ++i) {
      const Eigen::Vector2d er(std::cos(phi), std::sin(phi)), et(-std::sin(phi), std::cos(phi));
      const Eigen::Vector2d R = m * (l * (a * et - w * w * er)) - m * Eigen::Vector2d(0.0, -kG);
      const double next = (-m * kG * l * std::cos(phi) - s * mu_k * r * R.norm()) / Jo;
      if (std::abs(next - a) < 1e-15) break;
      a = next;
    }
    return a;
  };
  auto rk4 = [&](double phi, double w, double s, double h) {
    const double k1p = w, k1w = accel(phi, w, s);
    const double k2p = w + 0.5 * h * k1w, k2w = accel(phi + 0.5 * h * k1p, w + 0.5 * h * k1w, s);
    const double k3p = w + 0.5 * h * k2w, k3w = accel(phi + 0.5 * h * k2p, w + 0.5 * h * k2w, s);
    const double k4p = w + h * k3w, k4w = accel(phi + h * k3p, w + h * k3w, s);
    return std::make_pair(phi + h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p),
                          w + h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w));
  };
  std::vector<std::pair<double, std::string>> events;
  double t = 0.0, phi = phi0, w = 0.0;
  // Released at rest outside the static range: it starts to swing down (φ̇ > 0).
  double s = std::cos(phi0) < 0.0 ? 1.0 : -1.0;
  const double h = 1e-4;
  while (t < t_end) {
    auto [phi1, w1] = rk4(phi, w, s, h);
    if (s * w1 < 0.0) {
      double lo = 0.0, hi = h;  // s φ̇(δ) > 0 at lo, < 0 at hi
      while (hi - lo > 1e-14) {
        const double mid = 0.5 * (lo + hi);
        (s * rk4(phi, w, s, mid).second > 0.0 ? lo : hi) = mid;
      }
      t += lo;
      phi = rk4(phi, w, s, lo).first;
      w = 0.0;
      if (std::abs(m * kG * l * std::cos(phi)) <= mu_s * r * m * kG) {
        events.emplace_back(t, "stick");
        return events;
      }
      s = -s;
      events.emplace_back(t, s > 0 ? "slip+" : "slip-");
      continue;
    }
    t += h;
    phi = phi1;
    w = w1;
  }
  return events;
}

}  // namespace

TEST_CASE("revolute friction: a pendulum at rest where l sin phi = mu_s r stays, whatever its mass (1e-12 to 1e12 kg)",
          "[joint-friction][event-driven]") {
  // At rest the pin carries R = m g and the torque m g l sin φ, exactly μs r R: the sticking
  // torque sits at its limit to round-off and to the integrator's drift, and stick is exact.
  for (const double mass : {1e-12, 1e-3, 1.0, 50.0, 1e12})
    for (const double phi : {0.05, 0.3, 1.2}) {
      const double l = 0.25, r = 0.05, mu_s = l * std::sin(phi) / r;
      const dynamics::RigidScenario s =
          pivoted(mass, mass * l * l / 3.0, l * Eigen::Vector2d(std::sin(phi), -std::cos(phi)), mu_s, 0.5 * mu_s, r);
      dynamics::EventDrivenOptions o;
      o.t_end = 20.0;
      const dynamics::RunResult run = dynamics::simulateEventDriven(s, o);
      INFO("m = " << mass << " kg, phi = " << phi << " rad: " << run.message);
      REQUIRE(run.ok());
      CHECK(run.events.empty());
      CHECK(std::abs(run.final_q(2)) < 1e-9);
    }
}

TEST_CASE("revolute friction: a pendulum swings down to a stop as the 1-DoF reference",
          "[joint-friction][event-driven]") {
  const double m = 1.0, L = 0.5, phi0 = -M_PI / 2 + 1.0, mu_s = 0.5, mu_k = 0.4, r = 0.05;
  const auto reference = pendulumReference(m, L, phi0, mu_s, mu_k, r, 6.0);
  REQUIRE(reference.size() >= 4);
  REQUIRE(reference.back().second == "stick");
  const Eigen::Vector2d centre = 0.5 * L * Eigen::Vector2d(std::cos(phi0), std::sin(phi0));
  dynamics::RigidScenario s = pivoted(m, m * L * L / 12, centre, mu_s, mu_k, r);
  s.q0(2) = 0.0;  // the body frame is the bar at φ0; its pivot point is −centre in it
  dynamics::EventDrivenOptions o;
  o.t_end = 6.0;
  const dynamics::RunResult run = dynamics::simulateEventDriven(s, o);
  INFO(run.message);
  REQUIRE(run.ok());
  REQUIRE(run.events.size() == reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    INFO("event " << i << " at " << run.events[i].t);
    CHECK(std::abs(run.events[i].t - reference[i].first) < 1e-6);
    CHECK(std::string(dynamics::toString(run.events[i].kind)) == reference[i].second);
  }
  // It stays where it stopped.
  CHECK(run.final_v.norm() < 1e-9);
}

TEST_CASE("event-driven: a crank stuck at a dead centre runs on (bilateral force at round-off, "
          "events on sample times)", "[joint-friction][event-driven]") {
  mechanisms::Blajer2 b;
  b.pin_in_slot = false;
  b.frictional = {true, false, false, false};  // friction in O only
  b.torque_amplitude = 8.0;
  b.torque_frequency = 2.0;
  const dynamics::RigidScenario s = mechanisms::blajer2Rigid(b);
  dynamics::EventDrivenOptions o;
  o.t_end = 10.0;
  o.output_dt = 1e-2;
  const dynamics::RunResult run = dynamics::simulateEventDriven(s, o);
  INFO(run.message);
  CHECK(run.ok());
  CHECK(run.t_end == Approx(10.0));
  CHECK(run.events.size() >= 4);
}
