#include "dynamics/nonsmooth/nonsmooth_run.hpp"

namespace stickslip::dynamics {

std::string_view toString(ContactMode m) {
  switch (m) {
    case ContactMode::kOpen: return "open";
    case ContactMode::kStick: return "stick";
    case ContactMode::kSlipPositive: return "slip+";
    case ContactMode::kSlipNegative: return "slip-";
  }
  return "?";
}

std::string_view toString(EventKind k) {
  switch (k) {
    case EventKind::kStick: return "stick";
    case EventKind::kSlipPositive: return "slip+";
    case EventKind::kSlipNegative: return "slip-";
    case EventKind::kImpact: return "impact";
    case EventKind::kOpen: return "open";
    case EventKind::kClose: return "close";
  }
  return "?";
}

}  // namespace stickslip::dynamics
