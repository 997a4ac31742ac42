// The hot path allocates nothing: after construction, accelerations(), project() and an RK4
// step of every EOM method run without a single heap allocation (DESIGN.md §8). This test
// executable interposes malloc/calloc/realloc (glibc: the libc versions stay reachable as
// __libc_*), which catches Eigen's aligned_malloc as well as operator new.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include "dynamics/model/eom_solver.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/eom_methods/model_slider_crank.hpp"
#include "dynamics/routes/penalty/penalty_system.hpp"
#include "dynamics/integrators/rk4.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/spatial_slider_crank.hpp"

#include "allocation_counter.hpp"

using namespace stickslip::dynamics;
using Eigen::VectorXd;

TEST_CASE("the allocation counter sees Eigen and operator new", "[dynamics][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  g_allocations = 0;
  g_armed = true;
  VectorXd v(100);
  auto* p = new int(3);
  g_armed = false;
  delete p;
  CHECK(v.size() == 100);
  CHECK(g_allocations == 2);
}

namespace {

/// Heap allocations over 49 RK4 steps of `method` on `model` from (q0, v0), each followed by the
/// positions' normalization, the projection and an evaluation of the accelerations, after one
/// warm-up step (first-call set-up may allocate). `ok`: every step succeeded.
long stepAllocations(const MultibodySystem& model, EomMethod method, const VectorXd& q0, const VectorXd& v0,
                     bool& ok) {
  const Eigen::Index nq = q0.size(), nv = v0.size();
  EomSolver solver(model, method);
  Rk4 rk4(nq + nv);
  const Rk4::Derivative f = [&solver](double t, const Eigen::Ref<const VectorXd>& y, Eigen::Ref<VectorXd> ydot) {
    return solver.derivative(t, y, ydot) == EomStatus::kSuccess;
  };
  VectorXd y(nq + nv), vdot(nv);
  y << q0, v0;
  ok = rk4.step(f, 0.0, 1e-3, y) && solver.project(1e-3, y.head(nq), y.tail(nv)) == EomStatus::kSuccess;
  g_allocations = 0;
  g_armed = true;
  for (int k = 1; k < 50; ++k) {
    ok = ok && rk4.step(f, k * 1e-3, 1e-3, y);
    model.normalizePositions(y.head(nq));
    ok = ok && solver.project((k + 1) * 1e-3, y.head(nq), y.tail(nv)) == EomStatus::kSuccess;
    ok = ok && solver.accelerations(0.0, y.head(nq), y.tail(nv), vdot) == EomStatus::kSuccess;
  }
  g_armed = false;
  return g_allocations;
}

}  // namespace

TEST_CASE("EOM evaluation, projection and RK4 steps do not allocate", "[dynamics][eom][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  const SliderCrank sc = buildSliderCrank();
  REQUIRE(sc.assembly.ok());
  for (EomMethod method : allEomMethods()) {
    DYNAMIC_SECTION(toString(method)) {
      bool ok = false;
      const long allocations = stepAllocations(sc.model, method, sc.q0, sc.v0, ok);
      CHECK(ok);
      CHECK(allocations == 0);
    }
  }
}

TEST_CASE("the spatial slider-crank's EOM steps do not allocate either", "[dynamics][eom][alloc][spatial]") {
  ALLOCATION_TEST_PRELUDE();
  const SpatialSliderCrank sc;
  REQUIRE(sc.assembly.ok());
  for (EomMethod method : allEomMethods()) {
    DYNAMIC_SECTION(toString(method)) {
      bool ok = false;
      const long allocations = stepAllocations(sc.model, method, sc.q0, sc.v0, ok);
      CHECK(ok);
      CHECK(allocations == 0);
    }
  }
}

/// A journal (body 0) in a bearing on the ground: Table 4.2's simulation 1 geometry and its law,
/// centred and upright (q), as a mechanism.
struct JournalInGround {
  SpatialModel model;
  SpatialClearance pin;
  VectorXd q = VectorXd::Zero(7);
  std::unique_ptr<const SpatialMechanism> mechanism;
  JournalInGround() {
    pin.journal_body = model.addBody("journal", 1.0, Eigen::Matrix3d::Identity() * 1e-4);
    pin.joint.journal_radius = 0.0095;
    pin.joint.bearing_radius = 0.01;
    pin.joint.journal_length = 0.019;
    pin.joint.bearing_length = 0.02;
    pin.law = LankaraniNikraveshLaw{{6.71e10, 1.5, 0.9}};
    q(3) = 1.0;
    mechanism = std::make_unique<const SpatialMechanism>(model, q, std::vector<SpatialJointFriction>{},
                                                         std::vector<SpatialClearance>{pin});
  }
};

TEST_CASE("a spatial clearance joint's contact kinematics do not allocate", "[dynamics][alloc][spatial]") {
  ALLOCATION_TEST_PRELUDE();
  const JournalInGround ground;
  const SpatialMechanism& mechanism = *ground.mechanism;
  VectorXd q = ground.q, v(6);
  ContactKinematics kin;
  mechanism.resizeContacts(kin);
  v << 0.1, -0.2, 0.05, 1.0, 2.0, -0.5;
  g_allocations = 0;
  g_armed = true;
  for (int k = 0; k < 50; ++k) {
    q.head<3>() << 4e-4 * std::cos(0.3 * k), 4e-4 * std::sin(0.3 * k), 2e-4 * std::sin(0.7 * k);
    q.tail<4>() << 1.0, 0.02 * std::sin(0.5 * k), 0.02 * std::cos(0.5 * k), 0.0;
    q.tail<4>().normalize();
    mechanism.evaluateContacts(0.0, q, v, kin, false);
  }
  g_armed = false;
  CHECK(g_allocations == 0);
  CHECK((kin.gap.array() < 0.0).any());  // the poses touch: the contacts' branches ran
}

TEST_CASE("the penalty route's derivative with bristle vectors on a spatial clearance joint does not allocate",
          "[dynamics][alloc][spatial][penalty]") {
  ALLOCATION_TEST_PRELUDE();
  const JournalInGround ground;
  const SpatialMechanism& mechanism = *ground.mechanism;
  const VectorXd& q = ground.q;
  VectorXd v(6);
  for (const char* name : {"lugre", "dahl", "bliman-sorine-2"}) {
    DYNAMIC_SECTION(name) {
      PenaltySystem sys(mechanism, std::vector<std::shared_ptr<const FrictionLaw>>(4, makeFrictionLaw(name)));
      REQUIRE(sys.planeFriction(0) != nullptr);
      v << 0.1, -0.2, 0.05, 1.0, 2.0, -0.5;
      VectorXd y = sys.initialState(0.0, q, v), ydot(y.size());
      y.segment(13, sys.frictionStateSize()).setConstant(1e-6);
      bool ok = sys.derivative(0.0, y, ydot) == EomStatus::kSuccess;  // warm-up
      int touching = 0;
      double largest_rate = 0.0;
      g_allocations = 0;
      g_armed = true;
      for (int k = 0; k < 50; ++k) {
        // The journal pressed into the bore and tilted, at a pose that turns from call to call.
        y.head<3>() << 5.1e-4 * std::cos(0.3 * k), 5.1e-4 * std::sin(0.3 * k), 2e-4 * std::sin(0.7 * k);
        y.segment<4>(3) << 1.0, 0.02 * std::sin(0.5 * k), 0.02 * std::cos(0.5 * k), 0.0;
        y.segment<4>(3).normalize();
        ok = ok && sys.derivative(0.0, y, ydot) == EomStatus::kSuccess;
        touching += (sys.kinematics().gap.array() < 0.0).count() > 0 ? 1 : 0;
        largest_rate = std::max(largest_rate, ydot.segment(13, sys.frictionStateSize()).norm());
      }
      g_armed = false;
      CHECK(ok);
      CHECK(g_allocations == 0);
      CHECK(touching > 10);  // the friction of loaded contacts ran
      CHECK(largest_rate > 0.0);  // and the bristles of loaded ones
      // RK4 steps of 1 ms (β h ≫ 1: the bristles relaxed) and the impulses their damping owes.
      Rk4 rk4(y.size());
      const Rk4::RelaxingDerivative f = [&](double t, const Eigen::Ref<const VectorXd>& s, const Rk4::RelaxedStage& stage,
                                            Eigen::Ref<VectorXd> d, Eigen::Ref<VectorXd> drive, Eigen::Ref<VectorXd> decay) {
        return sys.derivative(t, s, stage, d, drive, decay) == EomStatus::kSuccess;
      };
      VectorXd start = y;  // pressed 1 µm into the bore: ≈ 70 N on each rim
      start.head<7>() << 5.01e-4, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0;
      y = start;
      ok = rk4.step(f, 0.0, 1e-3, y);  // warm-up: the relaxing workspace
      g_allocations = 0;
      g_armed = true;
      for (int k = 0; k < 20; ++k) {
        y = start;
        ok = ok && rk4.step(f, 0.0, 1e-3, y);
        sys.correctRelaxedDamping(1e-3, y, rk4.relaxedMismatch());
      }
      g_armed = false;
      CHECK(ok);
      CHECK(g_allocations == 0);
      CHECK(rk4.relaxedSteps() == 21);  // every step relaxed some bristle
    }
  }
}
