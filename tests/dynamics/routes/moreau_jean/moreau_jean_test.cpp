// Moreau–Jean time-stepping (moreau_jean.hpp) on small scenarios built here, each with a
// closed-form answer: a block on an incline (sticks iff tan α ≤ μs), a pendulum striking a
// floor (joints respected through G, kinetic energy × e² per impact), plus the option
// contract, failure reporting and the allocation-free step.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "allocation_counter.hpp"
#include "standard_gravity.hpp"

using namespace stickslip::dynamics;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace {

using stickslip::test::kG;

/// A point-mass block (1 kg) at the origin on the line through the origin with normal
/// (−sin α, cos α); tangent t = (cos α, sin α) points up the slope. Gravity −y.
RigidScenario incline(double alpha, double mu_s, double mu_k) {
  RigidScenario s;
  s.name = "incline";
  const BodyIndex block = s.model.addBody("block", 1.0, 0.01);
  s.model.setGravity(Vector2d(0.0, -kG));
  RigidContact c;
  c.name = "block-slope";
  c.body_i = block;
  c.geometry.line_normal_on_j = Vector2d(-std::sin(alpha), std::cos(alpha));
  c.mu_static = mu_s;
  c.mu_kinetic = mu_k;
  s.contacts.push_back(c);
  s.q0 = VectorXd::Zero(3);
  s.v0 = VectorXd::Zero(3);
  return s;
}

/// A uniform bar (m = 1 kg, L = 1 m) pivoted at the ground origin, starting horizontal at
/// rest; its tip (L/2 from the centroid) strikes the floor y = −L/2 at θ = −30°.
constexpr double kBarLength = 1.0;
RigidScenario pendulum(double restitution) {
  RigidScenario s;
  s.name = "pendulum";
  const double L = kBarLength;
  const BodyIndex bar = s.model.addBody("bar", 1.0, L * L / 12.0);
  s.model.addRevolute(kGround, Vector2d::Zero(), bar, Vector2d(-0.5 * L, 0.0), "pivot");
  s.model.setGravity(Vector2d(0.0, -kG));
  RigidContact c;
  c.name = "tip-floor";
  c.body_i = bar;
  c.geometry.point_on_i = Vector2d(0.5 * L, 0.0);
  c.geometry.line_point_on_j = Vector2d(0.0, -0.5 * L);
  c.restitution = restitution;
  s.contacts.push_back(c);
  s.q0 = Eigen::Vector3d(0.5 * L, 0.0, 0.0);
  s.v0 = VectorXd::Zero(3);
  return s;
}

RunResult run(const RigidScenario& s, const MoreauJeanOptions& o) {
  return simulateMoreauJean(PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

}  // namespace

TEST_CASE("moreau-jean options: contract violations throw with what was expected",
          "[moreau-jean][options]") {
  MoreauJeanOptions o;
  CHECK_NOTHROW(o.validate());
  // Each case changes one field of the defaults and names it in the expected message.
  auto throwsWith = [](void (*change)(MoreauJeanOptions&), const char* text) {
    MoreauJeanOptions bad;
    change(bad);
    CHECK_THROWS_WITH(bad.validate(),
                      Catch::Contains("MoreauJeanOptions: expected") && Catch::Contains(text));
  };
  throwsWith([](MoreauJeanOptions& b) { b.h = 0.0; }, "h > 0");
  throwsWith([](MoreauJeanOptions& b) { b.theta = 0.4; }, "theta in [0.5, 1]");
  throwsWith([](MoreauJeanOptions& b) { b.t_end = -1.0; }, "t_end > 0");
  throwsWith([](MoreauJeanOptions& b) { b.output_dt = -1.0; }, "output_dt >= 0");
  throwsWith([](MoreauJeanOptions& b) { b.stick_velocity = 0.0; }, "stick_velocity");
  throwsWith([](MoreauJeanOptions& b) { b.gap_tolerance = -1.0; }, "gap_tolerance >= 0");
  throwsWith([](MoreauJeanOptions& b) { b.joint_position_feedback = 2.0; },
             "joint_position_feedback");
  throwsWith([](MoreauJeanOptions& b) { b.max_steps = 0; }, "max_steps");
  throwsWith([](MoreauJeanOptions& b) { b.joint_baumgarte_alpha = -1.0; },
             "joint_baumgarte_alpha >= 0");
  throwsWith([](MoreauJeanOptions& b) { b.solver = "siconos-nope"; }, "siconos-nsgs");
  MoreauJeanOptions siconos;
  siconos.solver = "siconos-enum";
  CHECK_NOTHROW(siconos.validate());

  const RigidScenario s = incline(0.1, 0.3, 0.3);
  MoreauJeanOptions negative;
  negative.joint_baumgarte_beta = -1.0;  // reported by us, not by ConstrainedResponse
  CHECK_THROWS_WITH(MoreauJeanStepper(PlanarMechanism(s), negative),
                    Catch::Contains("MoreauJeanOptions: expected joint_baumgarte_beta >= 0"));
  CHECK_THROWS_WITH(simulateMoreauJean(PlanarMechanism(s.model, s.contacts), VectorXd::Zero(2), s.v0, o),
                    Catch::Contains("expected finite q0 of size 3"));
  std::vector<RigidContact> bad = s.contacts;
  bad[0].mu_static = 0.1;  // below mu_kinetic
  CHECK_THROWS_WITH(simulateMoreauJean(PlanarMechanism(s.model, bad), s.q0, s.v0, o),
                    Catch::Contains("expected 0 <= mu_kinetic <= mu_static"));
}

TEST_CASE("moreau-jean incline: a block at rest sticks iff tan(alpha) <= mu_s",
          "[moreau-jean][incline]") {
  MoreauJeanOptions o;
  o.t_end = 1.0;
  o.h = 1e-3;
  const double mu_s = 0.3, mu_k = 0.2;
  SECTION("tan(alpha) = 0.29 <= mu_s: no motion, no event, friction = m g sin(alpha)") {
    const double alpha = std::atan(0.29);
    const auto r = run(incline(alpha, mu_s, mu_k), o);
    REQUIRE(r.ok());
    CHECK(r.events.empty());
    CHECK(r.final_q.head<2>().norm() < 1e-12);
    CHECK(r.final_v.norm() < 1e-12);
    // Columns t, q(3), v(3), N, F: F holds the block up the slope (+t).
    const auto last = r.history.row(r.history.rows() - 1);
    CHECK(last(7) == Approx(kG * std::cos(alpha)).epsilon(1e-12));
    CHECK(last(8) == Approx(kG * std::sin(alpha)).epsilon(1e-12));
    // The row at t = 0, which no step ends, has the first step's forces (not zeros).
    CHECK(r.history(0, 7) == Approx(kG * std::cos(alpha)).epsilon(1e-12));
    CHECK(r.history(0, 8) == Approx(kG * std::sin(alpha)).epsilon(1e-12));
  }
  SECTION("tan(alpha) = 0.31 > mu_s: slides down at g (sin(alpha) - mu_k cos(alpha))") {
    const double alpha = std::atan(0.31);
    const auto r = run(incline(alpha, mu_s, mu_k), o);
    REQUIRE(r.ok());
    // Breaks away in the first step (slip− : down the slope, against t), then keeps slipping.
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].kind == EventKind::kSlipNegative);
    CHECK(r.events[0].t == Approx(0.5 * o.h));  // in the first step, timed at its middle
    const double a = kG * (std::sin(alpha) - mu_k * std::cos(alpha));
    const Vector2d down(-std::cos(alpha), -std::sin(alpha));
    const double travel = down.dot(r.final_q.head<2>());
    // Constant acceleration: the θ = ½ update integrates it exactly, μk from the first step on.
    CHECK(travel == Approx(0.5 * a * o.t_end * o.t_end).epsilon(1e-9));
    CHECK(down.dot(r.final_v.head<2>()) == Approx(a * o.t_end).epsilon(1e-9));
    // θ = 1 (q_{k+1} = q_k + h v_{k+1}) sums h² a k over the steps: ½ a T² (1 + h / T).
    MoreauJeanOptions implicit = o;
    implicit.theta = 1.0;
    const auto r1 = run(incline(alpha, mu_s, mu_k), implicit);
    REQUIRE(r1.ok());
    CHECK(down.dot(r1.final_q.head<2>()) ==
          Approx(0.5 * a * o.t_end * (o.t_end + o.h)).epsilon(1e-9));
    // The block stays on the slope: the gap is zero to round-off.
    const Vector2d n(-std::sin(alpha), std::cos(alpha));
    CHECK(std::abs(n.dot(r.final_q.head<2>())) < 1e-12);
  }
}

TEST_CASE("moreau-jean pendulum: joints hold through G and the impact keeps e^2 of the energy",
          "[moreau-jean][joints]") {
  const double e = 0.5;
  const RigidScenario s = pendulum(e);
  MoreauJeanOptions o;
  o.t_end = 1.0;
  o.h = 1e-5;
  o.output_dt = 0.0;
  const auto r = run(s, o);
  INFO(r.message);
  REQUIRE(r.ok());
  REQUIRE(r.events.size() >= 2);
  CHECK(r.events[0].kind == EventKind::kImpact);
  CHECK(r.events[1].kind == EventKind::kOpen);
  // First impact when the tip reaches y = −L/2: θ = −30°; from energy, ω² = 3 g sin 30° / L.
  const Eigen::Index k = static_cast<Eigen::Index>(std::llround(r.events[0].t / o.h));
  const double omega_before = r.history(k - 1, 6), omega_after = r.history(k, 6);
  CHECK(r.history(k - 1, 3) == Approx(-M_PI / 6.0).margin(1e-4));
  CHECK(omega_before == Approx(-std::sqrt(3.0 * kG * 0.5 / kBarLength)).epsilon(1e-3));
  // One degree of freedom: ġ⁺ = −e ġ⁻ reverses ω with the ratio e, so T⁺/T⁻ = e². Exact up
  // to one step of gravity on the sampled ω⁻ (relative g h / (L ω) ≈ 3e-5).
  CHECK(-omega_after / omega_before == Approx(e).epsilon(1e-4));
  // The pivot stays at the origin: |Φ| over the whole run, and the velocity constraint.
  Eigen::VectorXd phi(2);
  double drift = 0.0;
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    s.model.constraints(0.0, r.history.row(i).segment(1, 3).transpose(), phi);
    drift = std::max(drift, phi.lpNorm<Eigen::Infinity>());
  }
  CHECK(drift < 1e-8);
  // Energy never grows: T + V ≤ its initial value (0) up to O(h) round-off of the scheme.
  double worst = -std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < r.history.rows(); ++i)
    worst =
        std::max(worst, s.model.kineticEnergy(r.history.row(i).segment(4, 3).transpose()) +
                            s.model.potentialEnergy(r.history.row(i).segment(1, 3).transpose()));
  CHECK(worst < 1e-6);
}

TEST_CASE("moreau-jean pendulum: position projection and the Baumgarte-only variant",
          "[moreau-jean][joints]") {
  const RigidScenario s = pendulum(0.5);
  MoreauJeanOptions o;
  o.t_end = 1.0;
  o.h = 1e-4;
  o.output_dt = 1e-3;
  auto drift = [&s](const RunResult& r) {
    Eigen::VectorXd phi(2);
    double worst = 0.0;
    for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
      s.model.constraints(0.0, r.history.row(i).segment(1, 3).transpose(), phi);
      worst = std::max(worst, phi.lpNorm<Eigen::Infinity>());
    }
    return worst;
  };
  const auto plain = run(s, o);
  REQUIRE(plain.ok());
  o.project_positions = true;
  const auto projected = run(s, o);
  REQUIRE(projected.ok());
  // Newton on Φ to 1e-12 after every step (one iteration suffices: Φ is O(h³) per step).
  CHECK(drift(projected) < 1e-12);
  CHECK(drift(projected) < drift(plain));
  // Same motion to O(h): the projection moves q by the drift only.
  CHECK((projected.final_q - plain.final_q).lpNorm<Eigen::Infinity>() < 1e-3);
  // Joints imposed on v̇ only (Baumgarte α = β = 20): still held, with O(h) drift.
  o.project_positions = false;
  o.joint_velocity_projection = false;
  const auto baumgarte = run(s, o);
  REQUIRE(baumgarte.ok());
  CHECK(drift(baumgarte) < 1e-3);
  CHECK(drift(plain) < drift(baumgarte));
}

TEST_CASE("moreau-jean: a failing step stops the run with time, step and reason",
          "[moreau-jean][failure]") {
  RigidScenario s = incline(0.1, 0.3, 0.3);
  s.model.addGeneralizedForce([](double t, const Eigen::Ref<const VectorXd>&,
                                 const Eigen::Ref<const VectorXd>&, Eigen::Ref<VectorXd> f) {
    if (t > 0.05) f(0) += std::numeric_limits<double>::quiet_NaN();
  });
  MoreauJeanOptions o;
  o.t_end = 1.0;
  o.h = 1e-2;
  const auto r = run(s, o);
  CHECK_FALSE(r.ok());
  // Step 6 starts at t = 0.05 and evaluates the forces at t_θ = 0.055.
  CHECK_THAT(r.message, Catch::Contains("stopped at t = 0.05 s (step 6 of 100)") &&
                            Catch::Contains("NaN or Inf"));
  CHECK(r.steps == 5);
  CHECK(r.final_q.allFinite());
  CHECK(r.history.rows() == 6);  // t = 0 and five steps at output_dt ≤ h

  o.max_steps = 10;
  const auto guarded = run(incline(0.1, 0.3, 0.3), o);
  CHECK_FALSE(guarded.ok());
  CHECK_THAT(guarded.message, Catch::Contains("more than max_steps = 10"));
}

TEST_CASE("moreau-jean: history sampling and counters", "[moreau-jean][history]") {
  const RigidScenario s = incline(0.5, 0.3, 0.2);
  MoreauJeanOptions o;
  o.t_end = 0.1;
  o.h = 1e-3;
  o.output_dt = 1e-2;
  const auto r = run(s, o);
  REQUIRE(r.ok());
  CHECK(r.steps == 100);
  CHECK(r.history.rows() == 11);
  CHECK(r.history.cols() == 1 + 3 + 3 + 2);
  for (Eigen::Index k = 0; k < r.history.rows(); ++k)
    CHECK(r.history(k, 0) == Approx(0.01 * double(k)).margin(1e-12));
  // Slipping from the first step on: one LCP with μs, one re-solve with μk, then one per step.
  CHECK(r.lcp_solves == 101);
  CHECK(r.pivots > 0);
  CHECK(r.t_end == Approx(0.1).epsilon(1e-15));
}

TEST_CASE("moreau-jean steps allocate nothing once every active-set size was met",
          "[moreau-jean][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  // The pendulum comes to rest on the floor (impacts accumulate with e = 0.5): joints, an
  // active contact and Lemke in every step.
  const RigidScenario s = pendulum(0.5);
  MoreauJeanOptions o;
  o.h = 1e-4;
  const PlanarMechanism stepper_mechanism(s.model, s.contacts);
  MoreauJeanStepper stepper(stepper_mechanism, o);
  VectorXd q = s.q0, v = s.v0;
  double t = 0.0;
  for (int k = 0; k < 30000; ++k, t += o.h) REQUIRE(stepper.step(t, o.h, q, v));
  REQUIRE(stepper.closed(0));
  bool ok = false;
  const long allocations = allocationsOver(1000, [&] { return stepper.step((t += o.h) - o.h, o.h, q, v); }, ok);
  CHECK(ok);
  CHECK(stepper.closed(0));
  CHECK(allocations == 0);
}

TEST_CASE("moreau-jean: the progress callback sees every step's time, up to t_end", "[moreau-jean][progress]") {
  MoreauJeanOptions o;
  o.t_end = 0.0105;  // the last step shortened to land on t_end
  o.h = 1e-3;
  std::vector<double> seen;
  o.progress = [&seen](double t) { seen.push_back(t); };
  const auto r = run(incline(std::atan(0.29), 0.3, 0.2), o);
  REQUIRE(r.ok());
  REQUIRE(seen.size() == std::size_t(r.steps));
  CHECK(std::is_sorted(seen.begin(), seen.end()));
  CHECK(seen.back() == o.t_end);
}
