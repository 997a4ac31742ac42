#pragma once
/// \file The page `stickslip animate --out F.html` writes: one self-contained HTML file (inline
/// SVG, style and script; no network access, opens from disk) that plays the tracks over the
/// scene, overlaid and semi-transparent when there are several.
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

namespace stickslip::cli {

/// "stickslip animate SCENARIO: label1, label2": the page's title.
std::string animationTitle(const std::string& scenario, const std::vector<AnimationTrack>& tracks);

void writeAnimationHtml(std::ostream& os, const std::string& title, const AnimationScene& scene,
                        const std::vector<AnimationTrack>& tracks);

}  // namespace stickslip::cli
