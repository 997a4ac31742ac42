// Constraint situations beyond the slider-crank: redundant constraints (which methods take
// them), a rheonomic driver (work of the driving torque = energy change), and a translational
// joint's reaction on an incline.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "dynamics/eom_methods/eom_integration.hpp"
#include "dynamics/model/eom_solver.hpp"
#include "dynamics/model/model_assembly.hpp"
#include "dynamics/eom_methods/model_slider_crank.hpp"
#include "dynamics/model/planar_model.hpp"

using namespace stickslip::dynamics;
using Eigen::Vector2d;
using Eigen::VectorXd;

TEST_CASE("redundant constraints: Moore-Penrose and penalty methods take them, the others report singular",
          "[dynamics][eom][redundant]") {
  // A pendulum pinned twice at the same point: 4 equations of rank 2 (thesis §2.3).
  const double mass = 2.0, inertia = 0.1, l = 0.5, g = 9.81, phi = 0.3, omega = 1.3;
  PlanarModel m;
  const BodyIndex p = m.addBody("pendulum", mass, inertia);
  m.addRevolute(kGround, Vector2d::Zero(), p, Vector2d(-l, 0.0), "pin");
  m.addRevolute(kGround, Vector2d::Zero(), p, Vector2d(-l, 0.0), "same pin");
  m.setGravity(Vector2d(0.0, -g));
  VectorXd q(3), v(3), vdot(3);
  q << l * std::cos(phi), l * std::sin(phi), phi;
  v << -l * omega * std::sin(phi), l * omega * std::cos(phi), omega;
  const double alpha = -mass * g * l * std::cos(phi) / (inertia + mass * l * l);
  for (EomMethod method : allEomMethods()) {
    DYNAMIC_SECTION(toString(method)) {
      EomSolver solver(m, method);
      const EomStatus status = solver.accelerations(0.0, q, v, vdot);
      const bool takes_redundant = method == EomMethod::kMoorePenrose ||
                                   method == EomMethod::kPenalty ||
                                   method == EomMethod::kAugmentedLagrangian;
      if (!takes_redundant) {
        CHECK(status == EomStatus::kSingular);
      } else {
        REQUIRE(status == EomStatus::kSuccess);
        const double tol = method == EomMethod::kMoorePenrose ? 1e-12 : 1e-6;  // penalty: O(M/a)
        CHECK(vdot(2) == Approx(alpha).epsilon(tol));
        // The two pins share the reaction; their sum is the single pin's.
        const auto r = m.reactions(0.0, q, solver.multipliers());
        const Vector2d radial(std::cos(phi), std::sin(phi)), tangential(-std::sin(phi), std::cos(phi));
        const Vector2d force = mass * (l * alpha * tangential - l * omega * omega * radial) +
                               mass * Vector2d(0.0, g);
        CHECK((r[0].force_on_i + r[1].force_on_i + force).norm() < 1e-5 * force.norm());
        if (method == EomMethod::kMoorePenrose)  // minimum norm: split evenly
          CHECK((r[0].force_on_i - r[1].force_on_i).norm() < 1e-12);
      }
    }
  }
}

TEST_CASE("rheonomic driver: the driving torque's work equals the energy change", "[dynamics][eom][driver]") {
  SliderCrank sc = buildSliderCrank();
  const double w = 2.0, amp = 0.4, th0 = sc.q0(2);
  // θ1(t) = θ0 + amp sin(w t): the crank swings, driven; the mechanism has no DoF left.
  const int driver = sc.model.addRheonomicDriver(
      kGround, sc.crank, [=](double t) { return th0 + amp * std::sin(w * t); },
      [=](double t) { return amp * w * std::cos(w * t); },
      [=](double t) { return -amp * w * w * std::sin(w * t); }, "crank drive");
  VectorXd q = sc.q0, v = sc.v0;
  const AssemblyResult a = assemble(sc.model, 0.0, {}, q, v);
  REQUIRE(a.ok());
  CHECK(v(2) == Approx(amp * w).epsilon(1e-13));
  const Eigen::Index row = sc.model.joints()[static_cast<std::size_t>(driver)].row;

  EomSolver solver(sc.model, EomMethod::kDirectCorrection);
  EomSolver probe(sc.model, EomMethod::kLagrange);  // λ at the projected state, not a stage
  VectorXd vdot(9);
  const double e0 = sc.model.kineticEnergy(v) + sc.model.potentialEnergy(q);
  // Power of the driving torque −λ on the crank (D has +1 in the crank's θ column).
  double work = 0.0, last_power = 0.0, last_t = 0.0;
  bool first = true;
  const double h = 1e-3;
  const EomRunResult run = integrateRk4(solver, 0.0, 2.0, h, q, v,
      [&](double t, const Eigen::Ref<const VectorXd>& qs, const Eigen::Ref<const VectorXd>& vs) {
        REQUIRE(probe.accelerations(t, qs, vs, vdot) == EomStatus::kSuccess);
        const double power = -probe.multipliers()(row) * vs(2);
        if (!first) work += 0.5 * (power + last_power) * (t - last_t);  // trapezoid, O(h²)
        first = false;
        last_power = power;
        last_t = t;
      });
  REQUIRE(run.ok());
  const double e1 = sc.model.kineticEnergy(v) + sc.model.potentialEnergy(q);
  CHECK(q(2) == Approx(th0 + amp * std::sin(2.0 * w)).margin(1e-10));
  // Trapezoid error ≈ T h² max|P̈|/12 relative to T max|P|; P varies at a few times w
  // (= 2 rad/s), so (h·5w)²/12 ≈ 1e-5 relative is the bound (1.4e-6 observed).
  INFO("work " << work << ", energy change " << e1 - e0);
  CHECK(std::abs(work) > 1e-3);  // the drive does real work
  CHECK(std::abs(e1 - e0 - work) < 1e-5 * std::abs(work));
}

TEST_CASE("translational joint on an incline: axial acceleration and normal reaction", "[dynamics][model][reaction]") {
  const double mass = 3.0, g = 9.81, incline = 0.4;
  PlanarModel m;
  const BodyIndex b = m.addBody("block", mass, 0.2);
  const Vector2d axis(std::cos(incline), std::sin(incline));
  m.addTranslational(kGround, Vector2d::Zero(), axis, b, Vector2d::Zero(), 0.0, "incline");
  m.setGravity(Vector2d(0.0, -g));
  VectorXd q(3), v = VectorXd::Zero(3), vdot(3);
  q << 0.7 * axis, 0.0;
  EomSolver solver(m, EomMethod::kLagrange);
  REQUIRE(solver.accelerations(0.0, q, v, vdot) == EomStatus::kSuccess);
  CHECK((vdot.head<2>() - (-g * std::sin(incline)) * axis).norm() < 1e-12);
  CHECK(vdot(2) == Approx(0.0).margin(1e-12));
  const auto r = m.reactions(0.0, q, solver.multipliers());
  // On the ground, in the joint frame (along the axis, normal to it): the block presses down.
  CHECK(r[0].force_on_i_local.x() == Approx(0.0).margin(1e-12));
  CHECK(r[0].force_on_i_local.y() == Approx(-mass * g * std::cos(incline)).epsilon(1e-12));
  // On the block, in its own frame (aligned with the world here): the normal push.
  CHECK((r[0].force_on_j_local - mass * g * std::cos(incline) * Vector2d(-axis.y(), axis.x())).norm() < 1e-12);
  CHECK(r[0].torque_on_j == Approx(0.0).margin(1e-12));
}

TEST_CASE("EOM solver contract violations throw", "[dynamics][eom]") {
  const SliderCrank sc = buildSliderCrank();
  EomOptions bad;
  bad.baumgarte_alpha = -1.0;
  CHECK_THROWS_AS(EomSolver(sc.model, EomMethod::kBaumgarte, bad), std::invalid_argument);
  bad = {};
  bad.augmented_tol = 0.0;
  CHECK_THROWS_AS(EomSolver(sc.model, EomMethod::kAugmentedLagrangian, bad), std::invalid_argument);
  EomSolver solver(sc.model, EomMethod::kLagrange);
  VectorXd short_v(8), vdot(9), y(18), ydot(17);
  CHECK_THROWS_AS(solver.accelerations(0.0, sc.q0, short_v, vdot), std::invalid_argument);
  CHECK_THROWS_AS(solver.derivative(0.0, y, ydot), std::invalid_argument);
  VectorXd q = sc.q0, v = sc.v0;
  CHECK_THROWS_AS(integrateRk4(solver, 0.0, 1.0, 0.0, q, v), std::invalid_argument);
}
