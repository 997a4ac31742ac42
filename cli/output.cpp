#include "cli/output.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "cli/command.hpp"

namespace stickslip::cli {

int exitCodeFor(lcp::Status s) {
  return s == lcp::Status::kSuccess        ? kExitOk
         : s == lcp::Status::kInvalidInput ? kExitInput
                                           : kExitFailure;
}

nlohmann::json finiteOrNull(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

nlohmann::json toJson(const Eigen::VectorXd& v) {
  nlohmann::json a = nlohmann::json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(finiteOrNull(v(i)));
  return a;
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

std::string jsonLine(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
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
