#include "cli/output.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "cli/command.hpp"

namespace stickslip::cli {

int exitCodeFor(lcp::Status s) { return s == lcp::Status::kSuccess ? kExitOk : kExitFailure; }

nlohmann::json finiteOrNull(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

nlohmann::json toJson(const Eigen::VectorXd& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(finiteOrNull(v(i)));
  return a;
}

void addPenaltyRunFields(nlohmann::json& j, const dynamics::PenaltyRun& r, Eigen::Index nq,
                         Eigen::Index nv, const std::vector<std::string>& contact_names) {
  j["status"] = r.status == dynamics::PenaltyStatus::kSuccess ? "ok" : "failed";
  j["penalty_status"] = std::string(dynamics::toString(r.status));
  j["final_q"] = toJson(r.final_state.head(nq));
  j["final_v"] = toJson(r.final_state.segment(nq, nv));
  nlohmann::json events = nlohmann::json::array();
  for (const dynamics::ContactCrossing& e : r.events)
    events.push_back({{"t", e.t}, {"contact", contact_names.at(std::size_t(e.contact))},
                      {"kind", e.closing ? "close" : "open"}});
  j["events"] = events;
}

void printVector(std::ostream& os, std::string_view name, const Eigen::VectorXd& v,
                 int max_entries) {
  std::ostringstream line;
  line << std::setprecision(6) << name << " = [";
  const Eigen::Index shown = std::min<Eigen::Index>(v.size(), max_entries);
  for (Eigen::Index i = 0; i < shown; ++i) line << (i ? ", " : "") << v(i);
  if (shown < v.size()) line << ", … " << v.size() - shown << " more";
  line << "]\n";
  os << line.str();
}

void writeStateHeader(std::ostream& os, const dynamics::PlanarModel& model) {
  os << "t";
  for (int b = 0; b < model.bodyCount(); ++b)
    for (const char* c : {"x", "y", "theta"}) os << ',' << model.body(b).name << '.' << c;
  for (int b = 0; b < model.bodyCount(); ++b)
    for (const char* c : {"vx", "vy", "omega"}) os << ',' << model.body(b).name << '.' << c;
}

std::ofstream openCsv(const std::string& path) {
  std::ofstream f(path);
  if (!f) throw std::invalid_argument("--out " + path + ": cannot open for writing");
  f << std::setprecision(12);
  return f;
}

void writeRows(std::ostream& os, const Eigen::Ref<const Eigen::MatrixXd>& history) {
  for (Eigen::Index i = 0; i < history.rows(); ++i)
    for (Eigen::Index j = 0; j < history.cols(); ++j) os << history(i, j) << (j + 1 == history.cols() ? '\n' : ',');
}

void markIncomplete(std::ostream& os, bool ok, const std::string& reason) {
  if (!ok) os << "# incomplete: " << reason << '\n';
}

}  // namespace stickslip::cli
