// Two scenario files whose motion has a closed-form property, by every rigid route:
// Housner's rocking block (each impact keeps the angular momentum about the new corner:
// ω⁺/ω⁻ = 1 − 1.5 sin²α, so the energy above the upright position falls by that ratio squared)
// and the ladder on a frictionless wall and floor (it leaves the wall where sin φ = ⅔ sin φ₀).
// The benchmarks/engines/ programs set the engines against the same files.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

using namespace stickslip;
using mechanisms::Route;

namespace {

const std::string kScenarios = STICKSLIP_MODEL_EXAMPLES;

mechanisms::ScenarioRun run(const std::string& file, Route route, double t_end, double output_dt,
                            double dt = 0.0) {
  mechanisms::RunSettings settings;
  settings.route = route;
  settings.t_end = t_end;
  settings.output_dt = output_dt;
  if (dt > 0.0) settings.dt = dt;
  mechanisms::ScenarioRun r =
      mechanisms::runScenario(mechanisms::loadScenario(kScenarios + "/" + file), settings);
  REQUIRE(r.result.ok());
  return r;
}

/// The history's row at time t (sampled on a grid that contains it).
Eigen::Index rowAt(const dynamics::RunResult& r, double t) {
  for (Eigen::Index i = 0; i < r.history.rows(); ++i)
    if (std::abs(r.history(i, 0) - t) < 1e-9) return i;
  FAIL("no sample at t = " << t);
  return -1;
}

}  // namespace

TEST_CASE("Housner's rocking block loses energy by the ratio squared at its first impact",
          "[mechanisms][exact]") {
  constexpr double b = 0.1, h = 0.3, mass = 1.0, g = 9.81, tilt = 0.2;  // rocking_block.yaml
  const double alpha = std::atan2(b, h), ratio = 1.0 - 1.5 * std::sin(alpha) * std::sin(alpha);
  const double upright = mass * g * h;                                        // V at θ = 0
  const double start = mass * g * (b * std::sin(tilt) + h * std::cos(tilt));  // T + V, at rest
  const double after = upright + ratio * ratio * (start - upright);  // between impacts 1 and 2
  // The first impact is at 0.338 s, the second at 0.781 s (by quadrature; bench_engines_rocking).
  SECTION("event-driven") {
    const mechanisms::ScenarioRun r = run("rocking_block.yaml", Route::kEventDriven, 0.6, 0.05);
    const Eigen::Index energy = r.result.column("energy");
    CHECK(r.result.history(rowAt(r.result, 0.3), energy) == Approx(start).epsilon(1e-9));
    CHECK(r.result.history(rowAt(r.result, 0.5), energy) == Approx(after).epsilon(1e-9));
  }
  SECTION("Moreau–Jean, h = 1e-4 s") {
    const mechanisms::ScenarioRun r =
        run("rocking_block.yaml", Route::kMoreauJean, 0.6, 0.05, 1e-4);
    const Eigen::Index energy = r.result.column("energy");
    CHECK(r.result.history(rowAt(r.result, 0.5), energy) == Approx(after).epsilon(2e-3));
  }
}

TEST_CASE("The ladder leaves its frictionless wall at two thirds of its height",
          "[mechanisms][exact]") {
  const double phi0 = M_PI / 3;  // ladder.yaml
  const mechanisms::ScenarioRun r = run("ladder.yaml", Route::kEventDriven, 0.5, 0.5);
  const dynamics::ContactEvent* open = nullptr;
  for (const dynamics::ContactEvent& e : r.result.events)
    if (e.contact == 0 && e.kind == dynamics::EventKind::kOpen) open = &e;
  REQUIRE(open != nullptr);
  // Its angle then: rerun to that instant and read the rod's (body x axis: π − φ).
  const mechanisms::ScenarioRun at = run("ladder.yaml", Route::kEventDriven, open->t, open->t);
  const double phi =
      M_PI - at.result.history(at.result.history.rows() - 1, at.result.column("rod.theta"));
  CHECK(std::sin(phi) == Approx(2.0 / 3.0 * std::sin(phi0)).epsilon(1e-8));
  CHECK(open->t == Approx(0.3250307016).margin(1e-8));  // by quadrature of φ'' = −(3g/2L) cos φ
}

TEST_CASE("Event-driven at a loose tolerance keeps its steps few", "[mechanisms][exact]") {
  // The gap tolerance follows the integrator's: at rtol 1e-6 with the default 1e-9 m, each step
  // of the ladder went back to a mode decision (2.03 M steps and LCP solves over 0.6 s).
  mechanisms::RunSettings settings;
  settings.route = Route::kEventDriven;
  settings.t_end = 0.6;
  settings.output_dt = 0.6;
  settings.tolerance = 1e-6;
  const mechanisms::ScenarioRun r =
      mechanisms::runScenario(mechanisms::loadScenario(kScenarios + "/ladder.yaml"), settings);
  REQUIRE(r.result.ok());
  CHECK(r.result.steps < 1000);
  const auto open = std::find_if(r.result.events.begin(), r.result.events.end(),
                                 [](const dynamics::ContactEvent& e) {
                                   return e.contact == 0 && e.kind == dynamics::EventKind::kOpen;
                                 });
  REQUIRE(open != r.result.events.end());
  CHECK(open->t == Approx(0.3250307016).margin(1e-5));
}
