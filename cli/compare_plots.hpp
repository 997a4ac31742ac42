#pragma once
/// \file gnuplot figures of `stickslip compare`: one script per figure, written beside the
/// CSVs it reads, drawing PNG and SVG; the user may edit and rerun it (`gnuplot NAME.gp`).

#include <ostream>
#include <string>
#include <vector>

#include "cli/compare_data.hpp"

namespace stickslip::cli {

struct PlotSource {
  std::string label;     ///< legend entry
  std::string csv_file;  ///< file name, relative to the output directory
  const Series* series = nullptr;
};

/// Base names (no extension) of every figure compare may draw for `scenario`; each has a .gp,
/// a .png and an .svg file.
std::vector<std::string> figureNames(const std::string& scenario);

/// Writes the scripts of the figures these runs support into `dir` and returns their base
/// names: time histories of `outputs`; F/N against the sliding velocity per contact with N, F
/// and v_t columns (Zheng et al. Fig. 8); phase portraits (coordinate against its velocity);
/// the journal's eccentricity orbit when e_x, e_y columns exist.
std::vector<std::string> writePlotScripts(const std::string& dir, const std::string& scenario,
                                          const std::vector<PlotSource>& runs,
                                          const std::vector<std::string>& outputs);

/// A gnuplot string literal: single quotes, a quote doubled.
std::string gnuplotQuoted(const std::string& s);

/// Whether a gnuplot executable answers `gnuplot --version`.
bool gnuplotAvailable();

/// Runs `gnuplot SCRIPT` in `dir`; false on failure, gnuplot's messages in `log`.
bool runGnuplot(const std::string& dir, const std::string& script, std::string& log);

/// Runs `gnuplot NAME.gp` in `dir`; false with gnuplot's messages in `log` on failure or when
/// the PNG or SVG is missing or empty afterwards.
bool renderPlot(const std::string& dir, const std::string& name, std::string& log);

}  // namespace stickslip::cli
