// The same input gives bit-identical output: run after run, and with runs on several threads
// at once (a sweep runs scenarios in parallel; one friction law object may serve them all).
#include <catch2/catch.hpp>
#include <functional>
#include <thread>
#include <vector>

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/flores_translational.hpp"
#include "mechanisms/zheng.hpp"

using namespace stickslip;

namespace {

Eigen::MatrixXd floresMoreauJean() {
  const dynamics::RigidScenario s = mechanisms::floresTranslational();
  dynamics::MoreauJeanOptions o;
  o.t_end = 0.05;
  o.h = 1e-5;
  return dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o).history;
}

Eigen::MatrixXd zhengEventDriven() {
  mechanisms::ZhengSliderCrank z = mechanisms::zhengExample("torque");
  z.mu_kinetic = 0.10;
  z.mu_static = 0.11;
  const dynamics::RigidScenario s = mechanisms::zhengRigid(z);
  dynamics::EventDrivenOptions o;
  o.t_end = 0.5;
  o.integrator = dynamics::OdeMethod::kBdf;
  o.relative_tolerance = 1e-8;
  o.velocity_tolerance = 1e-5;
  return dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o).history;
}

Eigen::MatrixXd beltLuGre(const dynamics::FrictionLaw& law) {
  mechanisms::PenaltyOptions o;
  o.t_end = 2.0;
  return mechanisms::simulateBeltPenalty(mechanisms::Belt{}, law, o).history;
}

bool identical(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() && a.rows() > 0 &&
         (a.array() == b.array()).all();
}

}  // namespace

TEST_CASE("determinism: runs repeat bit for bit, also when run on four threads at once",
          "[determinism]") {
  const auto lugre = dynamics::makeFrictionLaw("lugre");
  const std::vector<std::function<Eigen::MatrixXd()>> runs{floresMoreauJean, zhengEventDriven,
                                                           [&] { return beltLuGre(*lugre); }};
  for (std::size_t k = 0; k < runs.size(); ++k) {
    INFO("run " << k);
    const Eigen::MatrixXd first = runs[k]();
    CHECK(identical(first, runs[k]()));
    std::vector<Eigen::MatrixXd> parallel(4);
    std::vector<std::thread> threads;
    for (auto& out : parallel) threads.emplace_back([&out, &runs, k] { out = runs[k](); });
    for (auto& t : threads) t.join();
    for (const auto& out : parallel) CHECK(identical(first, out));
  }
}
