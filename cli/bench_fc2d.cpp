// stickslip bench fc2d: Siconos' planar friction problems (every .dat in --data) by our solvers
// and Siconos Numerics' fc2d solvers in the same run, to the same tolerance on the same error
// measure (Siconos' fc2d_compute_error, lcp::fc2dError), with time and memory.
#include <sys/resource.h>

#include <algorithm>
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
#include "lcp/friction_to_lcp.hpp"
#include "lcp/lemke.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"

namespace stickslip::cli {
namespace {

struct Fc2dRow {
  std::string file, solver, status, message;
  long contacts = 0, nnz = 0;
  double error = 0.0, seconds = 0.0, w_megabytes = 0.0, peak_rss_megabytes = 0.0;
  int iterations = 0;
};

double peakRssMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

template <typename F>
Fc2dRow timed(const std::string& file, const std::string& solver, const lcp::SparseFrictionProblem2D& p, F&& solve) {
  Fc2dRow row;
  row.file = file;
  row.solver = solver;
  row.contacts = long(p.contacts());
  row.nnz = long(p.W.nonZeros());
  const auto t0 = std::chrono::steady_clock::now();
  const lcp::FrictionResult r = solve();
  row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  row.peak_rss_megabytes = peakRssMegabytes();
  row.iterations = r.pivots;
  row.status = std::string(lcp::toString(r.status));
  row.message = r.message;
  row.error = r.r.size() == p.q.size() && r.u.size() == p.q.size() ? lcp::fc2dError(r.r, r.u, p.mu, p.q.norm())
                                                                    : std::numeric_limits<double>::quiet_NaN();
  return row;
}

}  // namespace

int benchFc2d(const std::string& data, double tolerance, int max_iterations, int siconos_max_iterations,
              const std::vector<std::string>& only, bool json, std::ostream& out, std::ostream& err) {
  namespace fs = std::filesystem;
  std::vector<std::string> known{"nsgs", "lemke"};
  for (const std::string& name : lcp::siconosFc2dSolverNames()) known.push_back("siconos-" + name);
  for (const std::string& name : only)
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw std::invalid_argument("--solvers: '" + name + "' is not an fc2d solver (expected some of " + list + ")");
    }
  const auto wanted = [&](const std::string& name) {
    return only.empty() || std::find(only.begin(), only.end(), name) != only.end();
  };
  const bool dense_wanted =
      only.empty() || std::any_of(only.begin(), only.end(), [](const std::string& s) { return s != "nsgs"; });
  const std::vector<fs::path> files = benchProblemFiles(data, "fc2d");

  std::vector<Fc2dRow> rows;
  for (const fs::path& path : files) {
    const std::string file = path.filename().string();
    const lcp::SparseFrictionProblem2D p = lcp::readFc2dDatSparse(path);
    const bool dense_fits = p.contacts() <= lcp::kDenseFrictionContacts;
    const double dense_mb = 8.0 * double(p.q.size()) * double(p.q.size()) / 1e6;
    const double sparse_mb = (12.0 * double(p.W.nonZeros()) + 4.0 * double(p.q.size())) / 1e6;
    auto add = [&](Fc2dRow row, double w_mb) {
      row.w_megabytes = w_mb;
      err << file << " " << row.solver << ": " << row.status << ", error " << row.error << ", " << row.seconds
          << " s\n";
      rows.push_back(std::move(row));
    };
    if (wanted("nsgs"))
      add(timed(file, "nsgs", p, [&] {
            lcp::NsgsOptions o;
            o.tolerance = tolerance;
            o.max_sweeps = max_iterations;
            return lcp::solveFrictionNsgs(p, o);
          }),
          sparse_mb);
    // The dense solvers get W densely: ours within lcp::kDenseFrictionContacts (Lemke's LCP has
    // 4 nc unknowns), Siconos' iterative ones while W stays under 256 MB.
    if (dense_mb > 256.0 || !dense_wanted) continue;
    const lcp::FrictionProblem2D dense{Eigen::MatrixXd(p.W), p.q, p.mu};
    if (dense_fits && wanted("lemke"))
      add(timed(file, "lemke", p, [&] {
            lcp::LemkeSolver lemke;
            return lcp::solveFrictionWithLemke(dense, lemke);
          }),
          dense_mb);
    for (const std::string& name : lcp::siconosFc2dSolverNames()) {
      if (!wanted("siconos-" + name) || (name == "enum" && p.contacts() > 8)) continue;  // enum: 4^nc cases
      if (!dense_fits && name != "nsgs" && name != "cpg") continue;
      lcp::SiconosOptions o;
      o.tolerance = tolerance;
      o.max_iterations = siconos_max_iterations;
      o.accept_tol = 1.0;  // judged here by the common error measure instead
      lcp::SiconosFc2dSolver solver(name, o);
      add(timed(file, "siconos-" + name, p, [&] { return solver.solve(dense); }), dense_mb);
    }
  }

  if (json) {
    nlohmann::json j{{"tolerance", tolerance},
                     {"max_sweeps", max_iterations},
                     {"siconos_max_iterations", siconos_max_iterations},
                     {"rows", nlohmann::json::array()}};
    for (const Fc2dRow& r : rows)
      j["rows"].push_back({{"file", r.file},
                           {"contacts", r.contacts},
                           {"nnz", r.nnz},
                           {"solver", r.solver},
                           {"status", r.status},
                           {"error", finiteOrNull(r.error)},
                           {"meets_tolerance", r.error <= tolerance},
                           {"iterations", r.iterations},
                           {"seconds", r.seconds},
                           {"w_megabytes", r.w_megabytes},
                           {"peak_rss_megabytes", r.peak_rss_megabytes}});
    out << jsonLine(j) << "\n";
    return kExitOk;
  }
  char line[400];
  out << "Siconos' fc2d problems (" << data << "): ours and Siconos Numerics' solvers, same run\n"
      << "error: Siconos' fc2d_compute_error of each answer; tolerance " << tolerance << "; at most "
      << max_iterations << " sweeps (ours), " << siconos_max_iterations << " iterations (Siconos')\n"
      << "W MB: the matrix each solver works on (sparse: 12 bytes per nonzero; dense: 8 n²); peak RSS: the process "
         "so far\n\n"
      << "| problem | contacts | solver | status | error | ≤ tol | iterations | seconds | W MB | peak RSS MB |\n"
      << "|---|---:|---|---|---:|---|---:|---:|---:|---:|\n";
  for (const Fc2dRow& r : rows) {
    std::snprintf(line, sizeof line, "| %s | %ld | %s | %s | %.2e | %s | %d | %.4f | %.2f | %.0f |\n", r.file.c_str(),
                  r.contacts, r.solver.c_str(), r.status.c_str(), r.error, r.error <= tolerance ? "yes" : "no",
                  r.iterations, r.seconds, r.w_megabytes, r.peak_rss_megabytes);
    out << line;
  }
  // Per problem: our NSGS against the fastest Siconos solver that met the tolerance.
  out << "\n";
  for (const Fc2dRow& ours : rows) {
    if (ours.solver != "nsgs") continue;
    const Fc2dRow* best = nullptr;
    for (const Fc2dRow& r : rows)
      if (r.file == ours.file && r.solver.rfind("siconos-", 0) == 0 && r.error <= tolerance &&
          (!best || r.seconds < best->seconds))
        best = &r;
    if (best)
      std::snprintf(line, sizeof line, "%s: nsgs %.4f s%s, fastest Siconos solver within the tolerance %s %.4f s, ratio %.3f\n",
                    ours.file.c_str(), ours.seconds, ours.error <= tolerance ? "" : " (tolerance NOT met)",
                    best->solver.c_str(), best->seconds, ours.seconds / best->seconds);
    else {  // none met it: against the Siconos run that came closest
      const Fc2dRow* closest = nullptr;
      for (const Fc2dRow& r : rows)
        if (r.file == ours.file && r.solver.rfind("siconos-", 0) == 0 && (!closest || r.error < closest->error))
          closest = &r;
      if (closest)
        std::snprintf(line, sizeof line,
                      "%s: nsgs %.4f s, error %.2e; no Siconos solver met the tolerance, the closest %s stopped at "
                      "%.2e after %.4f s, ratio %.4f\n",
                      ours.file.c_str(), ours.seconds, ours.error, closest->solver.c_str(), closest->error,
                      closest->seconds, ours.seconds / closest->seconds);
      else
        std::snprintf(line, sizeof line, "%s: nsgs %.4f s, error %.2e; no Siconos solver ran\n", ours.file.c_str(),
                      ours.seconds, ours.error);
    }
    out << line;
  }
  return kExitOk;
}

}  // namespace stickslip::cli
