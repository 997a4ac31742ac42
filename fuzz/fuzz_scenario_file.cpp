/// libFuzzer target: scenario files (mechanisms/scenario_file.hpp) from arbitrary text, and
/// --set assignments from its first line.
///
/// Invariants (each violation aborts, so libFuzzer keeps the input):
///  - loading either returns a scenario or throws mechanisms::InputError; nothing else
///    escapes (no crash, no other exception, no hang);
///  - a loaded scenario round-trips: printed as a file and read back, it prints the same
///    text (every number exact);
///  - an assignment either applies or throws InputError.

#include <unistd.h>

#include <cstdint>
#include <exception>
#include <fstream>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/scenario_file.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_scenario_file";

std::string scratchFile() { return "/tmp/fuzz_scenario_file_" + std::to_string(getpid()) + ".yaml"; }

template <typename Body>
bool inputErrorOnly(const char* who, Body body) {
  try {
    body();
    return true;
  } catch (const mechanisms::InputError&) {
    return false;
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string(who) + " threw something else than InputError: " + e.what());
  } catch (...) {
    fuzz::fail(kTarget, std::string(who) + " threw a non-standard exception");
  }
}

std::string printed(const mechanisms::Scenario& s) {
  std::vector<std::pair<std::string, std::string>> run;
  for (const auto& r : s.run) run.emplace_back(r.key, r.value);
  return mechanisms::scenarioYaml(s, "fuzz", run);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string file = scratchFile();
  std::ofstream(file, std::ios::binary) << text;
  mechanisms::Scenario s;
  if (!inputErrorOnly("loadScenario", [&] { s = mechanisms::loadScenario(file); })) return 0;

  // A model file is its own description (fuzz_planar_model checks it); a built-in, planar or
  // spatial, prints as a file that loads back and prints the same.
  if (!s.builtin) return 0;
  const std::string first = printed(s);
  std::ofstream(file, std::ios::binary | std::ios::trunc) << first;
  mechanisms::Scenario again;
  if (!inputErrorOnly("loadScenario (printed)", [&] { again = mechanisms::loadScenario(file); }))
    fuzz::fail(kTarget, "a printed scenario does not load:\n" + first);
  if (printed(again) != first) fuzz::fail(kTarget, "a printed scenario does not print back the same:\n" + first);

  const std::string assignment = text.substr(0, text.find('\n'));
  inputErrorOnly("applySettings", [&] { mechanisms::applySettings(s, {assignment}); });
  return 0;
}
