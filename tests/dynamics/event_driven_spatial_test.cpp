// Event-driven on a rigid, frictionless spatial revolute clearance joint: the contacts' drift
// terms against the gap's second difference along a rigid motion, Newton's impact law and the
// energy between and across impacts, Moreau–Jean converging to it as its step shrinks, and the
// refusal of friction.
#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <vector>

#include "dynamics/free_journal.hpp"
#include "dynamics/nonsmooth/event_driven.hpp"
#include "dynamics/nonsmooth/moreau_jean.hpp"

using namespace stickslip::dynamics;
using namespace stickslip::dynamics::test;
using Eigen::Vector3d;
using Eigen::VectorXd;

namespace {

int impacts(const RunResult& r) {
  return int(std::count_if(r.events.begin(), r.events.end(), [](const ContactEvent& e) { return e.kind == EventKind::kImpact; }));
}

}  // namespace

TEST_CASE("event-driven, spatial clearance: the drift terms are the gaps' second derivative along the motion",
          "[event-driven][spatial]") {
  // Both bodies moving at constant (ṙ, ω′), so g̈ = J_n v̇ + b_n = b_n: the second difference of
  // each candidate's gap over poses r + τ ṙ, A exp(τ ω̃′).
  FreeJournal f = freeJournal(0.9, 0.0, true);
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  const Eigen::Matrix3d housing = Eigen::AngleAxisd(0.3, Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  const Eigen::Matrix3d tilt = Eigen::AngleAxisd(0.02, Vector3d::UnitY()).toRotationMatrix();
  const Vector3d housing_r(0.01, -0.02, 0.03);
  VectorXd v(12);
  v << 0.3, -0.2, 0.5, 1.5, -2.0, 0.7, -0.1, 0.4, 0.2, -0.8, 0.6, 1.1;
  const auto pose = [&](double tau) {
    VectorXd q(14);
    const Eigen::Matrix3d a_j = housing * Eigen::AngleAxisd(tau * v.segment<3>(9).norm(), v.segment<3>(9).normalized());
    const Eigen::Matrix3d a_i = housing * tilt * Eigen::AngleAxisd(tau * v.segment<3>(3).norm(), v.segment<3>(3).normalized());
    q.segment<3>(0) = housing_r + housing * Vector3d(3e-4, 0.0, -2e-4) + tau * v.segment<3>(0);
    q.segment<4>(3) = eulerParameters(a_i);
    q.segment<3>(7) = housing_r + tau * v.segment<3>(6);
    q.segment<4>(10) = eulerParameters(a_j);
    return q;
  };
  ContactKinematics at, ahead, behind;
  mechanism.evaluateContacts(0.0, pose(0.0), v, at);
  // The second difference at h and h/2, extrapolated (Richardson): error O(h⁴); a smaller h
  // meets the round-off of the end walls' gaps (~1e-3 m).
  const auto second = [&](Eigen::Index k, double h) {
    mechanism.evaluateContacts(0.0, pose(h), v, ahead, false);
    mechanism.evaluateContacts(0.0, pose(-h), v, behind, false);
    return (ahead.gap(k) - 2.0 * at.gap(k) + behind.gap(k)) / (h * h);
  };
  for (Eigen::Index k = 0; k < 4; ++k) {
    INFO(mechanism.contacts()[std::size_t(k)].name);
    constexpr double h = 2e-5;
    CHECK(at.normal_drift(k) == Approx((4.0 * second(k, h / 2) - second(k, h)) / 3.0).epsilon(1e-5));
    CHECK(std::abs(at.normal_drift(k)) > 1.0);  // m/s²: a real curvature, not a vacuous match
  }
  // No motion, no drift (it is quadratic in the velocities).
  mechanism.evaluateContacts(0.0, pose(0.0), VectorXd::Zero(12), at);
  CHECK(at.normal_drift.cwiseAbs().maxCoeff() == 0.0);
}

TEST_CASE("event-driven, spatial clearance: a radial impact rebounds with Newton's e at its exact time",
          "[event-driven][spatial]") {
  const double e = 0.9, speed = 0.1;
  FreeJournal f = freeJournal(e, 0.0, false);
  f.v0(0) = speed;  // 0.5 mm from the bore: both rims (radial-A, -B) strike at t = 5 ms
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  EventDrivenOptions o;
  o.t_end = 0.008;
  const RunResult r = simulateEventDriven(mechanism, f.q0, f.v0, o);
  REQUIRE(r.ok());
  CHECK(r.final_v(0) == Approx(-e * speed).epsilon(1e-10));
  CHECK(r.final_v.tail(5).norm() < 1e-10);
  CHECK(kineticEnergy(f.model, r.final_v) == Approx(e * e * kineticEnergy(f.model, f.v0)).epsilon(1e-10));
  REQUIRE(impacts(r) == 2);
  for (const ContactEvent& ev : r.events) CHECK(ev.t == Approx(5e-4 / speed).epsilon(1e-9));
}

TEST_CASE("event-driven, spatial clearance: a spinning, tilting journal keeps T between impacts and loses it at each",
          "[event-driven][spatial]") {
  // The journal and its free housing spinning (Moreau–Jean's energy test): rims and end walls,
  // two or three contacts at once. Moreau's form of Newton's law on every contact of an impact
  // (a separating one too) makes each impact dissipate ½ (1 − e)/(1 + e) Pᵀ W P.
  FreeJournal f = freeJournal(0.9, 0.0, true);
  f.v0 << 0.0, 0.0, 0.01, 30.0, 0.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.0;
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  EventDrivenOptions o;
  o.t_end = 0.3;
  o.output_dt = 1e-4;
  const RunResult r = simulateEventDriven(mechanism, f.q0, f.v0, o);
  INFO(r.message);
  REQUIRE(r.ok());
  const Eigen::Index nq = f.model.positionSize(), nv = f.model.velocitySize();
  std::vector<double> t, energy;
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    t.push_back(r.history(i, 0));
    energy.push_back(kineticEnergy(f.model, r.history.row(i).segment(1 + nq, nv).transpose()));
  }
  std::vector<double> impact_times;
  for (const ContactEvent& ev : r.events)
    if (ev.kind == EventKind::kImpact) impact_times.push_back(ev.t);
  CAPTURE(impact_times.size());
  REQUIRE(impact_times.size() > 20);
  const double t0 = kineticEnergy(f.model, f.v0);
  double free_rise = 0.0, impact_rise = -1.0;
  for (std::size_t i = 1; i < t.size(); ++i) {
    const bool across = std::any_of(impact_times.begin(), impact_times.end(),
                                    [&](double ti) { return ti >= t[i - 1] && ti <= t[i]; });
    const double rise = energy[i] - energy[i - 1];
    if (across) impact_rise = std::max(impact_rise, rise);
    else free_rise = std::max(free_rise, std::abs(rise));
  }
  CAPTURE(free_rise, impact_rise);
  CHECK(free_rise < 1e-8 * t0);    // free flight (and sliding along the bore) keeps T (measured: exactly)
  CHECK(impact_rise < 1e-8 * t0);  // no impact adds energy
  CHECK(energy.back() < 0.9 * t0);
}

TEST_CASE("event-driven, spatial clearance: Moreau–Jean converges to it as its step shrinks",
          "[event-driven][spatial][moreau-jean]") {
  // The spinning journal over its first impacts (before their sequence turns chaotic): Moreau–
  // Jean's error at the end falls with its step h, to first order (an impact within a step).
  FreeJournal f = freeJournal(0.9, 0.0, true);
  f.v0 << 0.0, 0.0, 0.01, 30.0, 0.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.0;
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  EventDrivenOptions eo;
  eo.t_end = 0.01;
  const RunResult exact = simulateEventDriven(mechanism, f.q0, f.v0, eo);
  REQUIRE(exact.ok());
  REQUIRE(impacts(exact) >= 3);
  std::vector<double> errors;
  for (const double h : {1e-5, 1e-6, 1e-7}) {
    MoreauJeanOptions mo;
    mo.h = h;
    mo.t_end = eo.t_end;
    mo.output_dt = eo.t_end;
    const RunResult r = simulateMoreauJean(mechanism, f.q0, f.v0, mo);
    REQUIRE(r.ok());
    errors.push_back((r.final_q.head<3>() - exact.final_q.head<3>()).norm());
  }
  CAPTURE(errors);  // measured: 3.0e-6, 1.7e-7, 1.8e-8 m
  CHECK(errors[1] < errors[0] / 4.0);
  CHECK(errors[2] < errors[1] / 4.0);
  CHECK(errors[2] < 1e-7);
}

TEST_CASE("event-driven, spatial clearance: friction in the tangent plane is refused with the reason",
          "[event-driven][spatial]") {
  FreeJournal f = freeJournal(0.9, 0.1, false);
  const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
  CHECK_THROWS_WITH(simulateEventDriven(mechanism, f.q0, f.v0, EventDrivenOptions{}),
                    Catch::Contains("contact 'pin.radial-A' is a spatial clearance joint's with Coulomb friction"));
}
