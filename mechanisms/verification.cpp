#include "mechanisms/verification.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/statics/hold.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/routes/penalty/penalty_route.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/blajer_verification.hpp"
#include "mechanisms/bouncing_ball.hpp"
#include "mechanisms/dupont.hpp"
#include "mechanisms/incline.hpp"
#include "mechanisms/muvengei_verification.hpp"
#include "mechanisms/journal_bearing_verification.hpp"
#include "mechanisms/roller_crank_verification.hpp"
#include "mechanisms/thesis_verification.hpp"
#include "mechanisms/zheng.hpp"

namespace stickslip::mechanisms {
namespace {

using Events = std::vector<dynamics::ModeChange>;
constexpr double kInf = std::numeric_limits<double>::infinity();

VerificationRow row(std::string c, std::string method, std::string quantity, double reference,
                    double obtained, double tolerance, const dynamics::RunResult* run = nullptr,
                    bool relative = false, Check check = Check::kWithin) {
  const bool ok = !run || run->ok();
  return makeRow(std::move(c), std::move(method), std::move(quantity), check, reference, obtained,
                 tolerance, ok, ok ? "" : run->message, relative);
}

// A count that must be zero (mode-decision mismatches).
VerificationRow zeroCount(std::string c, std::string method, std::string quantity, long count,
                          const dynamics::RunResult* run) {
  return row(std::move(c), std::move(method), std::move(quantity), 0.0, double(count), 0.0, run, false,
             Check::kCount);
}

double maxTimeError(const dynamics::RunResult& run, const Events& reference) {
  return dynamics::maxModeTimeError(dynamics::modeChanges(run), reference);
}

dynamics::RunResult eventDriven(const dynamics::RigidScenario& s, double t_end,
                                   std::string solver = "lemke") {
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.solver = std::move(solver);
  return dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

dynamics::RunResult moreauJean(const dynamics::RigidScenario& s, double t_end, double h) {
  dynamics::MoreauJeanOptions o;
  o.t_end = t_end;
  o.h = h;
  return dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

Events beltReference(double t_end) {
  Events ev;
  for (const auto& [t, kind] : beltClosedForm({}).events(t_end))
    ev.emplace_back(t, kind == "stick" ? "stick" : "slip-");  // the block falls behind the belt
  return ev;
}

std::vector<VerificationRow> modeChanges(const std::string& name, const dynamics::RigidScenario& s,
                                         const Events& reference, double t_end) {
  std::vector<VerificationRow> rows;
  for (const char* solver : {"lemke", "trial-and-error"}) {
    const dynamics::RunResult r = eventDriven(s, t_end, solver);
    rows.push_back(row(name, std::string("event-driven/") + solver,
                       "max |t - t_ref| of " + std::to_string(reference.size()) + " stick/slip changes [s]",
                       0.0, maxTimeError(r, reference), 1e-6, &r));
    if (std::string(solver) == "lemke")
      rows.push_back(zeroCount(name, "event-driven/lemke", "LCP vs trial-and-error mode mismatches in " +
                               std::to_string(r.mode_checks) + " decisions (count, must be 0)", r.mode_mismatches, &r));
  }
  return rows;
}

std::vector<VerificationRow> belt() {
  const Events ref = beltReference(20.0);
  std::vector<VerificationRow> rows = modeChanges("belt", beltRigid({}), ref, 20.0);
  const dynamics::RunResult mj = moreauJean(beltRigid({}), 20.0, 1e-4);
  rows.push_back(row("belt", "moreau-jean h=1e-4", "max |t - t_ref| of 4 stick/slip changes [s]", 0.0,
                     maxTimeError(mj, ref), 2e-4, &mj));  // O(h): 2 steps
  // The penalty route over the mechanism (compliant normal, Karnopp's stick band held with the
  // applied force it computes) against the thesis' one-degree-of-freedom ODE (N = m g), both
  // RK4 at 1e-5 s over the first break-away.
  const Belt b;
  dynamics::FrictionParameters p;
  p.mu_s = b.mu_static;
  p.mu_k = b.mu_kinetic;
  PenaltyOptions po;
  po.dt = 1e-5;
  po.t_end = 8.0;
  const PenaltyRun ode = simulateBeltPenalty(b, *dynamics::makeFrictionLaw("karnopp", p), po);
  dynamics::PenaltyRouteOptions ro;
  ro.friction_law = "karnopp";
  ro.integration.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kRk4;
  ro.integration.dt = po.dt;
  ro.integration.t_end = po.t_end;
  ro.integration.output_dt = po.output_dt;
  const dynamics::RunResult route = dynamics::simulatePenaltyRoute(beltRigid(b), ro);
  // x of the route at the ODE's sample times (linear between the route's samples).
  double worst = ode.ok && route.ok() && route.history.rows() > 1 ? 0.0 : kInf;
  Eigen::Index j = 1;
  for (Eigen::Index i = 0; std::isfinite(worst) && i < ode.history.rows(); ++i) {
    const double t = ode.history(i, 0);
    while (j + 1 < route.history.rows() && route.history(j, 0) < t) ++j;
    const double t0 = route.history(j - 1, 0), t1 = route.history(j, 0);
    const double w = std::clamp((t - t0) / (t1 - t0), 0.0, 1.0);
    worst = std::max(worst, std::abs((1.0 - w) * route.history(j - 1, 1) + w * route.history(j, 1) - ode.history(i, 1)));
  }
  rows.push_back(row("belt", "penalty karnopp", "max |x - x_ode| over 8 s vs the thesis' 1-DoF ODE [m]", 0.0,
                     worst, 1e-6, &route));
  return rows;
}

std::vector<VerificationRow> incline() {
  std::vector<VerificationRow> rows;
  for (const double alpha : {0.3805, 0.3806}) {  // atan(0.4) = 0.38051
    Incline in;
    in.angle = alpha;
    in.push_amplitude = 0.0;
    in.mu_static = 0.4;
    in.mu_kinetic = 0.3;
    const dynamics::RunResult r = eventDriven(inclineRigid(in), 1.0);
    const bool sticks = std::tan(alpha) <= in.mu_static;
    const double travel = r.final_q.head<2>().norm();
    const double expected = sticks ? 0.0 : 0.5 * in.gravity * (std::sin(alpha) - in.mu_kinetic * std::cos(alpha));
    rows.push_back(row("incline", "event-driven/lemke",
                       "travel in 1 s from rest, alpha = " + std::to_string(alpha) +
                           (sticks ? " (tan <= mu_s: sticks) [m]" : " (tan > mu_s: slides) [m]"),
                       expected, travel, 1e-9, &r));
    const dynamics::RigidScenario resting = inclineRigid(in);
    const dynamics::HoldResult h = dynamics::analyseHold(resting, resting.q0);
    rows.push_back(row("incline", "hold", "critical mu_s = tan(alpha), alpha = " + std::to_string(alpha) + " (relative)",
                       std::tan(alpha), h.elements.at(0).critical_mu, 1e-10, nullptr, true));
  }
  for (auto& r : modeChanges("incline", inclineRigid(), inclineReference(10.0), 10.0))
    rows.push_back(std::move(r));
  return rows;
}

std::vector<VerificationRow> ball() {
  std::vector<VerificationRow> rows;
  BouncingBall b;
  b.restitution = 0.5;
  const dynamics::RunResult r = eventDriven(bouncingBall(b), 2.0);
  std::vector<double> impacts;
  for (const auto& e : r.events)
    if (e.kind == dynamics::EventKind::kImpact) impacts.push_back(e.t);
  double worst = impacts.size() >= 4 ? 0.0 : kInf;
  for (std::size_t k = 2; k < std::min<std::size_t>(impacts.size(), 8); ++k)
    worst = std::max(worst, std::abs((impacts[k] - impacts[k - 1]) / (impacts[k - 1] - impacts[k - 2]) - b.restitution));
  rows.push_back(row("ball", "event-driven/lemke", "flight-time ratio of successive bounces (= e; energy e^2)",
                     b.restitution, b.restitution + worst, 1e-6, &r));
  BouncingBall roll;
  roll.height = roll.radius;
  roll.velocity_x = 2.0;
  roll.spin = 10.0;
  roll.mu_static = roll.mu_kinetic = 0.3;
  const double v_roll = (2.0 * roll.velocity_x - roll.radius * roll.spin) / 3.0;
  const dynamics::RunResult ed = eventDriven(bouncingBall(roll), 2.0);
  rows.push_back(row("ball", "event-driven/lemke", "rolling speed (2 v0 - r w0)/3 [m/s]", v_roll,
                     ed.final_v.size() ? ed.final_v(0) : kInf, 1e-9, &ed, true));
  const dynamics::RunResult mj = moreauJean(bouncingBall(roll), 2.0, 1e-4);
  rows.push_back(row("ball", "moreau-jean h=1e-4", "rolling speed (2 v0 - r w0)/3 [m/s]", v_roll,
                     mj.final_v.size() ? mj.final_v(0) : kInf, 1e-6, &mj, true));
  return rows;
}

dynamics::RunResult zhengRun(const ZhengSliderCrank& z, double t_end, std::string solver = "lemke",
                             double output_dt = 1e-2) {
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.integrator = dynamics::OdeMethod::kBdf;  // the compliant clearance joint is stiff
  o.relative_tolerance = 1e-8;
  o.absolute_tolerance = 1e-12;
  o.velocity_tolerance = 1e-5;  // Zheng et al.'s zero tangential velocity
  o.output_dt = output_dt;
  o.solver = std::move(solver);
  return dynamics::simulateEventDriven(zhengRigid(z), o);
}

double maxDifference(const dynamics::RunResult& a, const dynamics::RunResult& b, Eigen::Index col) {
  if (!a.ok() || !b.ok() || a.history.rows() != b.history.rows()) return kInf;
  return (a.history.col(col) - b.history.col(col)).lpNorm<Eigen::Infinity>();
}

/// Fraction of a run's samples where the clearance joint's sliding speed is at most Zheng's
/// zero, 1e-5 m/s: about the stick fraction for dry Coulomb, ~0 when v_t only crosses zero.
double restingFraction(const ZhengSliderCrank& z, const dynamics::RunResult& run) {
  if (!run.ok() || run.history.rows() == 0) return kInf;
  const dynamics::RigidScenario s = zhengRigid(z);
  const Eigen::Index nq = s.model.positionSize();
  dynamics::ContactKinematics k;
  long resting = 0;
  for (Eigen::Index i = 0; i < run.history.rows(); ++i) {
    dynamics::evaluateContacts(s.model, s.contacts, run.history(i, 0), run.history.row(i).segment(1, nq).transpose(),
                               run.history.row(i).segment(1 + nq, nq).transpose(), k);
    resting += std::abs(k.sliding_velocity(0)) <= 1e-5;
  }
  return double(resting) / double(run.history.rows());
}

/// Example II's samples [s]: fine enough that the journal's ringing (events every ~10 ms) does
/// not alias into the torque's low harmonics.
constexpr double kZhengSample = 1e-3;

/// The zero crossings of the crank angle θ1 (history column 3) after t = 0, each between two
/// samples by linear interpolation.
std::vector<double> crankZeroCrossings(const dynamics::RunResult& run) {
  std::vector<double> out;
  const Eigen::MatrixXd& h = run.history;
  for (Eigen::Index i = 1; run.ok() && i < h.rows(); ++i) {
    const double a = h(i - 1, 3), b = h(i, 3);
    if (a != 0.0 && (a < 0.0) != (b < 0.0))
      out.push_back(h(i - 1, 0) + (h(i, 0) - h(i - 1, 0)) * a / (a - b));
  }
  return out;
}

struct LagRuns {
  dynamics::RunResult none, dry;
  std::vector<double> shifts;  ///< dry less none, crossing by crossing (empty: counts differ)
  const dynamics::RunResult* failed() const { return !none.ok() ? &none : !dry.ok() ? &dry : nullptr; }
};

/// θ1's zero crossings over 2 s at drive τ0, with and without dry Coulomb: event-driven on the
/// compliant joint, or Moreau–Jean (h = 1e-4 s) on its rigid counterpart.
LagRuns lagRuns(double torque, bool rigid) {
  LagRuns out;
  for (const bool friction : {false, true}) {
    ZhengSliderCrank z = zhengExample("torque");
    z.torque_amplitude = torque;
    z.mu_kinetic = friction ? 0.10 : 0.0;
    z.mu_static = friction ? 0.11 : 0.0;
    z.rigid_contact = rigid;
    (friction ? out.dry : out.none) = rigid ? moreauJean(zhengRigid(z), 2.0, 1e-4) : zhengRun(z, 2.0);
  }
  const std::vector<double> a = crankZeroCrossings(out.none), b = crankZeroCrossings(out.dry);
  if (a.size() == b.size())
    for (std::size_t i = 0; i < a.size(); ++i) out.shifts.push_back(b[i] - a[i]);
  return out;
}

/// Example I's "because of the friction in the clearance joint the motion lags" (Zheng §4.1,
/// Fig. 5) as signed time shifts of θ1's zero crossings, dry Coulomb (μ 0.10, μs 0.11) less no
/// friction over 2 s. At a drive τ0 = 0.2 N m every crossing comes later, as the paper finds.
/// At our τ0 = 0.5 N m they come earlier: the frictionless crank swings to 0.13 rad of the
/// unstable top, where the swing's period grows steeply with its amplitude, and friction's
/// smaller swing is a faster one. That lead is checked against Moreau–Jean's on the rigid joint,
/// a route with none of the compliant joint's code.
std::vector<VerificationRow> zhengLag() {
  std::vector<VerificationRow> rows;
  const LagRuns gentle = lagRuns(0.2, false);
  const double least = gentle.shifts.empty() ? NAN : *std::min_element(gentle.shifts.begin(), gentle.shifts.end());
  rows.push_back(row("zheng", "event-driven/lemke",
                     "I at tau0 = 0.2 N m: least delay of theta1's " + std::to_string(gentle.shifts.size()) +
                         " zero crossings in 2 s, dry Coulomb less no friction (the motion lags), >= 3e-3 [s]",
                     NAN, least, 3e-3, gentle.failed(), false, Check::kAtLeast));
  const LagRuns compliant = lagRuns(0.5, false), rigid = lagRuns(0.5, true);
  const double lead = compliant.shifts.size() >= 3 ? compliant.shifts[2] : NAN;
  const double lead_mj = rigid.shifts.size() >= 3 ? rigid.shifts[2] : NAN;
  rows.push_back(row("zheng", "event-driven vs moreau-jean h=1e-4",
                     "I at tau0 = 0.5 N m: shift of theta1's 3rd zero crossing by friction (it comes earlier), "
                     "compliant joint against the rigid one [s]",
                     lead_mj, lead, 3e-3, compliant.failed() ? compliant.failed() : rigid.failed()));
  return rows;
}

/// The peak over [1, 2] s of the driving torque's part up to 3 Hz (its Fourier series on that
/// period, θ1's, to the third harmonic, from the samples at multiples of kZhengSample). That is the
/// amplitude Zheng et al. name without the ripple of the journal ringing in its bearing
/// (~0.02 N m), which is larger than friction's effect on the raw peak.
double lowHarmonicPeak(const dynamics::RunResult& run, const Eigen::VectorXd& tau) {
  constexpr int kHarmonics = 3;
  constexpr double kDt = kZhengSample;
  const double w = 2.0 * std::numbers::pi;
  double mean = 0.0, a[kHarmonics + 1] = {}, b[kHarmonics + 1] = {};
  int count = 0;
  for (Eigen::Index i = 0; i < tau.size(); ++i) {
    const double t = run.history(i, 0);
    if (t < 1.0 - 1e-9 || t > 2.0 - kDt + 1e-9 || std::abs(t - kDt * std::round(t / kDt)) > 1e-9) continue;
    mean += tau(i);
    for (int k = 1; k <= kHarmonics; ++k) {
      a[k] += tau(i) * std::cos(k * w * t);
      b[k] += tau(i) * std::sin(k * w * t);
    }
    ++count;
  }
  if (count != int(std::lround(1.0 / kDt))) return NAN;  // a sample missing: the run stopped short
  double peak = 0.0;
  for (int j = 0; j < 1000; ++j) {
    const double t = 1.0 + j * 1e-3;
    double value = mean / count;
    for (int k = 1; k <= kHarmonics; ++k)
      value += 2.0 / count * (a[k] * std::cos(k * w * t) + b[k] * std::sin(k * w * t));
    peak = std::max(peak, std::abs(value));
  }
  return peak;
}

/// Example II's "larger friction coefficients correspond to larger amplitudes of the Lagrange
/// multiplier λ1" (Zheng §4.2, Fig. 11), dry Coulomb μ = μs = 0.05, 0.10, 0.15: the least ratio
/// of lowHarmonicPeak() from one μ to the next. Each step adds ~2.2 %, so ≥ 1.015 fails without
/// friction's effect (1.000), with the wrong sign (< 1) or with half of it.
VerificationRow zhengAmplitude() {
  double previous = 0.0, least_growth = kInf;
  std::string amplitudes;
  dynamics::RunResult run;
  for (const double mu : {0.05, 0.10, 0.15}) {
    ZhengSliderCrank z = zhengExample("rheonomic");
    z.mu_kinetic = z.mu_static = mu;
    run = zhengRun(z, 2.0, "lemke", kZhengSample);
    if (!run.ok()) break;
    const double amplitude = lowHarmonicPeak(run, zhengDrivingTorque(zhengRigid(z), run));
    if (previous > 0.0) least_growth = std::min(least_growth, amplitude / previous);
    previous = amplitude;
    amplitudes += (amplitudes.empty() ? "" : ", ") + std::to_string(amplitude);
  }
  return row("zheng", "event-driven/lemke",
             "II: peak of the driving torque's 0-3 Hz part over [1, 2] s, mu 0.05 -> 0.10 -> 0.15 (" + amplitudes +
                 " N m): least ratio A(mu') / A(mu), >= 1.015",
             NAN, run.ok() ? least_growth : NAN, 1.015, &run, false, Check::kAtLeast);
}

std::vector<VerificationRow> zheng() {
  std::vector<VerificationRow> rows;
  ZhengSliderCrank dry = zhengExample("torque");
  dry.mu_kinetic = 0.10;
  dry.mu_static = 0.11;
  const dynamics::RunResult by_lcp = zhengRun(dry, 2.0), by_trial = zhengRun(dry, 2.0, "trial-and-error");
  long sticks = 0;
  for (const auto& e : by_lcp.events) sticks += e.kind == dynamics::EventKind::kStick;
  rows.push_back(row("zheng", "event-driven/lemke",
                     "I, dry Coulomb: stick events (v_t held at 0) in 2 s, >= 1", NAN, double(sticks), 1.0,
                     &by_lcp, false, Check::kAtLeast));
  rows.push_back(row("zheng", "event-driven", "I: max |theta1(LCP) - theta1(trial-and-error)| [rad]", 0.0,
                     maxDifference(by_lcp, by_trial, 3), 1e-10, &by_trial));
  ZhengSliderCrank modified = dry;
  modified.modified_coulomb = true;
  const dynamics::RunResult smooth = zhengRun(modified, 2.0);
  rows.push_back(row("zheng", "event-driven",
                     "I, modified Coulomb: fraction of samples with |v_t| <= 1e-5 m/s (dry Coulomb: " +
                         std::to_string(restingFraction(dry, by_lcp)) + ")",
                     0.0, restingFraction(modified, smooth), 0.01, &smooth));
  rows.push_back(zeroCount("zheng", "event-driven/lemke", "I: LCP vs trial-and-error mode mismatches in " +
                           std::to_string(by_lcp.mode_checks) + " decisions (count, must be 0)",
                           by_lcp.mode_mismatches, &by_lcp));
  ZhengSliderCrank free = zhengExample("torque");
  const dynamics::RunResult clearance = zhengRun(free, 1.0);
  free.ideal = true;
  const dynamics::RunResult ideal = zhengRun(free, 1.0);
  rows.push_back(row("zheng", "event-driven", "I, no friction: max |theta1 - theta1(ideal joints)| [rad]", 0.0,
                     maxDifference(clearance, ideal, 3), 1e-3, &clearance));
  for (VerificationRow& r : zhengLag()) rows.push_back(std::move(r));
  rows.push_back(zhengAmplitude());

  // III: released at rest at pi - 0.01 in the sticking equilibrium.
  const double start = std::numbers::pi - 0.01;
  ZhengSliderCrank held = zhengExample("equilibrium");
  held.mu_kinetic = 0.15;
  held.mu_static = 0.20;
  const dynamics::RunResult dry3 = zhengRun(held, 5.0);
  const Eigen::Index cols = dry3.history.cols();
  const double drift = dry3.ok() ? (dry3.history.col(3).array() - start).abs().maxCoeff() : kInf;
  rows.push_back(row("zheng", "event-driven/lemke", "III, Coulomb mu 0.15, mu_s 0.2: max |theta1 - (pi - 0.01)| over 5 s [rad]",
                     0.0, drift, 1e-9, &dry3));
  // hold (no simulation): the critical μs is |F|/N of the sticking run at t = 0, and the
  // simulations flip there.
  const dynamics::RigidScenario at_rest = zhengRigid(held);
  const double critical = dynamics::analyseHold(at_rest, at_rest.q0).elements.at(0).critical_mu;
  const double ratio = dry3.ok() ? std::abs(dry3.history(0, cols - 1) / dry3.history(0, cols - 2)) : NAN;
  rows.push_back(row("zheng", "hold", "III: critical mu_s = |F|/N of the event-driven run at t = 0 (relative)", ratio,
                     critical, 1e-9, &dry3, true));
  for (const double factor : {0.999, 1.001}) {
    ZhengSliderCrank near = held;
    near.mu_kinetic = 0.1;
    near.mu_static = factor * critical;
    const dynamics::RunResult r = zhengRun(near, 0.3);
    const double moved = r.ok() ? (r.history.col(3).array() - start).abs().maxCoeff() : NAN;
    rows.push_back(factor < 1.0 ? row("zheng", "event-driven/lemke",
                                      "III at 0.999 x hold's critical mu_s: max |theta1 - (pi - 0.01)| over 0.3 s, "
                                      ">= 1e-6 (falls) [rad]",
                                      NAN, moved, 1e-6, &r, false, Check::kAtLeast)
                                : row("zheng", "event-driven/lemke",
                                      "III at 1.001 x hold's critical mu_s: max |theta1 - (pi - 0.01)| over 0.3 s, "
                                      "<= 1e-9 (held) [rad]",
                                      NAN, moved, 1e-9, &r, false, Check::kAtMost));
  }
  const double least_friction = dry3.ok() ? dry3.history.col(cols - 1).cwiseAbs().minCoeff() : 0.0;
  rows.push_back(row("zheng", "event-driven/lemke",
                     "III, Coulomb: min |F| of the static friction force holding it over 5 s, >= 0.5 N [N]",
                     NAN, least_friction, 0.5, &dry3, false, Check::kAtLeast));
  for (const bool ambrosio : {true, false}) {
    ZhengSliderCrank falls = held;
    falls.modified_coulomb = ambrosio;
    if (!ambrosio) falls.mu_kinetic = falls.mu_static = 0.0;
    const dynamics::RunResult r = zhengRun(falls, 1.5);
    const double lowest = r.ok() ? r.history.col(3).minCoeff() : NAN;
    rows.push_back(row("zheng", "event-driven", std::string("III, ") + (ambrosio ? "modified Coulomb" : "no friction") +
                           ": falls from pi - 0.01: min theta1 over 1.5 s, <= 0.5 [rad]",
                       NAN, lowest, 0.5, &r, false, Check::kAtMost));
  }
  return rows;
}

}  // namespace

std::string_view toString(Check c) {
  switch (c) {
    case Check::kWithin: return "|o-r|<=tol";
    case Check::kAtMost: return "o<=tol";
    case Check::kAtLeast: return "o>=tol";
    case Check::kCount: return "o==r";
  }
  return "?";
}

std::string_view jsonName(Check c) {
  switch (c) {
    case Check::kWithin: return "within";
    case Check::kAtMost: return "at-most";
    case Check::kAtLeast: return "at-least";
    case Check::kCount: return "count";
  }
  return "?";
}

void judge(VerificationRow& r) {
  switch (r.check) {
    case Check::kWithin:
      r.error = std::abs(r.obtained - r.reference);
      if (r.relative && r.reference != 0.0) r.error /= std::abs(r.reference);
      r.pass = r.error <= r.tolerance;
      break;
    case Check::kAtMost:
      r.error = r.obtained;
      r.pass = r.obtained <= r.tolerance;
      break;
    case Check::kAtLeast:
      r.error = r.obtained;
      r.pass = r.obtained >= r.tolerance;
      break;
    case Check::kCount:
      r.error = std::abs(r.obtained - r.reference);
      r.pass = r.error == 0.0;
      break;
  }
  // A row states its bound, or does not pass: within a tolerance > 0 of a finite reference, a
  // finite one-sided bound, a count's tolerance 0. NaN figures fail every comparison above.
  bool stated = std::isfinite(r.tolerance);
  if (r.check == Check::kWithin) stated = stated && r.tolerance > 0.0 && std::isfinite(r.reference);
  if (r.check == Check::kCount) stated = r.tolerance == 0.0;
  r.pass = r.pass && r.run_ok && stated;
}

VerificationRow makeRow(std::string case_name, std::string method, std::string quantity, Check check,
                        double reference, double obtained, double tolerance, bool run_ok, std::string note,
                        bool relative) {
  VerificationRow r;
  r.case_name = std::move(case_name);
  r.method = std::move(method);
  r.quantity = std::move(quantity);
  r.check = check;
  r.reference = reference;
  r.obtained = obtained;
  r.tolerance = tolerance;
  r.run_ok = run_ok;
  r.note = std::move(note);
  r.relative = relative;
  judge(r);
  return r;
}

const std::vector<VerificationCase>& verificationCases() {
  static const std::vector<VerificationCase> all{
      {"belt", "closed-form stick/slip instants of the belt (thesis Table 3.1) over 20 s; the penalty route "
               "against the thesis' 1-DoF ODE"},
      {"dupont", "Dupont's two masses against the closed-form Coulomb reference over 10 s: event-driven, "
                 "minimal form, Moreau-Jean"},
      {"incline", "a block sticks iff tan(alpha) <= mu_s (simulated, and by hold); pushed, its stick/slip instants"},
      {"ball", "Newton restitution per impact; rolling without slipping after sliding"},
      {"zheng", "Zheng et al. I-III: stick with dry Coulomb, LCP = trial-and-error, ideal limit, torque grows with mu, "
                "dry Coulomb holds the crank (hold's critical mu_s = |F|/N, simulations flip there), modified Coulomb "
                "and no friction let it fall"},
      {"muvengei", "Muvengei et al. at 2500 rpm: ideal joint = closed form; clearance + LuGre: spikes, bounds, work balance"},
      {"blajer-1", "Blajer's Example 1, friction in one element at a time (O, A, the guide) and in every "
                   "element: event-driven and Moreau-Jean against the minimal form over 3 s"},
      {"blajer-2", "Blajer's Example 2 with its pin-in-slot joint and with a slider, friction in every "
                   "element: event-driven and Moreau-Jean against the minimal form over 10 s"},
      {"roller-crank", "review Tables 1-3, six friction models: energy balance, constraints, chatter of the discontinuous laws, LuGre F/N > mu_s, Brown-McPhee F/N <= mu_s"},
      {"journal-bearing", "review Table 5: the first impact's peak against Hertz's, its energy ratio against c_e^2, "
                          "Brown-McPhee within its cone"},
      {"thesis", "the thesis' Figs 2.7-2.10 (the EOM methods' violations, energy and cost), 3.20-3.24 (the belt under the "
                 "catalogue's laws) and 4.3-4.25 (the spatial slider-crank: friction in the guide, the clearance "
                 "joint, friction in it)"},
  };
  return all;
}

std::vector<VerificationRow> runVerification(std::string_view name) {
  if (name == "belt") return belt();
  if (name == "dupont") {
    std::vector<VerificationRow> rows = modeChanges("dupont", dupontRigid({}), dupontReference({}, 10.0), 10.0);
    for (auto& r : verifyDupontRoutes()) rows.push_back(std::move(r));
    return rows;
  }
  if (name == "blajer-1") return verifyBlajer1();
  if (name == "blajer-2") return verifyBlajer2();
  if (name == "incline") return incline();
  if (name == "ball") return ball();
  if (name == "zheng") return zheng();
  if (name == "muvengei") return verifyMuvengei();
  if (name == "roller-crank") return rollerCrankVerification();
  if (name == "journal-bearing") return journalBearingVerification();
  if (name == "thesis") return thesisVerification();
  std::string names;
  for (const auto& c : verificationCases()) names += (names.empty() ? "" : ", ") + c.name;
  throw std::invalid_argument("--case: unknown case '" + std::string(name) + "' (cases: " + names + ")");
}

}  // namespace stickslip::mechanisms
