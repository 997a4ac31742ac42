#include "dynamics/contact/coupling.hpp"

#include <algorithm>

namespace stickslip::dynamics {

std::size_t largestCoupledGroup(const std::vector<RigidContact>& contacts) {
  std::vector<std::size_t> parent(contacts.size());
  for (std::size_t k = 0; k < parent.size(); ++k) parent[k] = k;
  const auto root = [&](std::size_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  std::vector<std::size_t> owner;  // per body: a contact on it, + 1 (0: none yet)
  for (std::size_t k = 0; k < contacts.size(); ++k)
    for (const BodyIndex b : {contacts[k].body_i, contacts[k].body_j}) {
      if (b == kGround) continue;
      if (owner.size() <= std::size_t(b)) owner.resize(std::size_t(b) + 1, 0);
      if (owner[std::size_t(b)] == 0) owner[std::size_t(b)] = k + 1;
      else parent[root(k)] = root(owner[std::size_t(b)] - 1);
    }
  std::vector<std::size_t> size(contacts.size(), 0);
  std::size_t largest = 0;
  for (std::size_t k = 0; k < contacts.size(); ++k) largest = std::max(largest, ++size[root(k)]);
  return largest;
}

}  // namespace stickslip::dynamics
