#pragma once
/// \file The histories `stickslip compare` sets side by side, and the figures it derives from
/// them: deviations from a reference method on the reference's time grid, and the friction work
/// of the samples for a route that does not report it.

#include <Eigen/Dense>
#include <string>
#include <string_view>
#include <vector>

#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {

/// One history: column 0 is the time t [s]; the names are every route's
/// (mechanisms/run_scenario.hpp).
struct Series {
  std::vector<std::string> names;  ///< column names, names[0] == "t"
  Eigen::MatrixXd data;            ///< rows × columns
  /// Index of a canonical column, or -1.
  int column(std::string_view name) const;
  Eigen::Index rows() const { return data.rows(); }
};

/// The history in a CSV that `stickslip run --out` (or compare) wrote: a header of column
/// names, then rows of numbers ("nan" allowed, but no infinity; t finite and never going
/// back); lines starting with '#' are skipped. Throws mechanisms::InputError naming the file,
/// line and column of anything else.
Series readSeriesCsv(const std::string& path);

/// Deviation of `other` from `reference` in one column: `other` interpolated linearly at the
/// reference's sample times that lie in both runs' time spans (rows at a repeated time, such as
/// an event's left and right values, pair up in order); max and root-mean-square of the
/// difference over those samples, non-finite values skipped. NaN with samples = 0 when the
/// column is missing from either or no sample is shared.
struct Deviation {
  double max_abs = 0.0, rms = 0.0;
  long samples = 0;
};
Deviation deviation(const Series& reference, const Series& other, const std::string& column);

/// Names C of the contacts whose columns C.<suffix> exist for each suffix given.
std::vector<std::string> contactsWith(const Series& s, const std::vector<std::string>& suffixes);

/// Friction work −∫ Σ_C F_C v_t,C dt over the samples (trapezoidal rule) of every contact with
/// C.F and C.v_t columns: the energy dissipated by friction, ≥ 0 for a dissipative law.
/// Impulsive friction at impacts (not in the samples) is not included. NaN when no contact has
/// both columns.
double frictionWork(const Series& s);

/// Throws std::invalid_argument("--outputs: no method writes a column 'o' (LABEL writes …)")
/// for an output in none of `columns` (each method's history columns, the first method's
/// labelled `first_label`).
void requireOutputs(const std::vector<std::string>& outputs, const std::vector<std::vector<std::string>>& columns,
                    const std::string& first_label);

/// What compare sets side by side without a list of outputs: a built-in's own choice
/// (RigidScenarioInfo::compare_outputs) where the reference run writes it, else the reference's
/// coordinates (.x, .y, .z, .theta columns) that move, at most six.
std::vector<std::string> defaultOutputs(const mechanisms::Scenario& scenario, const Series& reference);

/// Unit of a column from its name ("m", "rad", "m/s", "rad/s", "N", "J", "s" or "").
std::string columnUnit(std::string_view name);

}  // namespace stickslip::cli
