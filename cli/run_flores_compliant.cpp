#include "cli/run_flores_compliant.hpp"
#include "cli/run_options.hpp"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/flores_compliant.hpp"

namespace stickslip::cli {

int runFloresPenalty(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                     std::ostream& err) {
  const auto& f = mechanisms::scenarioDataOf<mechanisms::FloresCompliant>(scenario.data, scenario.name);
  // A regularized Coulomb by default: the corners' μ = 0.01 (μs = μk), BDF-friendly.
  const std::string law_name =
      vm["friction"].defaulted() ? std::string("tanh") : vm["friction"].as<std::string>();
  std::shared_ptr<const dynamics::FrictionLaw> law;
  if (law_name != "none") {
    dynamics::FrictionParameters p;
    p.mu_s = p.mu_k = f.data.mu;
    law = frictionLawOption(law_name, p);
  }
  dynamics::PenaltyIntegrationOptions opts;
  const std::string integrator =
      vm["integrator"].defaulted() ? std::string("bdf") : vm["integrator"].as<std::string>();
  opts.integrator = penaltyIntegrator(integrator);
  opts.t_end = vm["t-end"].defaulted() ? 0.2 : vm["t-end"].as<double>();
  if (!vm["dt"].defaulted()) opts.dt = vm["dt"].as<double>();
  const std::string csv = outputPath(vm);

  mechanisms::FloresPenaltySystem s = mechanisms::floresTranslationalPenalty(f, law);
  ProgressBar bar("run flores-translational");
  opts.progress = simulatedTimeProgress(bar, opts.t_end);
  const dynamics::PenaltyRun r = dynamics::simulatePenalty(*s.system, s.y0, opts);
  bar.finish();
  const bool ok = r.status == dynamics::PenaltyStatus::kSuccess;
  const Eigen::Index ny = s.system->stateSize();
  long closings = 0;
  double first_closing = -1.0, deepest = 0.0;
  for (const auto& e : r.events)
    if (e.closing) {
      if (first_closing < 0.0) first_closing = e.t;
      ++closings;
    }
  for (Eigen::Index i = 0; i < r.history.rows(); ++i)
    for (int k = 0; k < 4; ++k) deepest = std::max(deepest, r.history(i, 1 + ny + 4 * k));
  const auto energy = r.history.col(r.history.cols() - 1);

  if (!csv.empty()) {
    std::ofstream file = openCsv(csv);
    writeStateHeader(file, *s.model);
    for (Eigen::Index i = 18; i < ny; ++i) file << ",z" << i - 18;
    for (const auto& c : s.system->contacts())
      for (const char* q : {".penetration", ".v_t", ".F_n", ".F_t"})
        file << ",\"" << c.name << q << '"';
    file << ",energy\n";
    writeRows(file, r.history);
    markIncomplete(file, ok, r.message);
  }
  if (vm["json"].as<bool>()) {
    nlohmann::json j{{"scenario", "flores-translational"},
                     {"method", "penalty"},
                     {"normal_law", "flores"},
                     {"stiffness", f.stiffness},
                     {"friction", law_name},
                     {"integrator", integrator},
                     {"message", r.message},
                     {"t", r.t},
                     {"steps", r.steps},
                     {"cpu_seconds", r.cpu_seconds},
                     {"closings", closings},
                     {"first_closing", first_closing},
                     {"max_penetration", deepest},
                     {"energy_start", r.history.rows() ? energy(0) : 0.0},
                     {"energy_end", r.history.rows() ? energy(energy.size() - 1) : 0.0}};
    std::vector<std::string> names;
    for (const auto& c : s.system->contacts()) names.push_back(c.name);
    addPenaltyRunFields(j, r, s.model->positionSize(), s.model->velocitySize(), names);
    out << j.dump() << "\n";
  } else {
    out << "flores-translational, penalty route: compliant corners (Flores et al.'s law, K = "
        << f.stiffness << " N/m^1.5, c_e = " << f.data.restitution << "), friction '" << law_name
        << "' (" << integrator << ")\n"
        << "status           " << dynamics::toString(r.status) << "\n"
        << "steps            " << r.steps << "\n"
        << "cpu              " << r.cpu_seconds << " s\n"
        << "corner closings  " << closings << " (first at " << first_closing << " s)\n"
        << "max penetration  " << deepest << " m (clearance " << f.data.c << " m)\n";
    if (r.history.rows())
      out << "energy           " << energy(0) << " -> " << energy(energy.size() - 1) << " J\n";
    out << "theta1(" << r.t << " s)  " << r.final_state(2) << " rad\n";
  }
  if (!ok) err << "stickslip run: " << r.message << "\n";
  return ok ? kExitOk : kExitFailure;
}

}  // namespace stickslip::cli
