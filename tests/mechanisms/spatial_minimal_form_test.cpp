// Blajer's minimal form on a spatial mechanism (dynamics/routes/minimal_form/minimal_form.hpp):
// the thesis' spatial slider-crank with Coulomb friction in its guide (Marques 2015, Table 4.1),
// reduced to its one degree of freedom, against event-driven on the absolute coordinates — every
// stick/slip change, the energy, the reactions that close the absolute equations.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/routes/minimal_form/minimal_form_route.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

using namespace stickslip;
using mechanisms::Route;

namespace {

mechanisms::ScenarioRun runSpatial(const std::string& name, Route route, double t_end,
                                   const std::vector<std::string>& settings = {}) {
  mechanisms::Scenario s = mechanisms::loadScenario(name);
  mechanisms::applySettings(s, settings);
  mechanisms::RunSettings o;
  o.route = route;
  o.t_end = t_end;
  return mechanisms::ScenarioRunner(s, o).run();
}

// The largest difference of the event times of two runs whose events are the same kinds in the
// same order (checked), or infinity.
double eventTimeGap(const dynamics::RunResult& a, const dynamics::RunResult& b) {
  if (a.events.size() != b.events.size()) return INFINITY;
  double gap = 0.0;
  for (std::size_t i = 0; i < a.events.size(); ++i) {
    if (a.events[i].kind != b.events[i].kind || a.events[i].contact != b.events[i].contact) return INFINITY;
    gap = std::max(gap, std::abs(a.events[i].t - b.events[i].t));
  }
  return gap;
}

}  // namespace

TEST_CASE("spatial minimal form: the slider-crank with Table 4.1's guide friction changes direction where "
          "event-driven does, to 1e-6 s",
          "[minimal-form][spatial]") {
  const auto mf = runSpatial("spatial-slider-crank-friction", Route::kMinimalForm, 5.0);
  const auto ed = runSpatial("spatial-slider-crank-friction", Route::kEventDriven, 5.0);
  INFO(mf.result.message << " / " << ed.result.message);
  REQUIRE(mf.result.ok());
  REQUIRE(ed.result.ok());
  // Blajer's sizes: 18 velocities, 17 rows, of which the guide's 5 close the loop.
  REQUIRE(mf.minimal_form);
  CHECK(mf.minimal_form->n == 18);
  CHECK(mf.minimal_form->m == 17);
  CHECK(mf.minimal_form->k == 1);
  CHECK(mf.minimal_form->m2 == 5);
  CHECK(mf.minimal_form->k1 == 6);
  CHECK(mf.minimal_form->reaction_failures == 0);
  CHECK(mf.elements == std::vector<std::string>{"guide"});
  // The guide reverses 34 times in 5 s, never sticking: the same changes, within 1e-6 s.
  CHECK(mf.result.events.size() == 34);
  CHECK(eventTimeGap(mf.result, ed.result) < 1e-6);
  CHECK(mf.result.events.front().t == Approx(0.236395687).margin(1e-8));
  CHECK(mf.minimal_form->stick_intervals.empty());
  // Friction only takes energy, and both routes take the same amount.
  const Eigen::VectorXd energy = mf.result.history.col(mf.result.column("energy"));
  for (Eigen::Index i = 1; i < energy.size(); ++i) CHECK(energy(i) <= energy(i - 1) + 1e-9);
  CHECK(mf.energy_final < mf.energy_initial - 1.0);
  CHECK(mf.energy_final == Approx(ed.energy_final).margin(1e-6));
}

TEST_CASE("spatial minimal form: the slider-crank pushed within hold's range sticks where event-driven does and "
          "stays at rest",
          "[minimal-form][spatial]") {
  // hold's range for this pose is 11.36 to 12.55 N (tests/cli/spatial_hold_cli_test.cpp).
  const std::vector<std::string> pose{"parameters.push=12", "parameters.crank_speed=0.3", "parameters.psi=0.6",
                                      "parameters.mu_static=0.2", "parameters.mu_kinetic=0.15"};
  const auto mf = runSpatial("spatial-slider-crank", Route::kMinimalForm, 1.0, pose);
  const auto ed = runSpatial("spatial-slider-crank", Route::kEventDriven, 1.0, pose);
  REQUIRE(mf.result.ok());
  REQUIRE(ed.result.ok());
  REQUIRE(mf.result.events.size() == 1);
  CHECK(mf.result.events.front().kind == dynamics::EventKind::kStick);
  CHECK(eventTimeGap(mf.result, ed.result) < 1e-6);
  REQUIRE(mf.minimal_form->stick_intervals.size() == 1);
  CHECK(mf.minimal_form->stick_intervals.front().second == 1.0);
  CHECK(mf.result.final_v.lpNorm<Eigen::Infinity>() == 0.0);  // held exactly
  CHECK((mf.result.final_q - ed.result.final_q).lpNorm<Eigen::Infinity>() < 1e-7);
  // The holding force is within the static cone: |F| ≤ μs L.
  const Eigen::Index last = mf.result.history.rows() - 1;
  const double F = mf.result.history(last, mf.result.column("guide.F"));
  const double L = mf.result.history(last, mf.result.column("guide.reaction"));
  CHECK(std::abs(F) > 0.0);
  CHECK(std::abs(F) <= 0.2 * L);
}

TEST_CASE("spatial minimal form: while it slides, the reactions close the absolute equations with the finite "
          "slider's load",
          "[minimal-form][spatial]") {
  // psi = 1 rad: off the dead centre, so that the guide slides.
  const mechanisms::SpatialScenario s = mechanisms::builtinSpatialModel("spatial-slider-crank-friction", {{"psi", 1.0}});
  const dynamics::SpatialMechanism mechanism(s.model, s.q0, s.friction);
  const dynamics::MinimalFormModel m = dynamics::minimalFormModel(mechanism, s.q0, s.v0, s.name);
  REQUIRE(m.options.independent.size() == 1);
  CHECK(s.model.velocityName(m.options.independent.front()) == "crank.wy");  // the crank pinned to the ground
  dynamics::MinimalForm form(mechanism, m.options, m.x0);
  dynamics::MinimalFormState st;
  REQUIRE(form.evaluate(0.0, s.q0, m.u0, form.none(), false, st));  // the sliding row C″_μ
  const double sigma = st.sliding(0, 0) * m.u0(0) > 0.0 ? 1.0 : -1.0;  // sgn(ṡ)
  REQUIRE(std::abs(st.sliding(0, 0) * m.u0(0)) > 0.1);                   // it slides
  REQUIRE(form.evaluate(0.0, s.q0, m.u0, form.against(st, m.u0(0) > 0.0 ? 1.0 : -1.0, false), false, st));
  CHECK(st.reaction_converged);
  // f = −sgn(ṡ) μk L(λ), L the end walls' load of the finite slider.
  const double L = mechanism.jointFrictionReaction(0, st.lambda, Eigen::VectorXd());
  CHECK(st.reaction(0) == Approx(L).epsilon(1e-14));
  CHECK(st.friction(0) == Approx(-sigma * 0.1 * L).epsilon(1e-12));
  // M ẍ + Cᵀλ = Q + C_μᵀ f and C ẍ = γ, with ẍ = D u̇ + ν.
  const Eigen::Index n = s.model.velocitySize(), rows = s.model.constraintCount();
  Eigen::MatrixXd C(rows, n);
  s.model.jacobian(0.0, st.x, C);
  Eigen::VectorXd gamma(rows), Q(n), row = Eigen::VectorXd::Zero(n);
  s.model.gamma(0.0, st.x, st.xdot, gamma);
  s.model.generalizedForces(0.0, st.x, st.xdot, Q);
  mechanism.addJointFrictionRow(0, st.friction(0), row);
  // ẍ from the absolute equations with λ given: M ẍ = Q + C_μᵀ f − Cᵀλ.
  Eigen::VectorXd a = Q + row - C.transpose() * st.lambda;
  s.model.applyInverseMass(a);
  CHECK((C * a - gamma).lpNorm<Eigen::Infinity>() < 1e-9 * (1.0 + gamma.lpNorm<Eigen::Infinity>()));
  // … and its driver's acceleration is the reduced dynamics' u̇ (D_I = 1, ν_I = 0).
  CHECK(a(m.options.independent.front()) == Approx(st.udot(0)).epsilon(1e-9));
}

TEST_CASE("spatial minimal form: what it cannot take, and why", "[minimal-form][spatial]") {
  mechanisms::RunSettings o;
  o.route = Route::kMinimalForm;
  const mechanisms::Scenario clearance = mechanisms::loadScenario("spatial-slider-crank-clearance");
  CHECK_THROWS_WITH(mechanisms::ScenarioRunner(clearance, o),
                    Catch::Contains("the minimal form cannot take 'spatial-slider-crank-clearance': clearance joint"));
  const std::string file = std::string(STICKSLIP_MODEL_EXAMPLES) + "/box_on_slope.yaml";
  const mechanisms::Scenario box = mechanisms::loadScenario(file);
  CHECK_THROWS_WITH(mechanisms::ScenarioRunner(box, o), Catch::Contains("is unilateral and may open"));
}
