#include "mechanisms/belt_chain.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace stickslip::mechanisms {
namespace {

void require(bool ok, const std::string& what, double got) {
  if (ok) return;
  std::ostringstream os;  // shortest form: "got 0", "got 0.3"
  os << "BeltChain: expected " << what << ", got " << got;
  throw std::invalid_argument(os.str());
}

/// frac(i φ), φ = (√5 − 1) / 2: evenly spread in [0, 1) and never repeating.
double spread(int i) {
  const double phi = 0.5 * (std::sqrt(5.0) - 1.0);
  const double x = double(i) * phi;
  return x - std::floor(x);
}

}  // namespace

void BeltChain::validate() const {
  belt.validate();
  require(blocks >= 1, "blocks ≥ 1", blocks);
  require(spacing > 0.0 && std::isfinite(spacing), "spacing > 0", spacing);
  require(mass_spread >= 0.0 && std::isfinite(mass_spread), "mass_spread ≥ 0", mass_spread);
  require(offset_amplitude >= 0.0 && std::isfinite(offset_amplitude), "offset_amplitude ≥ 0",
          offset_amplitude);
  // Offsets lie in (−a, a): below L / 2 no block starts past its neighbour.
  require(offset_amplitude < 0.5 * spacing, "offset_amplitude < spacing / 2 (blocks in order)",
          offset_amplitude);
}

double BeltChain::blockMass(int i) const { return belt.mass * (1.0 + mass_spread * spread(i)); }

double BeltChain::initialOffset(int i) const {
  // Block 0 at rest length keeps N = 1 identical to the belt.
  return i == 0 ? 0.0 : offset_amplitude * (2.0 * spread(i) - 1.0);
}

dynamics::RigidScenario beltChainRigid(const BeltChain& chain) {
  chain.validate();
  const Belt& b = chain.belt;
  const int n = chain.blocks;
  dynamics::RigidScenario s;
  s.name = "belt-chain-" + std::to_string(n);
  s.model.setGravity({0.0, -b.gravity});
  s.q0 = Eigen::VectorXd::Zero(3 * n);
  s.v0 = Eigen::VectorXd::Zero(3 * n);
  const double vb = b.belt_speed;
  for (int i = 0; i < n; ++i) {
    const double m = chain.blockMass(i);
    const dynamics::BodyIndex block = s.model.addBody("block-" + std::to_string(i), m, m * 0.01);
    dynamics::RigidContact c;
    c.name = "block-" + std::to_string(i);
    c.body_i = block;
    c.body_j = dynamics::kGround;
    c.mu_static = b.mu_static;
    c.mu_kinetic = b.mu_kinetic;
    c.surface_speed = [vb](double) { return vb; };
    c.surface_acceleration = [](double) { return 0.0; };
    s.contacts.push_back(std::move(c));
    s.q0(3 * i) = double(i) * chain.spacing + chain.initialOffset(i);
    s.v0(3 * i) = vb;
  }
  // One callback for all springs: O(N) per evaluation, on the x coordinates only (the blocks
  // stay on the line y = 0, where the springs are horizontal).
  const double k = b.stiffness, L = chain.spacing;
  s.model.addGeneralizedForce([k, L, n](double, const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>&,
                                        Eigen::Ref<Eigen::VectorXd> f) {
    f(0) -= k * q(0);  // the wall spring, rest length 0 at x = 0
    for (int i = 1; i < n; ++i) {
      const double tension = k * (q(3 * i) - q(3 * (i - 1)) - L);
      f(3 * i) -= tension;
      f(3 * (i - 1)) += tension;
    }
  });
  return s;
}

double beltChainEnergy(const BeltChain& chain, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v) {
  const Belt& b = chain.belt;
  double e = 0.5 * b.stiffness * q(0) * q(0);
  for (int i = 0; i < chain.blocks; ++i) {
    const double m = chain.blockMass(i);
    e += 0.5 * m * (v(3 * i) * v(3 * i) + v(3 * i + 1) * v(3 * i + 1)) +
         0.5 * m * 0.01 * v(3 * i + 2) * v(3 * i + 2) + m * b.gravity * q(3 * i + 1);
    if (i > 0) {
      const double stretch = q(3 * i) - q(3 * (i - 1)) - chain.spacing;
      e += 0.5 * b.stiffness * stretch * stretch;
    }
  }
  return e;
}

}  // namespace stickslip::mechanisms
