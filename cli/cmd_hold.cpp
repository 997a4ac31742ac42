// stickslip hold SCENARIO: does set-valued static friction hold the mechanism at rest
// (dynamics/statics/hold.hpp)? The verdict, the reactions, the critical μs and the load factors.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/run_options.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/statics/hold.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/scenario_file.hpp"
#include "mechanisms/spatial_model_file.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("scenario", po::value<std::string>()->required(), "a built-in scenario (stickslip list) or a file")(
      "at", po::value<std::string>(),
      "the configuration q, comma-separated, or 'start': the scenario's initial positions, taken at rest "
      "(default: the scenario's initial state, which must be at rest)")(
      "time", po::value<double>()->default_value(0.0), "the instant whose loads act [s]")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "KEY=VALUE: a parameter, as for run (run.* settings are refused: none applies at rest); repeatable")(
      "no-margins", po::bool_switch(), "the verdict and reactions only: no critical mu_s, load factors or intervals")(
      "json", po::bool_switch(), "one JSON object on stdout");
  p.add("scenario", 1);
}

Eigen::VectorXd parseConfiguration(const std::string& text, Eigen::Index size, bool spatial) {
  std::vector<double> values;
  // getline drops one trailing empty field: "0,0," would read as two numbers.
  if (!text.empty() && text.back() == ',') throw std::invalid_argument("--at: expected a number after the last ','");
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t used = 0;
    double x = 0.0;
    try {
      x = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || item.find_first_not_of(" \t", used) != std::string::npos || !std::isfinite(x))
      throw std::invalid_argument("--at: expected comma-separated numbers, got '" + item + "'");
    values.push_back(x);
  }
  if (Eigen::Index(values.size()) != size)
    throw std::invalid_argument("--at: expected " + std::to_string(size) + " coordinates (" +
                                (spatial ? "x, y, z, e0, e1, e2, e3" : "x, y, theta") + " per body), got " +
                                std::to_string(values.size()));
  return Eigen::Map<const Eigen::VectorXd>(values.data(), size);
}

/// A number, or "inf"/"-inf" for an unbounded one, null where it does not apply (NaN).
nlohmann::json number(double x) {
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return finiteOrNull(x);
}

nlohmann::json bounds(const std::vector<dynamics::HoldBound>& list) {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& b : list) j.push_back({{"element", b.element}, {"kind", b.kind}});
  return j;
}

std::string describe(const std::vector<dynamics::HoldBound>& list) {
  std::vector<std::string> seen;  // a contact short on two sides of its cone is named once
  for (const auto& b : list) {
    const std::string x = b.element + " " + b.kind;
    if (std::find(seen.begin(), seen.end(), x) == seen.end()) seen.push_back(x);
  }
  std::string s;
  for (const std::string& x : seen) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "-" : s;
}

/// A reaction as the table shows it: "-" where there is none (no reactions balance the loads).
std::string reactionText(double x) {
  if (std::isnan(x)) return "-";
  std::ostringstream s;
  s << std::setprecision(8) << x;
  return s.str();
}

std::string range(const dynamics::HoldInterval& r) {
  if (std::isnan(r.low)) return "";
  std::ostringstream s;
  s << std::setprecision(6);
  if (r.low == r.high) s << "(unique)";
  else s << "[" << r.low << ", " << r.high << "]";
  return s.str();
}

/// A joint's reaction on its body i: the force (global) and the torque about its point on i
/// (planar: one component; spatial: the moment's three, global).
struct JointLoad {
  std::string name;
  Eigen::VectorXd force, torque;
};

/// One analysis of `stickslip hold` as its outputs read it.
struct HoldRun {
  const mechanisms::Scenario& scenario;
  const dynamics::Mechanism& mechanism;
  const dynamics::HoldOptions& options;
  const Eigen::VectorXd& q;
  const dynamics::HoldResult& result;
  std::vector<JointLoad> reactions;
  double cpu;
};

/// --json: every figure of the analysis.
nlohmann::json holdJson(const HoldRun& h) {
  const mechanisms::Scenario& sc = h.scenario;
  const dynamics::HoldOptions& o = h.options;
  const Eigen::VectorXd& q = h.q;
  const dynamics::HoldResult& r = h.result;
  const std::vector<JointLoad>& reactions = h.reactions;
  const double cpu = h.cpu;
  nlohmann::json elements = nlohmann::json::array(), joints = nlohmann::json::array();
  for (const auto& e : r.elements)
    elements.push_back({{"name", e.name},
                        {"kind", e.joint ? "joint" : "contact"},
                        {"closed", e.closed},
                        {"frictional", e.frictional},
                        {"mu_s", e.mu_static},
                        {e.joint ? "reaction" : "N", number(e.normal)},
                        {e.joint ? "T" : "F", number(e.friction)},
                        {e.joint ? "reaction_range" : "N_range", {number(e.normal_range.low), number(e.normal_range.high)}},
                        {e.joint ? "T_range" : "F_range", {number(e.friction_range.low), number(e.friction_range.high)}},
                        {"critical_mu_s", number(e.critical_mu)},
                        {"saturated", e.saturated}});
  for (std::size_t i = 0; i < r.elements.size(); ++i) {  // a spatial contact's friction as a vector
    const dynamics::HoldElement& e = r.elements[i];
    if (e.joint || !r.holds || !e.friction_vector.allFinite()) continue;
    elements[i]["F_vector"] = toJson(e.friction_vector);
    if (o.margins) {
      nlohmann::json ranges = nlohmann::json::array();
      for (const auto& c : e.friction_vector_range) ranges.push_back({number(c.low), number(c.high)});
      elements[i]["F_vector_range"] = ranges;
    }
  }
  for (std::size_t i = 0; i < reactions.size() && r.holds; ++i) {
    const JointLoad& l = reactions[i];
    joints.push_back({{"name", l.name}, {"force_on_i", toJson(l.force)}});
    if (l.torque.size() == 1) joints.back()["torque_on_i"] = l.torque(0);
    else joints.back()["moment_on_i"] = toJson(l.torque);
  }
  nlohmann::json multipliers = nlohmann::json::array();
  for (std::size_t i = 0; i < r.lambda_ranges.size(); ++i)
    multipliers.push_back({{"row", h.mechanism.constraintRowName(Eigen::Index(i))},
                           {"lambda", r.lambda(Eigen::Index(i))},
                           {"range", {number(r.lambda_ranges[i].low), number(r.lambda_ranges[i].high)}}});
  nlohmann::json j{{"scenario", sc.name},
                   {"t", o.t},
                   {"q", toJson(q)},
                   {"holds", r.holds},
                   {"exact", r.exact},
                   {"margin", number(r.margin)},
                   {"balance_residual", r.balance_residual},
                   {"indeterminacy", r.indeterminacy},
                   {"elements", elements},
                   {"violated", bounds(r.violated)},
                   {"joints", joints},
                   {"multipliers", multipliers},
                   {"cross_check", {{"text", r.cross_check}, {"ok", r.cross_check_ok}}},
                   {"lp_solves", r.lp_solves},
                   {"pivots", r.pivots},
                   {"cpu_seconds", cpu}};
  nlohmann::json critical = nlohmann::json::object();  // by name: sweep's columns critical_mu_s.NAME
  for (const auto& e : r.elements)
    if (e.closed && e.frictional) critical[e.name] = number(e.critical_mu);
  if (o.margins) j["critical_mu_s"] = critical;
  if (o.margins)
    j["load_factor"] = {{"loads", r.load_factor.loads},
                        {"low", number(r.load_factor.low)},
                        {"high", number(r.load_factor.high)},
                        {"first_low", bounds(r.load_factor.first_low)},
                        {"first_high", bounds(r.load_factor.first_high)}};
  return j;
}

/// The report: the verdict, each element's state and reactions, the load factor, the joints.
void printHold(std::ostream& out, const HoldRun& h) {
  const mechanisms::Scenario& sc = h.scenario;
  const dynamics::HoldOptions& o = h.options;
  const dynamics::HoldResult& r = h.result;
  const std::vector<JointLoad>& reactions = h.reactions;
  const double cpu = h.cpu;
  out << std::setprecision(8) << sc.name << " at rest at t = " << o.t << " s: "
      << (r.holds ? "HOLDS" : "BREAKS AWAY") << (r.exact ? "" : " (not exact: see below)") << "\n"
      << "margin      " << r.margin << " (the smallest friction slack of the max-margin reactions, N or N m; inf: unbounded)\n";
  if (r.balance_residual > o.balance_tolerance)
    out << "unbalanced  the loads have a part no contact or joint can take (relative " << r.balance_residual
        << "): it accelerates whatever the frictional elements' mu_s (a contact or joint with mu_s = 0 is "
           "frictionless: give it mu_s > 0 to have its critical mu_s)\n";
  if (!r.holds && !r.violated.empty() && r.balance_residual <= o.balance_tolerance)
    out << "short       " << describe(r.violated) << "\n";
  out << "statically  " << (r.indeterminacy == 0 ? std::string("determinate")
                                                 : "indeterminate of degree " + std::to_string(r.indeterminacy))
      << "\n\n"
      << std::left << std::setw(22) << "contact / joint" << std::setw(9) << "state" << std::setw(15)
      << "N or |R|" << std::setw(15) << "F or T" << std::setw(8) << "mu_s" << "critical mu_s\n";
  for (const auto& e : r.elements) {
    const bool short_of = std::any_of(r.violated.begin(), r.violated.end(),
                                      [&](const dynamics::HoldBound& b) { return b.element == e.name; });
    const std::string state = !e.closed       ? "open"
                              : !r.holds       ? (short_of ? "short" : "-")
                              : !e.frictional  ? "closed"
                              : e.saturated    ? "limit"
                                               : "stick";
    out << std::setw(22) << e.name << std::setw(9) << state << std::setw(15) << reactionText(e.normal)
        << std::setw(15) << reactionText(e.friction) << std::setw(8) << e.mu_static
        << (o.margins ? reactionText(e.critical_mu) : "-") << "\n";
    if (r.holds && e.closed && r.indeterminacy > 0 && !std::isnan(e.normal_range.low)) {
      out << std::setw(22) << "" << "  N " << range(e.normal_range) << "  F ";
      if (e.joint || !e.friction_vector.allFinite()) out << range(e.friction_range) << "\n";
      else  // a spatial contact: each world component
        out << "x " << range(e.friction_vector_range[0]) << ", y " << range(e.friction_vector_range[1]) << ", z "
            << range(e.friction_vector_range[2]) << "\n";
    }
  }
  out << std::right;
  if (o.margins) {
    if (r.balance_residual > o.balance_tolerance)
      out << "\nload factor not computed: no reactions balance the loads\n";
    else if (r.load_factor.loads)
      out << "\nload factor the applied loads scaled by s hold for s in [" << r.load_factor.low << ", "
          << r.load_factor.high << "]\n  at the low end:  " << describe(r.load_factor.first_low)
          << "\n  at the high end: " << describe(r.load_factor.first_high) << "\n";
    else
      out << "\nload factor none: no applied force or torque acts at t (gravity is not scaled)\n";
  }
  if (r.holds && !reactions.empty()) {
    out << "\njoint reactions (force on body i, global; torque about its point on i)\n";
    auto components = [](const Eigen::VectorXd& x) {
      std::ostringstream text;
      text << std::setprecision(8);
      for (Eigen::Index k = 0; k < x.size(); ++k) text << (k ? ", " : "") << x(k);
      return x.size() == 1 ? text.str() : "(" + text.str() + ")";
    };
    for (const JointLoad& l : reactions)
      out << "  " << std::left << std::setw(20) << l.name << std::right << " " << components(l.force) << " N, "
          << components(l.torque) << " N m\n";
    if (r.indeterminacy > 0 && !r.lambda_ranges.empty()) {
      out << "joint multipliers over every holding set of reactions (thesis sign)\n";
      for (std::size_t i = 0; i < r.lambda_ranges.size(); ++i)
        out << "  " << std::left << std::setw(28) << h.mechanism.constraintRowName(Eigen::Index(i)) << std::right
            << range(r.lambda_ranges[i]) << "\n";
    }
  }
  if (!r.exact)
    out << "\nnot exact   a guide's or a joint's bound varies with the indeterminate reactions and the branch "
           "and bound over their directions could not decide within its budget\n";
  out << "\ncross-check " << r.cross_check << "\n"
      << "LPs         " << r.lp_solves << " (" << r.pivots << " pivots), cpu " << cpu << " s\n";
}

/// The mechanism `hold` analyses: a spatial one at q (its joint friction's rows are taken
/// there), its contacts as the file gives them.
std::unique_ptr<dynamics::Mechanism> mechanismOf(const mechanisms::Scenario& sc, const Eigen::VectorXd& q) {
  if (const auto& s = sc.spatial)
    return std::make_unique<dynamics::SpatialMechanism>(s->model, q, s->friction, s->clearances, s->planes);
  return std::make_unique<dynamics::PlanarMechanism>(mechanisms::planarModel(sc, "hold"));
}

/// Every joint's reaction on its body i from the multipliers λ.
std::vector<JointLoad> jointLoads(const mechanisms::Scenario& sc, double t, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& lambda) {
  std::vector<JointLoad> out;
  if (const auto& s = sc.spatial) {
    const auto r = s->model.reactions(t, q, lambda);
    for (std::size_t i = 0; i < r.size(); ++i) out.push_back({s->model.joints()[i].name, r[i].force, r[i].moment});
  } else {
    const dynamics::PlanarModel& m = sc.model->model;
    const auto r = m.reactions(t, q, lambda);
    for (std::size_t i = 0; i < r.size(); ++i)
      out.push_back({m.joints()[i].name, r[i].force_on_i, Eigen::VectorXd::Constant(1, r[i].torque_on_i)});
  }
  return out;
}

int hold(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  mechanisms::Scenario sc = mechanisms::loadScenario(vm["scenario"].as<std::string>());
  if (vm.count("set")) mechanisms::applySettings(sc, vm["set"].as<std::vector<std::string>>());
  // The statics at --time use no run setting: one on the command line is refused rather than
  // ignored, and the file's run: section is checked as run reads it.
  for (const mechanisms::RunSetting& r : sc.run)
    if (r.line == 0)
      throw mechanisms::InputError(mechanisms::located(
          r.origin, 0, "run." + r.key, "hold takes no run settings (its instant is --time)"));
  checkRunSettings(sc);
  dynamics::HoldOptions o;
  o.t = vm["time"].as<double>();
  o.margins = !vm["no-margins"].as<bool>();
  if (!std::isfinite(o.t)) throw std::invalid_argument("--time: expected a finite time [s]");
  const bool spatial = sc.spatial != nullptr;
  const Eigen::VectorXd& q0 = spatial ? sc.spatial->q0 : sc.model->q0;
  const Eigen::VectorXd& v0 = spatial ? sc.spatial->v0 : sc.model->v0;
  Eigen::VectorXd q = q0;
  if (vm.count("at") && vm["at"].as<std::string>() == "start") {
    // its initial positions, the velocities set aside
  } else if (vm.count("at")) {
    q = parseConfiguration(vm["at"].as<std::string>(), q0.size(), spatial);
    if (spatial)  // rotations are read from unit Euler parameters only
      for (int b = 0; b < sc.spatial->model.bodyCount(); ++b)
        if (const double norm = q.segment<4>(7 * b + 3).norm(); std::abs(norm - 1.0) > 1e-9)
          throw std::invalid_argument("--at: body '" + sc.spatial->model.body(b).name +
                                      "' has Euler parameters of norm " + std::to_string(norm) + ", expected 1");
  } else if (v0.lpNorm<Eigen::Infinity>() > 1e-12) {  // beyond the assembly's round-off
    Eigen::Index i = 0;
    v0.cwiseAbs().maxCoeff(&i);
    throw std::invalid_argument("'" + sc.name + "' does not start at rest (v0[" + std::to_string(i) +
                                "] = " + std::to_string(v0(i)) +
                                "); give a configuration with --at, or --at start for its initial positions at rest");
  }
  const std::unique_ptr<dynamics::Mechanism> mechanism = mechanismOf(sc, q);
  const auto start = std::chrono::steady_clock::now();
  dynamics::HoldResult r;
  try {
    r = dynamics::analyseHold(*mechanism, q, o);
  } catch (const std::runtime_error& e) {  // a linear program failed: its status and residual
    err << "stickslip hold: " << e.what() << "\n";
    return kExitFailure;
  }
  const double cpu = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const HoldRun h{sc, *mechanism, o, q, r, jointLoads(sc, o.t, q, r.lambda), cpu};
  if (vm["json"].as<bool>())
    out << jsonLine(holdJson(h)) << "\n";
  else
    printHold(out, h);
  if (!r.cross_check_ok) {
    err << "stickslip hold: the cross-check disagrees: " << r.cross_check << "\n";
    return kExitFailure;
  }
  return r.holds ? kExitOk : kExitFailure;
}

}  // namespace

const Command& holdCommand() {
  static const Command c{"hold", "does static friction hold it at rest? reactions, critical mu_s, load factors",
                         declare, hold};
  return c;
}

}  // namespace stickslip::cli
