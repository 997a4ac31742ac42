#include "cli/run_nonsmooth.hpp"
#include "cli/run_options.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/run_minimal_form.hpp"
#include "dynamics/nonsmooth/event_driven.hpp"
#include "dynamics/nonsmooth/moreau_jean.hpp"
#include "dynamics/nonsmooth/stick_statistics.hpp"
#include "dynamics/penalty_route.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/dupont.hpp"
#include "mechanisms/incline.hpp"
#include "mechanisms/journal_bearing.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/scenario_file.hpp"
#include "mechanisms/zheng.hpp"

namespace stickslip::cli {
namespace {

/// Mode changes of the scenario's exact reference, when it has one.
std::vector<std::pair<double, std::string>> referenceEvents(const mechanisms::Scenario& s, double t_end) {
  if (const auto* belt = std::get_if<mechanisms::Belt>(&s.data)) {
    std::vector<std::pair<double, std::string>> ev;
    for (const auto& [t, kind] : mechanisms::beltClosedForm(*belt).events(t_end))
      ev.emplace_back(t, kind == "stick" ? "stick" : "slip-");  // the block falls behind the belt
    return ev;
  }
  if (const auto* d = std::get_if<mechanisms::Dupont>(&s.data)) return mechanisms::dupontReference(*d, t_end);
  if (const auto* in = std::get_if<mechanisms::PushedIncline>(&s.data))
    return mechanisms::pushedInclineReference(t_end, *in);
  return {};
}

/// Zheng's Example III (a free crank released at rest): whether the crank held its initial
/// angle, from the largest |theta1 - theta1(0)| over the recorded history (events included).
struct CrankHold {
  double drift = 0.0;  ///< [rad]
  bool held = false;
};
std::optional<CrankHold> crankHold(const mechanisms::Scenario& s, const dynamics::RunResult& r) {
  const auto* z = std::get_if<mechanisms::ZhengSliderCrank>(&s.data);
  if (!z || z->drive != mechanisms::ZhengSliderCrank::Drive::kFree || r.history.rows() == 0) return {};
  constexpr int kTheta1 = 3;  // history columns: t, then the crank's x, y, theta
  // Sticking, theta1 moves only within the integrator's tolerance (1e-12 rad over the 5 s
  // default run); slipping, it falls by ~3e-3 rad within a tenth of a second: 1e-6 rad
  // separates the two with room on both sides.
  constexpr double kHeldTolerance = 1e-6;
  CrankHold h;
  h.drift = (r.history.col(kTheta1).array() - r.history(0, kTheta1)).abs().maxCoeff();
  h.held = r.ok() && h.drift <= kHeldTolerance;
  return h;
}

/// The journal-bearing's free flights, impacts and continuous contact, from a penalty run
/// (its contact closes and opens at crossings the integrator locates).
std::optional<mechanisms::JournalBearingPhases> journalBearingPhases(const mechanisms::Scenario& s,
                                                                     const std::string& method,
                                                                     const dynamics::RunResult& r) {
  const auto* jb = std::get_if<mechanisms::JournalBearing>(&s.data);
  if (!jb || method != "penalty") return {};
  return mechanisms::journalBearingPhases(*jb, r);
}

/// The contacts (frictional ones) and joint frictions the run starts sticking in, as the
/// route decided at t = 0 (RunResult::initial_modes).
std::vector<bool> initiallySticking(const dynamics::RigidScenario& s, const dynamics::RunResult& r) {
  std::vector<bool> out;
  for (std::size_t k = 0; k < r.initial_modes.size(); ++k)
    out.push_back(r.initial_modes[k] == dynamics::ContactMode::kStick &&
                  (k >= s.contacts.size() || s.contacts[k].frictional()));
  return out;
}

/// The contact or joint friction an event or history column pair belongs to: contacts first,
/// then joint friction (event_driven.hpp).
const std::string& elementName(const dynamics::RigidScenario& s, int index) {
  const auto nc = int(s.contacts.size());
  return index < nc ? s.contacts[std::size_t(index)].name : s.joint_friction[std::size_t(index - nc)].name;
}

/// CSV columns after the forces: each contact's sliding velocity v_t and the eccentricity
/// (e_x, e_y) of journal-bearing contacts (rigid_contact.hpp), then each joint friction's ṡ.
void writeContactKinematicsHeader(std::ostream& f, const dynamics::RigidScenario& s) {
  for (const auto& c : s.contacts) {
    f << ',' << c.name << ".v_t";
    if (c.shape == dynamics::RigidContact::Shape::kJournalBearing)
      f << ',' << c.name << ".e_x," << c.name << ".e_y";
  }
  for (const auto& j : s.joint_friction) f << ',' << j.name << ".v_t";
}

/// Writes those columns for history rows, with its workspace sized once.
class ContactKinematicsWriter {
 public:
  explicit ContactKinematicsWriter(const dynamics::RigidScenario& s) : s_(s), q_(s.q0.size()), v_(s.v0.size()) {}
  void write(std::ostream& f, const Eigen::Ref<const Eigen::RowVectorXd>& row) {
    q_ = row.segment(1, q_.size()).transpose();
    v_ = row.segment(1 + q_.size(), v_.size()).transpose();
    dynamics::evaluateContacts(s_.model, s_.contacts, row(0), q_, v_, k_, false);
    for (std::size_t c = 0; c < s_.contacts.size(); ++c) {
      const auto i = Eigen::Index(c);
      f << ',' << k_.sliding_velocity(i);
      if (s_.contacts[c].shape == dynamics::RigidContact::Shape::kJournalBearing) {
        // g = c − |e|, and the contact's normal, the push on the journal, is −e/|e|
        // (rigid_contact.cpp): e = −(c − g) n.
        const Eigen::Vector2d e = (k_.gap(i) - s_.contacts[c].journal_bearing.clearance()) * k_.normal[c];
        f << ',' << e.x() << ',' << e.y();
      }
    }
    for (const auto& j : s_.joint_friction) f << ',' << j.rate(s_.model, v_);
  }

 private:
  const dynamics::RigidScenario& s_;
  Eigen::VectorXd q_, v_;
  dynamics::ContactKinematics k_;
};

/// What the penalty route ran with: the law for set-valued Coulomb, the integrator, and why
/// BDF was given up for RK4 (when it was).
struct PenaltyChoice {
  std::string law, integrator, bdf_failure;
  double stick_velocity = 0.0;  ///< of its estimated modes [m/s]
};

/// The penalty route (dynamics/penalty_route.hpp) on a mechanism: --friction's law (the
/// scenario's own by default, with the parameters its data fix), BDF unless
/// --integrator says rk4 or the law jumps at v_t = 0 (it stalls BDF); a BDF failure with no
/// integrator asked for is redone with RK4, and the reason kept.
dynamics::RunResult runPenaltyRoute(const po::variables_map& vm, const mechanisms::Scenario& scenario,
                                       const mechanisms::RigidScenarioInfo& info,
                                       const dynamics::RigidScenario& s, double t_end,
                                       std::optional<double> output_dt,
                                       const std::function<void(double)>& progress, PenaltyChoice& choice) {
  dynamics::PenaltyRouteOptions o;
  const bool frictional = !s.joint_friction.empty() ||
                          std::any_of(s.contacts.begin(), s.contacts.end(), [](const auto& c) { return c.frictional(); });
  o.friction_law = !vm["friction"].defaulted() ? vm["friction"].as<std::string>()
                   : frictional                ? info.penalty_friction
                                               : "none";  // nothing to replace: said so in the output
  o.friction_parameters = mechanisms::penaltyFrictionParameters(scenario.data, scenario.friction);
  o.passive = info.passive;
  const bool jumps =  // also stops a misspelt law here
      o.friction_law != "none" && frictionLawOption(o.friction_law, o.friction_parameters)->jumpsAtZero();
  if (!vm["friction"].defaulted() && o.friction_law != "none" && !frictional)
    throw std::invalid_argument("--friction: '" + scenario.name + "' has no set-valued friction for " +
                                o.friction_law + " to replace (no contact or joint with mu_s or mu_k > 0)");
  choice.law = o.friction_law;
  choice.stick_velocity = o.stick_velocity;
  choice.integrator = !vm["integrator"].defaulted() ? vm["integrator"].as<std::string>() : jumps ? "rk4" : "bdf";
  o.integration.integrator = penaltyIntegrator(choice.integrator);
  o.integration.t_end = t_end;
  // RK4: 10 µs resolves the default steel contacts of bodies of tens of grams and up.
  o.integration.dt = vm["dt"].defaulted() ? 1e-5 : vm["dt"].as<double>();
  o.integration.output_dt = output_dt.value_or(1e-3);
  o.integration.progress = progress;
  dynamics::RunResult r = dynamics::simulatePenaltyRoute(s, o);
  if (!r.ok() && vm["integrator"].defaulted() && r.status == dynamics::RunStatus::kIntegratorFailure) {
    choice.bdf_failure = std::string(dynamics::toString(r.status)) + ": " + r.message;
    choice.integrator = "rk4";
    o.integration.integrator = penaltyIntegrator(choice.integrator);
    r = dynamics::simulatePenaltyRoute(s, o);
  }
  return r;
}

/// Run settings for a model file: a compliant contact makes its phases stiff (BDF) and rules
/// out Moreau–Jean, as for the built-ins; 1 s unless run.t_end says otherwise.
mechanisms::RigidScenarioInfo modelInfo(const mechanisms::Scenario& s) {
  mechanisms::RigidScenarioInfo info;
  info.name = s.name;
  info.summary = "a mechanism of its own, from " + s.source;
  for (const dynamics::RigidContact& c : s.model->contacts)
    info.stiff = info.stiff || c.normal == dynamics::RigidContact::Normal::kCompliant;
  info.moreau_jean = !info.stiff;
  return info;
}

}  // namespace

int runNonsmooth(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                 std::ostream& err) {
  const std::string& name = scenario.name;
  const std::string method = vm["method"].as<std::string>();
  if (method == "minimal-form") return runMinimalForm(vm, scenario, out, err);
  if (scenario.model && vm["ideal"].as<bool>())
    throw std::invalid_argument("--ideal: a model file states its joints itself");
  if (scenario.model && method != "penalty" && !vm["friction"].defaulted())
    throw std::invalid_argument("--friction: the law of the penalty route; a model file states its "
                                "set-valued friction itself");
  const mechanisms::RigidScenarioInfo info = scenario.model ? modelInfo(scenario) : mechanisms::rigidScenarioInfo(name);
  const dynamics::RigidScenario s =
      scenario.model ? *scenario.model
                     : mechanisms::buildRigidScenario(
                           name, scenario.data,
                           // penalty: --friction is the law replacing set-valued Coulomb
                           vm["friction"].defaulted() || method == "penalty" ? "default" : vm["friction"].as<std::string>(),
                           vm["ideal"].as<bool>(), method == "moreau-jean");
  const double t_end = vm["t-end"].defaulted() ? info.t_end : vm["t-end"].as<double>();
  const std::string solver = vm["solver"].as<std::string>();
  const std::string csv = outputPath(vm);

  // --output-dt: > 0 for event-driven (it samples between events), >= 0 for Moreau-Jean.
  std::optional<double> output_dt;
  if (vm.count("output-dt")) {
    output_dt = vm["output-dt"].as<double>();
    const bool every_step = method == "moreau-jean" && *output_dt == 0.0;
    if (!(*output_dt > 0.0 || every_step) || !std::isfinite(*output_dt))
      throw std::invalid_argument("--output-dt: expected a time step > 0 [s]" +
                                  std::string(method == "moreau-jean" ? " or 0 (every step)" : "") +
                                  ", got " + std::to_string(*output_dt));
  }

  dynamics::RunResult r;
  double h = 0.0;
  PenaltyChoice penalty;
  // On a terminal, a bar for runs that last more than a second; otherwise no callback at all.
  ProgressBar bar("run " + name);
  const std::function<void(double)> progress = simulatedTimeProgress(bar, t_end);
  if (method == "event-driven") {
    dynamics::EventDrivenOptions o;
    if (output_dt) o.output_dt = *output_dt;
    o.t_end = t_end;
    o.solver = solver;
    if (info.stiff) o.integrator = dynamics::OdeMethod::kBdf;
    o.relative_tolerance = vm["tolerance"].defaulted() && info.stiff ? 1e-8 : vm["tolerance"].as<double>();
    o.absolute_tolerance = 1e-2 * o.relative_tolerance;
    o.velocity_tolerance = info.zero_velocity;
    o.event_tolerance = vm["event-tolerance"].as<double>();
    o.progress = progress;
    r = dynamics::simulateEventDriven(s, o);
  } else if (method == "moreau-jean") {
    dynamics::MoreauJeanOptions o;
    if (output_dt) o.output_dt = *output_dt;
    o.t_end = t_end;
    o.solver = solver;
    o.h = h = vm["dt"].defaulted() ? info.h : vm["dt"].as<double>();
    o.theta = vm["theta"].as<double>();
    o.progress = progress;
    r = dynamics::simulateMoreauJean(s.model, s.contacts, s.q0, s.v0, o, s.joint_friction);
  } else if (method == "penalty") {
    r = runPenaltyRoute(vm, scenario, info, s, t_end, output_dt, progress, penalty);
  } else {
    throw std::invalid_argument("--method: expected event-driven, moreau-jean or penalty for '" + name +
                                "', got '" + method + "'");
  }

  bar.finish();
  if (!csv.empty()) {
    std::ofstream f = openCsv(csv);
    writeStateHeader(f, s.model);
    for (const auto& c : s.contacts) f << ',' << c.name << ".N," << c.name << ".F";
    // Joint friction as the minimal form names it: |R|, the torque T as J.F and ṡ as J.v_t,
    // so that compare matches the routes and counts its work −∫ T ṡ dt.
    for (const auto& j : s.joint_friction) f << ',' << j.name << ".reaction," << j.name << ".F";
    writeContactKinematicsHeader(f, s);
    f << '\n';
    ContactKinematicsWriter kinematics(s);
    for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
      for (Eigen::Index j = 0; j < r.history.cols(); ++j) f << (j ? "," : "") << r.history(i, j);
      kinematics.write(f, r.history.row(i));
      f << '\n';
    }
    markIncomplete(f, r.ok(), r.message);
  }

  // Compare the stick/slip changes with the exact reference, event by event.
  const auto reference = referenceEvents(scenario, r.t_end);
  std::vector<const dynamics::ContactEvent*> modes;
  for (const auto& e : r.events)
    if (e.kind == dynamics::EventKind::kStick || e.kind == dynamics::EventKind::kSlipPositive ||
        e.kind == dynamics::EventKind::kSlipNegative)
      modes.push_back(&e);
  double max_error = NAN;
  bool matched = !reference.empty() && modes.size() == reference.size();
  if (matched) {
    max_error = 0.0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
      matched = matched && std::string(dynamics::toString(modes[i]->kind)) == reference[i].second;
      max_error = std::max(max_error, std::abs(modes[i]->t - reference[i].first));
    }
  }
  const long steps = r.steps;
  const dynamics::StickStatistics stick = dynamics::stickStatistics(
      r.events, initiallySticking(s, r), 0.0, r.t_end);
  const auto phases = journalBearingPhases(scenario, method, r);
  if (vm["json"].as<bool>()) {
    nlohmann::json events = nlohmann::json::array(), ref = nlohmann::json::array();
    for (const auto& e : r.events) {
      events.push_back({{"t", e.t}, {"contact", elementName(s, e.contact)},
                        {"kind", std::string(dynamics::toString(e.kind))}});
      if (e.approximate) events.back()["approximate"] = true;
    }
    for (const auto& [t, kind] : reference) ref.push_back({{"t", t}, {"kind", kind}});
    nlohmann::json j{{"scenario", name},
                     {"method", method},
                     {"solver", solver},
                     {"status", std::string(dynamics::toString(r.status))},
                     {"message", r.message},
                     {"t", r.t_end},
                     {"steps", steps},
                     {"lcp_solves", r.lcp_solves},
                     {"pivots", r.pivots},
                     {"mode_checks", r.mode_checks},
                     {"mode_mismatches", r.mode_mismatches},
                     {"cpu_seconds", r.cpu_seconds},
                     {"events", events},
                     {"friction_work", finiteOrNull(r.friction_work)},
                     {"final_q", toJson(r.final_q)},
                     {"final_v", toJson(r.final_v)}};
    j["transitions"] = stick.transitions;
    j["stick_fraction"] = stick.stick_fraction;
    if (method == "penalty") {  // its modes are estimated from the samples' |v_t|
      j["stick_velocity"] = penalty.stick_velocity;
      j["friction"] = penalty.law;
      j["integrator"] = penalty.integrator;
      if (!penalty.bdf_failure.empty()) j["bdf_failure"] = penalty.bdf_failure;
    }
    if (method == "moreau-jean") {
      j["h"] = h;
      j["us_per_step"] = steps > 0 ? 1e6 * r.cpu_seconds / double(steps) : 0.0;
    }
    if (const auto hold = crankHold(scenario, r)) {
      j["theta1_drift"] = hold->drift;
      j["held"] = hold->held;
    }
    if (!reference.empty())
      j["reference"] = {{"events", ref}, {"matched", matched}, {"max_time_error", finiteOrNull(max_error)}};
    if (phases) {
      nlohmann::json modes_j = nlohmann::json::array(), impacts = nlohmann::json::array();
      for (const auto& m : phases->modes)
        modes_j.push_back({{"t_begin", m.t_begin}, {"t_end", m.t_end},
                           {"mode", std::string(mechanisms::toString(m.mode))}, {"approximate", true}});
      for (const auto& i : phases->impacts)
        impacts.push_back({{"t_close", i.t_close}, {"t_open", i.t_open},
                           {"velocity_in", i.velocity_in}, {"velocity_out", i.velocity_out},
                           {"energy_ratio", i.energy_ratio}, {"approximate", true}});
      j["modes"] = modes_j;
      j["impacts"] = impacts;
    }
    out << j.dump() << "\n";
  } else {
    out << name << " — " << info.summary << "\n"
        << method
        << (method == "penalty" ? " (friction law " + penalty.law + ", " + penalty.integrator +
                                      (penalty.bdf_failure.empty() ? "" : "; BDF failed: " + penalty.bdf_failure) + ")"
                                : " (solver " + solver + ")")
        << (method == "moreau-jean" ? ", h = " + std::to_string(h) + " s" : "")
        << "\nstatus      " << (r.ok() ? "ok" : "failed: " + r.message) << "\n"
        << "t           " << r.t_end << " s\n"
        << "steps       " << steps;
    if (method == "moreau-jean" && steps > 0) out << "  (" << 1e6 * r.cpu_seconds / double(steps) << " us/step)";
    out << "\nLCP solves  " << r.lcp_solves << " (" << r.pivots << " pivots)\n";
    if (r.mode_checks > 0)
      out << "LCP vs trial-and-error: " << r.mode_mismatches << " mismatches in " << r.mode_checks
          << " decisions\n";
    if (phases) {
      const double e = std::get<mechanisms::JournalBearing>(scenario.data).restitution;
      out << "impacts     " << phases->impacts.size() << " (energy ratio vs c_e^2 = " << e * e << ":";
      for (std::size_t k = 0; k < std::min<std::size_t>(phases->impacts.size(), 5); ++k)
        out << ' ' << std::setprecision(4) << phases->impacts[k].energy_ratio;
      out << std::setprecision(6) << (phases->impacts.size() > 5 ? " …" : "")
          << ")\nmodes       " << phases->modes.size() << " (approximate times, from the contact's crossings)\n";
      const std::size_t shown = std::min<std::size_t>(phases->modes.size(), 12);
      for (std::size_t k = 0; k < shown; ++k)
        out << "  " << phases->modes[k].t_begin << " .. " << phases->modes[k].t_end << " s  "
            << mechanisms::toString(phases->modes[k].mode) << "\n";
      if (shown < phases->modes.size()) {
        const auto& last = phases->modes.back();
        out << "  … " << phases->modes.size() - shown - 1 << " more, then " << last.t_begin << " .. "
            << last.t_end << " s  " << mechanisms::toString(last.mode) << " (--json lists all)\n";
      }
    }
    if (const auto hold = crankHold(scenario, r))
      out << "crank       " << (hold->held ? "held" : "not held") << ", max |theta1 - theta1(0)| = "
          << hold->drift << " rad\n";
    out << "cpu         " << r.cpu_seconds << " s\n"
        << "stick       "
        << stick.stick_fraction << " of the run, " << stick.transitions << " transitions into or out of stick"
        << (method == "penalty" ? " (estimated: |v_t| < " + mechanisms::exactNumber(penalty.stick_velocity) +
                                      " m/s at the samples)"
                                : std::string())
        << "\n"
        << "events      " << r.events.size() << "\n";
    const std::size_t shown = std::min<std::size_t>(r.events.size(), 40);
    for (std::size_t i = 0; i < shown; ++i)
      out << "  " << std::setw(14) << std::setprecision(10) << r.events[i].t << " s  "
          << elementName(s, r.events[i].contact) << "  "
          << dynamics::toString(r.events[i].kind) << "\n";
    if (shown < r.events.size()) out << "  … " << r.events.size() - shown << " more (--json lists all)\n";
    if (!reference.empty()) {
      if (matched)
        out << "reference   " << reference.size() << " stick/slip changes matched, max |dt| = "
            << max_error << " s" << (method == "penalty" ? " (estimated changes)" : "") << "\n";
      else
        out << "reference   " << reference.size() << " stick/slip changes, not matched one to one\n";
    }
  }
  if (!r.ok()) err << "stickslip run: " << dynamics::toString(r.status) << ": " << r.message << "\n";
  return r.ok() ? kExitOk : kExitFailure;
}

}  // namespace stickslip::cli
