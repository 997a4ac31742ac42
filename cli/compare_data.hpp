#pragma once
/// \file The histories `stickslip compare` reads back from each method's CSV, under one
/// naming, and the figures it derives from them: deviations from a reference method on the
/// reference's time grid, friction work, and a velocity-threshold stick count for routes that
/// report no stick modes of their own.

#include <Eigen/Dense>
#include <string>
#include <string_view>
#include <vector>

namespace stickslip::cli {

/// One CSV history: column 0 is the time t [s]; `names` are canonical (see readSeries).
struct Series {
  std::vector<std::string> names;       ///< canonical column names, names[0] == "t"
  std::vector<std::string> file_names;  ///< the names as written in the file
  Eigen::MatrixXd data;                 ///< rows × columns
  /// Index of a canonical column, or -1.
  int column(std::string_view name) const;
  Eigen::Index rows() const { return data.rows(); }
};

/// The canonical name of a CSV column: quotes dropped; the remaining penalty runners'
/// contact force names "C.F_n", "C.F_t" become "C.N", "C.F" like every route's; the minimal
/// form's "C.friction" becomes "C.F" (same sign; its "C.reaction" is |N| and keeps its name).
std::string canonicalColumn(std::string_view file_name);

/// Reads a CSV written by `stickslip run --out` (a header, numbers, NaN as "nan", lines
/// starting with '#' skipped). Throws std::invalid_argument naming the file and line.
Series readSeries(const std::string& path);

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

/// A stick estimate from the samples, for routes without stick modes (penalty): a contact
/// sticks at a sample when it carries a load (|C.N| > 0, or no C.N column) and
/// |C.v_t| < v_stick; the run sticks when one contact does. The fraction weights each sample
/// by the interval to the next one. transitions < 0 when no contact has a C.v_t column.
struct SampledStick {
  long transitions = -1;
  double fraction = 0.0;
};
SampledStick sampledStick(const Series& s, double v_stick);

/// Unit of a canonical column from its name ("m", "rad", "m/s", "rad/s", "N", "s" or "").
std::string columnUnit(std::string_view name);

}  // namespace stickslip::cli
