#pragma once
/// \file The page `stickslip animate --out F.html` writes: one self-contained HTML file (inline
/// SVG, style and script; no network access, opens from disk) that plays the tracks over the
/// scene, overlaid and semi-transparent when there are several. A spatial mechanism's page draws
/// with three.js, embedded in it (three_js.hpp): orbit, zoom and pan with the mouse; a stuck
/// contact's friction, whose direction the run does not record, is a ring in its tangent plane
/// whose radius is |F| / (μs N) of the arrow's full length.
///
/// Contacts are dots coloured by mode (stick green, slip orange with a small arrow along the
/// sliding direction, open grey, impact purple for the frame of an impact); the friction force
/// on the contact's first body is an arrow of length |F| / (μs N) times a fixed fraction of
/// the scene, so that it reaches that length exactly when the force is at the stick limit.
/// Controls: play/pause, speed, a time slider, the time and every contact's mode and forces in
/// text. The address's fragment "#t=T" opens the page paused at time T (tests, links to an
/// instant). Every element a test reads has an id: mode-R-K (data-mode: open, stick, slip+,
/// slip-, impact; R the track, K the contact), clock (data-t), errors (script errors).

#include <ostream>
#include <string>
#include <vector>

#include "cli/animation.hpp"
#include "cli/animation_spatial.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// "stickslip animate SCENARIO: label1, label2": the page's title.
std::string animationTitle(const std::string& scenario, const std::vector<AnimationTrack>& tracks);

void writeAnimationHtml(std::ostream& os, const std::string& title, const AnimationScene& scene,
                        const std::vector<AnimationTrack>& tracks);

/// The frames of a run of `scenario`, planar or spatial (animationTrack, spatialAnimationTrack).
AnimationTrack scenarioTrack(const mechanisms::Scenario& scenario, const std::string& label,
                             const std::vector<std::string>& columns, const Eigen::MatrixXd& history,
                             const dynamics::RunResult* result, std::size_t max_frames, double zero_velocity);

/// The page of `scenario`'s tracks (scenarioTrack), planar or spatial.
void writeScenarioAnimationHtml(std::ostream& os, const std::string& title, const mechanisms::Scenario& scenario,
                                const std::vector<AnimationTrack>& tracks);

/// The page of a spatial mechanism's tracks (spatialAnimationTrack), with the same controls,
/// table and element ids.
void writeSpatialAnimationHtml(std::ostream& os, const std::string& title, const SpatialAnimationScene& scene,
                               const std::vector<AnimationTrack>& tracks);

}  // namespace stickslip::cli
