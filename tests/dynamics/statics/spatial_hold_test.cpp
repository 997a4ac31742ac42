// analyseHold on spatial joints' friction (dynamics/statics/hold.hpp) against closed forms: a
// pendulum held by its pin's friction iff l sin φ ≤ μs r, and a slider loaded off its axis that
// jams iff ℓ ≤ 2 μs e (the drawer); and each joint's load terms against the reaction the routes
// compute from the same multipliers.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/statics/hold.hpp"
#include "standard_gravity.hpp"

using namespace stickslip::dynamics;
using Eigen::VectorXd;

namespace {

using stickslip::test::kG;

/// A bob of 0.4 kg on a pin along y at the origin, l from it, at φ from the vertical.
struct Pendulum {
  SpatialModel model;
  VectorXd q0 = VectorXd(7);
  SpatialJointFriction pin;
  Pendulum(double l, double phi, double r, double mu_s) {
    model.setGravity({0, 0, -kG});
    const BodyIndex b = model.addBody("bob", 0.4, Eigen::Matrix3d(Eigen::Vector3d(2e-4, 2e-4, 1e-4).asDiagonal()));
    q0 << l * std::sin(phi), 0, -l * std::cos(phi), 1, 0, 0, 0;
    model.addRevolute(kGround, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY(), b,
                      {-l * std::sin(phi), 0, l * std::cos(phi)}, Eigen::Vector3d::UnitY());
    pin.name = "pin";
    pin.mu_static = mu_s;
    pin.mu_kinetic = 0.5 * mu_s;
    pin.radius = r;
  }
};

/// A slider of 0.5 kg on a guide along z whose centroid hangs e from the slider's centre.
struct Drawer {
  SpatialModel model;
  VectorXd q0 = VectorXd(7);
  SpatialJointFriction guide;
  Drawer(double e, double length, double mu_s) {
    model.setGravity({0, 0, -kG});
    const BodyIndex b = model.addBody("slider", 0.5, Eigen::Matrix3d(Eigen::Vector3d(1e-4, 1e-4, 1e-4).asDiagonal()));
    q0 << e, 0, 0, 1, 0, 0, 0;
    model.addTranslational(kGround, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), b, {-e, 0, 0}, q0);
    guide.name = "guide";
    guide.joint = 0;
    guide.mu_static = mu_s;
    guide.mu_kinetic = 0.5 * mu_s;
    guide.slider_length = length;
  }
};

}  // namespace

TEST_CASE("spatial hold: a pendulum held by its pin's friction needs mu_s = l sin(phi) / r", "[hold][spatial]") {
  const double l = 0.1, r = 0.02;
  for (double phi : {0.05, 0.07, 0.3}) {
    INFO("phi " << phi);
    Pendulum p(l, phi, r, 0.3);
    const SpatialMechanism m(p.model, p.q0, {p.pin});
    const HoldResult h = analyseHold(m, p.q0);
    REQUIRE(h.elements.size() == 1);
    CHECK(h.exact);
    CHECK(h.cross_check_ok);
    CHECK(h.holds == (l * std::sin(phi) <= 0.3 * r));
    CHECK(h.elements[0].critical_mu == Approx(l * std::sin(phi) / r).epsilon(1e-10));
    if (h.holds) {
      CHECK(h.elements[0].normal == Approx(0.4 * kG).epsilon(1e-10));  // the pin carries the weight
      CHECK(std::abs(h.elements[0].friction) == Approx(0.4 * kG * l * std::sin(phi)).epsilon(1e-10));
    }
  }
}

TEST_CASE("spatial hold: a slider loaded off its axis jams iff its length is at most 2 mu_s e", "[hold][spatial]") {
  const double length = 0.01;
  for (double e : {0.02, 0.03}) {
    INFO("e " << e);
    Drawer d(e, length, 0.2);
    const SpatialMechanism m(d.model, d.q0, {d.guide});
    const HoldResult h = analyseHold(m, d.q0);
    REQUIRE(h.elements.size() == 1);
    CHECK(h.cross_check_ok);
    CHECK(h.holds == (length <= 2 * 0.2 * e));
    CHECK(h.elements[0].critical_mu == Approx(length / (2 * e)).epsilon(1e-10));
    if (h.holds) CHECK(h.elements[0].normal == Approx(2 * 0.5 * kG * e / length).epsilon(1e-10));
  }
  Drawer point(0.03, 0.0, 0.2);  // a point slider takes no couple: nothing holds it
  const SpatialMechanism m(point.model, point.q0, {point.guide});
  const HoldResult h = analyseHold(m, point.q0);
  CHECK_FALSE(h.holds);
  CHECK(std::isinf(h.elements[0].critical_mu));
}

TEST_CASE("spatial hold: each joint's load terms give the reaction the routes compute", "[hold][spatial]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-5.0, 5.0);
  Pendulum p(0.1, 0.2, 0.02, 0.3);
  Drawer d(0.03, 0.01, 0.2);
  const SpatialMechanism pendulum(p.model, p.q0, {p.pin}), drawer(d.model, d.q0, {d.guide});
  for (const SpatialMechanism* m : {&pendulum, &drawer}) {
    for (int trial = 0; trial < 20; ++trial) {
      const VectorXd lambda = VectorXd::NullaryExpr(m->constraintCount(), [&] { return u(rng); });
      const VectorXd forces = VectorXd::Zero(0);
      double load = 0.0;
      for (const JointLoadTerm& t : m->jointFrictionLoad(0)) load += t.weight * (t.lambda * lambda).norm();
      CHECK(load == Approx(m->jointFrictionReaction(0, lambda, forces)).epsilon(1e-14));
    }
  }
}
