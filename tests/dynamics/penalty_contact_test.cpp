// Penalty contacts on a PlanarModel (dynamics/penalty_contact.hpp): generalized forces against
// direct force computation, the ODE on [q; v; z], and impacts integrated by BDF and RK4.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/penalty_contact.hpp"

using namespace stickslip::dynamics;

namespace {

double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a.x() * b.y() - a.y() * b.x(); }

// Generalized force of a world force f at world point p on a body with centroid r: (f, (p − r) × f).
Eigen::Vector3d direct(const Eigen::Vector2d& f, const Eigen::Vector2d& p, const Eigen::Vector2d& r) {
  return {f.x(), f.y(), cross(p - r, f)};
}

LankaraniNikraveshLaw lnLaw(double k, double ce) {
  LankaraniNikraveshLaw l;
  l.stiffness = k;
  l.restitution = ce;
  return l;
}

}  // namespace

TEST_CASE("penalty contact: Jᵀ(Fₙ, Fₜ) equals the force and moment computed directly",
          "[dynamics][penalty]") {
  PlanarModel model;
  const BodyIndex a = model.addBody("a", 1.0, 0.1), b = model.addBody("b", 2.0, 0.2);
  JournalBearingJoint joint;
  joint.journal_centre_on_i = {0.02, -0.01};
  joint.bearing_centre_on_j = {-0.03, 0.01};
  joint.journal_radius = 0.01;
  joint.bearing_radius = 0.0102;
  PointLineContact pl;
  pl.point_on_i = {0.05, 0.02};
  pl.line_point_on_j = {0.0, -0.1};
  pl.line_normal_on_j = {0.0, 1.0};
  std::shared_ptr<const FrictionLaw> tanh_law = makeFrictionLaw("tanh");
  std::shared_ptr<const FrictionLaw> lugre = makeFrictionLaw("lugre");
  PenaltySystem sys(model,
                    {PenaltyContact::journalBearing(a, b, joint, lnLaw(1e10, 0.8), tanh_law),
                     PenaltyContact::pointOnLine(a, b, pl, HertzLaw{1e8, 1.5}, lugre),
                     PenaltyContact::pointOnLine(a, kGround, pl, HuntCrossleyLaw{{1e8, 1.5, 0.7}})});
  REQUIRE(sys.frictionStateSize() == 1);
  REQUIRE(sys.stateSize() == 14);  // q, v (6 each), one LuGre state, the friction work

  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int loaded[3] = {0, 0, 0};
  for (int trial = 0; trial < 200; ++trial) {
    Eigen::VectorXd q(6), v(6), z(1);
    // Body b near the origin; a placed so that the journal sits at an eccentricity near c.
    q << 0, 0, 0, 0, 0, 0.3 * u(rng);
    for (int i = 0; i < 6; ++i) v(i) = u(rng);
    q(2) = 0.3 * u(rng);
    const double ang = 3.2 * u(rng), ecc = joint.clearance() * (1.0 + 0.01 * u(rng));
    const Eigen::Rotation2Dd Ab(q(5)), Aa(q(2));
    const Eigen::Vector2d rb = Ab * joint.bearing_centre_on_j;
    const Eigen::Vector2d rj = rb + ecc * Eigen::Vector2d(std::cos(ang), std::sin(ang));
    q.head<2>() = rj - Aa * joint.journal_centre_on_i;
    z(0) = 1e-6 * u(rng);
    for (int k = 0; k < 3; ++k) {
      const Eigen::VectorXd zk = k == 1 ? z : Eigen::VectorXd(0);
      const ContactEvaluation e = sys.evaluateContact(k, 0.0, q, v, zk);
      if (e.normal_force > 0.0) ++loaded[k];
      Eigen::Matrix<double, 6, 1> expected;
      expected.head<3>() = direct(e.force_on_i, e.point_on_i, q.head<2>());
      expected.tail<3>() = k == 2 ? Eigen::Vector3d::Zero()
                                  : direct(-e.force_on_i, e.point_on_j, q.segment<2>(3));
      const double scale = std::max(1.0, e.force_on_i.norm());
      // Sums of products of O(1) lengths with forces: round-off ~1e-15 relative.
      CHECK((e.generalized_force - expected).lpNorm<Eigen::Infinity>() <= 1e-12 * scale);
      if (k == 0) CHECK(e.force_on_i.dot(e.normal) == Approx(-e.normal_force).margin(1e-12 * scale));
    }
  }
  CHECK(loaded[0] > 20);  // the journal contact was loaded in a fair share of the trials
}

TEST_CASE("penalty system: ẏ = [v — M⁻¹(Q + Jᵀ F) — ż] on a free body, with a dynamic law's state",
          "[dynamics][penalty]") {
  PlanarModel model;
  const BodyIndex block = model.addBody("block", 2.0, 0.05);
  model.setGravity({0.0, -9.81});
  PointLineContact pl;
  pl.point_on_i = {0.0, -0.05};
  std::shared_ptr<const FrictionLaw> lugre = makeFrictionLaw("lugre");
  PenaltySystem sys(model, {PenaltyContact::pointOnLine(block, kGround, pl, HertzLaw{1e7, 1.5}, lugre)});
  Eigen::VectorXd q(3), v(3);
  q << 0.1, 0.05 - 1e-5, 0.0;  // 10 µm penetration
  v << 0.02, -0.01, 0.3;
  Eigen::VectorXd y = sys.initialState(0.0, q, v);
  REQUIRE(y.size() == 8);  // q, v, z, W
  CHECK(y(7) == 0.0);
  y(6) = 2e-7;
  Eigen::VectorXd ydot(8);
  REQUIRE(sys.derivative(0.0, y, ydot) == EomStatus::kSuccess);
  const ContactEvaluation e = sys.evaluateContact(0, 0.0, q, v, y.segment(6, 1));
  CHECK(e.normal_force == Approx(1e7 * std::pow(1e-5, 1.5)));
  CHECK(ydot.head(3) == v);
  const Eigen::Vector3d expected_vdot =
      (Eigen::Vector3d(0.0, -2.0 * 9.81, 0.0) + e.generalized_force.head<3>()).cwiseQuotient(
          Eigen::Vector3d(2.0, 2.0, 0.05));
  CHECK((ydot.segment(3, 3) - expected_vdot).lpNorm<Eigen::Infinity>() < 1e-12);
  double rate = 0.0;
  const double zs = y(6);
  lugre->stateRate({e.tangential_velocity, e.normal_force, 0.0}, std::span<const double>(&zs, 1),
                   std::span<double>(&rate, 1));
  CHECK(ydot(6) == Approx(rate));
  CHECK(ydot(7) == Approx(-e.friction_force * e.tangential_velocity));  // the work friction dissipates
  // Contract violations throw.
  CHECK_THROWS_AS(sys.derivative(0.0, y.head(7), ydot.head(7)), std::invalid_argument);
  CHECK_THROWS_AS(PenaltySystem(model, {PenaltyContact::pointOnLine(3, kGround, pl, HertzLaw{1e7, 1.5})}),
                  std::invalid_argument);
  PenaltyIntegrationOptions bad;
  bad.dt = 0.0;
  CHECK_THROWS_AS(simulatePenalty(sys, y, bad), std::invalid_argument);
}

TEST_CASE("penalty system: a pendulum with a joint hits a wall — cₑ², energy, BDF = RK4",
          "[dynamics][penalty]") {
  // A rod (m = 1 kg, L = 0.5 m, J = mL²/12) pinned at its top end to the ground, swinging
  // without gravity at ω = 2 rad/s: its tip starts straight below the pin and hits the wall
  // x = 0.2 m. The pin is an ideal joint (EomSolver, Lagrange), the tip contact is LN.
  PlanarModel model;
  const double L = 0.5;
  const BodyIndex rod = model.addBody("rod", 1.0, L * L / 12.0);
  model.addRevolute(kGround, {0.0, 0.0}, rod, {0.0, L / 2});
  PointLineContact wall;
  wall.point_on_i = {0.0, -L / 2};
  wall.line_point_on_j = {0.2, 0.0};
  wall.line_normal_on_j = {-1.0, 0.0};
  const double ce = 0.9;
  PenaltySystem sys(model, {PenaltyContact::pointOnLine(rod, kGround, wall, lnLaw(1e9, ce))});
  Eigen::VectorXd q(3), v(3);
  const double w = 2.0;
  q << 0.0, -L / 2, 0.0;            // hanging straight down, tip at (0, −L)
  v << w * L / 2, 0.0, w;           // ṙ = ω × r: θ̇ = ω moves the tip to +x
  const Eigen::VectorXd y0 = sys.initialState(0.0, q, v);
  PenaltyIntegrationOptions o;
  o.t_end = 0.5;
  o.output_dt = 1e-3;
  const PenaltyRun bdf = simulatePenalty(sys, y0, o);
  REQUIRE(bdf.status == PenaltyStatus::kSuccess);
  REQUIRE(bdf.events.size() >= 2);
  CHECK(bdf.events[0].closing);
  CHECK_FALSE(bdf.events[1].closing);
  const double ratio = std::pow(bdf.events[1].penetration_rate / bdf.events[0].penetration_rate, 2);
  CHECK(ratio == Approx(ce * ce).epsilon(0.05));
  // The tip reaches the wall at angle asin(0.2/L) in time asin(0.4)/ω.
  CHECK(bdf.events[0].t == Approx(std::asin(0.2 / L) / w).epsilon(1e-6));
  const Eigen::Index ec = 1 + sys.stateSize() + 4;  // t, y, the contact's δ, v_t, Fₙ, Fₜ, then the energy
  for (Eigen::Index i = 1; i < bdf.history.rows(); ++i)
    CHECK(bdf.history(i, ec) <= bdf.history(i - 1, ec) + 1e-9);
  CHECK(bdf.history(bdf.history.rows() - 1, ec) == Approx(ce * ce * bdf.history(0, ec)).epsilon(0.05));

  o.integrator = PenaltyIntegrationOptions::Integrator::kRk4;
  o.dt = 2e-6;
  const PenaltyRun rk4 = simulatePenalty(sys, y0, o);
  REQUIRE(rk4.status == PenaltyStatus::kSuccess);
  REQUIRE(rk4.events.size() == bdf.events.size());
  CHECK(rk4.events[1].t == Approx(bdf.events[1].t).epsilon(1e-4));
  CHECK((rk4.final_state - bdf.final_state).lpNorm<Eigen::Infinity>() < 1e-4);
  CHECK(rk4.steps == 250000);
}
