// stickslip verify [--case NAME] [--json]: the academic verification suite; exit code 1 if
// any row fails. Each row: reference, obtained, error, tolerance and the check that passes it
// (mechanisms/verification.hpp: |o-r|<=tol, o<=tol, o>=tol, o==r).
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/output.hpp"
#include "mechanisms/verification.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description&) {
  std::string names;
  for (const auto& c : mechanisms::verificationCases()) names += (names.empty() ? "" : ", ") + c.name;
  o.add_options()("case", po::value<std::string>(), ("run only this case: " + names).c_str())(
      "json", po::bool_switch(), "print one JSON object on stdout");
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  std::vector<std::string> names;
  if (vm.count("case")) names.push_back(vm["case"].as<std::string>());
  else
    for (const auto& c : mechanisms::verificationCases()) names.push_back(c.name);
  std::vector<mechanisms::VerificationRow> rows;
  for (const auto& n : names)
    for (auto& r : mechanisms::runVerification(n)) rows.push_back(std::move(r));
  int failed = 0;
  for (const auto& r : rows) failed += !r.pass;
  if (vm["json"].as<bool>()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& r : rows)
      list.push_back({{"case", r.case_name}, {"method", r.method}, {"quantity", r.quantity},
                      {"check", std::string(mechanisms::jsonName(r.check))},
                      {"reference", finiteOrNull(r.reference)}, {"obtained", finiteOrNull(r.obtained)},
                      {"error", finiteOrNull(r.error)}, {"tolerance", r.tolerance},
                      {"pass", r.pass}, {"note", r.note}});
    out << nlohmann::json{{"status", failed ? "failed" : "ok"}, {"failed", failed},
                          {"rows", list}}.dump() << "\n";
  } else {
    auto num = [](double x, int digits) {
      if (std::isnan(x)) return std::string("-");  // no reference value (a one-sided bound)
      std::ostringstream os;
      os << std::setprecision(digits) << x;
      return os.str();
    };
    out << std::left << std::setw(13) << "case" << std::setw(32) << "method" << std::setw(16)
        << "reference" << std::setw(16) << "obtained" << std::setw(10) << "error" << std::setw(13)
        << "tolerance" << std::setw(12) << "check" << "result  quantity\n";
    for (const auto& r : rows) {
      out << std::left << std::setw(13) << r.case_name << std::setw(32) << r.method << std::setw(16)
          << num(r.reference, 10) << std::setw(16) << num(r.obtained, 10) << std::setw(10)
          << num(r.error, 2) << std::setw(13) << num(r.tolerance, 6) << std::setw(12)
          << mechanisms::toString(r.check) << (r.pass ? "PASS    " : "FAIL    ") << r.quantity << "\n";
      if (!r.note.empty()) out << "         run failed: " << r.note << "\n";
    }
    out << rows.size() - failed << "/" << rows.size() << " passed\n";
  }
  if (failed) err << "stickslip verify: " << failed << " check(s) failed\n";
  return failed ? kExitFailure : kExitOk;
}

}  // namespace

const Command& verifyCommand() {
  static const Command c{"verify", "academic verification suite (closed forms, references)", declare, run};
  return c;
}

}  // namespace stickslip::cli
