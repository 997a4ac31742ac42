#pragma once
/// \file The academic verification suite behind `stickslip verify`: each case runs a built-in
/// scenario with one method and compares a figure with a closed form or an independent
/// reference, within a stated tolerance.

#include <string>
#include <string_view>
#include <vector>

namespace stickslip::mechanisms {

struct VerificationRow {
  std::string case_name, method, quantity;
  double reference = 0.0, obtained = 0.0, error = 0.0, tolerance = 0.0;
  bool pass = false;
  std::string note;  ///< the run's failure message, when it failed
};

struct VerificationCase {
  std::string name, summary;
};

/// Every case, in the order `stickslip verify` runs them.
const std::vector<VerificationCase>& verificationCases();

/// Runs one case (throws std::invalid_argument naming the valid cases for an unknown name).
/// A run that fails gives rows that do not pass, with its message in `note`.
std::vector<VerificationRow> runVerification(std::string_view case_name);

}  // namespace stickslip::mechanisms
