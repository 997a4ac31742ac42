#pragma once
/// \file What a run of muvengei-lugre shows, as the paper reports it (its Figs. 7–10): the
/// steady cycle of the slider against the ideal mechanism's closed form, the journal's impacts,
/// the LuGre friction's bounds and the work balance, from the run's history
/// (mechanisms/muvengei.hpp for the data and the cycle's figures).

#include <optional>

#include "mechanisms/muvengei.hpp"
#include "mechanisms/run_scenario.hpp"

namespace stickslip::mechanisms {

/// The table of the paper's quantities from a run of muvengeiRigid(d): the penalty route's
/// (its accelerations and the driver's multiplier are in the history). The contact's δ̇ and
/// the eccentricity come from its kinematics at each sample; σ0 z from the law's state for
/// lugre-nondimensional (μk z) and lugre-wojtyra (σ0 z / N_E), 0 for other laws. Throws
/// std::invalid_argument for a run without those columns.
MuvengeiTable muvengeiTable(const MuvengeiSliderCrank& d, const ScenarioRun& run);

/// The analysis attached to muvengei-lugre's penalty runs: the steady cycle (the second
/// revolution; a shorter run, its last), JSON `cycle` {…}, `stribeck_velocity`,
/// `contact_stiffness`.
std::optional<Analysis> muvengeiCycle(const Scenario& s, const ScenarioRun& run);

}  // namespace stickslip::mechanisms
