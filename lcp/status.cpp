#include "lcp/status.hpp"

namespace stickslip::lcp {

std::string_view toString(Status s) {
  switch (s) {
    case Status::kSuccess: return "solved";
    case Status::kRayTermination: return "secondary-ray";
    case Status::kPivotLimit: return "pivot-limit";
    case Status::kNumericalFailure: return "numerical-failure";
    case Status::kInvalidInput: return "invalid-input";
    case Status::kNotRun: return "not-run";
  }
  return "unknown";
}

std::ostream& operator<<(std::ostream& os, Status s) { return os << toString(s); }

}  // namespace stickslip::lcp
