// The system interface the nonsmooth routes run through (mechanism.hpp): a mechanism whose mass
// matrix the engines may only apply by its blocks (no diagonal to scale by, as a spatial body's)
// runs exactly as the planar one, and every position update goes through the mechanism's map.
#include <catch2/catch.hpp>

#include <cmath>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"

using namespace stickslip::dynamics;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace {

/// A planar mechanism seen through the interface only, its mass by blocks and its position map
/// counted: what a spatial mechanism gives the engines.
class BlockMassView final : public ForwardedSystem<Mechanism> {
 public:
  explicit BlockMassView(const PlanarMechanism& m) : ForwardedSystem<Mechanism>(m), m_(m) {}
  mutable long position_updates = 0;

  const std::vector<RigidContact>& contacts() const override { return m_.contacts(); }
  const std::vector<JointFriction>& jointFriction() const override { return m_.jointFriction(); }
  void resizeContacts(ContactKinematics& out) const override { m_.resizeContacts(out); }
  void evaluateContacts(double t, const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>& v,
                        ContactKinematics& out, bool drift) const override {
    m_.evaluateContacts(t, q, v, out, drift);
  }
  double jointFrictionRate(std::size_t e, const Eigen::Ref<const VectorXd>& v) const override {
    return m_.jointFrictionRate(e, v);
  }
  double jointFrictionReaction(std::size_t e, const Eigen::Ref<const VectorXd>& lambda,
                               const Eigen::Ref<const VectorXd>& contact_forces) const override {
    return m_.jointFrictionReaction(e, lambda, contact_forces);
  }
  void addJointFrictionRow(std::size_t e, double s, Eigen::Ref<VectorXd> row) const override {
    m_.addJointFrictionRow(e, s, row);
  }
  std::vector<JointLoadTerm> jointFrictionLoad(std::size_t e) const override { return m_.jointFrictionLoad(e); }
  const VectorXd* inverseMassDiagonal() const override { return nullptr; }
  void addToPositions(const Eigen::Ref<const VectorXd>& delta, Eigen::Ref<VectorXd> q) const override {
    ++position_updates;
    m_.addToPositions(delta, q);
  }

 private:
  const PlanarMechanism& m_;
};

/// A 1 m bar pivoted at its top on a frictional pin, released at 0.6 rad from the vertical, its
/// tip sweeping over a frictional floor it strikes: a joint, its friction, a unilateral
/// frictional contact with impacts.
RigidScenario pendulumOverFloor() {
  RigidScenario s;
  const BodyIndex bar = s.model.addBody("bar", 2.0, 2.0 / 12.0);
  s.model.setGravity(Vector2d(0.0, -9.81));
  const int pin = s.model.addRevolute(kGround, Vector2d::Zero(), bar, Vector2d(0.0, 0.5), "pin");
  s.joint_friction.push_back({"pin friction", pin, 0.02, 0.15, 0.1});
  RigidContact floor;
  floor.name = "floor";
  floor.body_i = bar;
  floor.geometry.point_on_i = Vector2d(0.0, -0.5);
  floor.geometry.line_point_on_j = Vector2d(0.0, -0.98);
  floor.mu_static = floor.mu_kinetic = 0.2;
  floor.restitution = 0.3;
  s.contacts.push_back(floor);
  const double a = 0.6;
  s.q0 = Eigen::Vector3d(0.5 * std::sin(a), -0.5 * std::cos(a), a);
  s.v0 = VectorXd::Zero(3);
  return s;
}

}  // namespace

TEST_CASE("mechanism: the engines run a mechanism whose mass they apply by blocks as the planar one",
          "[mechanism]") {
  const RigidScenario s = pendulumOverFloor();
  const PlanarMechanism planar(s);
  const BlockMassView blocks(planar);
  REQUIRE(planar.inverseMassDiagonal() != nullptr);
  REQUIRE(blocks.inverseMassDiagonal() == nullptr);

  MoreauJeanOptions mo;
  mo.t_end = 1.0;
  mo.h = 1e-4;
  mo.project_contacts = false;  // its Newton updates would add to the count below
  const RunResult a = simulateMoreauJean(planar, s.q0, s.v0, mo);
  const RunResult b = simulateMoreauJean(blocks, s.q0, s.v0, mo);
  INFO(a.message);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(a.events.size() > 2);  // it strikes the floor, and the pin sticks or slips
  CHECK(a.events.size() == b.events.size());
  CHECK((a.final_q - b.final_q).lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK((a.final_v - b.final_v).lpNorm<Eigen::Infinity>() < 1e-10);
  // Two position updates a step (q_θ and q_{k+1}), through the mechanism's map.
  CHECK(blocks.position_updates == 2 * b.steps);

  EventDrivenOptions eo;
  eo.t_end = 0.8;  // at 0.87 s the tip dragging on the floor jams the pin (Painlevé-type), on both paths
  const RunResult c = simulateEventDriven(planar, s.q0, s.v0, eo);
  const RunResult d = simulateEventDriven(blocks, s.q0, s.v0, eo);
  INFO(c.message);
  REQUIRE(c.ok());
  REQUIRE(d.ok());
  REQUIRE(c.events.size() == d.events.size());
  for (std::size_t i = 0; i < c.events.size(); ++i) CHECK(c.events[i].t == Approx(d.events[i].t).margin(1e-10));
  CHECK((c.final_q - d.final_q).lpNorm<Eigen::Infinity>() < 1e-9);
}
