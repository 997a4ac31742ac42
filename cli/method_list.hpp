#pragma once
/// \file The methods `compare` and `animate` run side by side on one scenario:
/// "event-driven,penalty:ambrosio,moreau-jean", each a route with an optional friction law after
/// a colon and an optional "/ideal" (the scenario's clearance joints made ideal, run's --ideal:
/// "penalty/ideal,penalty" sets a clearance joint beside its ideal one), and the `stickslip run`
/// arguments each is run with.

#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace stickslip::cli {

struct MethodSpec {
  std::string label;     ///< as given: "penalty:ambrosio" (" (2)" added to a repeat)
  std::string method;    ///< "penalty"
  std::string friction;  ///< "ambrosio", or "" for the scenario's default
  bool ideal = false;    ///< "/ideal": clearance joints made ideal (run's --ideal)
  std::string file;      ///< "SCENARIO-penalty-ambrosio.csv", unique within the list
};

/// Throws std::invalid_argument naming `option` for an unknown route, a colon without a law, a
/// slash with anything but "ideal" after it, or an empty list.
std::vector<MethodSpec> parseMethods(const std::string& list, const std::string& scenario,
                                     const std::string& option = "--methods");

/// A method's own `stickslip run` arguments: --method (none for an empty method: the
/// scenario's own), --friction, --ideal.
std::vector<std::string> methodArgs(const MethodSpec& m);

/// `stickslip run` arguments for one method: --method (none for an empty method: the
/// scenario's own), --friction, --ideal, and --t-end and --solver when given, --impact-law
/// too for event-driven (or the scenario's own method).
std::vector<std::string> runArgs(const po::variables_map& vm, const MethodSpec& m, std::optional<double> t_end);

/// The non-empty items of a comma-separated list.
std::vector<std::string> splitList(const std::string& list);

}  // namespace stickslip::cli
