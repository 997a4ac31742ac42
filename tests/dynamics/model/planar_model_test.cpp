// Planar model: Jacobian, γ and Φt against finite differences (STYLE P11), force elements
// against their potential, a pendulum's joint reaction against its closed form, kinematic
// assembly and its failure at a singular configuration.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <stdexcept>

#include "dynamics/model/eom_solver.hpp"
#include "dynamics/model/model_assembly.hpp"
#include "dynamics/eom_methods/model_slider_crank.hpp"
#include "dynamics/model/planar_model.hpp"

using namespace stickslip::dynamics;
using Eigen::MatrixXd;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace {

/// Three bodies and every joint type, with a rheonomic driver, at nonzero poses.
PlanarModel everyJointModel() {
  PlanarModel m;
  const BodyIndex a = m.addBody("a", 1.0, 0.1), b = m.addBody("b", 2.0, 0.2), c = m.addBody("c", 0.5, 0.05);
  m.addRevolute(kGround, Vector2d(0.1, -0.2), a, Vector2d(-0.3, 0.05));
  m.addTranslational(a, Vector2d(0.2, 0.1), Vector2d(1.0, 0.5), b, Vector2d(-0.1, 0.3), 0.4);
  m.addPointOnLine(b, Vector2d(0.3, -0.1), Vector2d(-0.2, 1.0), c, Vector2d(0.05, 0.2));
  m.addFixed(kGround, Vector2d(1.0, 2.0), c, Vector2d(0.3, -0.4), 0.7);
  m.addRheonomicDriver(a, c, [](double t) { return 0.3 * std::sin(2.0 * t); },
                       [](double t) { return 0.6 * std::cos(2.0 * t); },
                       [](double t) { return -1.2 * std::sin(2.0 * t); });
  return m;
}

// Central differences of smooth O(1) functions: truncation ~h², round-off ~ε/h.
constexpr double kModelFdStep = 1e-6;
constexpr double kModelFdTol = 1e-8;

}  // namespace

TEST_CASE("Φq, Φt and γ match central finite differences", "[dynamics][model]") {
  const PlanarModel m = everyJointModel();
  REQUIRE(m.constraintCount() == 2 + 2 + 1 + 3 + 1);
  const Eigen::Index n = m.velocitySize(), k = m.constraintCount();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> uni(-2.0, 2.0);
  for (int trial = 0; trial < 20; ++trial) {
    VectorXd q(n), v(n);
    for (Eigen::Index i = 0; i < n; ++i) q(i) = uni(rng), v(i) = uni(rng);
    const double t = 0.5 * uni(rng);
    MatrixXd jac(k, n), fd(k, n);
    VectorXd plus(k), minus(k), phi_t(k), gam(k);
    m.jacobian(t, q, jac);
    for (Eigen::Index i = 0; i < n; ++i) {
      VectorXd qp = q, qm = q;
      qp(i) += kModelFdStep;
      qm(i) -= kModelFdStep;
      m.constraints(t, qp, plus);
      m.constraints(t, qm, minus);
      fd.col(i) = (plus - minus) / (2.0 * kModelFdStep);
    }
    CHECK((jac - fd).lpNorm<Eigen::Infinity>() < kModelFdTol);
    // The one-pass evaluation is the same arithmetic as the two separate ones.
    MatrixXd jac_fused(k, n);
    VectorXd phi(k), phi_fused(k);
    m.constraints(t, q, phi);
    m.constraintsAndJacobian(t, q, phi_fused, jac_fused);
    CHECK(phi_fused == phi);
    CHECK(jac_fused == jac);

    m.constraintTimeDerivative(t, q, phi_t);
    m.constraints(t + kModelFdStep, q, plus);
    m.constraints(t - kModelFdStep, q, minus);
    CHECK((phi_t - (plus - minus) / (2.0 * kModelFdStep)).lpNorm<Eigen::Infinity>() < kModelFdTol);

    // Along q(s) = q + s v, t(s) = t + s with v fixed: d/ds (D v + Φt) = −γ.
    auto phiDot = [&](double s) {
      MatrixXd js(k, n);
      VectorXd ts(k);
      const VectorXd qs = q + s * v;
      m.jacobian(t + s, qs, js);
      m.constraintTimeDerivative(t + s, qs, ts);
      return VectorXd(js * v + ts);
    };
    m.gamma(t, q, v, gam);
    const VectorXd fd_gamma = -(phiDot(kModelFdStep) - phiDot(-kModelFdStep)) / (2.0 * kModelFdStep);
    CHECK((gam - fd_gamma).lpNorm<Eigen::Infinity>() < 10.0 * kModelFdTol);  // |v|² ≤ 4 scales it
  }
}

TEST_CASE("conservative force elements derive from their potential", "[dynamics][model]") {
  PlanarModel m;
  const BodyIndex a = m.addBody("a", 1.5, 0.1), b = m.addBody("b", 0.7, 0.03);
  m.setGravity(Vector2d(0.3, -9.81));
  m.addSpringDamper(kGround, Vector2d(0.2, 1.0), a, Vector2d(0.1, -0.2), 50.0, 0.0, 0.4);
  m.addSpringDamper(a, Vector2d(-0.3, 0.1), b, Vector2d(0.2, 0.0), 20.0, 0.0, 0.1);
  m.addRotationalSpringDamper(a, b, 3.0, 0.0, 0.25);
  VectorXd q(6), v = VectorXd::Zero(6), forces(6), fd(6);
  q << 0.3, -0.4, 0.5, 1.1, 0.2, -0.7;
  m.generalizedForces(0.0, q, v, forces);
  for (int i = 0; i < 6; ++i) {
    VectorXd qp = q, qm = q;
    qp(i) += kModelFdStep;
    qm(i) -= kModelFdStep;
    fd(i) = -(m.potentialEnergy(qp) - m.potentialEnergy(qm)) / (2.0 * kModelFdStep);
  }
  CHECK((forces - fd).lpNorm<Eigen::Infinity>() < 1e-6);  // forces ~50 N: relative 1e-8

  SECTION("potentialRate is V's derivative along v") {
    v << 0.4, -0.3, 1.0, -0.2, 0.6, -0.8;
    const double h = kModelFdStep;
    const double along = (m.potentialEnergy(q + h * v) - m.potentialEnergy(q - h * v)) / (2.0 * h);
    CHECK(m.potentialRate(q, v) == Approx(along).epsilon(1e-8));
    CHECK(m.potentialRate(q, v) == Approx(-forces.dot(v)));  // the forces above are conservative
  }

  SECTION("dampers dissipate: vᵀQ_damping < 0") {
    PlanarModel d;
    const BodyIndex c = d.addBody("c", 1.0, 0.1), e = d.addBody("e", 1.0, 0.1);
    d.addSpringDamper(c, Vector2d(0.1, 0.0), e, Vector2d(0.0, 0.1), 0.0, 3.0, 0.0);
    d.addRotationalSpringDamper(c, e, 0.0, 0.5, 0.0);
    d.addViscousDamping(c, 0.2, 0.1);
    VectorXd qd(6), vd(6), fq(6);
    qd << 0.0, 0.0, 0.3, 1.0, 0.5, -0.2;
    vd << 0.4, -0.3, 1.0, -0.2, 0.6, -0.8;
    d.generalizedForces(0.0, qd, vd, fq);
    CHECK(vd.dot(fq) < 0.0);
  }
}

TEST_CASE("pendulum reaction matches the closed form", "[dynamics][model][reaction]") {
  // Body frame x-axis from the pivot to the centroid: centroid at l(cos φ, sin φ).
  const double mass = 2.0, inertia = 0.1, l = 0.5, g = 9.81;
  PlanarModel m;
  const BodyIndex p = m.addBody("pendulum", mass, inertia);
  m.addRevolute(kGround, Vector2d::Zero(), p, Vector2d(-l, 0.0), "pivot");
  m.setGravity(Vector2d(0.0, -g));
  for (double phi : {-1.5707963267948966 + 0.8, 0.3, 2.5}) {
    const double omega = 1.3;
    VectorXd q(3), v(3), vdot(3);
    q << l * std::cos(phi), l * std::sin(phi), phi;
    v << -l * omega * std::sin(phi), l * omega * std::cos(phi), omega;
    EomSolver solver(m, EomMethod::kLagrange);
    REQUIRE(solver.accelerations(0.0, q, v, vdot) == EomStatus::kSuccess);
    // Angular momentum about the pivot: (J + m l²) φ̈ = −m g l cos φ.
    const double alpha = -mass * g * l * std::cos(phi) / (inertia + mass * l * l);
    CHECK(vdot(2) == Approx(alpha).epsilon(1e-12));
    // Newton for the centroid: F_joint = m a_c − m g.
    const Vector2d radial(std::cos(phi), std::sin(phi)), tangential(-std::sin(phi), std::cos(phi));
    const Vector2d a_c = l * alpha * tangential - l * omega * omega * radial;
    const Vector2d force = mass * a_c - mass * Vector2d(0.0, -g);
    const auto r = m.reactions(0.0, q, solver.multipliers());
    REQUIRE(r.size() == 1);
    // On the pendulum (body j), in its frame: (radial, tangential) components.
    CHECK(r[0].force_on_j_local.x() == Approx(force.dot(radial)).margin(1e-12));
    CHECK(r[0].force_on_j_local.y() == Approx(force.dot(tangential)).margin(1e-12));
    CHECK(r[0].torque_on_j == Approx(0.0).margin(1e-12));  // an ideal pin carries no moment
    CHECK((r[0].force_on_i + force).norm() < 1e-12);        // action and reaction
    // The tension, familiar form: m l φ̇² + m g (−sin φ) pulls along the rod toward the pivot.
    CHECK(-force.dot(radial) == Approx(mass * l * omega * omega - mass * g * std::sin(phi)));
  }
}

TEST_CASE("kinematic assembly gives consistent positions and velocities", "[dynamics][assembly]") {
  SECTION("slider-crank from its crank angle") {
    const SliderCrank sc = buildSliderCrank();
    REQUIRE(sc.assembly.ok());
    VectorXd phi(8), phi_t(8);
    MatrixXd jac(8, 9);
    sc.model.constraints(0.0, sc.q0, phi);
    sc.model.jacobian(0.0, sc.q0, jac);
    sc.model.constraintTimeDerivative(0.0, sc.q0, phi_t);
    CHECK(phi.norm() < 1e-12);
    CHECK((jac * sc.v0 + phi_t).norm() < 1e-12);
    CHECK(sc.q0(2) == 1.5707963267948966);  // held
    CHECK(sc.v0(2) == 6.283185307179586);
  }
  SECTION("a rough guess converges, and a rheonomic driver's Φt is honoured") {
    PlanarModel m = everyJointModel();
    VectorXd q = VectorXd::Zero(9), v = VectorXd::Zero(9);
    q << 0.3, -0.2, 0.1, 0.6, 0.2, 0.5, 1.2, 1.9, 0.7;
    v(2) = 0.4;
    const AssemblyResult r = assemble(m, 0.3, {}, q, v);
    INFO(r.message);
    REQUIRE(r.ok());
    VectorXd phi(9), phi_t(9);
    MatrixXd jac(9, 9);
    m.constraints(0.3, q, phi);
    m.jacobian(0.3, q, jac);
    m.constraintTimeDerivative(0.3, q, phi_t);
    CHECK(phi.norm() < 1e-12);
    CHECK((jac * v + phi_t).norm() < 1e-12);
  }
  SECTION("dead centre with the slider position held is reported singular") {
    SliderCrankData data;
    data.crank_angle = 0.0;
    SliderCrank sc = buildSliderCrank(data);
    VectorXd q = sc.q0, v = VectorXd::Zero(9);
    q(PlanarModel::coordinate(sc.slider, 0)) += 1e-3;  // start off the solution
    const AssemblyResult r = assemble(sc.model, 0.0, {PlanarModel::coordinate(sc.slider, 0)}, q, v);
    // The slider at x < L1 + L2 is reachable, but D_f is singular at the dead-centre guess.
    CHECK(r.status == AssemblyStatus::kSingular);
    CHECK(r.rank < 8);
    CHECK_THAT(r.message, Catch::Contains("singular"));
  }
  SECTION("every coordinate held: refused when the rows are not met, taken as given when they are") {
    PlanarModel m;
    const BodyIndex b = m.addBody("bob", 1.0, 0.01);
    m.addRevolute(kGround, Vector2d::Zero(), b, Vector2d(-1.0, 0.0));
    VectorXd q(3), v = VectorXd::Zero(3);
    q << 1.2, 0.1, 0.0;  // off the circle: nothing free to close it
    AssemblyResult r = assemble(m, 0.0, {0, 1, 2}, q, v);
    CHECK(r.status == AssemblyStatus::kSingular);
    CHECK_THAT(r.message, Catch::Contains("the 0 free coordinates has rank 0 < 2 constraints"));
    q << 1.0, 0.0, 0.0;  // on it, at rest
    r = assemble(m, 0.0, {0, 1, 2}, q, v);
    CHECK(r.ok());
    v << 0.0, 1.0, 0.5;  // moving off it
    r = assemble(m, 0.0, {0, 1, 2}, q, v);
    CHECK(r.status == AssemblyStatus::kSingular);
  }
  SECTION("contract violations throw") {
    const SliderCrank sc = buildSliderCrank();
    VectorXd q = sc.q0, v(3);
    CHECK_THROWS_AS(assemble(sc.model, 0.0, {2}, q, v), std::invalid_argument);
    VectorXd w = sc.v0;
    CHECK_THROWS_AS(assemble(sc.model, 0.0, {2, 2}, q, w), std::invalid_argument);
    PlanarModel m;
    CHECK_THROWS_AS(m.addBody("x", 0.0, 1.0), std::invalid_argument);
    const BodyIndex b = m.addBody("b", 1.0, 1.0);
    CHECK_THROWS_AS(m.addRevolute(b, Vector2d::Zero(), b, Vector2d::Zero()), std::invalid_argument);
    CHECK_THROWS_AS(m.addRevolute(b, Vector2d::Zero(), 5, Vector2d::Zero()), std::invalid_argument);
  }
}
