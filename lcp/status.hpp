#pragma once
/// \file Outcome of a complementarity solve.

#include <ostream>
#include <string_view>

namespace stickslip::lcp {

/// What a solver concluded. Every solver overwrites Status::kNotRun.
enum class Status {
  kSuccess,           ///< a solution was found and passed the residual check
  kRayTermination,    ///< Lemke ended on a secondary ray: no solution exists (infeasible) or
                      ///< the matrix class is outside what Lemke can process
  kPivotLimit,        ///< pivot or iteration limit reached before a solution
  kNumericalFailure,  ///< breakdown (tiny pivot, singular block) or a candidate whose
                      ///< residual is above tolerance
  kInvalidInput,      ///< NaN/Inf entries, size mismatch, bad option
  kNotRun,
};

std::string_view toString(Status s);
std::ostream& operator<<(std::ostream& os, Status s);

}  // namespace stickslip::lcp
