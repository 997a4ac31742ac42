#include "mechanisms/clearance_chain.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace stickslip::mechanisms {

void ClearanceChain::validate() const {
  auto require = [](bool ok, const char* what, double got) {
    if (ok) return;
    std::ostringstream os;
    os << "ClearanceChain: expected " << what << ", got " << got;
    throw std::invalid_argument(os.str());
  };
  require(links >= 1, "links >= 1", links);
  require(length > 0.0 && std::isfinite(length), "length > 0", length);
  require(mass > 0.0 && std::isfinite(mass), "mass > 0", mass);
  require(journal_radius > 0.0 && journal_radius < 0.5 * length, "0 < journal_radius < length / 2", journal_radius);
  require(clearance > 0.0 && std::isfinite(clearance), "clearance > 0", clearance);
  require(mu_kinetic >= 0.0 && mu_static >= mu_kinetic && std::isfinite(mu_static),
          "0 <= mu_kinetic <= mu_static", mu_static);
  require(std::isfinite(speed), "a finite speed", speed);
  require(gravity >= 0.0 && std::isfinite(gravity), "gravity >= 0", gravity);
  require(clearance_every >= 1, "clearance_every >= 1", clearance_every);
}

dynamics::RigidScenario clearanceChainRigid(const ClearanceChain& chain) {
  chain.validate();
  const int n = chain.links;
  const double half = 0.5 * chain.length, c = chain.clearance;
  dynamics::RigidScenario s;
  s.name = "clearance-chain-" + std::to_string(n);
  s.model.setGravity({0.0, -chain.gravity});
  s.q0 = Eigen::VectorXd::Zero(3 * n);
  s.v0 = Eigen::VectorXd::Zero(3 * n);
  double bearing_y = 0.0;  // world height of the bearing link k hangs from
  for (int k = 0; k < n; ++k) {
    const dynamics::BodyIndex link =
        s.model.addBody("link-" + std::to_string(k), chain.mass, chain.mass * chain.length * chain.length / 12.0);
    const dynamics::BodyIndex above = k == 0 ? dynamics::kGround : link - 1;
    const Eigen::Vector2d bearing_centre = k == 0 ? Eigen::Vector2d::Zero() : Eigen::Vector2d(0.0, -half);
    s.v0(3 * k) = chain.speed;
    if (k % chain.clearance_every != 0) {  // an ideal pin: the link's top on the bearing's centre
      s.model.addRevolute(link, {0.0, half}, above, bearing_centre, "pin-" + std::to_string(k));
      s.q0(3 * k + 1) = bearing_y - half;
      bearing_y -= chain.length;
      continue;
    }
    dynamics::RigidContact joint;
    joint.name = "joint-" + std::to_string(k);
    joint.shape = dynamics::RigidContact::Shape::kJournalBearing;
    joint.body_i = link;
    joint.body_j = above;
    joint.journal_bearing.journal_centre_on_i = {0.0, half};
    joint.journal_bearing.bearing_centre_on_j = bearing_centre;
    joint.journal_bearing.journal_radius = chain.journal_radius;
    joint.journal_bearing.bearing_radius = chain.journal_radius + c;
    joint.mu_static = chain.mu_static;
    joint.mu_kinetic = chain.mu_kinetic;
    s.contacts.push_back(std::move(joint));
    // The journal at the bottom of its bearing: its centre c below the bearing's.
    const double centre_y = bearing_y - c - half;
    s.q0(3 * k + 1) = centre_y;
    bearing_y = centre_y - half;
  }
  return s;
}

}  // namespace stickslip::mechanisms
