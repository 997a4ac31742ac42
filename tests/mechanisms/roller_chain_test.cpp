// A long mechanism written as a user writes it: mechanisms/scenarios/roller_chain.yaml, 16 links
// hanging from a pin with Coulomb friction in every pin (32 joint rows: the joints are handled
// sparse). Event-driven and Moreau–Jean find the same stick/slip changes; and released from
// rest, event-driven's joints take the one set of modes that is consistent.
#include <catch2/catch.hpp>

#include <string>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/model_examples.hpp"

using namespace stickslip;

namespace {

using stickslip::test::kExamples;

// A hanging chain of `links` links of 0.1 m and 0.1 kg, pins of radius 1 cm with μ = 0.2,
// straight and at rest 1 rad from the vertical, as a model file.
std::string hangingChain(int links) {
  std::string text =
      "model:\n  parameters: {m: 0.1, a: 0.05, r: 0.01, mu: 0.2, th0: 1}\n  gravity: [0, -9.81]\n  bodies:\n";
  for (int k = 0; k < links; ++k)
    text += "    - {name: link" + std::to_string(k) + ", mass: m, inertia: m*a*a/3, position: [" + std::to_string(2 * k + 1) +
            "*a*sin(th0), -" + std::to_string(2 * k + 1) + "*a*cos(th0), th0 - pi/2]}\n";
  text += "  joints:\n";
  for (int k = 0; k < links; ++k)
    text += "    - {type: revolute, name: pin" + std::to_string(k) + ", body_i: " +
            (k == 0 ? std::string("ground") : "link" + std::to_string(k - 1) + ", point_i: [a, 0]") + ", body_j: link" +
            std::to_string(k) + ", point_j: [-a, 0], friction: {radius: r, mu_static: mu, mu_kinetic: mu}}\n";
  return text;
}

}  // namespace

TEST_CASE("hanging chain released from rest: event-driven takes the one consistent set of pin modes",
          "[roller-chain][event-driven][joint-friction]") {
  // Every one of the 3⁸ stick/slip± assignments of the 8 pins, each with its friction torques
  // μ r |R| found by a fixed point on the reactions and checked (stuck: |τ| ≤ μ r |R|; slipping:
  // the relative acceleration along the slip): one is consistent — pins 0–2 slip (0 backwards),
  // pins 3–7 stick. Releasing the pin of largest excess one at a time left pin 3 slipping.
  dynamics::EventDrivenOptions o;
  o.t_end = 1e-3;
  const dynamics::RunResult run =
      dynamics::simulateEventDriven(mechanisms::loadPlanarModelText(hangingChain(8), "chain.yaml"), o);
  REQUIRE(run.ok());
  using M = dynamics::ContactMode;
  const std::vector<M> expected{M::kSlipNegative, M::kSlipPositive, M::kSlipPositive, M::kStick,
                                M::kStick,        M::kStick,        M::kStick,        M::kStick};
  CHECK(run.initial_modes == expected);
  CHECK(run.events.empty());  // pins 0–2 keep slipping, 3–7 stay stuck for the first millisecond
}

TEST_CASE("roller chain: event-driven and Moreau–Jean find the same stick/slip changes in its 16 pins",
          "[roller-chain][event-driven][moreau-jean][joint-friction]") {
  const dynamics::RigidScenario chain = mechanisms::loadPlanarModelFile(kExamples + "/roller_chain.yaml");
  REQUIRE(chain.model.constraintCount() == 32);
  dynamics::EventDrivenOptions e;
  e.t_end = 0.5;
  const dynamics::RunResult by_events = dynamics::simulateEventDriven(chain, e);
  dynamics::MoreauJeanOptions m;
  m.t_end = 0.5;
  m.h = 1e-5;
  const dynamics::RunResult by_steps = dynamics::simulateMoreauJean(chain, m);
  REQUIRE(by_events.ok());
  REQUIRE(by_steps.ok());
  REQUIRE(by_events.events.size() >= 150);
  // Moreau–Jean starts every pin stuck (at rest) and reports the slips of its first step.
  std::size_t first = 0;
  while (first < by_steps.events.size() && by_steps.events[first].t <= m.h) {
    const dynamics::ContactEvent& x = by_steps.events[first++];
    CHECK(by_events.initial_modes[std::size_t(x.contact)] ==
          (x.kind == dynamics::EventKind::kSlipPositive ? dynamics::ContactMode::kSlipPositive
                                                        : dynamics::ContactMode::kSlipNegative));
  }
  // The same changes in the same order, each within two steps; simultaneous changes may be
  // listed in another order, so each is looked up among the neighbours.
  REQUIRE(by_steps.events.size() - first == by_events.events.size());
  for (std::size_t k = 0; k < by_events.events.size(); ++k) {
    const dynamics::ContactEvent& x = by_events.events[k];
    CAPTURE(k, x.t, x.contact);
    bool found = false;
    for (std::size_t j = first + (k > 2 ? k - 2 : 0); j < std::min(by_steps.events.size(), first + k + 3) && !found; ++j) {
      const dynamics::ContactEvent& y = by_steps.events[j];
      found = y.contact == x.contact && y.kind == x.kind && std::abs(y.t - x.t) <= 2.0 * m.h;
    }
    CHECK(found);
  }
}
