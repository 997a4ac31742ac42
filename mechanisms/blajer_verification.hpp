#pragma once
/// \file The `blajer-1`, `blajer-2` and (part of) `dupont` cases of `stickslip verify`: the
/// minimal form (dynamics/routes/minimal_form/minimal_form.hpp), the event-driven absolute formulation and
/// Moreau–Jean on the same physics (mechanisms/blajer.hpp), against each other or Dupont's
/// closed-form stick/slip instants.
#include <vector>

#include "mechanisms/verification.hpp"

namespace stickslip::mechanisms {

/// Dupont's two masses over 10 s: the minimal form and Moreau–Jean (h = 1e-4 s) against the
/// closed-form instants of the mode changes (dupontReference).
std::vector<VerificationRow> verifyDupontRoutes();
/// Example 1 over 3 s from rest at θ1 = 0, friction in one element at a time (joint O; the
/// guide): event-driven and Moreau–Jean (h = 1e-4 s) against the minimal form, angles at
/// every 0.1 s and the instants of the mode changes. With friction in all four elements the
/// absolute routes and the minimal form part (blajer.hpp): no row for that.
std::vector<VerificationRow> verifyBlajer1();
/// Example 2 with a slider body (pin_in_slot = false), friction in every element, over
/// 10 s: event-driven and Moreau–Jean (h = 1e-4 s) against the minimal form, the instants of
/// joint O's stick/slip changes and the angles at every 0.1 s.
std::vector<VerificationRow> verifyBlajer2();

}  // namespace stickslip::mechanisms
