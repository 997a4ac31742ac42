#include "cli/run_roller_crank.hpp"
#include "cli/run_options.hpp"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "cli/output.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/roller_crank_simulation.hpp"

namespace stickslip::cli {
namespace {

using Integrator = mechanisms::RollerCrankOptions::Integrator;

nlohmann::json summary(const mechanisms::RollerCrankRun& r) {
  return {{"status", r.ok ? "ok" : "failed"},
          {"message", r.message},
          {"t", r.t},
          {"steps", r.steps},
          {"rhs_evaluations", r.rhs_evaluations},
          {"cpu_seconds", r.cpu_seconds},
          {"max_friction_ratio", r.max_friction_ratio},
          {"chatter_count", r.sliding_sign_changes},
          {"friction_sign_changes", r.friction_sign_changes},
          {"max_window_sliding_velocity", r.max_window_sliding},
          {"max_energy_balance_error", r.max_energy_balance_error},
          {"max_constraint_residual", r.max_constraint_residual},
          {"max_velocity_residual", r.max_velocity_residual},
          {"min_normal_force", r.min_normal_force},
          {"max_loop_iterations", r.max_loop_iterations},
          {"first_ratio_exceedance", r.first_ratio_exceedance},
          {"breakaway_time", r.breakaway_time}};
}

int runTable(const mechanisms::RollerCrank& rc, const mechanisms::RollerCrankOptions& o,
             const dynamics::FrictionParameters& friction, bool json, std::ostream& out, std::ostream& err) {
  const auto rows = mechanisms::rollerCrankTable(rc, o, friction);
  bool ok = true;
  for (const auto& r : rows) ok = ok && r.run.ok;
  if (json) {
    nlohmann::json models = nlohmann::json::array();
    for (const auto& r : rows) {
      nlohmann::json m = summary(r.run);
      m["model"] = r.model.label;
      m["friction"] = r.model.law;
      m["integrator"] = r.integrator;
      m["bdf_failure"] = r.bdf_failure;
      m["relative_cpu"] = r.relative_cpu;
      models.push_back(m);
    }
    out << nlohmann::json{{"scenario", "roller-crank"}, {"t_end", o.t_end}, {"dt", o.dt},
                          {"relative_tolerance", o.relative_tolerance},
                          {"stick_window", o.stick_window}, {"models", models}}
               .dump()
        << "\n";
  } else {
    out << "roller-crank (review Table 4 analogue), " << o.t_end << " s; RK4 h = " << o.dt
        << " s, BDF rtol " << o.relative_tolerance << "; chatter: sign changes of v_s in [0, "
        << o.stick_window << "] s; stick: until |v_s| > " << o.breakaway_velocity << " m/s\n"
        << std::left << std::setw(24) << "model" << std::setw(14) << "law" << std::setw(6) << "int"
        << std::right << std::setw(9) << "rel.cpu" << std::setw(10) << "cpu[s]" << std::setw(10)
        << "steps" << std::setw(10) << "max F/N" << std::setw(9) << "chatter" << std::setw(11) << "stick[s]" << "\n";
    for (const auto& r : rows) {
      out << std::left << std::setw(24) << r.model.label << std::setw(14) << r.model.law
          << std::setw(6) << r.integrator << std::right << std::fixed << std::setprecision(1)
          << std::setw(9) << r.relative_cpu << std::setprecision(3) << std::setw(10)
          << r.run.cpu_seconds << std::setw(10) << r.run.steps << std::setprecision(4)
          << std::setw(10) << r.run.max_friction_ratio << std::setw(9)
          << r.run.sliding_sign_changes << std::setw(11) << r.run.breakaway_time
          << std::defaultfloat << std::setprecision(6)
          << (r.run.ok ? "" : "  failed: " + r.run.message)
          << (r.bdf_failure.empty() ? "" : "  (BDF failed: " + r.bdf_failure + ")") << "\n";
    }
  }
  if (!ok) err << "stickslip run: a model failed\n";
  return ok ? kExitOk : kExitFailure;
}

}  // namespace

int runRollerCrank(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                   std::ostream& err) {
  const std::string method = vm.count("method") ? vm["method"].as<std::string>() : "penalty";
  if (method != "penalty")
    throw std::invalid_argument("--table: the review's six models run by the penalty route, not " + method +
                                "; drop --method or --table");
  const auto& rc = mechanisms::scenarioDataOf<mechanisms::RollerCrank>(scenario.data, scenario.name);
  mechanisms::RollerCrankOptions o;
  o.t_end = vm["t-end"].defaulted() ? 2.0 : vm["t-end"].as<double>();
  o.dt = vm["dt"].defaulted() ? 1e-5 : vm["dt"].as<double>();
  if (vm.count("output-dt")) o.output_dt = vm["output-dt"].as<double>();
  const bool json = vm["json"].as<bool>();
  if (vm["table"].as<bool>()) {
    if (!vm["friction"].defaulted() || !vm["integrator"].defaulted() || vm.count("out"))
      throw std::invalid_argument("--table runs the review's six models, each with its own "
                                  "integrator, and writes no CSV: drop --friction, --integrator "
                                  "and --out, or drop --table");
    return runTable(rc, o, scenario.friction.value(), json, out, err);
  }

  const std::string law_name =
      vm["friction"].defaulted() ? std::string("brown-mcphee") : vm["friction"].as<std::string>();
  std::shared_ptr<const dynamics::FrictionLaw> law;
  if (law_name != "none")
    law = frictionLawOption(law_name, scenario.friction.value());
  std::string integrator = vm["integrator"].defaulted()
                               ? std::string(law && law->jumpsAtZero() ? "rk4" : "bdf")
                               : vm["integrator"].as<std::string>();
  if (integrator == "rk4")
    o.integrator = Integrator::kRk4;
  else if (integrator == "bdf")
    o.integrator = Integrator::kBdf;
  else
    throw std::invalid_argument("--integrator: expected bdf or rk4, got '" + integrator + "'");
  const std::string csv = outputPath(vm);

  mechanisms::RollerCrankRun r = mechanisms::simulateRollerCrank(rc, law, o);
  std::string bdf_failure;  // a defaulted BDF that fails is redone with RK4, and says so
  if (!r.ok && vm["integrator"].defaulted() && integrator == "bdf") {
    bdf_failure = r.message;
    integrator = "rk4";
    o.integrator = Integrator::kRk4;
    r = mechanisms::simulateRollerCrank(rc, law, o);
  }
  if (!csv.empty()) {
    std::ofstream f = openCsv(csv);
    const auto& names = mechanisms::rollerCrankColumnNames();
    for (std::size_t j = 0; j < names.size(); ++j) f << names[j] << (j + 1 == names.size() ? '\n' : ',');
    writeRows(f, r.history);
    markIncomplete(f, r.ok, r.message);
  }
  if (json) {
    nlohmann::json j = summary(r);
    j["scenario"] = "roller-crank";
    j["method"] = "penalty";
    j["friction"] = law_name;
    j["integrator"] = integrator;
    j["bdf_failure"] = bdf_failure;
    j["mu_s"] = scenario.friction.value().mu_s;
    j["stick_window"] = o.stick_window;
    constexpr Eigen::Index kCoordinates = 9;  // y = [q (9); v (9); …] (roller_crank_simulation.hpp)
    j["final_q"] = toJson(r.final_state.head(kCoordinates));
    j["final_v"] = toJson(r.final_state.segment(kCoordinates, kCoordinates));
    j["events"] = nlohmann::json::array();  // the roller never leaves the ground (N from a constraint)
    out << j.dump() << "\n";
  } else {
    out << "roller-crank (review Tables 1-3), friction '" << law_name << "' at the roller-ground "
        << "contact, N from the constraint (" << integrator
        << (bdf_failure.empty() ? "" : "; BDF failed: " + bdf_failure) << ")\n"
        << "status            " << (r.ok ? "ok" : "failed: " + r.message) << "\n"
        << "steps             " << r.steps << " (" << r.rhs_evaluations << " evaluations)\n"
        << "cpu               " << r.cpu_seconds << " s\n"
        << "max |F|/N         " << r.max_friction_ratio << " (mu_s = "
        << scenario.friction.value().mu_s << (r.first_ratio_exceedance >= 0.0
            ? "; first above it at t = " + std::to_string(r.first_ratio_exceedance) + " s" : "")
        << ")\n"
        << "chatter           " << r.sliding_sign_changes << " sign changes of v_s, "
        << r.friction_sign_changes << " of F in [0, " << o.stick_window << "] s (max |v_s| "
        << r.max_window_sliding << " m/s)\n"
        << "energy balance    max |E - E0 - W_f| = " << r.max_energy_balance_error << " J\n"
        << "constraints       max |Phi| = " << r.max_constraint_residual
        << " m, max |D v| = " << r.max_velocity_residual << " m/s\n"
        << "normal force      min " << r.min_normal_force << " N; F-N loop <= "
        << r.max_loop_iterations << " iterations\n";
  }
  if (!r.ok) err << "stickslip run: " << r.message << "\n";
  return r.ok ? kExitOk : kExitFailure;
}

}  // namespace stickslip::cli
