#include "cli/run_muvengei.hpp"
#include "cli/run_options.hpp"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/muvengei.hpp"

namespace stickslip::cli {
namespace {

void writeCsv(const std::string& path, const mechanisms::MuvengeiSliderCrank& data,
              const mechanisms::MuvengeiRun& r) {
  std::ofstream f = openCsv(path);
  f << "t,crank_angle,x,v,a,ecc_x,ecc_y,penetration,F_n,F_t,v_t,driver_power,contact_power,"
       "energy,bristle_mu,x_ideal,a_ideal\n";
  for (Eigen::Index i = 0; i < r.table.rows(); ++i) {
    for (Eigen::Index j = 0; j < r.table.cols(); ++j) f << r.table(i, j) << ',';
    const auto ideal = mechanisms::idealSlider(data, r.table(i, mechanisms::kTime));
    f << ideal.x << ',' << ideal.a << '\n';
  }
  markIncomplete(f, r.run.status == dynamics::PenaltyStatus::kSuccess, r.run.message);
}

}  // namespace

int runMuvengei(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                std::ostream& err) {
  mechanisms::MuvengeiSliderCrank data =
      mechanisms::scenarioDataOf<mechanisms::MuvengeiSliderCrank>(scenario.data, scenario.name);
  data.ideal = vm["ideal"].as<bool>();
  const std::string law_name = data.ideal || vm["friction"].defaulted()
                                   ? std::string(data.ideal ? "none" : "lugre-nondimensional")
                                   : vm["friction"].as<std::string>();
  if (data.ideal && !vm["friction"].defaulted())
    throw std::invalid_argument("--friction: the ideal joint (--ideal) has no friction");
  std::shared_ptr<const dynamics::FrictionLaw> law;
  if (law_name != "none")
    law = frictionLawOption(law_name, mechanisms::muvengeiFrictionParameters(data));
  dynamics::PenaltyIntegrationOptions opts;
  const std::string integrator =
      vm["integrator"].defaulted() ? std::string("bdf") : vm["integrator"].as<std::string>();
  opts.integrator = penaltyIntegrator(integrator);
  const double period = data.period();
  opts.t_end = vm["t-end"].defaulted() ? 2.0 * period : vm["t-end"].as<double>();
  // RK4 needs h below ≈ 2.8 m/(σ1 Fₙ) for the LuGre damping at the largest loads: 50 ns.
  opts.dt = vm["dt"].defaulted() ? 5e-8 : vm["dt"].as<double>();
  if (!vm["tolerance"].defaulted()) opts.relative_tolerance = vm["tolerance"].as<double>();
  opts.output_dt = vm.count("output-dt") ? vm["output-dt"].as<double>() : 1e-6;
  const std::string csv = outputPath(vm);

  ProgressBar bar("run muvengei-lugre");
  opts.progress = simulatedTimeProgress(bar, opts.t_end);
  const mechanisms::MuvengeiRun r = mechanisms::simulateMuvengei(data, law, opts);
  bar.finish();
  const bool ok = r.run.status == dynamics::PenaltyStatus::kSuccess;
  // The paper's steady cycle is the second one; a shorter run reports its last full cycle.
  const double t0 = r.run.t >= 2.0 * period - 1e-12 ? period : std::max(0.0, r.run.t - period);
  const mechanisms::MuvengeiCycle cy = mechanisms::analyseMuvengeiCycle(data, r, t0);
  if (!csv.empty()) writeCsv(csv, data, r);
  const double acc_ratio = cy.max_acceleration / cy.max_ideal_acceleration;
  if (vm["json"].as<bool>()) {
    nlohmann::json j{{"scenario", "muvengei-lugre"},
                     {"method", "penalty"},
                     {"joint", data.ideal ? "ideal" : "clearance"},
                     {"normal_law", data.ideal ? "none" : "lankarani-nikravesh"},
                     {"friction", law_name},
                     {"integrator", integrator},
                     {"message", r.run.message},
                     {"t", r.run.t},
                     {"steps", r.run.steps},
                     {"rhs_evaluations", r.run.rhs_evaluations},
                     {"cpu_seconds", r.run.cpu_seconds},
                     {"contact_events", r.run.events.size()},
                     {"stribeck_velocity", r.stribeck_velocity},
                     {"contact_stiffness", data.contactStiffness()},
                     {"cycle",
                      {{"t_begin", cy.t_begin},
                       {"t_end", cy.t_end},
                       {"samples", cy.samples},
                       {"contact_samples", cy.contact_samples},
                       {"max_acceleration", cy.max_acceleration},
                       {"max_ideal_acceleration", cy.max_ideal_acceleration},
                       {"acceleration_ratio", acc_ratio},
                       {"max_position_deviation", cy.max_position_deviation},
                       {"max_tangential_velocity", cy.max_tangential_velocity},
                       {"min_tangential_velocity", cy.min_tangential_velocity},
                       {"max_penetration", cy.max_penetration},
                       {"max_normal_force", cy.max_normal_force},
                       {"max_friction_ratio", cy.max_friction_ratio},
                       {"max_bristle_ratio", cy.max_bristle_ratio},
                       {"max_damped_bound_ratio", cy.max_damped_bound_ratio},
                       {"stick_samples", cy.stick_samples},
                       {"stick_intervals", cy.stick_intervals},
                       {"driver_work", cy.driver_work},
                       {"contact_work", cy.contact_work},
                       {"energy_change", cy.energy_change},
                       {"energy_residual", cy.energy_residual}}}};
    constexpr Eigen::Index kCoordinates = 9;  // crank, rod, slider (mechanisms/muvengei.cpp)
    addPenaltyRunFields(j, r.run, kCoordinates, kCoordinates, {"c-cr"});
    out << j.dump() << "\n";
  } else {
    out << "muvengei-lugre (Muvengei et al. Table I), slider-crank at "
        << data.crank_speed * 30.0 / 3.14159265358979323846 << " rpm, "
        << (data.ideal ? std::string("ideal c-cr joint")
                       : "c-cr clearance " + std::to_string(data.clearance * 1e3) +
                             " mm, Lankarani-Nikravesh, friction '" + law_name + "'")
        << " (" << integrator << ")\n"
        << "status      " << dynamics::toString(r.run.status) << "\n"
        << "steps       " << r.run.steps << ", cpu " << r.run.cpu_seconds << " s, "
        << r.run.events.size() << " contact events\n"
        << "v_s         " << r.stribeck_velocity << " m/s (1 % of the ideal max |v_t|)\n"
        << "cycle       " << cy.t_begin << " .. " << cy.t_end << " s, " << cy.samples
        << " samples, " << cy.contact_samples << " in contact\n"
        << "max |a|     " << cy.max_acceleration << " m/s^2 (ideal closed form "
        << cy.max_ideal_acceleration << ", ratio " << acc_ratio << ")\n"
        << "max |dx|    " << cy.max_position_deviation << " m from the ideal slider\n";
    if (!data.ideal)
      out << "contact     max F_n " << cy.max_normal_force << " N, max |v_t| "
          << cy.max_tangential_velocity << " m/s, min |v_t| " << cy.min_tangential_velocity
          << " m/s, max penetration " << cy.max_penetration << " m\n"
          << "friction    max |F_t|/(mu_s F_n) " << cy.max_friction_ratio
          << ", bristle |sigma0 z|/mu_s " << cy.max_bristle_ratio << ", damped bound ratio "
          << cy.max_damped_bound_ratio << "\n"
          << "stick       " << cy.stick_samples << " samples in " << cy.stick_intervals
          << " intervals with |v_t| < v_s and F_t != 0\n";
    out << "work        driver " << cy.driver_work << " J, contact " << cy.contact_work << " J, dE "
        << cy.energy_change << " J, residual " << cy.energy_residual << "\n";
  }
  if (!ok) err << "stickslip run: " << r.run.message << "\n";
  return ok ? kExitOk : kExitFailure;
}

}  // namespace stickslip::cli
