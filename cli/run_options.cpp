#include "cli/run_options.hpp"

#include <algorithm>
#include <stdexcept>

#include "cli/output_file.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::cli {

void declareRunOptions(po::options_description& o, po::positional_options_description& p) {
  std::string laws;
  for (std::string_view n : dynamics::frictionLawNames()) laws += (laws.empty() ? "" : ", ") + std::string(n);
  std::string scenarios;
  for (const auto& s : mechanisms::builtinScenarioNames()) scenarios += (scenarios.empty() ? "" : ", ") + s;
  o.add_options()("scenario", po::value<std::string>()->required(),
                  ("a scenario file (.yaml) or a built-in scenario: " + scenarios).c_str())(
      "method", po::value<std::string>(),
      "event-driven, moreau-jean (rigid contacts with set-valued Coulomb), penalty (contacts made "
      "compliant, set-valued Coulomb replaced by --friction's law) or minimal-form (Blajer's reduction: "
      "one degree of freedom, constraints that stay closed); a route that cannot take the mechanism says "
      "why; default: the scenario's own (stickslip list), event-driven for a model file")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "KEY=VALUE: change a parameter of the mechanism (parameters.NAME, see stickslip show) or a run "
      "setting (run.OPTION, as the options here with '_' for '-'); repeatable")(
      "solver", po::value<std::string>()->default_value("auto"),
      "contact problems of the nonsmooth methods: auto (default: without joints, a diagonal mass matrix and "
      "only unilateral contacts, newton where 6 or more contacts are coupled through shared bodies, nsgs where "
      "they are decoupled or in small groups, else lemke; event-driven: the same on its sparse path beyond 4 "
      "touching contacts, else lemke), lemke, nsgs, newton (the global nonsmooth Newton on the sparse W), "
      "trial-and-error (event-driven, one contact), "
      "siconos-<fc2d solver>; spatial contacts: auto = round-cone (ours on the round cone, exact: Newton and "
      "NSGS combined), nsgs, newton, lemke (ours on the faceted cone, --facets), or (Moreau-Jean) "
      "siconos-<fc3d solver>")(
      "facets", po::value<int>()->default_value(8),
      "spatial contacts and --solver lemke: directions of the faceted friction cone, >= 3 (a sliding "
      "contact's friction within 1 - cos(pi/K) of mu N)")(
      "impact-law", po::value<std::string>(),
      "event-driven: newton (the normal velocity restituted with e; an impact whose "
      "friction would add energy stops the run: Kane's paradox) or newton-tangential (the tangential "
      "velocity restituted with the same e: energetically consistent); default: the scenario's "
      "(newton but for muvengei-lugre)")(
      "theta", po::value<double>()->default_value(0.5), "Moreau-Jean theta in [0.5, 1]")(
      "projection", po::value<std::string>()->default_value("contacts"),
      "Moreau-Jean's position projection after each step: contacts (a closed contact that "
      "penetrates, with the joints; default), positions (also the joints' drift every step) or none")(
      "tolerance", po::value<double>(),
      "CVODE's relative tolerance: event-driven and minimal form (default 1e-10; event-driven 1e-8 with "
      "compliant contacts), the penalty route's BDF and Adams; event-driven counts a contact closed within max(1e-9 m, "
      "tolerance/10) of its surface")(
      "event-tolerance", po::value<double>()->default_value(1e-10), "event-driven: event location [s]")(
      "friction", po::value<std::string>(),
      ("the law of the penalty route in place of set-valued Coulomb, or none (default: the scenario's "
       "own, linear for a model file): " + laws +
       "; the nonsmooth routes of zheng-*: coulomb-stiction (dry, mu < mu_s; default), coulomb (dry, "
       "mu = mu_s), ambrosio (modified Coulomb) or none").c_str())(
      "integrator", po::value<std::string>(),
      "the penalty route's: rk4 (fixed step; every law), bdf (CVODE, stiff; smooth laws only) or adams "
      "(CVODE's Adams-Moulton, non-stiff, as MATLAB's ode45: a stiff bristle cuts its steps short); "
      "default: rk4 for the laws with a jump at v = 0 or discrete states, bdf for the others (a BDF "
      "failure is redone with rk4)")(
      "t-end", po::value<double>(), "end time [s] (default: the scenario's, 1 for a model file)")(
      "dt", po::value<double>(), "RK4 step of the penalty route (default 1e-5), or the Moreau-Jean step "
      "(default: the scenario's, 1e-4 for a model file) [s]")(
      "output-dt", po::value<double>(),
      "history sampling [s]: > 0 (event-driven: events add rows), Moreau-Jean also 0 (every step); "
      "default 1e-3")(
      "out", po::value<std::string>(), "write the history as CSV, every route the same columns (t, q, v, "
      "each contact's N, F, each joint friction's reaction, F, the route's own, each contact's v_t, "
      "each joint friction's v_t, energy; the JSON's `columns`)")(
      "force", po::bool_switch(), "overwrite --out if it exists")(
      "ideal", po::bool_switch(), "built-ins with a clearance joint: an ideal revolute in its place (the reference)")(
      "max-steps", po::value<double>()->default_value(1e8, "1e8"),
      "the most time steps a run may take: Moreau-Jean's and RK4's t_end / dt is refused before the run "
      "when larger (exit 2), an adaptive integrator stops at it (limit-reached)")(
      "max-samples", po::value<double>()->default_value(1e7, "1e7"),
      "the most history rows: t_end / output-dt larger is refused before the run (exit 2)")(
      "max-history-mb", po::value<double>()->default_value(2048, "2048"),
      "the most memory of the history [MiB]: samples x columns x 8 bytes larger is refused before the run")(
      "max-events", po::value<double>()->default_value(1e6, "1e6"),
      "event-driven and minimal form: the most events; more stop the run (limit-reached)")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("scenario", 1);
}


po::variables_map withRunSettings(const po::variables_map& given, const mechanisms::Scenario& scenario) {
  po::options_description opts;
  po::positional_options_description pos;
  declareRunOptions(opts, pos);
  std::vector<std::string> keys;  // what a run: section may set
  for (const auto& o : opts.options())
    if (o->long_name() != "scenario" && o->long_name() != "set" && o->long_name() != "force") {
      keys.push_back(o->long_name());
      std::replace(keys.back().begin(), keys.back().end(), '-', '_');
    }
  po::variables_map vm = given;
  for (const mechanisms::RunSetting& r : scenario.run) {
    const std::string where = "run." + r.key;
    std::string option = r.key;
    std::replace(option.begin(), option.end(), '_', '-');
    if (std::find(keys.begin(), keys.end(), r.key) == keys.end())
      throw mechanisms::InputError(mechanisms::located(
          r.origin, r.line, where,
          (r.key == "force" ? std::string("overwriting files is only asked for on the command line (--force)")
                            : "unknown run option" + mechanisms::didYouMean(r.key, keys))));
    std::vector<std::string> args{"--" + option};
    if (opts.find(option, false).semantic()->max_tokens() == 0) {  // a switch: true or false
      if (r.value != "true" && r.value != "false")
        throw mechanisms::InputError(mechanisms::located(r.origin, r.line, where, "expected true or false, got '" + r.value + "'"));
      if (r.value == "false") continue;
    } else {
      args.push_back(r.value);
    }
    try {
      po::store(po::command_line_parser(args).options(opts).style(kOptionStyle).run(), vm);
    } catch (const po::error& e) {
      throw mechanisms::InputError(mechanisms::located(r.origin, r.line, where, e.what()));
    }
  }
  po::notify(vm);
  return vm;
}

void rethrowLocated(const std::invalid_argument& e, const po::variables_map& given,
                                 const mechanisms::Scenario& scenario) {
  const std::string what = e.what();
  for (const mechanisms::RunSetting& r : scenario.run) {
    std::string option = r.key;
    std::replace(option.begin(), option.end(), '_', '-');
    const bool on_command_line = given.count(option) && !given[option].defaulted();
    if (what.starts_with("--" + option + ":") && !on_command_line)
      throw mechanisms::InputError(mechanisms::located(r.origin, r.line, "run." + r.key, what.substr(option.size() + 4)));
  }
  throw e;
}


mechanisms::RunSettings runSettings(const po::variables_map& vm) {
  const auto given = [&](const char* o) { return vm.count(o) && !vm[o].defaulted(); };
  mechanisms::RunSettings s;
  if (vm.count("method")) s.route = mechanisms::parseRoute(vm["method"].as<std::string>());
  if (given("t-end")) s.t_end = vm["t-end"].as<double>();
  if (given("dt")) s.dt = vm["dt"].as<double>();
  if (vm.count("output-dt")) s.output_dt = vm["output-dt"].as<double>();
  if (given("tolerance")) s.tolerance = vm["tolerance"].as<double>();
  s.event_tolerance = vm["event-tolerance"].as<double>();
  s.theta = vm["theta"].as<double>();
  s.projection = vm["projection"].as<std::string>();
  s.solver = vm["solver"].as<std::string>();
  s.facets = vm["facets"].as<int>();
  if (vm.count("impact-law")) s.impact_law = vm["impact-law"].as<std::string>();
  if (given("friction")) s.friction = vm["friction"].as<std::string>();
  if (given("integrator")) s.integrator = vm["integrator"].as<std::string>();
  s.ideal = vm["ideal"].as<bool>();
  s.limits.max_steps = vm["max-steps"].as<double>();
  s.limits.max_samples = vm["max-samples"].as<double>();
  s.limits.max_history_mb = vm["max-history-mb"].as<double>();
  s.limits.max_events = vm["max-events"].as<double>();
  return s;
}


std::string outputPath(const po::variables_map& vm) {
  if (!vm.count("out")) return {};
  const std::string path = vm["out"].as<std::string>();
  checkOutputPath("--out", path, vm["force"].as<bool>());
  return path;
}

namespace {

/// ARGS of `stickslip run SCENARIO ARGS...`, parsed; a bad option is std::invalid_argument
/// (a library caller's, Python's, ValueError).
po::variables_map parsedRunArgs(const mechanisms::Scenario& scenario, const std::vector<std::string>& args) {
  po::options_description opts;
  po::positional_options_description pos;
  declareRunOptions(opts, pos);
  std::vector<std::string> all{"--scenario", scenario.name};
  all.insert(all.end(), args.begin(), args.end());
  po::variables_map given;
  try {
    po::store(po::command_line_parser(all).options(opts).style(kOptionStyle).run(), given);
  } catch (const po::error& e) {
    throw std::invalid_argument(e.what());
  }
  return given;
}

}  // namespace

std::unique_ptr<mechanisms::ScenarioRunner> plannedRunner(const mechanisms::Scenario& scenario,
                                                          const std::vector<std::string>& args) {
  const po::variables_map given = parsedRunArgs(scenario, args);
  try {
    return std::make_unique<mechanisms::ScenarioRunner>(scenario, runSettings(withRunSettings(given, scenario)));
  } catch (const mechanisms::InputError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    rethrowLocated(e, given, scenario);
  }
}

void checkRunSettings(const mechanisms::Scenario& scenario) {
  if (scenario.run.empty()) return;  // the defaults: nothing the user wrote to check
  plannedRunner(scenario, {});       // its values are checked as it plans
}

void checkRunKeys(const mechanisms::Scenario& scenario) { withRunSettings(parsedRunArgs(scenario, {}), scenario); }

}  // namespace stickslip::cli
