// The hot path allocates nothing: after construction, accelerations(), project() and an RK4
// step of every EOM method run without a single heap allocation (DESIGN.md §8). This test
// executable interposes malloc/calloc/realloc (glibc: the libc versions stay reachable as
// __libc_*), which catches Eigen's aligned_malloc as well as operator new.
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include "dynamics/eom_solver.hpp"
#include "dynamics/model_slider_crank.hpp"
#include "dynamics/rk4.hpp"
#include "dynamics/spatial_slider_crank.hpp"

#include "dynamics/allocation_counter.hpp"

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

TEST_CASE("EOM evaluation, projection and RK4 steps do not allocate", "[dynamics][eom][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  const SliderCrank sc = buildSliderCrank();
  REQUIRE(sc.assembly.ok());
  for (EomMethod method : allEomMethods()) {
    DYNAMIC_SECTION(toString(method)) {
      EomSolver solver(sc.model, method);
      Rk4 rk4(18);
      const Rk4::Derivative f = [&solver](double t, const Eigen::Ref<const VectorXd>& y,
                                          Eigen::Ref<VectorXd> ydot) {
        return solver.derivative(t, y, ydot) == EomStatus::kSuccess;
      };
      VectorXd y(18), vdot(9);
      y << sc.q0, sc.v0;
      REQUIRE(rk4.step(f, 0.0, 1e-3, y));  // warm-up: first-call set-up may allocate
      REQUIRE(solver.project(1e-3, y.head(9), y.tail(9)) == EomStatus::kSuccess);
      g_allocations = 0;
      g_armed = true;
      bool ok = true;
      for (int k = 1; k < 50; ++k) {
        ok = ok && rk4.step(f, k * 1e-3, 1e-3, y);
        ok = ok && solver.project((k + 1) * 1e-3, y.head(9), y.tail(9)) == EomStatus::kSuccess;
        ok = ok && solver.accelerations(0.0, y.head(9), y.tail(9), vdot) == EomStatus::kSuccess;
      }
      g_armed = false;
      CHECK(ok);
      CHECK(g_allocations == 0);
    }
  }
}

TEST_CASE("the spatial slider-crank's EOM steps do not allocate either", "[dynamics][eom][alloc][spatial]") {
  ALLOCATION_TEST_PRELUDE();
  const SpatialSliderCrank sc;
  REQUIRE(sc.assembly.ok());
  for (EomMethod method : allEomMethods()) {
    DYNAMIC_SECTION(toString(method)) {
      EomSolver solver(sc.model, method);
      Rk4 rk4(21 + 18);
      const Rk4::Derivative f = [&solver](double t, const Eigen::Ref<const VectorXd>& y,
                                          Eigen::Ref<VectorXd> ydot) {
        return solver.derivative(t, y, ydot) == EomStatus::kSuccess;
      };
      VectorXd y(39), vdot(18);
      y << sc.q0, sc.v0;
      REQUIRE(rk4.step(f, 0.0, 1e-3, y));  // warm-up
      REQUIRE(solver.project(1e-3, y.head(21), y.tail(18)) == EomStatus::kSuccess);
      g_allocations = 0;
      g_armed = true;
      bool ok = true;
      for (int k = 1; k < 50; ++k) {
        ok = ok && rk4.step(f, k * 1e-3, 1e-3, y);
        sc.model.normalizePositions(y.head(21));
        ok = ok && solver.project((k + 1) * 1e-3, y.head(21), y.tail(18)) == EomStatus::kSuccess;
        ok = ok && solver.accelerations(0.0, y.head(21), y.tail(18), vdot) == EomStatus::kSuccess;
      }
      g_armed = false;
      CHECK(ok);
      CHECK(g_allocations == 0);
    }
  }
}
