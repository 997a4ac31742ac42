#pragma once
/// \file The analyses the built-ins attach to their runs (RigidScenarioInfo::analyses): the
/// exact stick/slip changes of belt, dupont and incline set against the run's, whether
/// Zheng's free crank held, the journal-bearing's flights, impacts and continuous contact.

#include <optional>

#include "mechanisms/run_scenario.hpp"

namespace stickslip::mechanisms {

/// The run's stick/slip changes matched one to one against the closed form (belt: beltClosedForm)
/// or the independent reference (dupont: dupontReference, incline: inclineReference):
/// JSON `reference` {events, matched, max_time_error}.
std::optional<Analysis> beltExactChanges(const Scenario& s, const ScenarioRun& run);
std::optional<Analysis> dupontExactChanges(const Scenario& s, const ScenarioRun& run);
std::optional<Analysis> inclineExactChanges(const Scenario& s, const ScenarioRun& run);

/// Zheng's Example III (a free crank released at rest): whether the crank held its initial
/// angle, from the largest |θ1 − θ1(0)| over the history. JSON `theta1_drift`, `held`.
std::optional<Analysis> zhengCrankHold(const Scenario& s, const ScenarioRun& run);

/// The journal-bearing's motion from a penalty run's contact crossings
/// (journal_bearing.hpp: journalBearingPhases). JSON `modes`, `impacts`.
std::optional<Analysis> journalBearingMotion(const Scenario& s, const ScenarioRun& run);

/// A spatial clearance joint's run (its first clearance joint, a run that has its contacts):
/// the bearing's net turns about the journal's axis (unwrapped sample to sample), the change of
/// T + V, the peaks of slider.az (the mean of its 20 largest local maxima of |a|, and the 99th
/// percentile of |a|, when the model has a body "slider"), and the share of the samples in each of
/// the thirteen contact cases (contact/spatial_clearance.hpp). JSON `turns`, `energy_change`,
/// `acceleration_peaks` {largest, p99}, `contact_cases` {"1": share, …}.
std::optional<Analysis> spatialClearanceMotion(const Scenario& s, const ScenarioRun& run);

}  // namespace stickslip::mechanisms
