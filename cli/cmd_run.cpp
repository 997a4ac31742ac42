// stickslip run SCENARIO [--method penalty] [--friction LAW] [--integrator bdf|rk4]
//                        [--t-end T] [--dt H] [--out F.csv [--force]] [--json]
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/belt.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  std::string laws;
  for (std::string_view n : dynamics::frictionLawNames()) laws += (laws.empty() ? "" : ", ") + std::string(n);
  o.add_options()("scenario", po::value<std::string>()->required(), "built-in scenario: belt")(
      "method", po::value<std::string>()->default_value("penalty"), "penalty")(
      "friction", po::value<std::string>()->default_value("linear"),
      ("friction law of the penalty route: " + laws).c_str())(
      "integrator", po::value<std::string>()->default_value("rk4"),
      "rk4 (fixed step, as the thesis; every law) or bdf (CVODE; smooth laws only)")(
      "t-end", po::value<double>()->default_value(20.0), "end time [s]")(
      "dt", po::value<double>()->default_value(5e-5), "RK4 step [s]")(
      "out", po::value<std::string>(), "write the history (t, x, v, v_rel, F) as CSV")(
      "force", po::bool_switch(), "overwrite --out if it exists")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("scenario", 1);
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  const std::string scenario = vm["scenario"].as<std::string>();
  const std::string method = vm["method"].as<std::string>();
  if (scenario != "belt")
    throw std::invalid_argument("unknown scenario '" + scenario + "' (built-in: belt)");
  if (method != "penalty")
    throw std::invalid_argument("method '" + method +
                                "' is not available for 'belt' in this version (available: "
                                "penalty)");
  const std::string law_name = vm["friction"].as<std::string>();
  const auto law = dynamics::makeFrictionLaw(law_name);  // throws with the valid names
  mechanisms::PenaltyOptions opts;
  const std::string integrator = vm["integrator"].as<std::string>();
  if (integrator == "bdf")
    opts.integrator = mechanisms::PenaltyOptions::Integrator::kBdf;
  else if (integrator != "rk4")
    throw std::invalid_argument("--integrator: expected bdf or rk4, got '" + integrator + "'");
  opts.t_end = vm["t-end"].as<double>();
  opts.dt = vm["dt"].as<double>();
  std::string csv;
  if (vm.count("out")) {
    csv = vm["out"].as<std::string>();
    if (std::filesystem::exists(csv) && !vm["force"].as<bool>())
      throw std::invalid_argument("--out " + csv + ": file exists; pass --force to overwrite it");
  }

  const mechanisms::Belt belt;
  const mechanisms::PenaltyRun r = mechanisms::simulateBeltPenalty(belt, *law, opts);
  const mechanisms::BeltCycle ref = mechanisms::beltClosedForm(belt);

  if (!csv.empty()) {
    std::ofstream f(csv);
    if (!f) throw std::invalid_argument("--out " + csv + ": cannot open for writing");
    f << "t,x,v,v_rel,friction\n" << std::setprecision(12);
    for (Eigen::Index i = 0; i < r.history.rows(); ++i)
      f << r.history(i, 0) << ',' << r.history(i, 1) << ',' << r.history(i, 2) << ','
        << r.history(i, 3) << ',' << r.history(i, 4) << '\n';
  }
  if (vm["json"].as<bool>()) {
    nlohmann::json changes = nlohmann::json::array(), reference = nlohmann::json::array();
    for (const auto& [t, kind] : r.mode_changes)
      changes.push_back({{"t", t}, {"kind", kind}, {"approximate", true}});
    for (const auto& [t, kind] : ref.events(opts.t_end))
      reference.push_back({{"t", t}, {"kind", kind}});
    out << nlohmann::json{{"scenario", scenario},
                          {"method", method},
                          {"friction", law_name},
                          {"integrator", integrator},
                          {"status", r.ok ? "ok" : "failed"},
                          {"message", r.message},
                          {"steps", r.steps},
                          {"cpu_seconds", r.cpu_seconds},
                          {"stick_fraction", r.stick_fraction},
                          {"final_state", toJson(r.final_state)},
                          {"mode_changes", changes},
                          {"closed_form_coulomb", {{"period", ref.period}, {"events", reference}}}}
               .dump()
        << "\n";
  } else {
    out << "belt, penalty route with friction law '" << law_name << "' (" << integrator << ")\n"
        << "status          " << (r.ok ? "ok" : "failed: " + r.message) << "\n"
        << "steps           " << r.steps << "\n"
        << "cpu             " << r.cpu_seconds << " s\n"
        << "stick fraction  " << r.stick_fraction << "  (|v_rel| < " << opts.stick_velocity
        << " m/s)\n"
        << "mode changes    " << r.mode_changes.size() << " (approximate, from |v_rel|)\n";
    for (const auto& [t, kind] : r.mode_changes) out << "  " << t << " s  " << kind << "\n";
    out << "closed form (set-valued Coulomb): period " << ref.period << " s, first break-away "
        << ref.first_breakaway << " s\n";
  }
  if (!r.ok) err << "stickslip run: " << r.message << "\n";
  return r.ok ? kExitOk : kExitFailure;
}

}  // namespace

const Command& runCommand() {
  static const Command c{"run", "simulate a built-in scenario with one method", declare, run};
  return c;
}

}  // namespace stickslip::cli
