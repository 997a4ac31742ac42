// The penalty route's equations on a mechanism (dynamics/routes/penalty/penalty_system.hpp): the contact forces
// are the mechanism's contact rows times the laws' forces, the ODE on [q; v; z; W], and impacts
// integrated by BDF and RK4.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/routes/penalty/penalty_system.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"

using namespace stickslip::dynamics;

namespace {

LankaraniNikraveshLaw lnLaw(double k, double ce) {
  LankaraniNikraveshLaw l;
  l.stiffness = k;
  l.restitution = ce;
  return l;
}

/// A compliant point (or disk) of body i on a line of body j.
RigidContact pointOnLine(std::string name, BodyIndex i, BodyIndex j, const PointLineContact& g, NormalLaw law) {
  RigidContact c;
  c.name = std::move(name);
  c.normal = RigidContact::Normal::kCompliant;
  c.body_i = i;
  c.body_j = j;
  c.geometry = g;
  c.compliant_law = std::move(law);
  return c;
}

}  // namespace

TEST_CASE("penalty system: the contact forces are J_n^T F_n + J_t^T F_t of the mechanism's rows, "
          "F_n the law's, none while open",
          "[dynamics][penalty]") {
  PlanarModel model;
  const BodyIndex a = model.addBody("a", 1.0, 0.1), b = model.addBody("b", 2.0, 0.2);
  RigidContact journal;
  journal.name = "journal";
  journal.normal = RigidContact::Normal::kCompliant;
  journal.shape = RigidContact::Shape::kJournalBearing;
  journal.body_i = a;
  journal.body_j = b;
  journal.journal_bearing.journal_centre_on_i = {0.02, -0.01};
  journal.journal_bearing.bearing_centre_on_j = {-0.03, 0.01};
  journal.journal_bearing.journal_radius = 0.01;
  journal.journal_bearing.bearing_radius = 0.0102;
  journal.compliant_law = lnLaw(1e10, 0.8);
  PointLineContact pl;
  pl.point_on_i = {0.05, 0.02};
  pl.line_point_on_j = {0.0, -0.1};
  pl.line_normal_on_j = {0.0, 1.0};
  const PlanarMechanism mechanism(
      model, {journal, pointOnLine("a-b", a, b, pl, HertzLaw{1e8, 1.5}),
              pointOnLine("a-ground", a, kGround, pl, HuntCrossleyLaw{{1e8, 1.5, 0.7}})});
  std::shared_ptr<const FrictionLaw> tanh_law = makeFrictionLaw("tanh"), lugre = makeFrictionLaw("lugre");
  PenaltySystem sys(mechanism, {tanh_law, lugre, nullptr});
  REQUIRE(sys.frictionStateSize() == 1);
  REQUIRE(sys.stateSize() == 14);  // q, v (6 each), one LuGre state, the friction work

  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int loaded[3] = {0, 0, 0};
  const auto& joint = journal.journal_bearing;
  Eigen::VectorXd forces(6), model_forces(6);
  std::vector<ContactForce> contact;
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
    sys.initialState(0.0, q, v);  // the statuses this state has: closed where δ > 0, δ̇⁽⁻⁾ = max(δ̇, 0)
    sys.evaluateContacts(0.0, q, v, z, contact);
    const ContactKinematics& kin = sys.kinematics();
    Eigen::VectorXd expected = Eigen::VectorXd::Zero(6);
    for (int k = 0; k < 3; ++k) {
      const ContactForce& e = contact[std::size_t(k)];
      CHECK(e.penetration == -kin.gap(k));
      if (e.penetration <= 0.0) {
        CHECK(e.normal_force == 0.0);
        CHECK(e.friction_force == 0.0);  // open: no load, no friction
        continue;
      }
      ++loaded[k];
      const NormalLaw& law = *mechanism.contacts()[std::size_t(k)].compliant_law;
      CHECK(e.normal_force == normalForce(law, e.penetration, e.penetration_rate, std::max(e.penetration_rate, 0.0)));
      expected += e.normal_force * kin.jacobian.row(2 * k).transpose() + e.friction_force * kin.jacobian.row(2 * k + 1).transpose();
      // ġ = J_n v against central differences of the gap along v.
      const double step = 1e-7;
      ContactKinematics plus, minus;
      mechanism.evaluateContacts(0.0, q + step * v, v, plus, false);
      mechanism.evaluateContacts(0.0, q - step * v, v, minus, false);
      CHECK(kin.jacobian.row(2 * k).dot(v) == Approx((plus.gap(k) - minus.gap(k)) / (2 * step)).margin(1e-6));
    }
    // The system's generalized forces are the mechanism's plus the contacts' (the states z of
    // the last derivative(): set them through one).
    Eigen::VectorXd y(14), ydot(14);
    y << q, v, z, 0.0;
    REQUIRE(sys.derivative(0.0, y, ydot) == EomStatus::kSuccess);
    sys.evaluateContacts(0.0, q, v, z, contact);
    Eigen::VectorXd with_contacts = Eigen::VectorXd::Zero(6);
    for (int k = 0; k < 3; ++k)
      with_contacts += contact[std::size_t(k)].normal_force * sys.kinematics().jacobian.row(2 * k).transpose() +
                       contact[std::size_t(k)].friction_force * sys.kinematics().jacobian.row(2 * k + 1).transpose();
    sys.generalizedForces(0.0, q, v, forces);
    model.generalizedForces(0.0, q, v, model_forces);
    CHECK((forces - model_forces - with_contacts).lpNorm<Eigen::Infinity>() <= 1e-9 * std::max(1.0, with_contacts.norm()));
  }
  CHECK(loaded[0] > 20);  // the journal contact was loaded in a fair share of the trials
}

TEST_CASE("penalty system: ẏ = [v — M⁻¹(Q + Jᵀ F) — ż — Ẇ] on a free body, with a dynamic law's state",
          "[dynamics][penalty]") {
  PlanarModel model;
  const BodyIndex block = model.addBody("block", 2.0, 0.05);
  model.setGravity({0.0, -9.81});
  PointLineContact pl;
  pl.point_on_i = {0.0, -0.05};
  std::shared_ptr<const FrictionLaw> lugre = makeFrictionLaw("lugre");
  const PlanarMechanism mechanism(model, {pointOnLine("floor", block, kGround, pl, HertzLaw{1e7, 1.5})});
  PenaltySystem sys(mechanism, {lugre});
  Eigen::VectorXd q(3), v(3);
  q << 0.1, 0.05 - 1e-5, 0.0;  // 10 µm penetration
  v << 0.02, -0.01, 0.3;
  Eigen::VectorXd y = sys.initialState(0.0, q, v);
  REQUIRE(y.size() == 8);  // q, v, z, W
  CHECK(y(7) == 0.0);
  y(6) = 2e-7;
  Eigen::VectorXd ydot(8);
  REQUIRE(sys.derivative(0.0, y, ydot) == EomStatus::kSuccess);
  std::vector<ContactForce> contact;
  sys.evaluateContacts(0.0, q, v, y.segment(6, 1), contact);
  const ContactForce& e = contact[0];
  CHECK(e.normal_force == Approx(1e7 * std::pow(1e-5, 1.5)));
  CHECK(ydot.head(3) == v);
  const Eigen::Vector3d contact_force = e.normal_force * sys.kinematics().jacobian.row(0).transpose() +
                                        e.friction_force * sys.kinematics().jacobian.row(1).transpose();
  const Eigen::Vector3d expected_vdot =
      (Eigen::Vector3d(0.0, -2.0 * 9.81, 0.0) + contact_force).cwiseQuotient(Eigen::Vector3d(2.0, 2.0, 0.05));
  CHECK((ydot.segment(3, 3) - expected_vdot).lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(contact_force(1) == Approx(e.normal_force));  // the floor pushes up
  double rate = 0.0;
  const double zs = y(6);
  lugre->stateRate({e.tangential_velocity, e.normal_force, 0.0}, std::span<const double>(&zs, 1),
                   std::span<double>(&rate, 1));
  CHECK(ydot(6) == Approx(rate));
  CHECK(ydot(7) == Approx(-e.friction_force * e.tangential_velocity));  // the work friction dissipates
  // Contract violations throw.
  CHECK_THROWS_AS(sys.derivative(0.0, y.head(7), ydot.head(7)), std::invalid_argument);
  CHECK_THROWS_AS(PenaltySystem(mechanism, {}), std::invalid_argument);  // a law (or none) per contact
  RigidContact rigid = mechanism.contacts()[0];
  rigid.normal = RigidContact::Normal::kUnilateral;
  const PlanarMechanism unilateral(model, {rigid});
  CHECK_THROWS_WITH(PenaltySystem(unilateral, {nullptr}), Catch::Contains("rigid unilateral"));
  PenaltyIntegrationOptions bad;
  bad.dt = 0.0;
  CHECK_THROWS_AS(simulatePenalty(sys, y, bad), std::invalid_argument);
}

TEST_CASE("penalty system: a pendulum with a joint hits a wall — cₑ², energy, BDF = RK4", "[dynamics][penalty]") {
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
  const PlanarMechanism mechanism(model, {pointOnLine("wall", rod, kGround, wall, lnLaw(1e9, ce))});
  PenaltySystem sys(mechanism, {nullptr});
  Eigen::VectorXd q(3), v(3);
  const double w = 2.0;
  q << 0.0, -L / 2, 0.0;   // hanging straight down, tip at (0, −L)
  v << w * L / 2, 0.0, w;  // ṙ = ω × r: θ̇ = ω moves the tip to +x
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
  for (Eigen::Index i = 1; i < bdf.history.rows(); ++i) CHECK(bdf.history(i, ec) <= bdf.history(i - 1, ec) + 1e-9);
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

TEST_CASE("penalty system: energyRate is the rate of E + W along ẏ, and RK4's energy account flags a step too "
          "large for a driven block",
          "[dynamics][penalty]") {
  // A block on a stiff Lankarani–Nikravesh floor, tied to the ground by a spring-damper, pushed
  // along the floor by 5 sin t N: driven, so the passive energy guard does not apply.
  PlanarModel model;
  const BodyIndex block = model.addBody("block", 2.0, 0.05);
  model.setGravity({0.0, -9.81});
  model.addSpringDamper(kGround, {-0.5, 0.05}, block, {0.0, 0.0}, 40.0, 0.3, 0.4);
  model.addAppliedForce(block, {0.0, 0.0}, [](double t) { return Eigen::Vector2d(5.0 * std::sin(t), 0.0); });
  PointLineContact pl;
  pl.point_on_i = {0.0, -0.05};
  const PlanarMechanism mechanism(model, {pointOnLine("floor", block, kGround, pl, lnLaw(1e9, 0.8))});
  PenaltySystem sys(mechanism, {makeFrictionLaw("linear")});
  Eigen::VectorXd q(3), v(3);
  q << 0.1, 0.05 - 1e-5, 0.2;  // 10 µm into the floor
  v << 0.3, -0.02, 0.5;
  const Eigen::VectorXd y = sys.initialState(0.0, q, v);
  Eigen::VectorXd ydot(y.size());
  REQUIRE(sys.derivative(0.7, y, ydot) == EomStatus::kSuccess);
  const double rate = sys.energyRate(y, ydot);
  const auto total = [&](const Eigen::VectorXd& x) { return sys.totalEnergy(x) + x(sys.workIndex()); };
  const double h = 1e-8;
  CHECK(rate == Approx((total(y + h * ydot) - total(y - h * ydot)) / (2.0 * h)).epsilon(1e-6));
  CHECK(std::abs(rate) > 0.1);  // the contact's damping and the spring's at work: not a trivial 0

  q(1) = 0.05;  // resting on the floor
  v.setZero();
  const Eigen::VectorXd y0 = sys.initialState(0.0, q, v);
  PenaltyIntegrationOptions o;
  o.integrator = PenaltyIntegrationOptions::Integrator::kRk4;
  o.t_end = 0.5;
  o.output_dt = 1e-3;
  o.dt = 1e-5;
  const PenaltyRun fine = simulatePenalty(sys, y0, o);
  CHECK(fine.status == PenaltyStatus::kSuccess);
  CHECK(std::abs(fine.energy_created) < 1e-6 * fine.energy_flowed);  // 5e-8 of it
  CHECK(fine.energy_flowed > 0.1);
  o.dt = 2e-3;  // beyond the contact's period, ~1 ms: 6031 J created
  const PenaltyRun coarse = simulatePenalty(sys, y0, o);
  REQUIRE(coarse.status == PenaltyStatus::kEnergyIncrease);
  CHECK(coarse.energy_created > 0.3 * coarse.energy_flowed);
  CHECK_THAT(coarse.message, Catch::Contains("RK4 created") && Catch::Contains("dt = 0.002 s is too large"));
}
