// The belt chain of the scaling benchmark (mechanisms/belt_chain.hpp): N = 1 is the belt's
// closed form; with several pre-loaded blocks event-driven and Moreau–Jean agree on the
// stick/slip events, friction never drives a slip, and the energy changes by the belt's work
// minus the friction dissipation.
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/belt_chain.hpp"
#include "same_run.hpp"

using namespace stickslip;

namespace {

/// Blocks slide from t = 0 and contacts switch within the first 3 s.
mechanisms::BeltChain preloadedChain(int blocks) {
  mechanisms::BeltChain chain;
  chain.blocks = blocks;
  chain.spacing = 4.0;
  chain.offset_amplitude = 1.5;
  return chain;
}

/// The pre-loaded chain's first 2 s, event-driven.
dynamics::RunResult eventDriven(int blocks, const std::string& solver, bool sparse_path = true) {
  dynamics::EventDrivenOptions o;
  o.t_end = 2.0;
  o.solver = solver;
  o.sparse_path = sparse_path;
  return dynamics::simulateEventDriven(mechanisms::beltChainRigid(preloadedChain(blocks)), o);
}

std::string describe(const dynamics::ContactEvent& e) {
  return std::to_string(e.t) + " s, contact " + std::to_string(e.contact) + " " +
         std::string(dynamics::toString(e.kind));
}

}  // namespace

TEST_CASE("belt chain N = 1 is the belt: the closed-form stick–slip cycle, event-driven",
          "[belt-chain][event-driven]") {
  mechanisms::BeltChain chain;
  chain.blocks = 1;
  const mechanisms::BeltCycle cycle = mechanisms::beltClosedForm(chain.belt);
  REQUIRE(cycle.period == Approx(7.5234).margin(1e-4));  // DESIGN §7: 2.6185 s + 4.905 s
  const auto reference = cycle.events(20.0);
  dynamics::EventDrivenOptions o;
  o.t_end = 20.0;
  const dynamics::RunResult run = dynamics::simulateEventDriven(mechanisms::beltChainRigid(chain), o);
  INFO(run.message);
  REQUIRE(run.ok());
  REQUIRE(run.events.size() == reference.size());
  for (std::size_t i = 0; i < reference.size(); ++i) {
    INFO("event " << i << ": " << describe(run.events[i]));
    CHECK(std::abs(run.events[i].t - reference[i].first) < 1e-6);
    CHECK(run.events[i].kind == (reference[i].second == "stick" ? dynamics::EventKind::kStick
                                                                 : dynamics::EventKind::kSlipNegative));
  }
  // Break-away to break-away: one period.
  REQUIRE(reference.size() >= 3);
  CHECK(std::abs(run.events[2].t - run.events[0].t - cycle.period) < 2e-6);
}

TEST_CASE("belt chain N = 4, pre-loaded: event-driven and Moreau–Jean (h = 1e-4) agree on the events",
          "[belt-chain][event-driven][moreau-jean]") {
  const dynamics::RigidScenario s = mechanisms::beltChainRigid(preloadedChain(4));
  dynamics::EventDrivenOptions eo;
  eo.t_end = 3.0;
  const dynamics::RunResult ed = dynamics::simulateEventDriven(s, eo);
  dynamics::MoreauJeanOptions mo;
  mo.t_end = 3.0;
  mo.h = 1e-4;
  const dynamics::RunResult mj = dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, mo);
  INFO(ed.message << " / " << mj.message);
  REQUIRE(ed.ok());
  REQUIRE(mj.ok());
  // Event-driven decides the blocks' initial modes at t = 0 without an event; Moreau–Jean
  // starts every closed contact stuck and reports the break-aways after its first step.
  std::vector<dynamics::ContactEvent> mj_later;
  for (const auto& e : mj.events)
    if (e.t > 1.5 * mo.h) mj_later.push_back(e);
  REQUIRE(ed.events.size() >= 5);  // several contacts switch, both ways
  REQUIRE(mj_later.size() == ed.events.size());
  for (std::size_t i = 0; i < ed.events.size(); ++i) {
    INFO("event-driven " << describe(ed.events[i]) << "; Moreau–Jean " << describe(mj_later[i]));
    CHECK(mj_later[i].contact == ed.events[i].contact);
    CHECK(mj_later[i].kind == ed.events[i].kind);
    CHECK(std::abs(mj_later[i].t - ed.events[i].t) < 3e-3);  // O(h) with a margin
  }
}

TEST_CASE("belt chain N = 4, pre-loaded: friction opposes slip, energy change = belt work − dissipation",
          "[belt-chain][event-driven]") {
  const mechanisms::BeltChain chain = preloadedChain(4);
  const dynamics::RigidScenario s = mechanisms::beltChainRigid(chain);
  dynamics::EventDrivenOptions o;
  o.t_end = 3.0;
  const dynamics::RunResult run = dynamics::simulateEventDriven(s, o);
  INFO(run.message);
  REQUIRE(run.ok());
  // History columns: t, q (3N), v (3N), then (N, F) per contact; F along +x.
  const int n = chain.blocks, nq = 3 * n;
  const double vb = chain.belt.belt_speed;
  const Eigen::MatrixXd& h = run.history;
  REQUIRE(h.cols() == 1 + 2 * nq + 2 * n);
  auto power = [&](Eigen::Index r, double& belt, double& slip) {
    belt = slip = 0.0;
    for (int i = 0; i < n; ++i) {
      const double f = h(r, 2 + 2 * nq + 2 * i), v_rel = h(r, 1 + nq + 3 * i) - vb;
      // Coulomb: the friction force never pushes a block along its slip.
      CHECK(f * v_rel <= 1e-9);
      belt += f * vb;
      slip += f * v_rel;
    }
  };
  // Trapezoidal rule over the samples; events add rows on both sides of each jump.
  double belt_work = 0.0, dissipated = 0.0, belt0 = 0.0, slip0 = 0.0;
  power(0, belt0, slip0);
  for (Eigen::Index r = 1; r < h.rows(); ++r) {
    double belt1 = 0.0, slip1 = 0.0;
    power(r, belt1, slip1);
    const double dt = h(r, 0) - h(r - 1, 0);
    belt_work += 0.5 * dt * (belt0 + belt1);
    dissipated -= 0.5 * dt * (slip0 + slip1);
    belt0 = belt1, slip0 = slip1;
  }
  const auto last = h.rows() - 1;
  const double e0 = mechanisms::beltChainEnergy(chain, h.row(0).segment(1, nq), h.row(0).segment(1 + nq, nq));
  const double e1 =
      mechanisms::beltChainEnergy(chain, h.row(last).segment(1, nq), h.row(last).segment(1 + nq, nq));
  INFO("ΔE " << e1 - e0 << " J, belt work " << belt_work << " J, dissipated " << dissipated << " J");
  CHECK(dissipated > 0.1);  // blocks slide most of the run
  CHECK(std::abs((e1 - e0) - (belt_work - dissipated)) < 1e-3 * dissipated);
}

TEST_CASE("belt chain: validate() rejects bad input, naming the field", "[belt-chain]") {
  auto rejects = [](auto change, const auto& message) {
    mechanisms::BeltChain chain;
    change(chain);
    CHECK_THROWS_WITH(chain.validate(), message);
    CHECK_THROWS_AS(mechanisms::beltChainRigid(chain), std::invalid_argument);
  };
  rejects([](auto& c) { c.blocks = 0; }, std::string("BeltChain: expected blocks ≥ 1, got 0"));
  rejects([](auto& c) { c.spacing = -1.0; }, std::string("BeltChain: expected spacing > 0, got -1"));
  rejects([](auto& c) { c.mass_spread = NAN; }, Catch::Contains("mass_spread ≥ 0"));
  rejects([](auto& c) { c.offset_amplitude = 0.5; },
          std::string("BeltChain: expected offset_amplitude < spacing / 2 (blocks in order), got 0.5"));
  rejects([](auto& c) { c.belt.mass = 0.0; }, Catch::StartsWith("Belt: expected mass > 0"));
  mechanisms::BeltChain good;
  CHECK_NOTHROW(good.validate());
}

TEST_CASE("belt chain N = 32, pre-loaded: Moreau–Jean by NSGS on the sparse W (auto) repeats Lemke's run",
          "[belt-chain][moreau-jean][nsgs][slow]") {
  const dynamics::RigidScenario s = mechanisms::beltChainRigid(preloadedChain(32));
  dynamics::MoreauJeanOptions o;
  o.t_end = 2.0;
  o.h = 1e-4;
  const dynamics::RunResult by_auto = dynamics::simulateMoreauJean(s, o);
  o.solver = "lemke";
  const dynamics::RunResult by_lemke = dynamics::simulateMoreauJean(s, o);
  REQUIRE(by_auto.ok());
  REQUIRE(by_lemke.ok());
  CHECK(by_auto.contact_solver == "nsgs");
  REQUIRE(by_lemke.events.size() >= 32);
  test::checkSameRun(by_lemke, by_auto, 1e-9, 1e-9, 1e-8);
}

TEST_CASE("belt chain N = 32, pre-loaded: event-driven on the sparse path (auto: NSGS per event) repeats the dense Lemke run",
          "[belt-chain][event-driven][nsgs]") {
  const dynamics::RunResult sparse = eventDriven(32, "auto"), sparse_lemke = eventDriven(32, "lemke"),
                            dense = eventDriven(32, "lemke", false);
  INFO(sparse.message << " / " << sparse_lemke.message << " / " << dense.message);
  REQUIRE(sparse.ok());
  REQUIRE(sparse_lemke.ok());
  REQUIRE(dense.ok());
  CHECK(sparse.contact_solver == "nsgs");
  CHECK(dense.contact_solver == "lemke");
  REQUIRE(dense.events.size() >= 20);  // 25: most blocks switch in the 2 s
  test::checkSameRun(dense, sparse, 1e-9, 1e-9, 1e-8);
  test::checkSameRun(dense, sparse_lemke, 1e-9, 1e-9, 1e-8);
}

TEST_CASE("event-driven: nsgs needs the sparse path", "[belt-chain][event-driven][nsgs]") {
  // Two blocks are below kSparseFromContacts, but nsgs takes the sparse path: same run as Lemke's.
  const dynamics::RunResult by_nsgs = eventDriven(2, "nsgs"), by_lemke = eventDriven(2, "lemke");
  REQUIRE(by_nsgs.ok());
  REQUIRE(by_lemke.ok());
  CHECK(by_nsgs.contact_solver == "nsgs");
  test::checkSameRun(by_lemke, by_nsgs, 1e-9, 1e-9, 1e-8);
  CHECK_THROWS_WITH(eventDriven(2, "nsgs", false), Catch::Contains("sparse path"));
}
