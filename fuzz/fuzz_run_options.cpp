/// libFuzzer target: `stickslip run` with hostile options, in process (cli::dispatch), on a few
/// built-ins and a model file, planar and spatial, by every route.
///
/// The input chooses the scenario, the route (or the environment's FUZZ_ROUTE: one route per
/// fuzzing session), and for each numeric run option whether it is given, on the command line
/// or as --set run.KEY, and its value: 0, negative, denormal, 1e±300, inf, nan, huge counts, any
/// double (fuzz_input.hpp), sometimes as text that is no number. It also sets one of the
/// model's parameters to such a value. The run's budget is kept small (--max-steps and the
/// like are capped unless the value given is one to refuse), so that every legitimate run
/// ends within libFuzzer's -timeout: a run past it is a hang.
///
/// FUZZ_PRINT=1 prints each command line before it runs (to reproduce a finding with the CLI).
///
/// Invariants (each violation aborts, so libFuzzer keeps the input):
///  - the exit code is 0, 1 or 2; nothing else escapes (no crash, no other exception);
///  - exit 0 prints status ok with t = t_end; exit 1 a status other than ok with its message;
///  - exit 2 prints one located message on stderr ("stickslip run: ..."), nothing on stdout.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "fuzz/fuzz_input.hpp"
#include "mechanisms/scenario_file.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_run_options";

/// Planar built-ins with contacts, a clearance joint and joint friction, a 1-DoF mechanism the
/// minimal form takes, a model file, and a spatial mechanism with joint friction.
const std::vector<std::string>& scenarios() {
  static const std::vector<std::string> names{
      "belt", "ball", "zheng-torque", "blajer-1", STICKSLIP_SOURCE_DIR "/mechanisms/scenarios/guided_slider_crank.yaml",
      "spatial-slider-crank-friction"};
  return names;
}

const std::vector<std::string> kRoutes{"event-driven", "moreau-jean", "penalty", "minimal-form"};

/// Each run's budget, so that a legitimate run ends in seconds.
struct Cap {
  const char* option;
  double most;
};
constexpr Cap kCaps[] = {{"max-steps", 2e4}, {"max-samples", 2e3}, {"max-history-mb", 64.0}, {"max-events", 2e3}};

std::string text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, end);
}

/// A value for a numeric option: mostly a number, now and then text that is none.
std::string value(fuzz::FuzzInput& in) {
  switch (in.range(0, 15)) {
    case 0: return "1e400";
    case 1: return "-1e-400";
    case 2: return "0x1p-1074";
    case 3: return "12abc";
    default: return text(in.real());
  }
}

std::string firstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

/// How the runs ended, printed when the fuzzer stops: a target that only ever refuses its
/// input would test little.
struct Outcomes {
  long ok = 0, failed = 0, refused = 0;
  ~Outcomes() {
    std::fprintf(stderr, "%s: %ld runs ok (exit 0), %ld failed with a status (exit 1), %ld refused (exit 2)\n",
                 kTarget, ok, failed, refused);
  }
} outcomes;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in(data, size);
  const std::string scenario = scenarios()[std::size_t(in.range(0, int(scenarios().size()) - 1))];
  std::vector<std::string> args{"run", scenario, "--json"};
  const char* fixed_route = std::getenv("FUZZ_ROUTE");
  const int route = in.range(0, int(kRoutes.size()));  // the last: the scenario's own
  if (fixed_route != nullptr && *fixed_route != '\0') {
    args.insert(args.end(), {"--method", fixed_route});
  } else if (route < int(kRoutes.size())) {
    args.insert(args.end(), {"--method", kRoutes[std::size_t(route)]});
  }

  for (const char* option : {"t-end", "dt", "output-dt", "tolerance", "event-tolerance", "theta", "facets"}) {
    const int how = in.range(0, 5);  // 0: on the command line, 1: --set run.KEY, else left out
    if (how > 1) continue;
    const std::string v = std::string(option) == "facets" ? std::to_string(in.range(-2, 300)) : value(in);
    if (how == 0) {
      args.insert(args.end(), {"--" + std::string(option), v});
    } else {
      std::string key(option);
      for (char& c : key)
        if (c == '-') c = '_';
      args.insert(args.end(), {"--set", "run." + key + "=" + v});
    }
  }
  for (const Cap& cap : kCaps) {
    // A value to refuse goes through; any other is capped.
    const double x = in.real();
    const bool refused = !(x >= 1.0) || !std::isfinite(x) || x > 1e18;
    args.insert(args.end(), {"--" + std::string(cap.option), text(refused && in.range(0, 3) == 0 ? x : std::min(std::max(x, 1.0), cap.most))});
  }
  if (in.range(0, 2) == 0) {
    try {
      const mechanisms::Scenario loaded = mechanisms::loadScenario(scenario);
      const auto& parameters = mechanisms::modelParameters(loaded);
      if (!parameters.empty()) {
        const auto& [name, x] = parameters[std::size_t(in.range(0, int(parameters.size()) - 1))];
        const std::string v = in.range(0, 1) ? value(in) : text(x * in.real());
        args.insert(args.end(), {"--set", "parameters." + name + "=" + v});
      }
    } catch (const std::exception& e) {
      fuzz::fail(kTarget, std::string("a scenario of the target's own does not load: ") + e.what());
    }
  }

  std::string command;
  for (const auto& a : args) command += " " + a;
  if (std::getenv("FUZZ_PRINT") != nullptr) std::fprintf(stderr, "stickslip%s\n", command.c_str());  // to reproduce
  std::ostringstream out, err;
  int code = -1;
  try {
    code = cli::dispatch(args, out, err);
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string("an exception escaped stickslip run: ") + e.what());
  } catch (...) {
    fuzz::fail(kTarget, "a non-standard exception escaped stickslip run");
  }
  const auto violated = [&](const std::string& what) {
    fuzz::fail(kTarget, what + "\n  command:" + command + "\n  stdout: " + firstLine(out.str()) +
                            "\n  stderr: " + firstLine(err.str()));
  };
  if (code == cli::kExitInput) {
    if (!out.str().empty() || !err.str().starts_with("stickslip run: ")) violated("exit 2 without its one message");
    ++outcomes.refused;
    return 0;
  }
  if (code != cli::kExitOk && code != cli::kExitFailure) violated("exit code " + std::to_string(code));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(out.str());
  } catch (const std::exception&) {
    violated("no JSON on stdout");
  }
  const bool ok = j.value("status", "") == "ok";
  const double t = j.value("t", -1.0), t_end = j.value("t_end", -1.0);
  if (code == cli::kExitOk && !(ok && t_end > 0.0 && t >= t_end * (1.0 - 1e-9)))
    violated("exit 0 without a finished run (status " + j.value("status", std::string("?")) + ")");
  if (code == cli::kExitFailure && (ok || j.value("message", "").empty())) violated("exit 1 without a status and its message");
  ++(ok ? outcomes.ok : outcomes.failed);
  return 0;
}
