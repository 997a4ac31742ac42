#include "mechanisms/blajer_verification.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dynamics/routes/minimal_form/minimal_form.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/dupont.hpp"

namespace stickslip::mechanisms {
namespace {

using Changes = std::vector<dynamics::ModeChange>;
constexpr double kMjStep = 1e-4;  // [s]
// Moreau–Jean's bounds at h = 1e-4 s: event times O(h), angles against the minimal form.
constexpr double kMjTimes = 5e-4;   // [s]
constexpr double kMjAngles = 5e-5;  // [rad]
constexpr const char* kStepped = " (a start from rest shows as a slip at t = h: dropped)";

dynamics::MinimalFormRun minimalForm(const MinimalFormScenario& s, double t_end) {
  dynamics::MinimalForm form(s.model, s.friction, s.options, s.x0);
  dynamics::MinimalFormSimulationOptions o;
  o.t_end = t_end;
  o.output_dt = 1e-2;
  return dynamics::simulateMinimalForm(form, s.x0, s.u0, o);
}

dynamics::RunResult eventDriven(const dynamics::RigidScenario& s, double t_end) {
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  o.output_dt = 1e-2;
  return dynamics::simulateEventDriven(s, o);
}

dynamics::RunResult moreauJean(const dynamics::RigidScenario& s, double t_end, double h = kMjStep) {
  dynamics::MoreauJeanOptions o;
  o.t_end = t_end;
  o.h = h;
  o.output_dt = 1e-2;
  return dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts, s.joint_friction), s.q0, s.v0, o);
}

// A time-stepping run's changes read as the event-driven ones: a start from rest shows as a
// slip at t = h (the reference begins in it: dropped). (Moreau–Jean itself reports a
// reversal through v = 0 as the reversal, not as a one-step stick: moreau_jean.hpp.)
Changes steppedChanges(const Changes& changes, double h) {
  Changes out;
  for (const auto& c : changes)
    if (c.first > 1.5 * h || c.second == "stick") out.push_back(c);
  return out;
}

// The history row sampled at t (not an event row at the same time: the first match).
Eigen::Index rowAt(const Eigen::MatrixXd& h, double t) {
  for (Eigen::Index i = 0; i < h.rows(); ++i)
    if (std::abs(h(i, 0) - t) < 1e-9) return i;
  return -1;
}

// Max |Δθ| of the first `bodies` bodies' angles (history columns 3, 6, 9, …) at t = 0.1, 0.2,
// …, t_end; NaN unless both runs reached t_end and every sample is found in both.
double maxAngleDifference(const dynamics::RunResult& a, const dynamics::RunResult& b, int bodies, double t_end) {
  if (!a.ok() || !b.ok()) return NAN;
  double worst = 0.0;
  const int samples = int(std::lround(t_end / 0.1));
  for (int i = 1; i <= samples; ++i) {
    const Eigen::Index ia = rowAt(a.history, 0.1 * i), ib = rowAt(b.history, 0.1 * i);
    if (ia < 0 || ib < 0) return NAN;
    for (int body = 0; body < bodies; ++body)
      worst = std::max(worst, std::abs(a.history(ia, 3 + 3 * body) - b.history(ib, 3 + 3 * body)));
  }
  return worst;
}

// Max |Δt| of two lists of changes matched one to one (equal counts and kinds); NaN when
// they cannot be matched or there is nothing to compare.
double maxTimeDifference(const Changes& a, const Changes& reference) {
  if (reference.empty()) return NAN;
  const double e = dynamics::maxModeTimeError(a, reference);
  return std::isfinite(e) ? e : NAN;
}

VerificationRow within(const std::string& c, const std::string& method, const std::string& quantity,
                       double reference, double obtained, double tolerance,
                       const dynamics::RunResult& run) {
  return makeRow(c, method, quantity, Check::kWithin, reference, obtained, tolerance, run.ok(),
                 run.ok() ? "" : run.message);
}

// A row comparing two runs: fails with the message of whichever failed.
VerificationRow between(const std::string& c, const std::string& method, const std::string& quantity,
                        double obtained, double tolerance, const dynamics::RunResult& run,
                        const dynamics::RunResult& reference_run) {
  VerificationRow r = within(c, method, quantity, 0.0, obtained, tolerance, run);
  if (!reference_run.ok()) {
    r.run_ok = false;
    r.note = "minimal form: " + reference_run.message;
    judge(r);
  }
  return r;
}

std::string count(std::size_t n, const char* what) { return std::to_string(n) + " " + what; }

}  // namespace

std::vector<VerificationRow> verifyDupontRoutes() {
  std::vector<VerificationRow> rows;
  const Changes ref = dupontReference({}, 10.0);
  const std::string of = "max |t - t_ref| of " + count(ref.size(), "stick/slip changes [s]");
  const MinimalFormScenario sm = dupontMinimalForm({});
  const dynamics::MinimalFormRun rm = minimalForm(sm, 10.0);
  rows.push_back(within("dupont", "minimal-form", of, 0.0, maxTimeDifference(dynamics::modeChanges(rm.run, 0), ref), 1e-6,
                        rm.run));
  const dynamics::RunResult mj = moreauJean(dupontRigid({}), 10.0);
  rows.push_back(within("dupont", "moreau-jean h=1e-4", of + kStepped, 0.0,
                        maxTimeDifference(steppedChanges(dynamics::modeChanges(mj), kMjStep), ref), kMjTimes, mj));
  return rows;
}

std::vector<VerificationRow> verifyBlajer1() {
  std::vector<VerificationRow> rows;
  struct Element {
    const char* name;
    BlajerFriction friction;
    int rigid_index;  // the events of O (or the element) in the absolute routes: the guide contact first
  };
  // With friction everywhere the crank comes to rest at the margin of sticking (μk < the
  // holding friction < μs): Moreau–Jean's step that reverses with μk is solved again with μs.
  const Element elements[] = {{"O", {true, false, false, false}, 1},
                              {"A", {false, true, false, false}, 1},
                              {"guide", {false, false, false, true}, 0},
                              {"every element", {true, true, true, true}, 1}};
  const std::string angles = "max |theta - theta_mf| of 3 bodies at 0.1 s steps over 3 s [rad]";
  for (const Element& el : elements) {
    Blajer1 b;
    b.frictional = el.friction;
    const MinimalFormScenario sm = blajer1MinimalForm(b);
    const dynamics::MinimalFormRun rm = minimalForm(sm, 3.0);
    const dynamics::RigidScenario se = blajer1Rigid(b);
    const Changes ref = dynamics::modeChanges(rm.run, 0);  // the minimal form lists the joints first
    const std::string where = std::string("friction in ") + el.name + ": ";
    const std::string times = where + "max |t - t_mf| of " + count(ref.size(), "stick/slip changes") +
                              (el.rigid_index == 1 && el.friction.guide ? " of O [s]" : " [s]");
    const dynamics::RunResult ed = eventDriven(se, 3.0);
    rows.push_back(between("blajer-1", "event-driven vs minimal-form", times,
                           maxTimeDifference(dynamics::modeChanges(ed, el.rigid_index), ref), 1e-6, ed, rm.run));
    rows.push_back(between("blajer-1", "event-driven vs minimal-form", where + angles,
                           maxAngleDifference(ed, rm.run, 3, 3.0), 1e-6, ed, rm.run));
    const dynamics::RunResult mj = moreauJean(se, 3.0);
    const std::string method = "moreau-jean h=1e-4 vs min-form";
    rows.push_back(between("blajer-1", method, times + kStepped,
                           maxTimeDifference(steppedChanges(dynamics::modeChanges(mj, el.rigid_index), kMjStep), ref),
                           kMjTimes, mj, rm.run));
    rows.push_back(between("blajer-1", method, where + angles, maxAngleDifference(mj, rm.run, 3, 3.0), kMjAngles,
                           mj, rm.run));
  }
  return rows;
}

std::vector<VerificationRow> verifyBlajer2() {
  std::vector<VerificationRow> rows;
  for (const bool pin : {true, false}) {
    Blajer2 b;
    b.pin_in_slot = pin;  // Blajer's pin-in-slot joint, or a slider body of m3 on the guide
    const MinimalFormScenario sm = blajer2MinimalForm(b);
    const dynamics::MinimalFormRun rm = minimalForm(sm, 10.0);
    const dynamics::RigidScenario se = blajer2Rigid(b);
    const dynamics::RunResult ed = eventDriven(se, 10.0), mj = moreauJean(se, 10.0);
    // Every frictional element, matched by name: the minimal form lists the joints first, the
    // absolute routes the guide contact. The guide breaks away at a dead centre (its ṡ ≡ 0 at
    // the mechanism's first break-away t_b): the minimal form and event-driven report its slip
    // at t_b, Moreau–Jean once |v_t| > stick_velocity. That delay gets its own row.
    double ed_times = 0.0, mj_times = 0.0, mj_dead_centre = NAN;
    std::size_t changes = 0;
    // A NaN (changes that cannot be matched) stays NaN: the row fails.
    const auto worse = [](double x, double y) { return std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y); };
    for (std::size_t f = 0; f < sm.friction.size(); ++f) {
      int rigid = 0;
      while (rigid < int(se.contacts.size()) && se.contacts[std::size_t(rigid)].name != sm.friction[f].name) ++rigid;
      if (rigid == int(se.contacts.size()))
        for (std::size_t j = 0; j < se.joint_friction.size(); ++j)
          if (se.joint_friction[j].name == sm.friction[f].name) rigid = int(se.contacts.size() + j);
      Changes ref = dynamics::modeChanges(rm.run, int(f));
      Changes mj_changes = steppedChanges(dynamics::modeChanges(mj, rigid), kMjStep);
      changes += ref.size();
      ed_times = worse(ed_times, maxTimeDifference(dynamics::modeChanges(ed, rigid), ref));
      if (sm.friction[f].name == "guide" && !ref.empty() && !mj_changes.empty() &&
          mj_changes.front().second == ref.front().second) {
        mj_dead_centre = mj_changes.front().first - ref.front().first;
        ref.erase(ref.begin());
        mj_changes.erase(mj_changes.begin());
      }
      mj_times = worse(mj_times, maxTimeDifference(mj_changes, ref));
    }
    const std::string what = pin ? "pin in slot, all friction: " : "slider, all friction: ";
    const std::string times = what + "max |t - t_mf| of " + count(changes, "stick/slip changes of 4 elements [s]");
    const int bodies = sm.model.bodyCount();
    const std::string angles = what + "max |theta - theta_mf| of " + std::to_string(bodies) +
                               " bodies at 0.1 s steps over 10 s [rad]";
    rows.push_back(between("blajer-2", "event-driven vs minimal-form", times, ed_times, 1e-6, ed, rm.run));
    rows.push_back(between("blajer-2", "event-driven vs minimal-form", angles, maxAngleDifference(ed, rm.run, bodies, 10.0),
                           1e-6, ed, rm.run));
    rows.push_back(between("blajer-2", "moreau-jean h=1e-4 vs min-form",
                           what + "max |t - t_mf| of " + count(changes - 1, "stick/slip changes") +
                               ", all but the guide's dead-centre break-away [s]" + kStepped,
                           mj_times, kMjTimes, mj, rm.run));
    rows.push_back(between("blajer-2", "moreau-jean h=1e-4 vs min-form",
                           what + "delay of the guide's slip from its dead centre (reported once |v_t| > "
                                  "stick_velocity = 1e-8 m/s) [s]",
                           mj_dead_centre, 1e-2, mj, rm.run));
    rows.push_back(between("blajer-2", "moreau-jean h=1e-4 vs min-form", angles, maxAngleDifference(mj, rm.run, bodies, 10.0),
                           kMjAngles, mj, rm.run));
  }
  return rows;
}

}  // namespace stickslip::mechanisms
