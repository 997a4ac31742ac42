// One path from a scenario to a result, by every route (mechanisms/run_scenario.hpp): the same
// history columns, known before the run; the energy column against conservation; refusals with
// the physical reason.
#include "mechanisms/run_scenario.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <utility>

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

TEST_CASE("run scenario: the penalty route settles blajer-1's four reaction-dependent frictions together, each at "
          "the reaction of the multipliers it ends with",
          "[run-scenario][penalty]") {
  // Three pins and a guide, each friction loaded by its own reaction, which the others' friction
  // changes. Under LuGre (its σ1 ż term grows as 1/|R|) the loops couple strongly: the fixed
  // point on |R| alone stopped at 0.066 s; the sweeps over the elements' exact loops and Newton's
  // method carry on to 0.0916 s, where the loop's Jacobian turns singular (below).
  mechanisms::Scenario s = mechanisms::loadScenario("blajer-1");
  for (const auto& [law, t_end] : {std::pair{"coulomb", 0.3}, {"lugre", 0.091}}) {
    INFO(law);
    mechanisms::RunSettings settings;
    settings.route = Route::kPenalty;
    settings.friction = law;
    settings.t_end = t_end;
    const mechanisms::ScenarioRun r = mechanisms::ScenarioRunner(s, settings).run();
    INFO(r.result.message);
    REQUIRE(r.result.ok());
    const Eigen::MatrixXd& h = r.result.history;
    REQUIRE(h.rows() > 10);
    // The |R| each law read is that of the final multipliers: a pin's the norm of its pair, the
    // guide's that of its closing joint's multiplier; and each element is loaded and slides.
    for (const std::string pin : {"O", "A", "B"}) {
      INFO(pin);
      const Eigen::ArrayXd reaction = h.col(r.result.column(pin + ".reaction")).array();
      const Eigen::ArrayXd norm =
          (h.col(r.result.column(pin + ".lambda0")).array().square() +
           h.col(r.result.column(pin + ".lambda1")).array().square()).sqrt();
      CHECK(((reaction - norm).abs() / (1.0 + reaction)).maxCoeff() < 1e-10);
      CHECK(reaction.tail(h.rows() - 1).minCoeff() > 1.0);
      CHECK(h.col(r.result.column(pin + ".F")).tail(h.rows() - 1).cwiseAbs().maxCoeff() > 0.1);
    }
    const Eigen::ArrayXd normal = h.col(r.result.column("guide.N")).array().abs();
    const Eigen::ArrayXd lambda = h.col(r.result.column("guide.lambda")).array().abs();
    CHECK(((normal - lambda).abs() / (1.0 + normal)).maxCoeff() < 1e-10);
  }
}

TEST_CASE("run scenario: where blajer-1's coupled friction loop under LuGre has no solution left, the penalty route "
          "stops there and says so",
          "[run-scenario][penalty]") {
  // Newton's method on the loop H(N) = N − |R(F(N))| = 0 finds it to round-off until 0.0915 s,
  // with det ∂H/∂N falling towards 0; then |H| keeps a positive minimum (1e-4 N) where the
  // Jacobian is singular: a fold, past which no solution continues the one followed.
  mechanisms::Scenario s = mechanisms::loadScenario("blajer-1");
  mechanisms::RunSettings settings;
  settings.route = Route::kPenalty;
  settings.friction = "lugre";
  settings.t_end = 0.2;
  const mechanisms::ScenarioRun r = mechanisms::ScenarioRunner(s, settings).run();
  INFO(r.result.message);
  CHECK_FALSE(r.result.ok());
  CHECK(r.result.t_end > 0.0905);
  CHECK(r.result.t_end < 0.0925);
  CHECK(r.result.message.find("the 4 elements did not settle") != std::string::npos);
  CHECK(r.result.message.find("(a fold)") != std::string::npos);
}
