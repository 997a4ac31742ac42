// stickslip run SCENARIO [--method penalty] [--friction LAW] [--integrator bdf|rk4]
//                        [--t-end T] [--dt H] [--out F.csv [--force]] [--json]
// SCENARIO: belt (thesis Table 3.1), journal-bearing (review Table 5), muvengei-lugre
// (Muvengei et al. Table I, [--ideal]) or roller-crank (review §4, cli/run_roller_crank.cpp;
// --table runs the review's six models). The belt's defaults are those of the thesis;
// journal-bearing replaces the ones left at their default by its own (no friction, BDF,
// 0.25 s, 1 µs RK4 step), muvengei-lugre by its own (lugre-nondimensional, BDF, two crank
// revolutions, output every 1 µs).
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "cli/run_flores_compliant.hpp"
#include "cli/run_muvengei.hpp"
#include "cli/run_nonsmooth.hpp"
#include "cli/run_options.hpp"
#include "cli/run_roller_crank.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/journal_bearing.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  std::string laws;
  for (std::string_view n : dynamics::frictionLawNames()) laws += (laws.empty() ? "" : ", ") + std::string(n);
  std::string scenarios = "journal-bearing, muvengei-lugre, roller-crank, blajer-1, blajer-2";
  for (const auto& s : mechanisms::rigidScenarios()) scenarios += ", " + s.name;
  o.add_options()("scenario", po::value<std::string>()->required(), ("built-in scenario: " + scenarios).c_str())(
      "method", po::value<std::string>()->default_value("penalty"),
      "event-driven, moreau-jean (rigid contacts with set-valued Coulomb), penalty (belt, "
      "journal-bearing, flores-translational) or minimal-form (Blajer: blajer-1, blajer-2, dupont); default: penalty for "
      "belt and journal-bearing, minimal-form for blajer-1 and blajer-2, event-driven for the others")(
      "solver", po::value<std::string>()->default_value("lemke"),
      "contact problems of the nonsmooth methods: lemke, trial-and-error (event-driven, one "
      "contact), siconos-<fc2d solver>")(
      "theta", po::value<double>()->default_value(0.5), "Moreau-Jean theta in [0.5, 1]")(
      "tolerance", po::value<double>()->default_value(1e-10),
      "event-driven: CVODE relative tolerance; muvengei-lugre: BDF's (default 1e-8)")(
      "event-tolerance", po::value<double>()->default_value(1e-10), "event-driven: event location [s]")(
      "friction", po::value<std::string>()->default_value("linear"),
      ("friction law of the penalty route (journal-bearing also: none, its default; "
       "muvengei-lugre also: none, default lugre-nondimensional; roller-crank also: none, default "
       "brown-mcphee): " + laws +
       "; zheng-*: coulomb-stiction (dry, mu < mu_s; default), coulomb (dry, mu = mu_s), ambrosio "
       "(modified Coulomb) or none").c_str())(
      "table", po::bool_switch(),
      "roller-crank: run the review's six friction models and print the Table 4 analogue "
      "(relative CPU time, steps, max F/N, chatter in the initial stick phase)")(
      "integrator", po::value<std::string>()->default_value("rk4"),
      "rk4 (fixed step, as the thesis; every law) or bdf (CVODE; smooth laws only); roller-crank's "
      "default: rk4 for the laws with a jump at v = 0, bdf for the others")(
      "t-end", po::value<double>()->default_value(20.0), "end time [s]")(
      "dt", po::value<double>()->default_value(5e-5), "RK4 step of the penalty route, or the Moreau-Jean step "
      "(default per scenario) [s]")(
      "output-dt", po::value<double>(),
      "history sampling of event-driven (> 0; events add rows) and Moreau-Jean (>= 0, 0: every "
      "step) [s]; default 1e-3; muvengei-lugre: > 0, default 1e-6")(
      "out", po::value<std::string>(), "write the history as CSV (belt: t, x, v, v_rel, F; journal-bearing: t, x, y, theta, "
      "vx, vy, omega, penetration, v_t, F_n, F_t, energy; muvengei-lugre: t, crank_angle, x, v, a, "
      "ecc_x, ecc_y, penetration, F_n, F_t, v_t, driver_power, contact_power, energy, bristle_mu, "
      "x_ideal, a_ideal; roller-crank: t, crank_angle, roller_omega, roller_alpha, "
      "sliding_velocity, normal_force, friction_force, friction_ratio, energy, friction_work, "
      "constraint_residual)")(
      "force", po::bool_switch(), "overwrite --out if it exists")(
      "ideal", po::bool_switch(), "muvengei-lugre, zheng-*: an ideal revolute at the crank-rod joint (reference)")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("scenario", 1);
}


int runJournalBearing(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  const mechanisms::JournalBearing jb;
  const std::string law_name =
      vm["friction"].defaulted() ? std::string("none") : vm["friction"].as<std::string>();
  std::shared_ptr<const dynamics::FrictionLaw> law;
  if (law_name != "none")
    law = dynamics::makeFrictionLaw(law_name, mechanisms::journalBearingFrictionParameters(jb));
  dynamics::PenaltyIntegrationOptions opts;
  std::string integrator =
      vm["integrator"].defaulted() ? std::string("bdf") : vm["integrator"].as<std::string>();
  opts.integrator = penaltyIntegrator(integrator);
  opts.t_end = vm["t-end"].defaulted() ? 0.25 : vm["t-end"].as<double>();
  if (!vm["dt"].defaulted()) opts.dt = vm["dt"].as<double>();
  const std::string csv = outputPath(vm);

  mechanisms::JournalBearingRun r = mechanisms::simulateJournalBearing(jb, law, opts);
  // BDF cannot cross the discontinuous laws' jumps, nor the bristle laws whose relaxation
  // time vanishes with the normal force at every contact onset (dahl, lugre, gms, ...); when
  // the integrator was not chosen, such a run is redone with RK4 and says so.
  std::string bdf_failure;
  if (vm["integrator"].defaulted() && r.run.status == dynamics::PenaltyStatus::kIntegratorFailure) {
    bdf_failure = r.run.message;
    integrator = "rk4";
    opts.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kRk4;
    r = mechanisms::simulateJournalBearing(jb, law, opts);
  }
  const bool ok = r.run.status == dynamics::PenaltyStatus::kSuccess;
  if (!csv.empty()) {
    std::ofstream f(csv);
    if (!f) throw std::invalid_argument("--out " + csv + ": cannot open for writing");
    f << "t,x,y,theta,vx,vy,omega";
    for (Eigen::Index i = 0; i < r.run.final_state.size() - 6; ++i) f << ",z" << i;
    f << ",penetration,v_t,F_n,F_t,energy\n" << std::setprecision(12);
    for (Eigen::Index i = 0; i < r.run.history.rows(); ++i)
      for (Eigen::Index j = 0; j < r.run.history.cols(); ++j)
        f << r.run.history(i, j) << (j + 1 == r.run.history.cols() ? '\n' : ',');
    if (!ok) f << "# incomplete: " << r.run.message << '\n';
  }
  if (vm["json"].as<bool>()) {
    nlohmann::json modes = nlohmann::json::array(), impacts = nlohmann::json::array();
    for (const auto& m : r.modes)
      modes.push_back({{"t_begin", m.t_begin}, {"t_end", m.t_end},
                       {"mode", std::string(mechanisms::toString(m.mode))}, {"approximate", true}});
    for (const auto& i : r.impacts)
      impacts.push_back({{"t_close", i.t_close}, {"t_open", i.t_open},
                         {"velocity_in", i.velocity_in}, {"velocity_out", i.velocity_out},
                         {"energy_ratio", i.energy_ratio}, {"approximate", true}});
    out << nlohmann::json{{"scenario", "journal-bearing"},
                          {"method", "penalty"},
                          {"normal_law", "lankarani-nikravesh"},
                          {"friction", law_name},
                          {"integrator", integrator},
                          {"bdf_failure", bdf_failure},
                          {"status", std::string(dynamics::toString(r.run.status))},
                          {"message", r.run.message},
                          {"t", r.run.t},
                          {"steps", r.run.steps},
                          {"rhs_evaluations", r.run.rhs_evaluations},
                          {"cpu_seconds", r.run.cpu_seconds},
                          {"final_state", toJson(r.run.final_state)},
                          {"restitution", jb.restitution},
                          {"modes", modes},
                          {"impacts", impacts}}
               .dump()
        << "\n";
  } else {
    out << "journal-bearing (review Table 5), penalty route, Lankarani-Nikravesh, friction '"
        << law_name << "' (" << integrator
        << (bdf_failure.empty() ? "" : "; BDF failed: " + bdf_failure) << ")\n"
        << "status   " << dynamics::toString(r.run.status) << "\n"
        << "steps    " << r.run.steps << "\n"
        << "cpu      " << r.run.cpu_seconds << " s\n"
        << "impacts  " << r.impacts.size() << " (energy ratio vs c_e^2 = "
        << jb.restitution * jb.restitution << ")\n"
        << "modes (approximate times, from the contact events):\n";
    for (const auto& m : r.modes)
      out << "  " << m.t_begin << " .. " << m.t_end << " s  " << mechanisms::toString(m.mode)
          << "\n";
  }
  if (!ok) err << "stickslip run: " << r.run.message << "\n";
  return ok ? kExitOk : kExitFailure;
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  const std::string scenario = vm["scenario"].as<std::string>();
  const std::string method = vm["method"].as<std::string>();
  if (scenario == "journal-bearing") {
    if (method != "penalty")
      throw std::invalid_argument("--method: '" + method + "' is not available for journal-bearing "
                                  "in this version (available: penalty)");
    return runJournalBearing(vm, out, err);
  }
  if (scenario == "roller-crank") return runRollerCrank(vm, out, err);
  if (scenario == "muvengei-lugre") {
    if (method != "penalty")
      throw std::invalid_argument("--method: '" + method + "' is not available for muvengei-lugre "
                                  "in this version (available: penalty)");
    return runMuvengei(vm, out, err);
  }
  if (scenario == "flores-translational" && method == "penalty") return runFloresPenalty(vm, out, err);
  if (scenario != "belt" || method != "penalty") return runNonsmooth(vm, out, err);
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
  const std::string csv = outputPath(vm);

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
    if (!r.ok) f << "# incomplete: " << r.message << '\n';
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
