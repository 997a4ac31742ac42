// stickslip hold SCENARIO: does set-valued static friction hold the mechanism at rest
// (dynamics/statics/hold.hpp)? The verdict, the reactions, the critical μs and the load factors.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "dynamics/statics/hold.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("scenario", po::value<std::string>()->required(), "a built-in scenario (stickslip list) or a file")(
      "at", po::value<std::string>(),
      "the configuration q, comma-separated (default: the scenario's initial state, which must be at rest)")(
      "time", po::value<double>()->default_value(0.0), "the instant whose loads act [s]")(
      "set", po::value<std::vector<std::string>>()->composing(), "KEY=VALUE, as for run; repeatable")(
      "no-margins", po::bool_switch(), "the verdict and reactions only: no critical mu_s, load factors or intervals")(
      "json", po::bool_switch(), "one JSON object on stdout");
  p.add("scenario", 1);
}

Eigen::VectorXd parseConfiguration(const std::string& text, Eigen::Index size) {
  std::vector<double> values;
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
    throw std::invalid_argument("--at: expected " + std::to_string(size) + " coordinates (x, y, theta per body), got " +
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
  std::string s;
  for (const auto& b : list) s += (s.empty() ? "" : ", ") + b.element + " " + b.kind;
  return s.empty() ? "-" : s;
}

std::string range(const dynamics::HoldInterval& r) {
  if (std::isnan(r.low)) return "";
  std::ostringstream s;
  s << std::setprecision(6);
  if (r.low == r.high) s << "(unique)";
  else s << "[" << r.low << ", " << r.high << "]";
  return s.str();
}

/// One analysis of `stickslip hold` as its outputs read it.
struct HoldRun {
  const mechanisms::Scenario& scenario;
  const dynamics::RigidScenario& model;
  const dynamics::HoldOptions& options;
  const Eigen::VectorXd& q;
  const dynamics::HoldResult& result;
  std::vector<dynamics::JointReaction> reactions;
  double cpu;
};

/// --json: every figure of the analysis.
nlohmann::json holdJson(const HoldRun& h) {
  const mechanisms::Scenario& sc = h.scenario;
  const dynamics::RigidScenario& s = h.model;
  const dynamics::HoldOptions& o = h.options;
  const Eigen::VectorXd& q = h.q;
  const dynamics::HoldResult& r = h.result;
  const std::vector<dynamics::JointReaction>& reactions = h.reactions;
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
  for (std::size_t i = 0; i < reactions.size() && r.holds; ++i)
    joints.push_back({{"name", s.model.joints()[i].name},
                      {"force_on_i", {reactions[i].force_on_i.x(), reactions[i].force_on_i.y()}},
                      {"torque_on_i", reactions[i].torque_on_i}});
  nlohmann::json multipliers = nlohmann::json::array();
  for (std::size_t i = 0; i < r.lambda_ranges.size(); ++i)
    multipliers.push_back({{"row", s.model.constraintRowName(Eigen::Index(i))},
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
  const dynamics::RigidScenario& s = h.model;
  const dynamics::HoldOptions& o = h.options;
  const dynamics::HoldResult& r = h.result;
  const std::vector<dynamics::JointReaction>& reactions = h.reactions;
  const double cpu = h.cpu;
  out << std::setprecision(8) << sc.name << " at rest at t = " << o.t << " s: "
      << (r.holds ? "HOLDS" : "BREAKS AWAY") << (r.exact ? "" : " (not exact: see below)") << "\n"
      << "margin      " << r.margin << " (the smallest friction slack of the max-margin reactions, N or N m; inf: unbounded)\n";
  if (r.balance_residual > o.balance_tolerance)
    out << "unbalanced  the loads have a part no contact or joint can take (relative " << r.balance_residual
        << "): it accelerates whatever mu_s is\n";
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
    out << std::setw(22) << e.name << std::setw(9) << state << std::setw(15) << e.normal << std::setw(15)
        << e.friction << std::setw(8) << e.mu_static << e.critical_mu << "\n";
    if (r.holds && e.closed && r.indeterminacy > 0)
      out << std::setw(22) << "" << "  N " << range(e.normal_range) << "  F " << range(e.friction_range) << "\n";
  }
  out << std::right;
  if (o.margins) {
    if (r.load_factor.loads)
      out << "\nload factor the applied loads scaled by s hold for s in [" << r.load_factor.low << ", "
          << r.load_factor.high << "]\n  at the low end:  " << describe(r.load_factor.first_low)
          << "\n  at the high end: " << describe(r.load_factor.first_high) << "\n";
    else
      out << "\nload factor none: no applied force or torque acts at t (gravity is not scaled)\n";
  }
  if (r.holds && !reactions.empty()) {
    out << "\njoint reactions (force on body i, global; torque about its point on i)\n";
    for (std::size_t i = 0; i < reactions.size(); ++i)
      out << "  " << std::left << std::setw(20) << s.model.joints()[i].name << std::right << " ("
          << reactions[i].force_on_i.x() << ", " << reactions[i].force_on_i.y() << ") N, "
          << reactions[i].torque_on_i << " N m\n";
    if (r.indeterminacy > 0 && !r.lambda_ranges.empty()) {
      out << "joint multipliers over every holding set of reactions (thesis sign)\n";
      for (std::size_t i = 0; i < r.lambda_ranges.size(); ++i)
        out << "  " << std::left << std::setw(28) << s.model.constraintRowName(Eigen::Index(i)) << std::right
            << range(r.lambda_ranges[i]) << "\n";
    }
  }
  if (!r.exact)
    out << "\nnot exact   a guide's or a joint's bound varies with the indeterminate reactions and the branch "
           "and bound over their directions could not decide within its budget\n";
  out << "\ncross-check " << r.cross_check << "\n"
      << "LPs         " << r.lp_solves << " (" << r.pivots << " Lemke pivots), cpu " << cpu << " s\n";
}

int hold(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  mechanisms::Scenario sc = mechanisms::loadScenario(vm["scenario"].as<std::string>());
  if (vm.count("set")) mechanisms::applySettings(sc, vm["set"].as<std::vector<std::string>>());
  const dynamics::RigidScenario& s = mechanisms::planarModel(sc, "hold");
  dynamics::HoldOptions o;
  o.t = vm["time"].as<double>();
  o.margins = !vm["no-margins"].as<bool>();
  if (!std::isfinite(o.t)) throw std::invalid_argument("--time: expected a finite time [s]");
  Eigen::VectorXd q = s.q0;
  if (vm.count("at")) {
    q = parseConfiguration(vm["at"].as<std::string>(), s.model.positionSize());
  } else if (s.v0.lpNorm<Eigen::Infinity>() > 0.0) {
    Eigen::Index i = 0;
    s.v0.cwiseAbs().maxCoeff(&i);
    throw std::invalid_argument("'" + sc.name + "' does not start at rest (v0[" + std::to_string(i) +
                                "] = " + std::to_string(s.v0(i)) + "); give a configuration with --at");
  }
  const auto start = std::chrono::steady_clock::now();
  dynamics::HoldResult r;
  try {
    r = dynamics::analyseHold(s, q, o);
  } catch (const std::runtime_error& e) {  // a linear program failed: its status and residual
    err << "stickslip hold: " << e.what() << "\n";
    return kExitFailure;
  }
  const double cpu = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const HoldRun h{sc, s, o, q, r, s.model.reactions(o.t, q, r.lambda), cpu};
  if (vm["json"].as<bool>())
    out << holdJson(h).dump() << "\n";
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
