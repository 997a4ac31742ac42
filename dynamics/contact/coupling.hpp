#pragma once
/// \file How a mechanism's contacts couple: two contacts on a common moving body share rows of
/// W = J M⁻¹ Jᵀ, and a set joined that way is one block Gauss–Seidel must iterate on. The routes
/// choose their contact solver for "auto" from the largest such set (moreau_jean.hpp,
/// event_driven.hpp).

#include <cstddef>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {

/// The size of the largest set of contacts joined through shared bodies (the ground excepted).
std::size_t largestCoupledGroup(const std::vector<RigidContact>& contacts);

/// Where a mechanism's joints join the contacts' problem (its joint rows as bilateral blocks,
/// moreau_jean.hpp), units couple through shared velocity columns: `columns` lists each unit's
/// (a contact's, or a block of joint rows'). Returns per unit the units sharing a column with it,
/// itself included, ascending.
std::vector<std::vector<int>> couplingByColumns(const std::vector<std::vector<int>>& columns, int velocities);
/// The largest set of the first `counted` units (the contacts) joined through `coupled`
/// (couplingByColumns), the others (joint rows) joining but not counted.
std::size_t largestCoupledGroup(const std::vector<std::vector<int>>& coupled, std::size_t counted);

/// Beyond this many contacts in one coupled group, "auto" takes the global nonsmooth Newton on the
/// sparse W (lcp/planar_newton.hpp): its sparse factorization grows with W's pattern, Lemke's
/// pivots with (2 nc)², Gauss–Seidel's sweeps with the chain's length. Measured by bench_scaling
/// on the hanging clearance chain (Moreau–Jean, µs per step, Lemke against Newton): 4 links 4.6
/// and 5.1, 5 links 6.8 and 7.2, 6 links 9.3 and 8.8, 8 links 14.6 and 11.5, 16 links 48 and 20.
inline constexpr std::size_t kNewtonFromCoupledContacts = 6;

}  // namespace stickslip::dynamics
