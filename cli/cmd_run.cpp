// stickslip run SCENARIO [--method M] [--friction LAW] [--integrator bdf|rk4]
//                        [--t-end T] [--dt H] [--out F.csv [--force]] [--json]
// Every scenario, built-in or model file, runs by cli/run_nonsmooth.cpp (event-driven,
// Moreau–Jean, the penalty route) or cli/run_minimal_form.cpp, except two built-ins whose
// penalty runs keep their own runners for the post-analyses they print: muvengei-lugre
// (Muvengei et al. Table I, [--ideal]; lugre-nondimensional, BDF, two crank revolutions,
// output every 1 µs) and roller-crank (review §4; --table runs the review's six models).
#include <algorithm>
#include <cmath>
#include <ostream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/run_muvengei.hpp"
#include "cli/run_nonsmooth.hpp"
#include "cli/run_options.hpp"
#include "cli/run_roller_crank.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  std::string laws;
  for (std::string_view n : dynamics::frictionLawNames()) laws += (laws.empty() ? "" : ", ") + std::string(n);
  std::string scenarios;
  for (const auto& s : mechanisms::builtinScenarioNames()) scenarios += (scenarios.empty() ? "" : ", ") + s;
  o.add_options()("scenario", po::value<std::string>()->required(),
                  ("a scenario file (.yaml) or a built-in scenario: " + scenarios).c_str())(
      "method", po::value<std::string>(),
      "event-driven, moreau-jean (rigid contacts with set-valued Coulomb; zheng-*: a rigid clearance "
      "joint), penalty (every mechanism: contacts made compliant, set-valued Coulomb replaced by "
      "--friction's law) or minimal-form (Blajer's reduction: mechanisms whose constraints all stay closed "
      "and whose friction slides with one velocity; otherwise it says why not); default: penalty for belt, flores-translational, journal-bearing, "
      "muvengei-lugre and roller-crank, minimal-form for blajer-1 and blajer-2, event-driven for the others")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "KEY=VALUE: change a parameter of the mechanism (parameters.NAME, see stickslip show) or a run "
      "setting (run.OPTION, as the options here with '_' for '-'); repeatable")(
      "solver", po::value<std::string>()->default_value("lemke"),
      "contact problems of the nonsmooth methods: lemke, trial-and-error (event-driven, one "
      "contact), siconos-<fc2d solver>")(
      "theta", po::value<double>()->default_value(0.5), "Moreau-Jean theta in [0.5, 1]")(
      "tolerance", po::value<double>()->default_value(1e-10),
      "event-driven: CVODE relative tolerance; muvengei-lugre: BDF's (default 1e-8)")(
      "event-tolerance", po::value<double>()->default_value(1e-10), "event-driven: event location [s]")(
      "friction", po::value<std::string>()->default_value("linear"),
      ("friction law of the penalty route (muvengei-lugre also: none, default lugre-nondimensional; roller-crank also: none, default "
       "brown-mcphee): " + laws +
       "; zheng-*: coulomb-stiction (dry, mu < mu_s; default), coulomb (dry, mu = mu_s), ambrosio "
       "(modified Coulomb) or none, and with --method penalty any law of the catalogue or none "
       "(default ambrosio); other mechanisms with --method penalty: any law or none (default "
       "tanh for flores-translational, linear for the others)").c_str())(
      "table", po::bool_switch(),
      "roller-crank: run the review's six friction models and print the Table 4 analogue "
      "(relative CPU time, steps, max F/N, chatter in the initial stick phase)")(
      "integrator", po::value<std::string>()->default_value("rk4"),
      "the penalty route's: rk4 (fixed step; every law) or bdf (CVODE; smooth laws only); default: "
      "rk4 for the laws with a jump at v = 0, bdf for the others (a BDF failure is redone with rk4)")(
      "t-end", po::value<double>()->default_value(20.0), "end time [s]")(
      "dt", po::value<double>()->default_value(1e-5), "RK4 step of the penalty route (default 1e-5), or the "
      "Moreau-Jean step (default per scenario) [s]")(
      "output-dt", po::value<double>(),
      "history sampling of event-driven (> 0; events add rows) and Moreau-Jean (>= 0, 0: every "
      "step) [s]; default 1e-3; muvengei-lugre: > 0, default 1e-6")(
      "out", po::value<std::string>(), "write the history as CSV (t, q, v, each contact's N, F, each joint friction's reaction, F, "
      "then each contact's v_t (journal-bearing contacts: also e_x, e_y) and each joint friction's v_t; "
      "by their own penalty runners: muvengei-lugre: t, crank_angle, x, v, a, "
      "ecc_x, ecc_y, penetration, F_n, F_t, v_t, driver_power, contact_power, energy, bristle_mu, "
      "x_ideal, a_ideal; roller-crank: t, crank_angle, roller_omega, roller_alpha, "
      "sliding_velocity, normal_force, friction_force, friction_ratio, energy, friction_work, "
      "constraint_residual)")(
      "force", po::bool_switch(), "overwrite --out if it exists")(
      "ideal", po::bool_switch(), "muvengei-lugre, zheng-*: an ideal revolute at the crank-rod joint (reference)")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("scenario", 1);
}


/// The options with the scenario's run settings (file, then --set run.*) stored after the
/// command line, so that an option given on the command line wins; the method resolved.
po::variables_map withRunSettings(const po::variables_map& given, const mechanisms::Scenario& scenario) {
  po::options_description opts;
  po::positional_options_description pos;
  declare(opts, pos);
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
      po::store(po::command_line_parser(args).options(opts).run(), vm);
    } catch (const po::error& e) {
      throw mechanisms::InputError(mechanisms::located(r.origin, r.line, where, e.what()));
    }
  }
  if (!vm.count("method"))
    po::store(po::command_line_parser(std::vector<std::string>{"--method", defaultMethod(scenario)})
                  .options(opts)
                  .run(),
              vm);
  po::notify(vm);
  for (const char* o : {"t-end", "dt", "tolerance", "event-tolerance"})
    if (const double x = vm[o].as<double>(); !(x > 0.0 && std::isfinite(x)))
      throw std::invalid_argument("--" + std::string(o) + ": expected a number > 0, got " + mechanisms::exactNumber(x));
  if (const double theta = vm["theta"].as<double>(); !(theta >= 0.5 && theta <= 1.0))
    throw std::invalid_argument("--theta: expected a number in [0.5, 1], got " + mechanisms::exactNumber(theta));
  const std::vector<std::string> methods{"event-driven", "moreau-jean", "penalty", "minimal-form"};
  if (const std::string m = vm["method"].as<std::string>(); std::find(methods.begin(), methods.end(), m) == methods.end())
    throw std::invalid_argument("--method: unknown method '" + m + "' (expected event-driven, moreau-jean, "
                                "penalty or minimal-form)" + mechanisms::didYouMean(m, methods));
  return vm;
}

/// A runner's error about an option ("--friction: ...") located at the scenario file's line
/// when the value came from the file rather than the command line.
[[noreturn]] void rethrowLocated(const std::invalid_argument& e, const po::variables_map& given,
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

int dispatchRun(const po::variables_map& vm, const mechanisms::Scenario& sc, std::ostream& out,
                std::ostream& err);

int run(const po::variables_map& given, std::ostream& out, std::ostream& err) {
  mechanisms::Scenario sc = mechanisms::loadScenario(given["scenario"].as<std::string>());
  if (given.count("set")) mechanisms::applySettings(sc, given["set"].as<std::vector<std::string>>());
  try {
    return dispatchRun(withRunSettings(given, sc), sc, out, err);
  } catch (const mechanisms::InputError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    rethrowLocated(e, given, sc);
  }
}

int dispatchRun(const po::variables_map& vm, const mechanisms::Scenario& sc, std::ostream& out,
                std::ostream& err) {
  const std::string& scenario = sc.name;
  const std::string method = vm["method"].as<std::string>();
  if (sc.model) return runNonsmooth(vm, sc, out, err);
  if (scenario == "roller-crank" && (method == "penalty" || vm["table"].as<bool>())) return runRollerCrank(vm, sc, out, err);
  if (scenario == "muvengei-lugre" && method == "penalty") return runMuvengei(vm, sc, out, err);
  return runNonsmooth(vm, sc, out, err);
}

}  // namespace

const Command& runCommand() {
  static const Command c{"run", "simulate a built-in scenario with one method", declare, run};
  return c;
}

}  // namespace stickslip::cli
