#pragma once
// What the engine benchmarks share: the CPU clock, how a setting is named, and their command
// line (--json, --check).
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace stickslip::bench {

/// CPU seconds used by the process (all engines run on this thread).
inline double cpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

inline std::string stepText(double h) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "h = %g s", h);
  return buf;
}

struct EngineOptions {
  bool json = false, check = false;
};

/// --json and --check; anything else prints the usage and exits 2.
inline EngineOptions parseEngineOptions(int argc, char** argv, const char* program) {
  EngineOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") {
      o.json = true;
    } else if (a == "--check") {
      o.check = true;
    } else {
      std::cerr << program << ": unknown option '" << a << "'\nusage: " << program << " [--json] [--check]\n";
      std::exit(2);
    }
  }
  return o;
}

}  // namespace stickslip::bench
