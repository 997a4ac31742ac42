#pragma once
/// \file Formatting shared by the subcommands: vectors for humans and for JSON, exit codes.

#include <Eigen/Dense>
#include <nlohmann/json.hpp>
#include <fstream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/penalty_contact.hpp"
#include "dynamics/planar_model.hpp"
#include "lcp/status.hpp"

namespace stickslip::cli {

/// The one place where a solver status becomes an exit code: success 0, anything else 1.
int exitCodeFor(lcp::Status s);

/// JSON array of the entries (full precision); NaN/Inf become null, which JSON lacks.
nlohmann::json toJson(const Eigen::VectorXd& v);
nlohmann::json finiteOrNull(double x);

/// The fields of a penalty-type run that every route's --json shares: status "ok" or
/// "failed" (the integrator's own in penalty_status), final_q and final_v (the leading nq and
/// nv entries of the final state y = [q; v; …]), and the contacts' closings and openings as
/// events {t, contact, kind}.
void addPenaltyRunFields(nlohmann::json& j, const dynamics::PenaltyRun& r, Eigen::Index nq,
                         Eigen::Index nv, const std::vector<std::string>& contact_names);

/// The CSV columns of a planar model's state: t, each body's x, y, theta, then vx, vy, omega
/// (no line end).
void writeStateHeader(std::ostream& os, const dynamics::PlanarModel& model);

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
