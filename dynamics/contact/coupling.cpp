#include "dynamics/contact/coupling.hpp"

#include <algorithm>

namespace stickslip::dynamics {

std::size_t largestCoupledGroup(const std::vector<RigidContact>& contacts) {
  // The moving bodies stand for the columns: two contacts on one body share it.
  std::vector<std::vector<int>> bodies(contacts.size());
  int body_count = 0;
  for (std::size_t k = 0; k < contacts.size(); ++k)
    for (const BodyIndex b : {contacts[k].body_i, contacts[k].body_j})
      if (b != kGround) {
        bodies[k].push_back(int(b));
        body_count = std::max(body_count, int(b) + 1);
      }
  return largestCoupledGroup(couplingByColumns(bodies, body_count), contacts.size());
}

std::vector<std::vector<int>> couplingByColumns(const std::vector<std::vector<int>>& columns, int velocities) {
  std::vector<std::vector<int>> by_column(static_cast<std::size_t>(velocities));
  for (std::size_t u = 0; u < columns.size(); ++u)
    for (const int c : columns[u])
      if (by_column[std::size_t(c)].empty() || by_column[std::size_t(c)].back() != int(u))
        by_column[std::size_t(c)].push_back(int(u));
  std::vector<std::vector<int>> coupled(columns.size());
  for (std::size_t u = 0; u < columns.size(); ++u) {
    std::vector<int>& row = coupled[u];
    row.push_back(int(u));
    for (const int c : columns[u]) row.insert(row.end(), by_column[std::size_t(c)].begin(), by_column[std::size_t(c)].end());
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
  }
  return coupled;
}

std::size_t largestCoupledGroup(const std::vector<std::vector<int>>& coupled, std::size_t counted) {
  std::vector<std::size_t> parent(coupled.size());
  for (std::size_t k = 0; k < parent.size(); ++k) parent[k] = k;
  const auto root = [&](std::size_t k) {
    while (parent[k] != k) k = parent[k] = parent[parent[k]];
    return k;
  };
  for (std::size_t u = 0; u < coupled.size(); ++u)
    for (const int l : coupled[u]) parent[root(std::size_t(l))] = root(u);
  std::vector<std::size_t> size(coupled.size(), 0);
  std::size_t largest = 0;
  for (std::size_t k = 0; k < counted; ++k) largest = std::max(largest, ++size[root(k)]);
  return largest;
}

}  // namespace stickslip::dynamics
