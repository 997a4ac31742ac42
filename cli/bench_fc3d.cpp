// stickslip bench fc3d: Siconos' spatial friction problems (every .dat in --data) by our round-cone
// solvers (auto, nsgs, newton), our Lemke on the faceted cone and Siconos Numerics' fc3d solvers,
// in the same run, every answer judged by Siconos' own error measure (fc3d_compute_error), each
// solve repeated until it has run --min-time-ms and timed as the mean.
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/bench.hpp"
#include "cli/output.hpp"
#include "lcp/friction_facets.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"

namespace stickslip::cli {
namespace {

/// Alart–Curnier's Newton factorizes a dense 3nc system per iteration: 190 s for the 276
/// capsules at 10⁴ iterations, left out beyond this many contacts.
constexpr Eigen::Index kNewtonContacts = 100;

struct Fc3dRow {
  std::string file, solver, status, message;
  long contacts = 0;
  double error = 0.0, seconds = 0.0;
  int iterations = 0;
  /// Solved by its own account and within the tolerance by Siconos' measure (which a diverging r,
  /// as on a problem without solution, can also meet: it is relative to ‖r‖).
  bool meets(double tolerance) const { return status == "solved" && error <= tolerance; }
};

/// One solve of `solver` on p, a fresh solver each time (as a user pays it).
lcp::FrictionResult solveOnce(const std::string& solver, const lcp::FrictionProblem3D& p, double tolerance,
                              int siconos_max_iterations, int facets) {
  if (solver == "lemke") return lcp::solveFrictionFaceted(p, facets);
  if (solver.rfind("siconos-", 0) == 0) {
    lcp::SiconosOptions o;
    o.tolerance = tolerance;
    o.max_iterations = siconos_max_iterations;
    return lcp::SiconosFc3dSolver(solver.substr(8), o).solve(p);
  }
  lcp::RoundConeOptions o;
  o.method = lcp::roundConeMethod(solver);
  o.tolerance = tolerance;
  lcp::FrictionResult r;
  lcp::RoundConeSolver(o).solve(p, r);
  return r;
}

/// The mean time of a solve, repeated until min_seconds have passed (once at least).
template <typename F>
double meanSeconds(double min_seconds, F&& solve) {
  int count = 0;
  const auto t0 = std::chrono::steady_clock::now();
  double elapsed = 0.0;
  do {
    solve();
    ++count;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  } while (elapsed < min_seconds);
  return elapsed / count;
}

}  // namespace

int benchFc3d(const std::string& data, double tolerance, int siconos_max_iterations, int facets, double min_seconds,
              bool json, std::ostream& out, std::ostream& err) {
  namespace fs = std::filesystem;
  const std::vector<fs::path> files = benchProblemFiles(data, "fc3d");

  std::vector<Fc3dRow> rows;
  for (const fs::path& path : files) {
    const std::string file = path.filename().string();
    const lcp::FrictionProblem3D p = lcp::readFc3dDat(path);
    std::vector<std::string> solvers{"auto", "nsgs", "newton", "lemke"};
    for (const std::string& name : lcp::siconosFc3dSolverNames())
      if (name != "nsn-ac" || p.contacts() <= kNewtonContacts) solvers.push_back("siconos-" + name);
    for (const std::string& solver : solvers) {
      Fc3dRow row;
      row.file = file;
      row.solver = solver;
      row.contacts = long(p.contacts());
      lcp::FrictionResult r;
      row.seconds = meanSeconds(min_seconds, [&] { r = solveOnce(solver, p, tolerance, siconos_max_iterations, facets); });
      row.iterations = r.pivots;
      row.status = std::string(lcp::toString(r.status));
      row.message = r.message;
      row.error = lcp::siconosFc3dError(p, r.r);
      err << file << " " << solver << ": " << row.status << ", error " << row.error << ", " << row.seconds << " s\n";
      rows.push_back(row);
    }
  }

  // Per problem: our auto against the fastest Siconos solver that met the tolerance.
  struct Summary {
    std::string file;
    const Fc3dRow* ours = nullptr;
    const Fc3dRow* siconos = nullptr;
    double ratio() const { return ours && siconos ? ours->seconds / siconos->seconds : std::nan(""); }
  };
  std::vector<Summary> summaries;
  for (const fs::path& path : files) {
    Summary sum{path.filename().string()};
    for (const Fc3dRow& r : rows) {
      if (r.file != sum.file) continue;
      if (r.solver == "auto") sum.ours = &r;
      if (r.solver.rfind("siconos-", 0) == 0 && r.meets(tolerance) && (!sum.siconos || r.seconds < sum.siconos->seconds))
        sum.siconos = &r;
    }
    summaries.push_back(sum);
  }

  if (json) {
    nlohmann::json j{{"tolerance", tolerance}, {"siconos_max_iterations", siconos_max_iterations}, {"facets", facets},
                     {"facet_bound", lcp::facetBound(facets)}, {"min_time_ms", 1e3 * min_seconds},
                     {"rows", nlohmann::json::array()}, {"problems", nlohmann::json::array()}};
    for (const Fc3dRow& r : rows)
      j["rows"].push_back({{"file", r.file}, {"contacts", r.contacts}, {"solver", r.solver}, {"status", r.status},
                           {"error", finiteOrNull(r.error)}, {"meets_tolerance", r.meets(tolerance)},
                           {"iterations", r.iterations}, {"seconds", r.seconds}});
    for (const Summary& sum : summaries)
      j["problems"].push_back({{"file", sum.file},
                               {"ours_error", sum.ours ? finiteOrNull(sum.ours->error) : nullptr},
                               {"ours_seconds", sum.ours ? sum.ours->seconds : 0.0},
                               {"fastest_siconos", sum.siconos ? sum.siconos->solver : ""},
                               {"fastest_siconos_seconds", sum.siconos ? sum.siconos->seconds : 0.0},
                               {"ratio", finiteOrNull(sum.ratio())}});
    out << jsonLine(j) << "\n";
    return kExitOk;
  }
  char line[400];
  out << "Siconos' fc3d problems (" << data << "): our round-cone solvers (auto, nsgs, newton), our Lemke on a faceted "
      << "cone and Siconos Numerics' fc3d solvers, same run\nerror: Siconos' fc3d_compute_error of each answer on the "
      << "round cone; tolerance " << tolerance << " (Siconos' solvers, at most " << siconos_max_iterations
      << " iterations); lemke: " << facets << " facets, its error is the facets' (friction magnitude within "
      << 100.0 * lcp::facetBound(facets) << " % of mu N); siconos-nsn-ac only up to " << kNewtonContacts
      << " contacts; seconds: the mean of repeated solves (at least " << 1e3 * min_seconds << " ms each)\n\n"
      << "| problem | contacts | solver | status | error | ≤ tol | iterations | seconds |\n"
      << "|---|---:|---|---|---:|---|---:|---:|\n";
  for (const Fc3dRow& r : rows) {
    std::snprintf(line, sizeof line, "| %s | %ld | %s | %s | %.2e | %s | %d | %.3g |\n", r.file.c_str(), r.contacts,
                  r.solver.c_str(), r.status.c_str(), r.error,
                  r.solver == "lemke" ? "(faceted)" : r.meets(tolerance) ? "yes" : "no", r.iterations, r.seconds);
    out << line;
  }
  out << "\n| problem | ours (auto): error | seconds | fastest Siconos within the tolerance | seconds | ours / Siconos |\n"
      << "|---|---:|---:|---|---:|---:|\n";
  for (const Summary& sum : summaries) {
    if (sum.siconos)
      std::snprintf(line, sizeof line, "| %s | %.2e | %.3g | %s | %.3g | %.2f |\n", sum.file.c_str(), sum.ours->error,
                    sum.ours->seconds, sum.siconos->solver.c_str(), sum.siconos->seconds, sum.ratio());
    else
      std::snprintf(line, sizeof line, "| %s | %.2e | %.3g | none | | |\n", sum.file.c_str(), sum.ours->error,
                    sum.ours->seconds);
    out << line;
  }
  return kExitOk;
}

}  // namespace stickslip::cli
