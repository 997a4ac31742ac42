#pragma once
/// \file Formatting shared by the subcommands: vectors for humans and for JSON, exit codes.

#include <Eigen/Dense>
#include <nlohmann/json.hpp>
#include <fstream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "lcp/status.hpp"

namespace stickslip::cli {

/// The one place where a solver status becomes an exit code: success 0; a problem the solver
/// does not take (invalid input: too large for enumeration, M not symmetric for block
/// pivoting) 2; any other failure 1.
int exitCodeFor(lcp::Status s);

/// JSON array of the entries (full precision); NaN/Inf become null, which JSON lacks.
nlohmann::json toJson(const Eigen::VectorXd& v);
nlohmann::json finiteOrNull(double x);

/// `j` as one line of JSON. Bytes that are not UTF-8, as a file name may hold, become U+FFFD:
/// JSON allows nothing else.
std::string jsonLine(const nlohmann::json& j);

/// --out `path` opened for writing; throws std::invalid_argument naming --out when it cannot be.
std::ofstream openCsv(const std::string& path);
/// Every row of `history` as one CSV line, 12 significant digits.
void writeRows(std::ostream& os, const Eigen::Ref<const Eigen::MatrixXd>& history);
/// The last line of the CSV of a run that failed: "# incomplete: <reason>"; nothing if `ok`.
void markIncomplete(std::ostream& os, bool ok, const std::string& reason);

/// "name = [a, b, …]" on one line, at most `max_entries` shown, then how many were left out.
void printVector(std::ostream& os, std::string_view name, const Eigen::VectorXd& v,
                 int max_entries = 12);

}  // namespace stickslip::cli
