#pragma once
/// \file The tables printed by `stickslip bench eom`, `bench fc2d`, `bench fc3d` and `bench friction`.

#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "cli/command.hpp"

namespace stickslip::cli {

/// The EOM methods of thesis §2.3 on `mechanism`, spatial-slider-crank (the built-in model file,
/// the thesis' mechanism) or slider-crank (its planar counterpart): constraint violation, energy
/// change, CPU time (thesis Figs. 2.7–2.10). Throws std::invalid_argument for another name.
int benchEom(std::string_view mechanism, double h, double t_end, double series_dt, bool json, std::ostream& out,
             std::ostream& err);
/// The .dat files of folder `data`, sorted; throws std::invalid_argument naming --data when it
/// is not a folder or holds none (`kind`: "fc2d" or "fc3d", for the message).
std::vector<std::filesystem::path> benchProblemFiles(const std::string& data, const std::string& kind);

/// Siconos' planar friction problems in `data` (every .dat): our NSGS and Lemke and Siconos'
/// fc2d solvers (those named in `only`, all if it is empty; another name throws
/// std::invalid_argument), Siconos' error measure, seconds, the matrix's and the process's memory.
int benchFc2d(const std::string& data, double tolerance, int max_sweeps, int siconos_max_iterations,
              const std::vector<std::string>& only, bool json, std::ostream& out, std::ostream& err);
/// Siconos' spatial friction problems in `data`: our round-cone solvers, our Lemke on a faceted
/// cone (`facets`) and Siconos' fc3d solvers, every answer's Siconos fc3d error, the mean seconds
/// of solves repeated for min_seconds, and our `auto` against the fastest Siconos solver.
int benchFc3d(const std::string& data, double tolerance, int siconos_max_iterations, int facets, double min_seconds,
              bool json, std::ostream& out, std::ostream& err);
/// Every friction law on the belt: CPU time relative to `linear` (review Table 4), stick
/// fraction, first slip.
int benchFriction(double t_end, bool json, std::ostream& out, std::ostream& err);

}  // namespace stickslip::cli
