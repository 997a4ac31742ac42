// Event-driven on a rigid spatial revolute clearance joint: the contacts' drift terms against the
// gap's second difference along a rigid motion, Newton's impact law (with and without the
// tangential restitution) and the energy between and across impacts, Moreau–Jean converging to
// it as its step shrinks, stick and slip in the tangent plane against the incline's closed
// forms, and the refusals.
#include <catch2/catch.hpp>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/free_journal.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"

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

TEST_CASE("event-driven, spatial clearance: the impact law newton-tangential reverses a sticking impact's every "
          "relative velocity by e, and leaves a sliding one as Newton's law does",
          "[event-driven][spatial][friction]") {
  // The journal strikes both rims sliding along the axis. Its six velocities are the two rims'
  // six relative velocities (J square): an impact that sticks on both, ξ = u⁺ + e u⁻ = 0, gives
  // v⁺ = −e v⁻ exactly; Newton's law (normal rows only) stops the sliding instead.
  const double e = 0.9;
  const auto impact = [&](double mu, const std::string& law) {
    FreeJournal f = freeJournal(e, mu, false);
    f.v0(0) = 0.1;   // radially: both rims strike at t = 5 ms
    f.v0(2) = 0.05;  // sliding along the bore
    const SpatialMechanism mechanism(f.model, f.q0, {}, {f.clearance});
    EventDrivenOptions o;
    o.t_end = 0.0051;
    o.impact_law = law;
    const RunResult r = simulateEventDriven(mechanism, f.q0, f.v0, o);
    INFO(r.message);
    REQUIRE(r.ok());
    REQUIRE(impacts(r) == 2);
    return std::pair{r.final_v, kineticEnergy(f.model, r.final_v) / kineticEnergy(f.model, f.v0)};
  };
  const auto [stick, stick_ratio] = impact(2.0, "newton-tangential");
  VectorXd reversed = VectorXd::Zero(6);
  reversed(0) = -e * 0.1;
  reversed(2) = -e * 0.05;
  CHECK((stick - reversed).norm() < 1e-10);
  CHECK(stick_ratio == Approx(e * e).epsilon(1e-10));
  const auto [stopped, stopped_ratio] = impact(2.0, "newton");
  CHECK(stopped(0) == Approx(-e * 0.1).epsilon(1e-10));
  CHECK(std::abs(stopped(2)) < 0.05 * 0.6);  // the rims' sliding stopped (the journal rolls a little)
  CHECK(stopped_ratio < e * e);               // Newton's law takes the sliding energy too
  // μ = 0.1 cannot stop the sliding: ξ_T and u_T⁺ point the same way, so both laws give one answer.
  const auto [slide_t, slide_t_ratio] = impact(0.1, "newton-tangential");
  const auto [slide_n, slide_n_ratio] = impact(0.1, "newton");
  CHECK((slide_t - slide_n).norm() < 1e-10);
  CHECK(slide_t(2) > 0.0);
  CHECK(slide_t(2) < 0.05);
}

TEST_CASE("event-driven, spatial clearance: a spinning, tilting journal keeps T between impacts and loses it at each",
          "[event-driven][spatial]") {
  // The journal and its free housing spinning (Moreau–Jean's energy test): rims and end walls,
  // two or three contacts at once. Moreau's form of Newton's law on every contact of an impact
  // (a separating one too) makes each impact dissipate ½ (1 − e)/(1 + e) Pᵀ W P.
  const FreeJournal f = spinningJournal();
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
  const FreeJournal f = spinningJournal();
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

namespace {

/// The journal resting on the bore's bottom (both rims on it) under gravity tilted by α
/// towards −z, the bearing's axis: a block on an incline of slope tan α, μs = 0.2, μk = 0.1.
struct Incline {
  FreeJournal f = freeJournal(0.9, 0.0, false);
  double alpha, g = 9.81;
  explicit Incline(double slope) : alpha(std::atan(slope)) {
    f.clearance.mu_static = 0.2;
    f.clearance.mu_kinetic = 0.1;
    f.model.setGravity(g * Vector3d(0.0, -std::cos(alpha), -std::sin(alpha)));
    f.q0(1) = -(f.clearance.joint.bearing_radius - f.clearance.joint.journal_radius);
  }
};

/// The journal on the incline from its state, by `solver` (lemke: on `facets` facets) to t_end.
RunResult run(const Incline& in, const char* solver, double t_end, int facets = 0) {
  const SpatialMechanism mechanism(in.f.model, in.f.q0, {}, {in.f.clearance});
  EventDrivenOptions o;
  o.t_end = t_end;
  o.solver = solver;
  if (facets > 0) o.facets = facets;
  return simulateEventDriven(mechanism, in.f.q0, in.f.v0, o);
}

double frictionSum(const RunResult& r, Eigen::Index row) {
  double sum = 0.0;
  for (std::size_t c = 0; c < r.columns.size(); ++c)
    if (r.columns[c].ends_with(".F")) sum += r.history(row, Eigen::Index(c));
  return sum;
}

}  // namespace

TEST_CASE("event-driven, spatial clearance: a journal sliding down the bore stops and sticks at the closed-form "
          "instant",
          "[event-driven][spatial][friction]") {
  // tan α = 0.05 < μk: sliding down at v0 it decelerates at a = g (μk cos α − sin α), stops at
  // v0/a after v0²/(2a), and sticks (tan α < μs), held by m g sin α.
  // On the faceted cone (lemke) and on the round cone (our nsgs and newton) alike: the instant
  // within 1e-6 of itself, and the round cone's as close as the facets' (where sticking is exact).
  std::vector<double> miss;
  for (const char* solver : {"lemke", "nsgs", "newton"}) {
    INFO(solver);
    Incline in(0.05);
    const double v0 = 0.01, a = in.g * (0.1 * std::cos(in.alpha) - std::sin(in.alpha));
    in.f.v0(2) = -v0;
    const RunResult r = run(in, solver, 0.05);
    INFO(r.message);
    REQUIRE(r.ok());
    std::vector<double> stuck;
    for (const ContactEvent& ev : r.events) {
      CHECK(ev.kind == EventKind::kStick);  // nothing else: no impact, no lift-off
      stuck.push_back(ev.t);
    }
    REQUIRE(stuck.size() == 2);  // both rims
    miss.push_back(0.0);
    for (const double t : stuck) miss.back() = std::max(miss.back(), std::abs(t - v0 / a));
    CHECK(miss.back() <= 1e-6 * v0 / a);
    CHECK(r.final_q(2) == Approx(-v0 * v0 / (2.0 * a)).epsilon(1e-6));
    CHECK(r.final_v.norm() < 1e-8);
    // At rest the rims' friction holds the journal's weight along the axis (F = −‖F_T‖ each).
    CHECK(-frictionSum(r, r.history.rows() - 1) == Approx(in.g * std::sin(in.alpha)).epsilon(1e-6));
  }
  CAPTURE(miss);  // measured: 1.02e-8 s for each
  CHECK(miss[1] <= 1.001 * miss[0]);
  CHECK(miss[2] <= 1.001 * miss[0]);
}

TEST_CASE("event-driven, spatial clearance: on a slope steeper than μs the journal breaks away down the axis",
          "[event-driven][spatial][friction]") {
  // tan α = 0.3 > μs: from rest it slips at once, in the direction the problem with μk gives,
  // and slides down at g (sin α − μk cos α), whichever the facets.
  for (const int facets : {8, 32, 0}) {  // 0: the round cone, by our newton
    INFO(facets << " facets");
    const Incline in(0.3);
    const double t_end = 0.02;
    const RunResult r = run(in, facets > 0 ? "lemke" : "newton", t_end, facets);
    INFO(r.message);
    REQUIRE(r.ok());
    const double a = in.g * (std::sin(in.alpha) - 0.1 * std::cos(in.alpha));
    CHECK(r.final_q(2) == Approx(-0.5 * a * t_end * t_end).epsilon(1e-6));
    CHECK(std::abs(r.final_q(0)) < 1e-10);         // no sideways drift
    CHECK(r.final_v.segment<3>(3).norm() < 1e-8);  // nor any rolling
    CHECK(r.contact_solver == (facets > 0 ? "lemke (" + std::to_string(facets) + " facets)" : "newton (round cone)"));
  }
}

TEST_CASE("event-driven, spatial clearance: on a slope of exactly μs the journal stays stuck",
          "[event-driven][spatial][friction]") {
  // tan α = μs: each rim's sticking force sits on its round cone, at the limit only to round-off
  // and the integrator's drift; Coulomb's law holds with stick, which must last.
  for (const char* solver : {"nsgs", "newton"}) {
    INFO(solver);
    const Incline in(0.2);
    const RunResult r = run(in, solver, 2.0);
    INFO(r.message);
    REQUIRE(r.ok());
    CHECK(r.events.empty());
    CHECK(std::abs(r.final_q(2)) < 1e-9);
    CHECK(-frictionSum(r, r.history.rows() - 1) == Approx(in.g * std::sin(in.alpha)).epsilon(1e-9));
  }
}

TEST_CASE("event-driven, spatial clearance: what it cannot take is refused with the reason", "[event-driven][spatial]") {
  Incline in(0.05);
  const SpatialMechanism rigid(in.f.model, in.f.q0, {}, {in.f.clearance});
  EventDrivenOptions o;
  o.solver = "siconos-nsgs";
  CHECK_THROWS_WITH(simulateEventDriven(rigid, in.f.q0, in.f.v0, o),
                    Catch::Contains("spatial contacts take the solver lemke (our Lemke on the faceted cone"));
  in.f.clearance.rigid = false;
  const SpatialMechanism compliant(in.f.model, in.f.q0, {}, {in.f.clearance});
  CHECK_THROWS_WITH(simulateEventDriven(compliant, in.f.q0, in.f.v0, EventDrivenOptions{}),
                    Catch::Contains("contact 'pin.radial-A' is compliant with Coulomb friction in its tangent plane"));
}
