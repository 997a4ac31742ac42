// The penalty route over a mechanism (dynamics/routes/penalty/penalty_route.hpp): model files run by it as by
// the nonsmooth routes, and it is checked against closed forms, the belt's own penalty ODE and
// the event-driven answer it tightens to.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/penalty/penalty_route.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/model_examples.hpp"

using namespace stickslip;

namespace {

using stickslip::test::kExamples;

/// Column `col` of a history at time t, linearly interpolated (rows sorted by time).
double at(const Eigen::MatrixXd& h, Eigen::Index col, double t) {
  Eigen::Index i = 1;
  while (i + 1 < h.rows() && h(i, 0) < t) ++i;
  const double a = (t - h(i - 1, 0)) / (h(i, 0) - h(i - 1, 0));
  return h(i - 1, col) + a * (h(i, col) - h(i - 1, col));
}

dynamics::RunResult penalty(const dynamics::RigidScenario& s, const std::string& law, double t_end,
                               double tolerance_velocity = 1e-3, double relative_tolerance = 1e-8) {
  dynamics::PenaltyRouteOptions o;
  o.integration.relative_tolerance = relative_tolerance;
  o.friction_law = law;
  o.friction_parameters.tolerance_velocity = tolerance_velocity;
  o.integration.t_end = t_end;
  o.integration.output_dt = 1e-3;
  return dynamics::simulatePenaltyRoute(s, o);
}

/// A uniform disk of radius 0.1 m and 2 kg resting on the floor, sliding at 2 m/s without
/// spin, μ = 0.3, and `extra` lines under `model:`.
std::string slidingDisk(const std::string& friction_line) {
  return "model:\n"
         "  gravity: [0, -9.81]\n"
         "  bodies:\n"
         "    - {name: disk, mass: 2, inertia: 0.01, position: [0, 0.1, 0], velocity: [2, 0, 0]}\n"
         "  contacts:\n"
         "    - {type: point_line, name: floor, body_i: disk, radius: 0.1, " + friction_line + "}\n";
}

}  // namespace

TEST_CASE("penalty route: a disk sliding on the floor rolls from t* = v0/(3 mu g) at 2 v0/3",
          "[penalty-route]") {
  // Closed form (uniform disk, J = m ρ²/2): ẋ = v0 − μ g t, ω = −2 μ g t / ρ until
  // ẋ + ρ ω = 0 at t* = v0/(3 μ g) = 0.2265 s, then rolling at 2 v0/3. The disk's contact
  // point, its radius in the Jacobian and the tangent's sign are all in this.
  const auto s = mechanisms::loadPlanarModelText(slidingDisk("mu: 0.3"), "disk.yaml");
  const double v0 = 2.0, mu = 0.3, g = 9.81, rho = 0.1, t_star = v0 / (3 * mu * g);
  const dynamics::RunResult r = penalty(s, "linear", 0.5, 1e-5);
  REQUIRE(r.ok());
  // Columns: t, (x, y, θ), (ẋ, ẏ, ω), N, F.
  const double t = 0.5 * t_star;
  CHECK(at(r.history, 4, t) == Approx(v0 - mu * g * t).epsilon(1e-4));
  CHECK(at(r.history, 6, t) == Approx(-2 * mu * g * t / rho).epsilon(1e-4));
  CHECK(at(r.history, 7, t) == Approx(2 * g).epsilon(1e-4));       // N = m g
  CHECK(at(r.history, 8, t) == Approx(-mu * 2 * g).epsilon(1e-4));  // F = −μ N, against ẋ > 0
  CHECK(r.final_v(0) == Approx(2 * v0 / 3).epsilon(1e-4));
  CHECK(r.final_v(0) + rho * r.final_v(2) == Approx(0.0).margin(2e-5));  // rolls, creeping < v0 tol
  // The event-driven route: the same instants and velocities exactly.
  dynamics::EventDrivenOptions o;
  o.t_end = 0.5;
  const dynamics::RunResult e = dynamics::simulateEventDriven(s, o);
  REQUIRE(e.ok());
  REQUIRE(!e.events.empty());
  CHECK(e.events.front().t == Approx(t_star).epsilon(1e-8));
  CHECK(std::abs(r.final_q(0) - e.final_q(0)) < 1e-4);
}

TEST_CASE("penalty route: the belt model file follows the belt's own penalty ODE",
          "[penalty-route]") {
  // belt.yaml (a block on a moving surface, spring as a force expression, compliant default
  // contact) against mechanisms::simulateBeltPenalty (x, ẋ only; N = m g exactly), same
  // law: the surface speed's sign, the tangent convention and the compliant N ≈ m g.
  const auto s = mechanisms::loadPlanarModelFile(kExamples + "/belt.yaml");
  const mechanisms::Belt belt;
  dynamics::FrictionParameters p;
  p.mu_s = belt.mu_static;
  p.mu_k = belt.mu_kinetic;
  const auto law = dynamics::makeFrictionLaw("tanh", p);
  mechanisms::PenaltyOptions bo;
  bo.integrator = mechanisms::PenaltyOptions::Integrator::kBdf;
  bo.t_end = 15.0;
  const mechanisms::PenaltyRun ref = mechanisms::simulateBeltPenalty(belt, *law, bo);
  REQUIRE(ref.ok);
  const dynamics::RunResult r = penalty(s, "tanh", 15.0);
  REQUIRE(r.ok());
  double worst = 0.0;
  for (double t = 0.5; t <= 15.0; t += 0.5) worst = std::max(worst, std::abs(at(r.history, 1, t) - at(ref.history, 1, t)));
  INFO("max |x_model - x_belt| = " << worst);
  CHECK(worst < 1e-4);  // measured 3.9e-5 m (the contact's compliance); the cycle spans 0.5 m
  // Friction column in the rigid routes' sign: the block lags the belt, F > 0 along +x.
  CHECK(at(r.history, 8, 8.0) == Approx(at(ref.history, 4, 8.0)).epsilon(1e-4));
}

TEST_CASE("penalty route: a law with discrete states is refused a variable-step integrator, by name",
          "[mechanisms][penalty]") {
  const auto s = mechanisms::loadPlanarModelFile(kExamples + "/belt.yaml");
  dynamics::PenaltyRouteOptions o;
  o.friction_law = "leuven";
  o.integration.t_end = 0.01;
  using Integrator = dynamics::PenaltyIntegrationOptions::Integrator;
  for (Integrator integrator : {Integrator::kBdf, Integrator::kAdams}) {
    o.integration.integrator = integrator;
    CHECK_THROWS_WITH(dynamics::simulatePenaltyRoute(s, o),
                      Catch::Contains("simulatePenalty: friction law 'leuven' switches discrete states between steps") &&
                          Catch::Contains("expected the RK4 integrator"));
  }
  o.integration.integrator = Integrator::kRk4;
  CHECK(dynamics::simulatePenaltyRoute(s, o).ok());
  // The belt's own ODE refuses it too.
  mechanisms::PenaltyOptions po;
  po.integrator = mechanisms::PenaltyOptions::Integrator::kBdf;
  CHECK_THROWS_WITH(mechanisms::simulateBeltPenalty({}, *dynamics::makeFrictionLaw("armstrong"), po),
                    Catch::Contains("simulateBeltPenalty: friction law 'armstrong' switches discrete states"));
}

TEST_CASE("penalty route: Karnopp-type laws hold with the applied force, as on the belt's own ODE",
          "[penalty-route][slow]") {
  // In the stick band karnopp, switch and awrejcewicz read the tangential force from the other
  // forces (the spring's, on the belt). Passed as 0 they would give no friction there and the
  // block would slide back from the start; the route computes it from the accelerations.
  const dynamics::RigidScenario s = mechanisms::beltRigid(mechanisms::Belt{});
  const mechanisms::Belt belt;
  for (const char* name : {"awrejcewicz", "karnopp"}) {
    dynamics::FrictionParameters p;
    p.mu_s = belt.mu_static;
    p.mu_k = belt.mu_kinetic;
    const auto law = dynamics::makeFrictionLaw(name, p);
    REQUIRE(law->usesAppliedForce());
    mechanisms::PenaltyOptions bo;  // RK4 at 1e-5 s for both (karnopp jumps)
    bo.dt = 1e-5;
    bo.t_end = 8.0;
    const mechanisms::PenaltyRun ref = mechanisms::simulateBeltPenalty(belt, *law, bo);
    REQUIRE(ref.ok);
    dynamics::PenaltyRouteOptions o;
    o.friction_law = name;
    o.integration.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kRk4;
    o.integration.dt = 1e-5;
    o.integration.t_end = 8.0;
    o.integration.output_dt = 1e-3;
    const dynamics::RunResult r = dynamics::simulatePenaltyRoute(s, o);
    REQUIRE(r.ok());
    double worst = 0.0;
    for (double t = 0.5; t <= 8.0; t += 0.5) worst = std::max(worst, std::abs(at(r.history, 1, t) - at(ref.history, 1, t)));
    INFO(name << ": max |x_route - x_belt| = " << worst);
    CHECK(worst < 1e-6);  // measured 2.6e-9 m (the contact's compliance); the cycle spans 0.5 m
    // Held until the break-away near μs m g / (k v_b) = 7.3575 s, estimated from |v_t|.
    const auto changes = dynamics::modeChanges(r);
    REQUIRE(!changes.empty());
    CHECK(changes.front().second == "slip-");
    CHECK(changes.front().first == Approx(7.3575).margin(0.15));
    CHECK(r.initial_modes.at(0) == dynamics::ContactMode::kStick);
  }
  // A joint cannot take such a law: the route has no applied force there.
  const auto file = mechanisms::loadPlanarModelFile(kExamples + "/slider_crank.yaml");
  dynamics::PenaltyRouteOptions o;
  o.friction_law = "karnopp";
  o.integration.t_end = 0.01;
  REQUIRE(!file.joint_friction.empty());
  CHECK_THROWS_WITH(dynamics::simulatePenaltyRoute(file, o), Catch::Contains("applied force"));
}

TEST_CASE("penalty route: tightening the regularization converges to the event-driven answer",
          "[penalty-route]") {
  // incline.yaml with μs = μk (the linear law has one coefficient): x(t) of the linear law
  // with v0 = 1e-2, 1e-3, 1e-4 m/s against the exact stick-slip solution.
  const auto base = mechanisms::loadPlanarModelFile(kExamples + "/incline.yaml");
  dynamics::RigidScenario s = base;
  s.contacts[0].mu_static = s.contacts[0].mu_kinetic;
  dynamics::EventDrivenOptions o;
  o.t_end = 3.0;
  const dynamics::RunResult exact = dynamics::simulateEventDriven(s, o);
  REQUIRE(exact.ok());
  double previous = INFINITY;
  for (double v0 : {1e-2, 1e-3, 1e-4}) {
    const dynamics::RunResult r = penalty(s, "linear", 3.0, v0);
    REQUIRE(r.ok());
    double error = 0.0;
    for (double t = 0.05; t <= 3.0; t += 0.05) error = std::max(error, std::abs(at(r.history, 1, t) - at(exact.history, 1, t)));
    INFO("v0 = " << v0 << ": max |x - x_exact| = " << error);
    CHECK(error < previous / 5);
    previous = error;
  }
  CHECK(previous < 5e-4);
}

TEST_CASE("penalty route: friction in a revolute joint acts on the joint's reaction",
          "[penalty-route][joint-friction]") {
  // A rotor hinged at its centre under gravity: |R| = m g whatever it does. Driven by τ0 above
  // μk r m g, from ω0 = 1 rad/s, Coulomb slip gives ω = ω0 + (τ0 − μk r m g) t / J.
  const std::string rotor =
      "model:\n"
      "  gravity: [0, -9.81]\n"
      "  bodies:\n"
      "    - {name: rotor, mass: 2, inertia: 0.04, velocity: [0, 0, 1]}\n"
      "  joints:\n"
      "    - {type: revolute, name: axle, body_i: ground, body_j: rotor,\n"
      "       friction: {radius: 0.05, mu_static: 0.5, mu_kinetic: 0.3}}\n"
      "  forces:\n"
      "    - {type: torque, body: rotor, torque: 0.6}\n";
  const auto s = mechanisms::loadPlanarModelText(rotor, "rotor.yaml");
  const dynamics::RunResult r = penalty(s, "coulomb", 1.0);
  REQUIRE(r.ok());
  const double R = 2 * 9.81, T = -0.3 * 0.05 * R;
  CHECK(r.final_v(2) == Approx(1.0 + (0.6 + T) / 0.04).epsilon(1e-8));
  // Columns: t, q (3), v (3), then the joint's |R| and T.
  CHECK(r.history(r.history.rows() - 1, 7) == Approx(R).epsilon(1e-8));
  CHECK(r.history(r.history.rows() - 1, 8) == Approx(T).epsilon(1e-8));
}

TEST_CASE("penalty route: a pendulum slipping on a frictional pin follows the event-driven route",
          "[penalty-route][joint-friction]") {
  // A bar hinged at one end, spinning fast enough to slip for the whole run: its pin reaction
  // varies with θ and ω², and depends on the friction torque itself (the fixed point on |R|).
  // While it slips the Coulomb law is the set-valued one, so both routes solve the same ODE.
  const std::string bar =
      "model:\n"
      "  gravity: [0, -9.81]\n"
      "  bodies:\n"
      "    - {name: bar, mass: 1, inertia: 0.0208333333333, position: [0.25, 0, 0], velocity: [0, 2.5, 10]}\n"
      "  joints:\n"
      "    - {type: revolute, name: pin, body_i: ground, body_j: bar, point_j: [-0.25, 0],\n"
      "       friction: {radius: 0.05, mu_static: 0.4, mu_kinetic: 0.4}}\n";
  const auto s = mechanisms::loadPlanarModelText(bar, "bar.yaml");
  dynamics::EventDrivenOptions o;
  o.t_end = 0.5;
  const dynamics::RunResult e = dynamics::simulateEventDriven(s, o);
  REQUIRE(e.ok());
  REQUIRE(e.events.empty());  // slips throughout
  const dynamics::RunResult r = penalty(s, "coulomb", 0.5, 1e-3, 1e-11);
  REQUIRE(r.ok());
  CHECK(r.final_q(2) == Approx(e.final_q(2)).epsilon(1e-6));
  CHECK(r.final_v(2) == Approx(e.final_v(2)).epsilon(1e-6));
  // |R| and T agree where both sampled (the event-driven history has the same columns).
  CHECK(at(r.history, 7, 0.25) == Approx(at(e.history, 7, 0.25)).epsilon(1e-5));
  CHECK(at(r.history, 8, 0.25) == Approx(at(e.history, 8, 0.25)).epsilon(1e-5));
}

TEST_CASE("penalty route: a bilateral contact holds on either side, friction on |N|",
          "[penalty-route]") {
  // The disk in a guide, lifted by 30 N against gravity: the guide holds it down with
  // N = m g − 30 = −10.38 N, and friction decelerates it at μ |N| / m while it slides.
  const auto s = mechanisms::loadPlanarModelText(
      slidingDisk("normal: bilateral, mu: 0.3") +
          "  forces:\n    - {type: force, body: disk, fx: 0, fy: 30}\n",
      "disk.yaml");
  const double N = 2 * 9.81 - 30.0, a = -0.3 * std::abs(N) / 2;
  const dynamics::RunResult r = penalty(s, "linear", 0.2, 1e-5);
  REQUIRE(r.ok());
  CHECK(at(r.history, 7, 0.1) == Approx(N).epsilon(1e-4));
  CHECK(at(r.history, 4, 0.1) - 2.0 == Approx(a * 0.1 + 0.0).epsilon(2e-3));
  CHECK(std::abs(r.final_q(1) - 0.1) < 1e-6);  // the guide holds within its compliance
  dynamics::EventDrivenOptions o;
  o.t_end = 0.2;
  const dynamics::RunResult e = dynamics::simulateEventDriven(s, o);
  REQUIRE(e.ok());
  CHECK(e.final_v(0) == Approx(2.0 + a * 0.2).epsilon(1e-8));
  CHECK(r.final_v(0) == Approx(e.final_v(0)).epsilon(1e-4));
}

TEST_CASE("penalty route: a unilateral contact takes the compliant law written on it",
          "[penalty-route]") {
  // Linear (n = 1) Hunt–Crossley stiffness 1e6 N/m: the disk settles m g / K = 19.62 µm deep.
  const auto s = mechanisms::loadPlanarModelText(
      slidingDisk("mu: 0.3, compliant_law: {type: hunt_crossley, stiffness: 1e6, exponent: 1, "
                  "restitution: 0.2}"),
      "disk.yaml");
  REQUIRE(s.contacts[0].compliant_law);
  const dynamics::RunResult r = penalty(s, "linear", 1.0, 1e-5);
  REQUIRE(r.ok());
  CHECK(0.1 - r.final_q(1) == Approx(2 * 9.81 / 1e6).epsilon(1e-2));  // still settling: 0.12 % off
  // The default steel contact is far stiffer: the same disk sinks by less than a micrometre.
  dynamics::RigidScenario steel = s;
  steel.contacts[0].compliant_law.reset();
  CHECK(0.1 - penalty(steel, "linear", 1.0, 1e-5).final_q(1) < 1e-6);
  CHECK_THROWS_WITH(mechanisms::loadPlanarModelText(
                        slidingDisk("normal: bilateral, compliant_law: {type: hertz, stiffness: 1e6}"), "d.yaml"),
                    Catch::Contains("model.contacts[0].compliant_law: only for normal: compliant or unilateral"));
}
