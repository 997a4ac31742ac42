#include "cli/method_list.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

#include "mechanisms/run_scenario.hpp"

namespace stickslip::cli {

std::vector<MethodSpec> parseMethods(const std::string& list, const std::string& scenario, const std::string& option) {
  const std::vector<std::string>& names = mechanisms::routeNames();
  std::vector<MethodSpec> specs;
  std::map<std::string, int> seen;
  for (const std::string& item : splitList(list)) {
    MethodSpec s;
    s.label = item;
    const auto slash = item.find('/');
    if (slash != std::string::npos && item.substr(slash) != "/ideal")
      throw std::invalid_argument(option + ": '" + item + "': expected /ideal after the method, got '" +
                                  item.substr(slash) + "'");
    s.ideal = slash != std::string::npos;
    const std::string route_and_law = item.substr(0, slash);
    const auto colon = route_and_law.find(':');
    s.method = route_and_law.substr(0, colon);
    if (colon != std::string::npos) s.friction = route_and_law.substr(colon + 1);
    if (std::find(names.begin(), names.end(), s.method) == names.end())
      throw std::invalid_argument(option + ": unknown method '" + s.method +
                                  "' (expected event-driven, moreau-jean, penalty[:LAW] or "
                                  "minimal-form; a friction law follows a colon, /ideal the clearance joints made ideal)");
    if (colon != std::string::npos && s.friction.empty())
      throw std::invalid_argument(option + ": '" + item + "': expected a friction law after ':'");
    std::string stem = scenario + "-" + item;
    std::replace(stem.begin(), stem.end(), ':', '-');
    std::replace(stem.begin(), stem.end(), '/', '-');
    const int n = ++seen[stem];
    s.file = stem;
    if (n > 1) s.file.append("-").append(std::to_string(n));
    s.file.append(".csv");
    if (n > 1) s.label.append(" (").append(std::to_string(n)).append(")");
    specs.push_back(std::move(s));
  }
  if (specs.empty()) throw std::invalid_argument(option + ": expected at least one method");
  return specs;
}

std::vector<std::string> methodArgs(const MethodSpec& m) {
  std::vector<std::string> a;
  if (!m.method.empty()) a.insert(a.end(), {"--method", m.method});
  if (!m.friction.empty()) a.insert(a.end(), {"--friction", m.friction});
  if (m.ideal) a.push_back("--ideal");
  return a;
}

std::vector<std::string> runArgs(const po::variables_map& vm, const MethodSpec& m, std::optional<double> t_end) {
  std::vector<std::string> a = methodArgs(m);
  if (t_end) {
    std::ostringstream t;
    t << std::setprecision(17) << *t_end;
    a.insert(a.end(), {"--t-end", t.str()});
  }
  if (vm.count("solver")) a.insert(a.end(), {"--solver", vm["solver"].as<std::string>()});
  // The impact law is event-driven's: the other methods of a list run with their own.
  if (vm.count("impact-law") && (m.method.empty() || m.method == "event-driven"))
    a.insert(a.end(), {"--impact-law", vm["impact-law"].as<std::string>()});
  return a;
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace stickslip::cli
