#pragma once
/// \file The academic verification suite behind `stickslip verify`: each case runs a built-in
/// scenario with one method and compares a figure with a closed form or an independent
/// reference, within a stated tolerance.
///
/// Every row says what it measured (`obtained`), against what (`reference`, the ideal value:
/// a closed form, another route's figure, or 0 for a residual) and how it passes (`check`):
///  - kWithin  ("|o-r|<=tol"): error = |obtained − reference| (relative rows divide by
///    |reference|, said in the quantity text); PASS iff error ≤ tolerance, tolerance > 0.
///  - kAtMost  ("o<=tol"): a one-sided upper bound on a signed figure; error = obtained,
///    tolerance = the bound; PASS iff obtained ≤ tolerance.
///  - kAtLeast ("o>=tol"): a one-sided lower bound; error = obtained, tolerance = the bound;
///    PASS iff obtained ≥ tolerance.
///  - kCount   ("o==r"): a count that must equal reference exactly (mismatches: 0);
///    error = |obtained − reference|, tolerance = 0; PASS iff error = 0.
/// A bound on a non-negative residual (an energy balance, a constraint) is a kWithin row
/// with reference 0, so its error is the residual itself. A row whose run failed does not
/// pass, whatever its figures, and carries the run's message in `note`; nor does a row without
/// its bound (a kWithin tolerance ≤ 0 or reference not finite, a one-sided bound not finite,
/// a count's tolerance not 0).

#include <string>
#include <string_view>
#include <vector>

namespace stickslip::mechanisms {

enum class Check { kWithin, kAtMost, kAtLeast, kCount };
/// "|o-r|<=tol", "o<=tol", "o>=tol", "o==r": the table's check column.
std::string_view toString(Check c);
/// "within", "at-most", "at-least", "count": the JSON's check field.
std::string_view jsonName(Check c);

struct VerificationRow {
  std::string case_name, method, quantity;
  double reference = 0.0, obtained = 0.0, error = 0.0, tolerance = 0.0;
  bool pass = false;
  std::string note;  ///< the run's failure message, when it failed
  Check check = Check::kWithin;
  bool relative = false;  ///< kWithin: error relative to |reference|
  bool run_ok = true;     ///< false: the run behind the row failed (the row fails)
};

/// Builds a row and judges it (judge below). `run_ok` false: the row fails with `note`.
VerificationRow makeRow(std::string case_name, std::string method, std::string quantity, Check check,
                        double reference, double obtained, double tolerance, bool run_ok = true,
                        std::string note = "", bool relative = false);
/// Sets error and pass from check, reference, obtained and tolerance (file comment). A row
/// whose run failed (run_ok false) does not pass; NaN figures do not pass.
void judge(VerificationRow& row);

struct VerificationCase {
  std::string name, summary;
};

/// Every case, in the order `stickslip verify` runs them.
const std::vector<VerificationCase>& verificationCases();

/// Runs one case (throws std::invalid_argument naming the valid cases for an unknown name).
/// A run that fails gives rows that do not pass, with its message in `note`.
std::vector<VerificationRow> runVerification(std::string_view case_name);

}  // namespace stickslip::mechanisms
