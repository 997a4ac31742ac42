#include "dynamics/mechanism/mechanism.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::dynamics {

std::optional<std::pair<std::size_t, double>> initialPenetration(const Mechanism& mechanism, const Eigen::VectorXd& q0,
                                                                 double tolerance) {
  ContactKinematics kin;
  mechanism.evaluateContacts(0.0, q0, Eigen::VectorXd::Zero(mechanism.velocitySize()), kin, false);
  const std::vector<RigidContact>& contacts = mechanism.contacts();
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const double gap = kin.gap(Eigen::Index(k));
    const RigidContact::Normal normal = contacts[k].normal;
    if ((normal == RigidContact::Normal::kUnilateral && gap < -tolerance) ||
        (normal == RigidContact::Normal::kBilateral && std::abs(gap) > tolerance))
      return std::pair{k, gap};
  }
  return std::nullopt;
}

void requireNoInitialPenetration(const Mechanism& mechanism, const Eigen::VectorXd& q0, double tolerance,
                                 std::string_view caller) {
  const auto found = initialPenetration(mechanism, q0, tolerance);
  if (!found) return;
  std::ostringstream os;
  const RigidContact& c = mechanism.contacts()[found->first];
  if (c.normal == RigidContact::Normal::kBilateral)
    os << caller << ": the initial state leaves bilateral contact '" << c.name << "' at gap " << found->second
       << " m (tolerance " << tolerance << " m): start its bodies touching";
  else
    os << caller << ": the initial state penetrates contact '" << c.name << "' by " << -found->second
       << " m (gap tolerance " << tolerance << " m): start its bodies apart or touching";
  throw std::invalid_argument(os.str());
}

}  // namespace stickslip::dynamics
