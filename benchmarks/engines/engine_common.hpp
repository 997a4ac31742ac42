#pragma once
// What the engine benchmarks share: how a setting is named, their command line (--json,
// --check) and the claim each prints under its table.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

namespace stickslip::bench {

/// A number as printf's %g writes it.
inline std::string numberText(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

inline std::string stepText(double h) { return "h = " + numberText(h) + " s"; }

struct EngineOptions {
  bool json = false, check = false;
};

/// --json and --check; -h or --help prints `about` and the usage and exits 0; anything else
/// prints the usage and exits 2.
inline EngineOptions parseEngineOptions(int argc, char** argv, const char* program,
                                        const char* about) {
  const std::string usage = std::string("usage: ") + program +
                            " [--json] [--check]\n"
                            "  --json   the runs as JSON instead of the tables\n"
                            "  --check  exit 1 when a run fails or an answer of ours is wrong\n";
  EngineOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      o.json = true;
    } else if (a == "--check") {
      o.check = true;
    } else if (a == "-h" || a == "--help") {
      std::cout << about << "\n" << usage;
      std::exit(0);
    } else {
      std::cerr << program << ": unknown option '" << a << "'\n" << usage;
      std::exit(2);
    }
  }
  return o;
}

/// One run as the claim reads it: its error (NaN or ∞: it has none, e.g. too few impacts) and
/// its CPU seconds per simulated second.
struct RunPoint {
  std::string engine, setting;
  double error = NAN, cpu = NAN;
};

/// The claim checked on every problem: for each engine, its best setting (the least error) and
/// our least error among our runs that cost no more CPU; one line each, then whether ours was
/// at least 100× smaller every time. `unit` follows the errors ("m", "s").
inline void printClaim(const std::vector<RunPoint>& runs, const char* unit) {
  auto usable = [](const RunPoint& r) { return std::isfinite(r.error) && std::isfinite(r.cpu); };
  std::vector<std::string> engines;
  for (const RunPoint& r : runs)
    if (r.engine != "stickslip" &&
        std::find(engines.begin(), engines.end(), r.engine) == engines.end())
      engines.push_back(r.engine);
  std::printf("\nEach engine's best setting against ours at no more CPU:\n\n");
  bool all = true;
  for (const std::string& engine : engines) {
    const RunPoint* best = nullptr;
    for (const RunPoint& r : runs)
      if (r.engine == engine && usable(r) && (best == nullptr || r.error < best->error)) best = &r;
    if (best == nullptr) {
      std::printf("- %s: no run with an error to compare\n", engine.c_str());
      continue;
    }
    const RunPoint* ours = nullptr;
    for (const RunPoint& r : runs)
      if (r.engine == "stickslip" && usable(r) && r.cpu <= best->cpu &&
          (ours == nullptr || r.error < ours->error))
        ours = &r;
    if (ours == nullptr) {
      all = false;
      std::printf("- %s: %.3g %s (%s, %.3g s/s); none of ours costs so little\n", engine.c_str(),
                  best->error, unit, best->setting.c_str(), best->cpu);
      continue;
    }
    const double ratio = best->error / std::max(ours->error, 1e-300);
    all = all && ratio >= 100.0 && best->error > 0.0;
    std::printf("- %s: %.3g %s (%s, %.3g s/s); ours %.3g %s (%s, %.3g s/s): %.3g× %s\n",
                engine.c_str(), best->error, unit, best->setting.c_str(), best->cpu, ours->error,
                unit, ours->setting.c_str(), ours->cpu, ratio >= 1.0 ? ratio : 1.0 / ratio,
                ratio >= 1.0 ? "smaller" : "larger");
  }
  std::printf("\nOurs at least 100× smaller at no more CPU than every engine's best: %s\n",
              all ? "yes" : "no");
}

}  // namespace stickslip::bench
