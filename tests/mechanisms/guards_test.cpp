// Numerical faults stop a run with the time and the cause, keeping what was computed.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numbers>
#include <tuple>

#include "dynamics/eom_methods/eom_integration.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/routes/penalty/penalty_system.hpp"
#include "dynamics/model/planar_model.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/bouncing_ball.hpp"

using namespace stickslip;

TEST_CASE("guards: a force turning NaN stops both nonsmooth formulations at that time",
          "[guards][event-driven][moreau-jean]") {
  dynamics::RigidScenario s = mechanisms::beltRigid({});
  // A user force that breaks at t = 0.5 s.
  s.model.addGeneralizedForce([](double t, const Eigen::Ref<const Eigen::VectorXd>&,
                                 const Eigen::Ref<const Eigen::VectorXd>&,
                                 Eigen::Ref<Eigen::VectorXd> forces) {
    if (t > 0.5) forces(0) += std::numeric_limits<double>::quiet_NaN();
  });
  dynamics::MoreauJeanOptions mj;
  mj.t_end = 1.0;
  const dynamics::RunResult a = dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, mj);
  CHECK_FALSE(a.ok());
  CHECK_THAT(a.message, Catch::Contains("NaN"));
  CHECK(a.t_end == Approx(0.5).margin(2e-4));
  CHECK(a.final_q.allFinite());  // the last good state, not the broken one
  REQUIRE(a.history.rows() > 100);
  CHECK(a.history.allFinite());

  dynamics::EventDrivenOptions ed;
  ed.t_end = 1.0;
  const dynamics::RunResult b = dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, ed);
  CHECK_FALSE(b.ok());
  CHECK(b.t_end <= 0.5 + 1e-6);
  CHECK_THAT(b.message, Catch::Contains("non-finite") && Catch::Contains("t = 0.5"));
  CHECK(b.final_q.allFinite());
}

namespace {

// A slider-crank whose rod is as long as its crank, driven at ω from θ0: at θ1 = π/2 the rod
// folds onto the crank, the slider reaches the crank's pivot and the constraint Jacobian loses
// a rank (the branches x = 2 l cos θ1 and x = 0 cross). θ0 puts the fold at t = 0.1 s.
struct Folding {
  dynamics::PlanarModel model;
  Eigen::VectorXd q0 = Eigen::VectorXd(9), v0 = Eigen::VectorXd(9);
};

Folding foldingSliderCrank(double rod_length) {
  const double l = 0.1, w = 2.0 * std::numbers::pi, th = std::numbers::pi / 2 - w * 0.1;
  Folding f;
  auto& m = f.model;
  const auto crank = m.addBody("crank", 0.12, 1e-4), rod = m.addBody("rod", 0.5, 4e-3),
             slider = m.addBody("slider", 0.5, 1e-4);
  m.addRevolute(dynamics::kGround, {0.0, 0.0}, crank, {-l / 2, 0.0}, "ground-crank");
  m.addRevolute(crank, {l / 2, 0.0}, rod, {-rod_length / 2, 0.0}, "crank-rod");
  m.addRevolute(rod, {rod_length / 2, 0.0}, slider, {0.0, 0.0}, "rod-slider");
  m.addTranslational(dynamics::kGround, {0.0, 0.0}, {1.0, 0.0}, slider, {0.0, 0.0}, 0.0, "guide");
  m.addRheonomicDriver(
      dynamics::kGround, crank, [=](double t) { return th + w * t; }, [=](double) { return w; },
      [](double) { return 0.0; }, "motor");
  m.setGravity({0.0, -9.81});
  // Rod angle φ with l sin θ + L sin φ = 0 (the slider on the x-axis), on the branch x > 0.
  const double s = std::sin(th), c = std::cos(th), phi = -std::asin(l * s / rod_length);
  const double phid = -l * c * w / (rod_length * std::cos(phi));
  const Eigen::Vector2d tip(l * c, l * s), tip_v(-l * s * w, l * c * w);
  const Eigen::Vector2d e(std::cos(phi), std::sin(phi)), e_perp(-std::sin(phi), std::cos(phi));
  const Eigen::Vector2d rod_c = tip + rod_length / 2 * e, rod_v = tip_v + rod_length / 2 * phid * e_perp;
  const Eigen::Vector2d end = tip + rod_length * e, end_v = tip_v + rod_length * phid * e_perp;
  f.q0 << l / 2 * c, l / 2 * s, th, rod_c.x(), rod_c.y(), phi, end.x(), 0.0, 0.0;
  f.v0 << -l / 2 * s * w, l / 2 * c * w, w, rod_v.x(), rod_v.y(), phid, end_v.x(), 0.0, 0.0;
  return f;
}

}  // namespace

TEST_CASE("guards: a slider-crank folding at a dead centre stops the EOM solve, naming joints and time",
          "[guards][eom][penalty]") {
  Folding ok = foldingSliderCrank(0.15);  // a longer rod never folds: the control
  {
    dynamics::EomSolver solver(ok.model, dynamics::EomMethod::kLagrange);
    const auto r = dynamics::integrateRk4(solver, 0.0, 0.2, 1e-3, ok.q0, ok.v0);
    INFO(r.message);
    CHECK(r.ok());
  }
  Folding f = foldingSliderCrank(0.1);
  dynamics::EomSolver solver(f.model, dynamics::EomMethod::kLagrange);
  Eigen::VectorXd q = f.q0, v = f.v0;
  const auto r = dynamics::integrateRk4(solver, 0.0, 0.2, 1e-3, q, v);
  INFO(r.message);
  CHECK(r.status == dynamics::EomStatus::kSingular);
  CHECK(r.t == Approx(0.099).margin(1.5e-3));  // the last step before the fold
  CHECK_THAT(r.message, Catch::Contains("t = 0.1 s") && Catch::Contains("singular constraint Jacobian") &&
                            Catch::Contains("joint 'crank-rod'") && Catch::Contains("dead centre"));
  CHECK(q.allFinite());  // the last good state, not NaN
  CHECK(v.allFinite());

  // The penalty route runs the same EOM solver and says the same.
  const dynamics::PlanarMechanism penalty_mechanism(f.model, {});
  dynamics::PenaltySystem sys(penalty_mechanism, {});
  dynamics::PenaltyIntegrationOptions o;
  o.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kRk4;
  o.t_end = 0.2;
  o.dt = 1e-3;
  o.output_dt = 1e-3;
  const dynamics::PenaltyRun p = simulatePenalty(sys, sys.initialState(0.0, f.q0, f.v0), o);
  INFO(p.message);
  CHECK(p.status == dynamics::PenaltyStatus::kEomFailure);
  CHECK_THAT(p.message, Catch::Contains("t = 0.1 s") && Catch::Contains("joint 'crank-rod'"));
  CHECK(p.history.rows() > 50);  // the samples before the fold are kept
  CHECK(p.history.allFinite());

  // So does event-driven, without contacts. (Moreau-Jean evaluates D at t + θh, half a step
  // off the fold, where D has full rank: at h = 1 ms it passes the fold on the branch
  // x = 2 l cos θ1, to 2e-5 m at t = 0.2 s, which is right for the driven crank.)
  dynamics::EventDrivenOptions ed;
  ed.t_end = 0.2;
  const dynamics::RunResult b = dynamics::simulateEventDriven(dynamics::PlanarMechanism(f.model, {}), f.q0, f.v0, ed);
  INFO(b.message);
  CHECK_FALSE(b.ok());
  CHECK_THAT(b.message, Catch::Contains("rank-deficient") && Catch::Contains("joint 'crank-rod'"));
  CHECK(b.t_end == Approx(0.1).margin(2e-3));
  CHECK(b.final_q.allFinite());
}

namespace {

// A free body whose applied force turns into a 1 MHz oscillation at t = 0.5 s: an ODE
// integrator with a small step budget per output interval runs out of steps right there.
dynamics::PlanarModel shakenBody() {
  dynamics::PlanarModel m;
  const auto b = m.addBody("block", 1.0, 0.1);
  m.addAppliedForce(b, {0.0, 0.0}, [](double t) {
    return Eigen::Vector2d(0.0, t > 0.5 ? 1e3 * std::sin(1e6 * t) : 0.0);
  });
  return m;
}

}  // namespace

TEST_CASE("guards: CVODE out of steps stops event-driven and penalty runs with its flag and the time",
          "[guards][event-driven][penalty][cvode]") {
  const dynamics::PlanarModel m = shakenBody();
  const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(3), v0 = Eigen::VectorXd::Zero(3);
  dynamics::EventDrivenOptions ed;
  ed.t_end = 1.0;
  ed.max_steps = 200;
  const dynamics::RunResult a = dynamics::simulateEventDriven(dynamics::PlanarMechanism(m, {}), q0, v0, ed);
  INFO(a.message);
  CHECK_FALSE(a.ok());
  CHECK_THAT(a.message, Catch::Contains("integration failed at t = 0.5") &&
                            Catch::Contains("CV_TOO_MUCH_WORK"));
  CHECK(a.t_end == Approx(0.5).margin(1e-3));
  CHECK(a.history.rows() >= 500);  // the samples before the failure are kept
  CHECK(a.final_q.allFinite());

  const dynamics::PlanarMechanism penalty_mechanism(m, {});
  dynamics::PenaltySystem sys(penalty_mechanism, {});
  dynamics::PenaltyIntegrationOptions pe;
  pe.t_end = 1.0;
  pe.max_steps = 200;
  const dynamics::PenaltyRun b = simulatePenalty(sys, sys.initialState(0.0, q0, v0), pe);
  INFO(b.message);
  CHECK(b.status == dynamics::PenaltyStatus::kIntegratorFailure);
  CHECK_THAT(b.message, Catch::Contains("CV_TOO_MUCH_WORK") && Catch::Contains("t = 0.5"));
  CHECK(b.t == Approx(0.5).margin(1e-3));
  CHECK(b.history.rows() >= 5000);
  CHECK(b.final_state.allFinite());
}

TEST_CASE("guards: impacts accumulating at an instant stop the event-driven run (Zeno cap)",
          "[guards][event-driven][zeno]") {
  // e close to 1 and no plastic threshold: the flights shrink geometrically towards the
  // accumulation point and the impacts pile up within event_tolerance of each other.
  mechanisms::BouncingBall ball;
  ball.restitution = 0.9;
  const dynamics::RigidScenario s = mechanisms::bouncingBall(ball);
  dynamics::EventDrivenOptions o;
  o.t_end = 30.0;
  o.plastic_velocity = 0.0;
  o.velocity_tolerance = 1e-300;
  o.gap_tolerance = 1e-300;  // no margin below g = 0 for the flights' roots (handleEvent)
  const dynamics::RunResult zeno = dynamics::simulateEventDriven(s, o);
  INFO(zeno.message);
  CHECK_FALSE(zeno.ok());
  CHECK_THAT(zeno.message, Catch::Contains("events accumulate at t = ") &&
                               Catch::Contains("'ball-floor'") && Catch::Contains("Zeno"));
  // The accumulation point t∞ = t₁ (1 + 2e/(1 − e)) of the impacts.
  const double t1 = std::sqrt(2.0 * (ball.height - ball.radius) / ball.gravity);
  // (measured 8.5e-6 below it after ~220 impacts, hence 1e-4)
  CHECK(zeno.t_end == Approx(t1 * (1.0 + 2.0 * ball.restitution / (1.0 - ball.restitution))).epsilon(1e-4));
  CHECK(zeno.final_q.allFinite());

  // The cap on the run's events names the time and the contact too.
  o.max_events = 5;
  const dynamics::RunResult capped = dynamics::simulateEventDriven(s, o);
  CHECK_FALSE(capped.ok());
  CHECK_THAT(capped.message, Catch::Contains("more than max_events = 5 events by t = ") &&
                                 Catch::Contains("'ball-floor'"));
}

namespace {

// A rod (half-length L = 0.5 m, m = 1 kg, J = m L²/3) at 45° with its lower end `end_height`
// above the floor y = 0, at rest.
dynamics::RigidScenario rodOverFloor(double restitution, double mu, double end_height) {
  const double L = 0.5, th = std::numbers::pi / 4;
  dynamics::RigidScenario s;
  const auto rod = s.model.addBody("rod", 1.0, L * L / 3.0);
  s.model.setGravity({0.0, -9.81});
  dynamics::RigidContact c;
  c.name = "rod-end";
  c.body_i = rod;
  c.geometry.point_on_i = {-L, 0.0};
  c.mu_static = c.mu_kinetic = mu;
  c.restitution = restitution;
  s.contacts.push_back(c);
  s.q0 = Eigen::Vector3d(L * std::cos(th), L * std::sin(th) + end_height, th);
  s.v0 = Eigen::Vector3d::Zero();
  return s;
}

// The rod translating onto the floor, its end touching: ġ⁻ = −1 m/s, v_t⁻ = s. The impact's
// Delassus matrix is W = [2.5 −1.5; −1.5 2.5]; if the end sticks with e = 1,
// P = W⁻¹ (2, −s) and the impulses' work is ½ P_t s = s (3 − 2.5 s) / 8, positive for
// 0 < s < 1.2 (Kane's paradox).
dynamics::RunResult droppedRod(double restitution, double mu, double s) {
  dynamics::RigidScenario rod = rodOverFloor(restitution, mu, 0.0);
  rod.v0 = Eigen::Vector3d(s, -1.0, 0.0);
  dynamics::EventDrivenOptions o;
  o.t_end = 0.05;
  return dynamics::simulateEventDriven(rod, o);
}

}  // namespace

TEST_CASE("guards: an impact putting energy in (Newton's restitution with friction) stops the run",
          "[guards][event-driven][impact]") {
  const double s = 0.6;  // |P_t| / P_n = 0.366 < μ: the end sticks
  const dynamics::RunResult kane = droppedRod(1.0, 0.5, s);
  INFO(kane.message);
  CHECK_FALSE(kane.ok());
  CHECK_THAT(kane.message, Catch::Contains("impact at t = 0 s adds 0.1125 J") &&
                               Catch::Contains("'rod-end'") && Catch::Contains("Kane"));
  CHECK(kane.t_end == 0.0);
  CHECK(kane.final_v.isApprox(Eigen::Vector3d(s, -1.0, 0.0)));  // the state before the impact

  // μ = 0.3: the end slides back, P = (0.9756, 0.2927), v_t⁺ = −0.1317 m/s, work 0.0685 J.
  const dynamics::RunResult reversed = droppedRod(1.0, 0.3, s);
  CHECK_THAT(reversed.message, Catch::Contains("adds 0.0685"));

  // Controls that dissipate: plastic (work −0.2 J), frictionless, sliding on through the impact.
  for (const auto& [e, mu, slide] : {std::tuple{0.0, 0.5, s}, std::tuple{1.0, 0.0, s},
                                     std::tuple{1.0, 0.5, -s}}) {
    const dynamics::RunResult fine = droppedRod(e, mu, slide);
    INFO("e " << e << " mu " << mu << " v_t " << slide << ": " << fine.message);
    CHECK(fine.ok());
  }
}

TEST_CASE("guards: an initial state penetrating a rigid contact is refused, naming the contact",
          "[guards][event-driven][moreau-jean]") {
  dynamics::EventDrivenOptions ed;
  ed.t_end = 0.01;
  dynamics::MoreauJeanOptions mj;
  mj.t_end = 0.01;
  // 1 mm into the floor: Baumgarte's feedback would push the rod out, adding energy.
  const dynamics::RigidScenario in = rodOverFloor(0.0, 0.0, -1e-3);
  CHECK_THROWS_WITH(dynamics::simulateEventDriven(in, ed),
                    Catch::Contains("simulateEventDriven: the initial state penetrates contact "
                                    "'rod-end' by 0.001 m"));
  CHECK_THROWS_WITH(dynamics::simulateMoreauJean(dynamics::PlanarMechanism(in.model, in.contacts), in.q0, in.v0, mj),
                    Catch::Contains("simulateMoreauJean: the initial state penetrates contact 'rod-end'"));
  // Within the gap tolerances (1e-9 m, 1e-10 m), touching counts as touching.
  const dynamics::RigidScenario touching = rodOverFloor(0.0, 0.0, -1e-12);
  CHECK(dynamics::simulateEventDriven(touching, ed).ok());
  CHECK(dynamics::simulateMoreauJean(dynamics::PlanarMechanism(touching.model, touching.contacts), touching.q0, touching.v0, mj).ok());
}
