// One path from a scenario to a result, by every route (mechanisms/run_scenario.hpp): the same
// history columns, known before the run; the energy column against conservation; refusals with
// the physical reason.
#include "mechanisms/run_scenario.hpp"

#include <catch2/catch.hpp>
#include <cmath>

using namespace stickslip;
using mechanisms::Route;

TEST_CASE("run scenario: frictionless blajer-1 keeps its energy by every route, the columns known before the run",
          "[run-scenario]") {
  mechanisms::Scenario s = mechanisms::loadScenario("blajer-1");
  mechanisms::applySettings(s, {"parameters.friction=false"});
  // Released at rest under gravity: T + V stays at its initial value. Moreau–Jean's θ = ½ and
  // the penalty route's Baumgarte terms conserve it to their own orders.
  for (const auto& [route, tolerance] : {std::pair{Route::kEventDriven, 1e-8}, {Route::kMoreauJean, 1e-5},
                                         {Route::kPenalty, 1e-5}, {Route::kMinimalForm, 1e-8}}) {
    INFO(mechanisms::toString(route));
    mechanisms::RunSettings settings;
    settings.route = route;
    settings.t_end = 1.0;
    mechanisms::ScenarioRunner runner(s, settings);
    const std::vector<std::string> columns = runner.columns();
    const mechanisms::ScenarioRun r = runner.run();
    REQUIRE(r.result.ok());
    CHECK(r.result.columns == columns);
    CHECK(r.result.history.cols() == Eigen::Index(columns.size()));
    CHECK(columns.front() == "t");
    CHECK(columns.back() == "energy");
    CHECK(r.result.column("link1.theta") == 3);
    // It swings: the kinetic energy is no small part of the total.
    const Eigen::Index theta = r.result.column("link1.theta");
    CHECK((r.result.history.col(theta).maxCoeff() - r.result.history.col(theta).minCoeff()) > 0.5);
    const Eigen::VectorXd energy = r.result.history.col(r.result.column("energy"));
    CHECK((energy.array() - r.energy_initial).abs().maxCoeff() <= tolerance * (1.0 + std::abs(r.energy_initial)));
  }
}

TEST_CASE("run scenario: a route that cannot take the mechanism gives the physical reason", "[run-scenario]") {
  const mechanisms::Scenario zheng = mechanisms::loadScenario("zheng-torque");
  const std::string why = mechanisms::routeRefusal(zheng, Route::kMinimalForm);
  CHECK(why.find("clearance-A") != std::string::npos);
  CHECK(mechanisms::routeRefusal(zheng, Route::kEventDriven).empty());
  CHECK(mechanisms::routeRefusal(mechanisms::loadScenario("dupont"), Route::kMinimalForm).empty());
  mechanisms::RunSettings bad;
  bad.theta = 0.2;
  CHECK_THROWS_WITH(mechanisms::ScenarioRunner(zheng, bad), Catch::Contains("--theta"));
}

TEST_CASE("run scenario: the stick statistics count every element's entries into and exits from stick alike "
          "by event-driven and the minimal form",
          "[run-scenario]") {
  // blajer-2 with friction in four elements that stick together: the minimal form counts them
  // per element from its events, as the absolute routes do, not once per stick of the mechanism.
  const mechanisms::Scenario s = mechanisms::loadScenario("blajer-2");
  auto statistics = [&](Route route) {
    mechanisms::RunSettings settings;
    settings.route = route;
    settings.t_end = 3.0;
    const mechanisms::ScenarioRun r = mechanisms::ScenarioRunner(s, settings).run();
    REQUIRE(r.result.ok());
    return r.stick;
  };
  const auto ed = statistics(Route::kEventDriven), mf = statistics(Route::kMinimalForm);
  CHECK(ed.transitions == 12);  // four elements, three transitions each
  CHECK(mf.transitions == ed.transitions);
  CHECK(mf.stick_fraction == Approx(ed.stick_fraction).margin(1e-6));
}
