// The joints' multipliers event-driven's history carries, rebuilt after the run from its state and
// recorded forces (dynamics/routes/joint_multipliers.hpp), against routes that solve for them
// while they integrate: the penalty route on Zheng's Example II with ideal joints (the same
// equations, another integrator), and Blajer's minimal form on blajer-2, whose guide contact and
// joint friction enter the rebuilt multipliers.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

using namespace stickslip;
using mechanisms::Route;

namespace {

dynamics::RunResult run(const std::string& scenario, Route route, bool ideal) {
  mechanisms::RunSettings settings;
  settings.route = route;
  settings.ideal = ideal;
  mechanisms::ScenarioRun r = mechanisms::runScenario(mechanisms::loadScenario(scenario), settings);
  INFO(r.result.message);
  REQUIRE(r.result.ok());
  return r.result;
}

/// Whether row i is one of an event's rows (before and after it, at one time).
bool eventRow(const dynamics::RunResult& r, Eigen::Index i) {
  const double t = r.history(i, 0);
  return (i > 0 && r.history(i - 1, 0) == t) || (i + 1 < r.history.rows() && r.history(i + 1, 0) == t);
}

/// Largest |a(t) − b(t)| of two columns over the sample times both runs have, and the largest |b|.
/// Events' rows are left out: two routes may place one event at the same time to 1e-12 s, and
/// one route's row before it would meet the other's after it.
std::pair<double, double> difference(const dynamics::RunResult& a, const std::string& column_a,
                                     const dynamics::RunResult& b, const std::string& column_b) {
  const Eigen::Index ca = a.column(column_a), cb = b.column(column_b);
  REQUIRE(ca >= 0);
  REQUIRE(cb >= 0);
  double largest = 0.0, scale = 0.0;
  int common = 0;
  for (Eigen::Index i = 0, j = 0; i < a.history.rows() && j < b.history.rows();) {
    if (eventRow(a, i) || eventRow(b, j)) {
      (eventRow(a, i) ? i : j) += 1;
      continue;
    }
    const double ta = a.history(i, 0), tb = b.history(j, 0);
    if (std::abs(ta - tb) > 1e-12) {
      (ta < tb ? i : j) += 1;
      continue;
    }
    if (std::isfinite(b.history(j, cb))) {  // the minimal form's reactions are NaN in stiction
      largest = std::max(largest, std::abs(a.history(i, ca) - b.history(j, cb)));
      scale = std::max(scale, std::abs(b.history(j, cb)));
      ++common;
    }
    ++i, ++j;
  }
  REQUIRE(common > 1000);
  return {largest, scale};
}

}  // namespace

TEST_CASE("joint multipliers: event-driven's rebuilt ones are the penalty route's on Zheng II with ideal joints",
          "[joint-multipliers][event-driven]") {
  const dynamics::RunResult exact = run("zheng-rheonomic", Route::kEventDriven, true);
  const dynamics::RunResult penalty = run("zheng-rheonomic", Route::kPenalty, true);
  for (const std::string column : {"O.lambda0", "O.lambda1", "B.lambda0", "B.lambda1", "guide.lambda0", "driver.lambda"}) {
    const auto [largest, scale] = difference(exact, column, penalty, column);
    INFO(column << ": largest difference " << largest << " of " << scale);
    CHECK(scale > 0.1);
    CHECK(largest <= 1e-5 * scale);
  }
}

TEST_CASE("joint multipliers: event-driven's rebuilt ones are the minimal form's on blajer-2 (guide contact, "
          "joint friction)",
          "[joint-multipliers][event-driven][minimal-form]") {
  const dynamics::RunResult exact = run("blajer-2", Route::kEventDriven, false);
  const dynamics::RunResult minimal = run("blajer-2", Route::kMinimalForm, false);
  int row = 0;
  for (const std::string column : {"O.lambda0", "O.lambda1", "A.lambda0", "A.lambda1"}) {
    const auto [largest, scale] = difference(exact, column, minimal, "lambda" + std::to_string(row++));
    INFO(column << ": largest difference " << largest << " of " << scale);
    CHECK(scale > 1.0);
    CHECK(largest <= 1e-6 * scale);
  }
  // The pin's friction load is its resultant: |R| = ‖λ‖.
  const Eigen::Index reaction = exact.column("O.reaction"), x = exact.column("O.lambda0"), y = exact.column("O.lambda1");
  int compared = 0;
  for (Eigen::Index i = 0; i < exact.history.rows(); i += 97) {
    if (std::isnan(exact.history(i, reaction))) {  // a stuck loop: its forces are indeterminate, and so is λ
      CHECK(std::isnan(exact.history(i, x)));
      continue;
    }
    CHECK(exact.history(i, reaction) == Approx(std::hypot(exact.history(i, x), exact.history(i, y))).epsilon(1e-9));
    ++compared;
  }
  CHECK(compared > 50);
}
