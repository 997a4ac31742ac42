// Friction in the spatial slider-crank's translational joint (thesis §4.1, Table 4.1: μs 0.2,
// μk 0.1, a cube slider of 0.01 m): set-valued Coulomb by event-driven and Moreau–Jean against
// the penalty route as its regularization tightens, and the energy balance of each.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "dynamics/eom_methods/eom_integration.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/routes/penalty/penalty_system.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/spatial_slider_crank.hpp"

using namespace stickslip::dynamics;
using Eigen::VectorXd;

namespace {

constexpr double kTEnd = 5.0;
constexpr Eigen::Index kSliderVz = 6 * 2 + 2;  // the slider's ż in v

SpatialJointFriction sliderFriction() {
  SpatialJointFriction f;
  f.name = "slider";
  f.joint = 3;
  f.mu_static = 0.2;
  f.mu_kinetic = 0.1;
  f.slider_length = 0.01;
  return f;
}

/// Instants where column `c` of a sampled history changes sign, interpolated linearly.
std::vector<double> signChanges(const Eigen::MatrixXd& h, Eigen::Index c) {
  std::vector<double> out;
  for (Eigen::Index i = 1; i < h.rows(); ++i) {
    const double a = h(i - 1, c), b = h(i, c);
    if ((a > 0.0 && b <= 0.0) || (a < 0.0 && b >= 0.0))
      out.push_back(h(i - 1, 0) + (h(i, 0) - h(i - 1, 0)) * a / (a - b));
  }
  return out;
}

double maxGap(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return INFINITY;
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

struct Fixture {
  SpatialSliderCrank sc;
  SpatialMechanism mechanism{sc.model, sc.q0, {sliderFriction()}};
  double energy(const VectorXd& q, const VectorXd& v) const {
    return sc.model.kineticEnergy(v) + sc.model.potentialEnergy(q);
  }
};

/// The event-driven run, its reversal instants and its friction work W = −∫ T ṡ dt (trapezoid
/// on samples every 1e-4 s and at every event, where T jumps).
struct EventDrivenRun {
  RunResult run;
  std::vector<double> reversals;
  double work = 0.0;
  explicit EventDrivenRun(const Fixture& f) {
    EventDrivenOptions o;
    o.t_end = kTEnd;
    o.output_dt = 1e-4;
    run = simulateEventDriven(f.mechanism, f.sc.q0, f.sc.v0, o);
    for (const auto& e : run.events) reversals.push_back(e.t);
    const Eigen::Index tc = run.column("slider.F"), vc = 1 + 21 + kSliderVz;
    for (Eigen::Index i = 1; i < run.history.rows(); ++i)
      work -= 0.5 *
              (run.history(i, tc) * run.history(i, vc) +
               run.history(i - 1, tc) * run.history(i - 1, vc)) *
              (run.history(i, 0) - run.history(i - 1, 0));
  }
};

}  // namespace

TEST_CASE(
    "spatial friction: event-driven slides the slider through its reversals, energy balanced by "
    "friction work",
    "[spatial][friction]") {
  Fixture f;
  REQUIRE(f.sc.assembly.ok());
  const EventDrivenRun ed(f);
  REQUIRE(ed.run.ok());
  // The slider reverses at the crank's dead centres (its velocity is zero there by kinematics and
  // its acceleration is not): every event is a reversal, slip+ and slip− alternating.
  REQUIRE(ed.run.events.size() >= 30);
  for (std::size_t i = 0; i < ed.run.events.size(); ++i) {
    CHECK(ed.run.events[i].contact == 0);
    CHECK(ed.run.events[i].kind ==
          (i % 2 == 0 ? EventKind::kSlipPositive : EventKind::kSlipNegative));
  }
  const double e0 = f.energy(f.sc.q0, f.sc.v0), e1 = f.energy(ed.run.final_q, ed.run.final_v);
  INFO("E0 = " << e0 << " J, E(5 s) = " << e1 << " J, W = " << ed.work << " J");
  CHECK(ed.work > 1.0);  // friction dissipates most of the fall
  CHECK(std::abs(e1 + ed.work - e0) < 2e-5 * ed.work);
  CHECK(std::abs(ed.run.final_q.segment<4>(10).norm() - 1.0) < 1e-12);  // renormalized at events
}

TEST_CASE(
    "spatial friction: event-driven's joint friction from unit responses equals the fixed point "
    "that solves at every iterate",
    "[spatial][friction]") {
  Fixture f;
  REQUIRE(f.sc.assembly.ok());
  EventDrivenOptions o;
  o.t_end = 1.0;
  const RunResult by_units = simulateEventDriven(f.mechanism, f.sc.q0, f.sc.v0, o);
  o.unit_response_joints = 0;
  const RunResult by_iterates = simulateEventDriven(f.mechanism, f.sc.q0, f.sc.v0, o);
  REQUIRE(by_units.ok());
  REQUIRE(by_iterates.ok());
  REQUIRE(by_units.events.size() == by_iterates.events.size());
  REQUIRE(by_units.events.size() >= 4);
  for (std::size_t i = 0; i < by_units.events.size(); ++i)
    CHECK(std::abs(by_units.events[i].t - by_iterates.events[i].t) < 1e-8);
  // Both fixed points converge to 1e-13; what differs is CVODE's steps at rtol 1e-10 (measured:
  // events 1.1e-9 s, q 1.2e-8, v 4.6e-7, F 9.1e-7 N apart).
  CHECK((by_units.final_q - by_iterates.final_q).lpNorm<Eigen::Infinity>() < 1e-7);
  CHECK((by_units.final_v - by_iterates.final_v).lpNorm<Eigen::Infinity>() < 1e-5);
  const Eigen::Index tc = by_units.column("slider.F");
  REQUIRE(by_units.history.rows() == by_iterates.history.rows());
  CHECK((by_units.history.col(tc) - by_iterates.history.col(tc)).lpNorm<Eigen::Infinity>() < 1e-5);
  o.unit_response_joints = -1;
  CHECK_THROWS_WITH(simulateEventDriven(f.mechanism, f.sc.q0, f.sc.v0, o),
                    Catch::Contains("unit_response_joints >= 0, got -1"));
}

TEST_CASE(
    "spatial friction: the penalty route's reversals converge to event-driven's as its "
    "regularization tightens",
    "[spatial][friction][slow]") {
  Fixture f;
  REQUIRE(f.sc.assembly.ok());
  const EventDrivenRun ed(f);
  REQUIRE(ed.run.ok());
  const double e0 = f.energy(f.sc.q0, f.sc.v0);
  for (double v0 : {1e-3, 1e-4}) {
    // Ambrósio's modified Coulomb (linear-stiction): μs up to v0, then down to μk at v1 = 10 v0.
    FrictionParameters fp;
    fp.mu_s = 0.2;
    fp.mu_k = 0.1;
    fp.modified_v0 = v0;
    fp.modified_v1 = 10 * v0;
    PenaltyJointFriction pj;
    pj.law = makeFrictionLaw("linear-stiction", fp);
    PenaltySystem ps(f.mechanism, {}, EomMethod::kBaumgarte, {}, {pj});
    PenaltyIntegrationOptions io;
    io.t_end = kTEnd;
    io.output_dt = 1e-4;
    io.max_step = 1e-3;
    const PenaltyRun pr = simulatePenalty(ps, ps.initialState(0.0, f.sc.q0, f.sc.v0), io);
    REQUIRE(pr.status == PenaltyStatus::kSuccess);
    std::vector<double> reversals = signChanges(pr.history, 1 + 21 + kSliderVz);
    if (!reversals.empty() && reversals.front() < 1e-3)
      reversals.erase(reversals.begin());  // the start at rest
    INFO("v0 = " << v0);
    CHECK(maxGap(reversals, ed.reversals) < 5e-5);  // 3.1e-5 s at v0 = 1e-3, 4.4e-7 s at 1e-4
    const Eigen::Index nq = 21, nv = 18;
    const double work = pr.final_state(nq + nv);  // y = [q; v; W]: this law has no state
    CHECK(work == Approx(ed.work).epsilon(1e-4));
    CHECK(std::abs(f.energy(pr.final_state.head(nq), pr.final_state.segment(nq, nv)) + work - e0) <
          1e-5);
  }
}

TEST_CASE("spatial friction: Moreau–Jean reverses the slider with event-driven, within its step",
          "[spatial][friction]") {
  Fixture f;
  REQUIRE(f.sc.assembly.ok());
  const EventDrivenRun ed(f);
  REQUIRE(ed.run.ok());
  MoreauJeanOptions mo;
  mo.t_end = kTEnd;
  mo.h = 1e-4;
  mo.output_dt = 0.0;
  const RunResult mj = simulateMoreauJean(f.mechanism, f.sc.q0, f.sc.v0, mo);
  REQUIRE(mj.ok());
  std::vector<double> reversals = signChanges(mj.history, 1 + 21 + kSliderVz);
  if (!reversals.empty() && reversals.front() < 1e-3) reversals.erase(reversals.begin());
  CHECK(maxGap(reversals, ed.reversals) < 1e-3);  // 3.7e-4 s at h = 1e-4
  CHECK(mj.friction_work == Approx(ed.work).epsilon(1e-4));
  // The θ-scheme's velocity projection onto the turning joints dissipates O(h²): E + W may
  // only fall (2.5e-4 J here; without friction 3.6e-3 J over the 5 s).
  const double e0 = f.energy(f.sc.q0, f.sc.v0), e1 = f.energy(mj.final_q, mj.final_v);
  CHECK(e1 + mj.friction_work - e0 < 1e-9);
  CHECK(e1 + mj.friction_work - e0 > -1e-3);
}

namespace {

/// One body of mass m on a guide along z (a translational joint with the ground), hanging from
/// the guide by an arm: its centroid is `offset` from the slider's centre along x, so gravity
/// loads the slider with a couple m g e and no transverse force.
struct HangingSlider {
  SpatialModel model;
  VectorXd q0 = VectorXd::Zero(7), v0 = VectorXd::Zero(6);
  HangingSlider(double offset, double length, double mu_s, double mu_k) {
    model.setGravity({0, 0, -9.81});
    const BodyIndex b = model.addBody(
        "slider", 0.5, Eigen::Matrix3d(Eigen::Vector3d(1e-4, 1e-4, 1e-4).asDiagonal()));
    q0 << offset, 0, 0, 1, 0, 0, 0;
    model.addTranslational(kGround, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitZ(), b,
                           {-offset, 0, 0}, q0);
    friction.name = "guide";
    friction.joint = 0;
    friction.mu_static = mu_s;
    friction.mu_kinetic = mu_k;
    friction.slider_length = length;
  }
  SpatialJointFriction friction;
};

}  // namespace

TEST_CASE(
    "spatial friction: a slider loaded off its axis jams when its couple's wall forces hold it (ℓ "
    "≤ 2 μs e)",
    "[spatial][friction]") {
  // Held, the slider carries the weight F = m g at its centre, e from the centroid: the couple
  // F e is carried by wall forces ±F e/ℓ at its ends, the load is L = 2 F e/ℓ, and it sticks iff
  // m g ≤ μs L, i.e. ℓ ≤ 2 μs e (the drawer that jams). Sliding, the friction F = μk L is itself
  // the only couple, F = 2 μk e F/ℓ: F = 0 when 2 μk e < ℓ, and the slider falls freely.
  const double length = 0.01, g = 9.81;
  EventDrivenOptions o;
  o.t_end = 0.2;
  {
    HangingSlider s(0.03, length, 0.2, 0.1);  // 2 μs e = 0.012 ≥ ℓ: jams
    SpatialMechanism m(s.model, s.q0, {s.friction});
    const RunResult r = simulateEventDriven(m, s.q0, s.v0, o);
    REQUIRE(r.ok());
    CHECK(r.events.empty());
    CHECK(r.final_q(2) == Approx(0.0).margin(1e-12));
    const Eigen::Index last = r.history.rows() - 1;
    CHECK(std::abs(r.history(last, r.column("guide.F"))) ==
          Approx(0.5 * g).epsilon(1e-9));  // holds the weight
    CHECK(r.history(last, r.column("guide.reaction")) ==
          Approx(2 * 0.5 * g * 0.03 / length).epsilon(1e-9));
  }
  {
    HangingSlider s(0.02, length, 0.2, 0.1);  // 2 μs e = 0.008 < ℓ: slides
    SpatialMechanism m(s.model, s.q0, {s.friction});
    const RunResult r = simulateEventDriven(m, s.q0, s.v0, o);
    REQUIRE(r.ok());
    CHECK(r.events.empty());
    REQUIRE(r.initial_modes.size() == 1);
    CHECK(r.initial_modes.front() == ContactMode::kSlipNegative);
    CHECK(r.final_q(2) == Approx(-0.5 * g * 0.2 * 0.2).epsilon(1e-8));
    CHECK(r.history.col(r.column("guide.F")).cwiseAbs().maxCoeff() < 1e-12);
  }
  {
    HangingSlider s(0.03, 0.0, 0.2, 0.1);  // the jammed one as a point slider: no couple, it falls
    SpatialMechanism m(s.model, s.q0, {s.friction});
    const RunResult r = simulateEventDriven(m, s.q0, s.v0, o);
    REQUIRE(r.ok());
    CHECK(r.final_q(2) == Approx(-0.5 * g * 0.2 * 0.2).epsilon(1e-8));
  }
}

TEST_CASE("spatial friction: a pendulum held by its pin's friction, or not (l sin φ ≤ μs r)",
          "[spatial][friction]") {
  // At rest the pin carries the weight, |R| = m g, and friction holds the gravity torque
  // m g l sin φ iff l sin φ ≤ μs r.
  const double l = 0.1, r = 0.02, mu_s = 0.3;
  for (const double phi : {0.05, 0.07}) {  // l sin φ = 0.0050 ≤ 0.006 holds; 0.0070 does not
    SpatialModel model;
    model.setGravity({0, 0, -9.81});
    const BodyIndex b =
        model.addBody("bob", 0.4, Eigen::Matrix3d(Eigen::Vector3d(2e-4, 2e-4, 1e-4).asDiagonal()));
    VectorXd q0(7), v0 = VectorXd::Zero(6);
    q0 << l * std::sin(phi), 0, -l * std::cos(phi), 1, 0, 0, 0;
    model.addRevolute(kGround, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY(), b,
                      {-l * std::sin(phi), 0, l * std::cos(phi)}, Eigen::Vector3d::UnitY());
    SpatialJointFriction f;
    f.name = "pin";
    f.mu_static = mu_s;
    f.mu_kinetic = 0.2;
    f.radius = r;
    SpatialMechanism m(model, q0, {f});
    EventDrivenOptions o;
    o.t_end = 0.1;
    const RunResult run = simulateEventDriven(m, q0, v0, o);
    REQUIRE(run.ok());
    INFO("phi = " << phi);
    REQUIRE(run.initial_modes.size() == 1);
    if (l * std::sin(phi) <= mu_s * r) {
      CHECK(run.initial_modes.front() == ContactMode::kStick);
      CHECK(run.events.empty());
      CHECK((run.final_q - q0).norm() < 1e-12);
      const Eigen::Index last = run.history.rows() - 1;
      CHECK(run.history(last, run.column("pin.reaction")) == Approx(0.4 * 9.81).epsilon(1e-9));
    } else {
      CHECK(run.initial_modes.front() == ContactMode::kSlipPositive);  // ω_y > 0 turns it to φ = 0
      CHECK(run.final_q(0) < q0(0) - 1e-4);
    }
  }
}

TEST_CASE("spatial friction: joint friction the model cannot take is refused, naming it",
          "[spatial][friction]") {
  SpatialSliderCrank sc;
  SpatialJointFriction f = sliderFriction();
  f.joint = 1;  // the spherical joint
  CHECK_THROWS_WITH(SpatialMechanism(sc.model, sc.q0, {f}),
                    Catch::Contains("'slider'") && Catch::Contains("neither"));
  f.joint = 0;
  f.radius = 0.0;  // a revolute joint without a pin radius
  CHECK_THROWS_WITH(SpatialMechanism(sc.model, sc.q0, {f}), Catch::Contains("pin radius"));
  f = sliderFriction();
  f.mu_static = 0.05;  // below μk
  CHECK_THROWS_WITH(SpatialMechanism(sc.model, sc.q0, {f}),
                    Catch::Contains("mu_static >= mu_kinetic"));
  SpatialModel two;
  two.addBody("a", 1.0, Eigen::Matrix3d::Identity());
  two.addBody("b", 1.0, Eigen::Matrix3d::Identity());
  VectorXd q = VectorXd::Zero(14);
  q(3) = q(10) = 1.0;
  two.addTranslational(0, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitX(), 1,
                       Eigen::Vector3d::Zero(), q);
  f = sliderFriction();
  f.joint = 0;
  CHECK_THROWS_WITH(SpatialMechanism(two, q, {f}), Catch::Contains("ground as its guide"));
}
