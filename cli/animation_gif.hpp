#pragma once
/// \file `stickslip animate --gif F.gif` and `--frames DIR`: the animation drawn by gnuplot, for
/// papers and slides. One gnuplot script draws evenly spaced instants of the tracks, each as
/// the page does (bodies, lines, contacts coloured by mode, friction arrows scaled to μs·N;
/// the title gives the time and every contact's mode). The script is kept beside its output
/// so that it can be edited and rerun.

#include <ostream>
#include <string>
#include <vector>

#include "cli/animation.hpp"

namespace stickslip::cli {

struct GifOptions {
  double fps = 10.0;     ///< frames per second of playback
  double speed = 1.0;    ///< simulated seconds per second of playback
  int max_frames = 300;  ///< at most this many instants
  int width = 800, height = 600;  ///< pixels
};

/// The instants drawn: every 1/(fps·…) of simulated time from 0 to the tracks' end, at most
/// max_frames of them (spread over the run when fewer fit).
std::vector<double> gifInstants(const std::vector<AnimationTrack>& tracks, const GifOptions& options);

/// The script: with `gif` non-empty an animated GIF (terminal gif animate); with `frames_dir`
/// non-empty one PNG per instant, frame_00000.png, … (terminal pngcairo).
void writeAnimationGnuplot(std::ostream& os, const AnimationScene& scene, const std::vector<AnimationTrack>& tracks,
                           const std::vector<double>& instants, const GifOptions& options, const std::string& gif,
                           const std::string& frames_dir);

}  // namespace stickslip::cli
