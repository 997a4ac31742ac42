// stickslip bench lcp [--sizes 2,4,...] [--families spd,friction] [--instances K] [--json]
// (bench eom, friction: bench_dynamics.cpp; bench fc2d: bench_fc2d.cpp; bench fc3d: bench_fc3d.cpp)
//
// Our Lemke against Siconos Numerics' Lemke on the same instances in the same process,
// alternating blocks of solves of the two so that machine noise hits both alike; median µs
// per solve and ratio.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "cli/bench.hpp"
#include "cli/command.hpp"
#include "cli/method_list.hpp"
#include "lcp/friction_facets.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/siconos_backend.hpp"

namespace stickslip::cli {
namespace {

struct Row {
  std::string family;
  int n = 0;
  int instances = 0, ours_solved = 0, siconos_solved = 0;
  double ours_us = 0.0, siconos_us = 0.0;  // medians over every timed solve
  double ours_pivots = 0.0, siconos_pivots = 0.0, worst_ours_relres = 0.0;
};

std::vector<int> parseSizes(const std::string& text) {
  std::vector<int> sizes;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t used = 0;
    int n = 0;
    try {
      n = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || n < 1 || n > 4096)
      throw std::invalid_argument("--sizes: expected comma-separated integers in [1, 4096], got '" +
                                  item + "'");
    sizes.push_back(n);
  }
  return sizes;
}

lcp::Problem makeInstance(const std::string& family, int n, std::uint64_t seed) {
  if (family == "spd") return lcp::randomSpdProblem(n, seed);
  if (family == "pmatrix") return lcp::randomPMatrixProblem(n, seed);
  // friction: the exact 4-per-contact LCP of a random planar contact problem.
  return lcp::FrictionReduction(lcp::randomFrictionProblem(std::max(1, n / 4), seed)).lcp();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

template <typename F>
double timeOnce(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

Row benchOne(const std::string& family, int n, int instances, double min_time_us) {
  Row row;
  row.family = family;
  lcp::LemkeSolver ours;
  // Siconos' Lemke prints nothing on these families, so its output is not redirected: the
  // redirection's system calls would otherwise be timed as part of Siconos' solve.
  lcp::SiconosOptions siconos_options;
  siconos_options.quiet = false;
  lcp::SiconosLcpSolver theirs("lemke", siconos_options);
  std::vector<double> t_ours, t_theirs;
  lcp::Result r_ours, r_theirs;
  for (int k = 0; k < instances; ++k) {
    const lcp::Problem p = makeInstance(family, n, 1000u * std::uint64_t(n) + std::uint64_t(k));
    row.n = int(p.size());
    ++row.instances;
    // Untimed first pass: correctness of both, and warm caches.
    ours.solve(p, r_ours);
    r_theirs = theirs.solve(p);
    row.ours_solved += r_ours.ok();
    row.siconos_solved += r_theirs.ok();
    row.ours_pivots += r_ours.pivots;
    row.siconos_pivots += r_theirs.pivots;
    if (r_ours.ok()) row.worst_ours_relres = std::max(row.worst_ours_relres, r_ours.relative_residual);
    // Blocks of `batch` solves, alternating ours and Siconos': each is timed warm, as in a
    // time-stepping loop, and load on the machine hits both alike.
    const double one = std::max(1e-3, timeOnce([&] { ours.solve(p, r_ours); }));
    const int batch = std::clamp(int(20.0 / one), 1, 1000);  // ~20 µs per block
    double spent = 0.0;
    for (int round = 0; round < 3 || spent < min_time_us; ++round) {
      const double a = timeOnce([&] {
        for (int b = 0; b < batch; ++b) ours.solve(p, r_ours);
      });
      const double c = timeOnce([&] {
        for (int b = 0; b < batch; ++b) theirs.solve(p, r_theirs);
      });
      t_ours.push_back(a / batch);
      t_theirs.push_back(c / batch);
      spent += a + c;
      if (round >= 10000) break;
    }
  }
  row.ours_us = median(t_ours);
  row.siconos_us = median(t_theirs);
  row.ours_pivots /= row.instances;
  row.siconos_pivots /= row.instances;
  return row;
}

}  // namespace

std::vector<std::filesystem::path> benchProblemFiles(const std::string& data, const std::string& kind) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(data))
    throw std::invalid_argument("--data: '" + data + "' is not a directory (expected Siconos' " + kind +
                                " problems, e.g. the source tree's tests/data/siconos/" + kind + ")");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(data))
    if (e.path().extension() == ".dat") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::invalid_argument("--data: no .dat files in '" + data + "'");
  return files;
}

namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("what", po::value<std::string>()->required(),
                  "what to benchmark: lcp (ours vs Siconos), eom (the EOM methods on a slider-crank), "
                  "fc2d (Siconos' planar friction problems, ours vs Siconos' solvers), fc3d (Siconos' spatial ones: our round-cone "
                  "solvers, our faceted Lemke and Siconos' fc3d solvers), friction (belt, every law)")(
      "sizes", po::value<std::string>()->default_value("2,4,8,16,32,64,128,256"),
      "LCP sizes n (friction: n/4 contacts, n rounded to a multiple of 4)")(
      "families", po::value<std::string>()->default_value("spd,friction"),
      "instance families: spd, pmatrix, friction")(
      "instances", po::value<int>()->default_value(5), "random instances per size")(
      "min-time-ms", po::value<double>()->default_value(40.0),
      "lcp: keep repeating an instance until the two solvers together spent this long on it (at most 10000 "
      "blocks of solves each); fc3d: repeat each solve this long")(
      "dt", po::value<double>()->default_value(1e-3), "eom: RK4 step [s]")(
      "mechanism", po::value<std::string>()->default_value("spatial-slider-crank"),
      "eom: spatial-slider-crank (the thesis' mechanism) or slider-crank (its planar counterpart)")(
      "data", po::value<std::string>(),
      "fc2d, fc3d: the folder of Siconos .dat problems (default, from the source tree's root: "
      "tests/data/siconos/fc2d-more or fc3d)")(
      "tolerance", po::value<double>(), "fc2d, fc3d: Siconos' error to reach (default 1e-8)")(
      "facets", po::value<int>()->default_value(8), "fc3d: directions per contact of our faceted cone, 3 … 1024")(
      "max-iterations", po::value<int>()->default_value(100000), "fc2d: our NSGS's sweeps at most")(
      "solvers", po::value<std::string>(),
      "fc2d: only these solvers, comma-separated (default: all): nsgs, lemke, siconos-NAME for each of "
      "Siconos' fc2d solvers")(
      "siconos-max-iterations", po::value<int>()->default_value(2000),
      "fc2d, fc3d: Siconos' iterations at most (its dense NSGS sweep costs (2 nc)^2)")(
      "t-end", po::value<double>(), "eom, friction: end time [s] (default 20, the thesis')")(
      "series-dt", po::value<double>(),
      "eom with --json: each method's row also holds its history every so many seconds (t, phi2 = "
      "|Phi|^2, phi_dot2 = |dPhi/dt|^2, energy_change = E - E0: the thesis' Figs. 2.7-2.9)")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("what", 1);
}

/// An option given for another --what is refused rather than ignored (its value unchecked).
void checkApplies(const po::variables_map& vm, const std::string& what) {
  static const std::map<std::string, std::set<std::string>> takes{
      {"sizes", {"lcp"}},
      {"families", {"lcp"}},
      {"instances", {"lcp"}},
      {"min-time-ms", {"lcp", "fc3d"}},
      {"dt", {"eom"}},
      {"mechanism", {"eom"}},
      {"series-dt", {"eom"}},
      {"t-end", {"eom", "friction"}},
      {"data", {"fc2d", "fc3d"}},
      {"tolerance", {"fc2d", "fc3d"}},
      {"facets", {"fc3d"}},
      {"max-iterations", {"fc2d"}},
      {"solvers", {"fc2d"}},
      {"siconos-max-iterations", {"fc2d", "fc3d"}}};
  for (const auto& [option, whats] : takes) {
    if (!vm.count(option) || vm[option].defaulted() || whats.count(what)) continue;
    std::string list;
    for (const auto& w : whats) list += (list.empty() ? "" : ", ") + w;
    throw std::invalid_argument("--" + option + ": bench --what " + what +
                                " does not take it (it is " + list + "'s)");
  }
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  const std::string what = vm["what"].as<std::string>();
  const bool json = vm["json"].as<bool>();
  checkApplies(vm, what);
  auto positive = [&](const char* key, double fallback) {
    const double x = vm.count(key) ? vm[key].as<double>() : fallback;
    if (!(x > 0.0) || !std::isfinite(x))
      throw std::invalid_argument(std::string("--") + key + ": expected a finite number > 0");
    return x;
  };
  if (what == "eom") {
    const double series_dt = vm.count("series-dt") ? positive("series-dt", 0.0) : 0.0;
    if (series_dt > 0.0 && !json) throw std::invalid_argument("--series-dt: the histories go into --json's rows; add --json");
    return benchEom(vm["mechanism"].as<std::string>(), positive("dt", 1e-3), positive("t-end", 20.0), series_dt, json,
                    out, err);
  }
  if (what == "friction") return benchFriction(positive("t-end", 20.0), json, out, err);
  if (what == "fc2d") {
    const int sweeps = vm["max-iterations"].as<int>(), theirs = vm["siconos-max-iterations"].as<int>();
    if (sweeps < 1 || theirs < 1) throw std::invalid_argument("--max-iterations, --siconos-max-iterations: expected ≥ 1");
    const std::string data = vm.count("data") ? vm["data"].as<std::string>() : "tests/data/siconos/fc2d-more";
    const std::vector<std::string> only = vm.count("solvers") ? splitList(vm["solvers"].as<std::string>())
                                                               : std::vector<std::string>{};
    if (vm.count("solvers") && only.empty()) throw std::invalid_argument("--solvers: expected solvers' names");
    return benchFc2d(data, positive("tolerance", 1e-8), sweeps, theirs, only, json, out, err);
  }
  if (what == "fc3d") {
    const int theirs = vm["siconos-max-iterations"].as<int>(), facets = vm["facets"].as<int>();
    if (theirs < 1) throw std::invalid_argument("--siconos-max-iterations: expected ≥ 1");
    if (facets < 3 || facets > lcp::kMaxFacets)
      throw std::invalid_argument("--facets: expected 3 … " + std::to_string(lcp::kMaxFacets) + ", got " +
                                  std::to_string(facets));
    const std::string data = vm.count("data") ? vm["data"].as<std::string>() : "tests/data/siconos/fc3d";
    return benchFc3d(data, positive("tolerance", 1e-8), theirs, facets, 1e-3 * positive("min-time-ms", 40.0), json, out,
                     err);
  }
  if (what != "lcp")
    throw std::invalid_argument("expected lcp, eom, fc2d, fc3d or friction after 'bench', got '" + what + "'");
  const std::vector<int> sizes = parseSizes(vm["sizes"].as<std::string>());
  std::vector<std::string> families;
  {
    std::stringstream ss(vm["families"].as<std::string>());
    std::string f;
    while (std::getline(ss, f, ','))
      if (f == "spd" || f == "pmatrix" || f == "friction")
        families.push_back(f);
      else
        throw std::invalid_argument("--families: expected spd, pmatrix or friction, got '" + f +
                                    "'");
  }
  const int instances = vm["instances"].as<int>();
  if (instances < 1) throw std::invalid_argument("--instances: expected ≥ 1");
  const double min_time_us = 1e3 * positive("min-time-ms", 40.0);

  std::vector<Row> rows;
  for (const auto& family : families)
    for (int n : sizes) {
      if (family == "friction" && n < 4) continue;  // one contact is already 4 unknowns
      rows.push_back(benchOne(family, n, instances, min_time_us));
    }
  if (rows.empty())
    throw std::invalid_argument(
        "--sizes, --families: no instance to run (friction needs n >= 4: one contact is "
        "4 unknowns)");

  bool all_solved = true;
  for (const Row& r : rows) all_solved &= r.ours_solved >= r.siconos_solved;
  if (json) {
    nlohmann::json j{{"status", all_solved ? "ok" : "failed"}, {"rows", nlohmann::json::array()}};
    for (const Row& r : rows)
      j["rows"].push_back({{"family", r.family},
                           {"n", r.n},
                           {"instances", r.instances},
                           {"ours_us", r.ours_us},
                           {"siconos_us", r.siconos_us},
                           {"ratio", r.ours_us / r.siconos_us},
                           {"ours_solved", r.ours_solved},
                           {"siconos_solved", r.siconos_solved},
                           {"ours_pivots", r.ours_pivots},
                           {"siconos_pivots", r.siconos_pivots},
                           {"ours_worst_relative_residual", r.worst_ours_relres}});
    out << j.dump() << "\n";
  } else {
    out << "Lemke: stickslip vs Siconos Numerics (lexicographic Lemke), same instances, same run\n"
        << "median µs per solve; ratio = ours / Siconos (< 1: ours faster)\n\n"
        << "| family   |    n | stickslip µs | Siconos µs | ratio | solved (ours/Siconos) | pivots (ours/Siconos) |\n"
        << "|----------|-----:|-------------:|-----------:|------:|----------------------:|----------------------:|\n";
    for (const Row& r : rows) {
      std::ostringstream line;
      line << "| " << std::left << std::setw(8) << r.family << " | " << std::right << std::setw(4)
           << r.n << " | " << std::fixed << std::setprecision(1) << std::setw(12) << r.ours_us
           << " | " << std::setw(10) << r.siconos_us << " | " << std::setprecision(2)
           << std::setw(5) << r.ours_us / r.siconos_us << " | " << std::setw(21)
           << (std::to_string(r.ours_solved) + "/" + std::to_string(r.instances) + " / " +
               std::to_string(r.siconos_solved) + "/" + std::to_string(r.instances))
           << " | " << std::setprecision(1) << std::setw(21)
           << (std::to_string(int(r.ours_pivots + 0.5)) + " / " +
               std::to_string(int(r.siconos_pivots + 0.5)))
           << " |\n";
      out << line.str();
    }
  }
  if (!all_solved) err << "stickslip bench: our Lemke failed an instance that Siconos solved\n";
  return all_solved ? kExitOk : kExitFailure;
}

}  // namespace

const Command& benchCommand() {
  static const Command c{"bench", "benchmarks: lcp (ours vs Siconos), eom, fc2d, fc3d, friction", declare, run};
  return c;
}

}  // namespace stickslip::cli
