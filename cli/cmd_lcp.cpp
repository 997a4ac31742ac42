// stickslip lcp FILE.dat [--solver NAME] [--facets K] [--json]
#include <chrono>
#include <cmath>
#include <iomanip>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <variant>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "lcp/friction_facets.hpp"
#include "lcp/lcp_auto.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/small_pivoting.hpp"
#include "lcp/solve.hpp"

namespace stickslip::cli {
namespace {

std::string joinNames(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

void declare(po::options_description& o, po::positional_options_description& p) {
  const std::string solvers =
      "solver (auto: for LCPs block pivoting up to n = " + std::to_string(lcp::kSmallPivotingSize) +
      " on the stack and beyond with a kept factor, lemke where it finds no solution, then enum up "
      "to n = " +
      std::to_string(lcp::kAutoEnumerationSize) +
      " where lemke finds none; lemke for MLCPs; for FC2D as lcp::solveFriction "
      "chooses, for FC3D our round-cone solvers): for LCPs " +
      joinNames(lcp::lcpSolverNames()) + "; for MLCPs " + joinNames(lcp::mlcpSolverNames()) +
      "; for FC2D " + joinNames(lcp::frictionSolverNames()) + "; for FC3D " +
      joinNames(lcp::friction3dSolverNames()) +
      " (auto, nsgs and newton: ours on the round cone; lemke: ours on a faceted cone, "
      "see --facets)";
  o.add_options()("file", po::value<std::string>()->required(),
                  "Siconos .dat file (LCP, MLCP, FC2D or FC3D, detected)")(
      "solver", po::value<std::string>()->default_value("auto"), solvers.c_str())(
      "facets", po::value<int>()->default_value(8),
      "FC3D by our Lemke: directions per contact of the faceted Coulomb cone, 3 … 1024 (the friction force's "
      "magnitude within 1 - cos(pi/K) of the round cone's: 7.6 % at 8)")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("file", 1);
}

// One shape for the three problem kinds: z/w are the complementary pair (LCP: z, w; MLCP:
// v, w with the free u alongside; FC2D: reactions r and velocities u = W r + q).
struct Report {
  std::string kind, solver;  ///< solver: the one that answered
  long n = 0;
  lcp::Status status = lcp::Status::kNotRun;
  Eigen::VectorXd z, w, u;
  int pivots = 0;
  double residual = 0.0, relative_residual = 0.0, time_us = 0.0;
  /// Siconos' error measure: FC2D fc2dError, FC3D fc3d_compute_error.
  double siconos_error = std::numeric_limits<double>::quiet_NaN();
  double facet_bound = std::numeric_limits<double>::quiet_NaN();  ///< FC3D by our Lemke: 1 − cos(π/k)
  std::string message;
  std::string warning;  ///< FC3D: W is no Delassus matrix, or its units hide the error (lcp::solveFriction)
};

template <typename F>
double timeMicroseconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

template <typename Friction>
void solveFriction(const Friction& p, const std::string& solver, Report& rep) {
  lcp::FrictionResult r;
  rep.time_us = timeMicroseconds([&] { r = lcp::solveFriction(solver, p); });
  rep.n = long(p.q.size());
  rep.solver = r.solver;
  rep.status = r.status, rep.z = r.r, rep.w = r.u, rep.pivots = r.pivots;
  rep.residual = r.residual, rep.relative_residual = r.relative_residual, rep.message = r.message;
  if (r.r.size() == p.q.size() && r.u.size() == p.q.size())
    rep.siconos_error = lcp::fc2dError(r.r, r.u, p.mu, p.q.norm());
}

Report solveFile(const lcp::DatProblem& problem, const std::string& solver, int facets) {
  Report rep;
  rep.kind = lcp::datKindName(problem);
  // auto means Lemke for the MLCP; for the LCP, AutoLcpSolver says which answered; for
  // friction, solveFriction chooses.
  rep.solver = solver == "auto" && rep.kind != std::string("fc2d") ? "lemke" : solver;
  if (const auto* p3 = std::get_if<lcp::FrictionProblem3D>(&problem)) {
    lcp::FrictionResult r;
    rep.time_us = timeMicroseconds([&] { r = lcp::solveFriction(solver, *p3, facets); });
    rep.n = long(p3->q.size());
    rep.solver = r.solver;
    rep.status = r.status, rep.z = r.r, rep.w = r.u, rep.pivots = r.pivots;
    rep.residual = r.residual, rep.relative_residual = r.relative_residual, rep.message = r.message;
    rep.warning = r.warning;
    if (r.r.size() == p3->q.size()) rep.siconos_error = lcp::siconosFc3dError(*p3, r.r);
    if (rep.solver == "lemke") rep.facet_bound = lcp::facetBound(facets);
    return rep;
  }
  if (const auto* lp = std::get_if<lcp::Problem>(&problem)) {
    lcp::Result r;
    lcp::AutoLcpSolver automatic;
    rep.time_us = timeMicroseconds(
        [&] { r = solver == "auto" ? automatic.solve(*lp) : lcp::solveLcp(rep.solver, *lp); });
    if (solver == "auto") rep.solver = automatic.answeredBy();
    rep.n = long(lp->size());
    rep.status = r.status, rep.z = r.z, rep.w = r.w, rep.pivots = r.pivots;
    rep.residual = r.residual, rep.relative_residual = r.relative_residual, rep.message = r.message;
  } else if (const auto* mp = std::get_if<lcp::MixedProblem>(&problem)) {
    lcp::MixedResult r;
    rep.time_us = timeMicroseconds([&] { r = lcp::solveMlcp(rep.solver, *mp); });
    rep.n = long(mp->freeSize() + mp->complementaritySize());
    rep.status = r.status, rep.z = r.v, rep.w = r.w, rep.u = r.u, rep.pivots = r.pivots;
    rep.residual = r.residual, rep.relative_residual = r.relative_residual, rep.message = r.message;
  } else if (const auto* fp = std::get_if<lcp::FrictionProblem2D>(&problem)) {
    solveFriction(*fp, solver, rep);
  } else {
    solveFriction(std::get<lcp::SparseFrictionProblem2D>(problem), solver, rep);
  }
  return rep;
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  const std::string file = vm["file"].as<std::string>();
  const std::string solver = vm["solver"].as<std::string>();
  const lcp::DatProblem problem = lcp::readDat(file);  // throws invalid_argument on bad input
  const int facets = vm["facets"].as<int>();
  lcp::requireFacetCount(facets, "--facets");
  const bool faceted = std::holds_alternative<lcp::FrictionProblem3D>(problem) && solver == "lemke";
  if (!vm["facets"].defaulted() && !faceted)
    throw std::invalid_argument(
        "--facets: the faceted cone is --solver lemke's on an fc3d problem; here " +
        std::string(lcp::datKindName(problem)) + " by --solver " + solver + " does not use it");
  const Report rep = solveFile(problem, solver, facets);

  if (vm["json"].as<bool>()) {
    nlohmann::json j{{"status", std::string(lcp::toString(rep.status))},
                     {"solver", rep.solver},
                     {"requested_solver", solver},
                     {"file", file},
                     {"kind", rep.kind},
                     {"n", rep.n},
                     {"z", toJson(rep.z)},
                     {"w", toJson(rep.w)},
                     {"residual", finiteOrNull(rep.residual)},
                     {"relative_residual", finiteOrNull(rep.relative_residual)},
                     {"pivots", rep.pivots},
                     {"time_us", rep.time_us}};
    if (rep.kind == "mlcp") j["u"] = toJson(rep.u);
    if (rep.kind == "fc2d" || rep.kind == "fc3d") j["siconos_error"] = finiteOrNull(rep.siconos_error);
    if (std::isfinite(rep.facet_bound)) j["facets"] = facets, j["facet_bound"] = rep.facet_bound;
    if (!rep.message.empty()) j["message"] = rep.message;
    if (!rep.warning.empty()) j["warning"] = rep.warning;
    out << jsonLine(j) << "\n";
  } else {
    const bool friction = rep.kind == "fc2d" || rep.kind == "fc3d";
    const char* zname = friction ? "r" : rep.kind == "mlcp" ? "v" : "z";
    const char* wname = friction ? "u" : "w";
    out << file << ": " << rep.kind << " of size " << rep.n << ", solver " << rep.solver
        << (rep.solver != solver ? " (" + solver + ")" : std::string()) << "\n"
        << "status             " << rep.status << "\n"
        << "pivots/iterations  " << rep.pivots << "\n"
        << std::scientific << std::setprecision(3) << "residual           " << rep.residual
        << "  (relative " << rep.relative_residual << ")\n";
    if (friction)
      out << "Siconos' error     " << rep.siconos_error << "  (" << rep.kind << "_compute_error)\n";
    if (std::isfinite(rep.facet_bound))
      out << "faceted cone       " << facets << " facets: |F| within " << 100.0 * rep.facet_bound
          << " % of mu N where a contact slides\n";
    if (!rep.message.empty() && rep.status == lcp::Status::kSuccess) out << "note               " << rep.message << "\n";
    out << std::fixed << std::setprecision(1) << "time               " << rep.time_us << " µs\n";
    if (rep.kind == "mlcp") printVector(out, "u", rep.u);
    printVector(out, zname, rep.z);
    printVector(out, wname, rep.w);
  }
  if (!rep.message.empty() && rep.status != lcp::Status::kSuccess)
    err << "stickslip lcp: " << file << ": " << rep.message << "\n";
  // Answered all the same (status and residual above say how well); the exit code follows the status.
  if (!rep.warning.empty()) err << "stickslip lcp: " << file << ": warning: " << rep.warning << "\n";
  return exitCodeFor(rep.status);
}

}  // namespace

const Command& lcpCommand() {
  static const Command c{"lcp", "solve a Siconos-format LCP, MLCP, FC2D or FC3D file", declare, run};
  return c;
}

}  // namespace stickslip::cli
