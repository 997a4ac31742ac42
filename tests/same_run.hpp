#pragma once
// Two runs of one scenario that must agree (one solver against another): the same contact
// events in order (contact, kind, time within event_tol) and final states within q_tol, v_tol.
#include <catch2/catch.hpp>

#include "dynamics/routes/run_result.hpp"

namespace stickslip::test {

inline void checkSameRun(const dynamics::RunResult& a, const dynamics::RunResult& b, double event_tol, double q_tol,
                         double v_tol) {
  REQUIRE(b.events.size() == a.events.size());
  for (std::size_t k = 0; k < a.events.size(); ++k) {
    CAPTURE(k, a.events[k].t, b.events[k].t);
    CHECK(b.events[k].contact == a.events[k].contact);
    CHECK(b.events[k].kind == a.events[k].kind);
    CHECK(b.events[k].t == Approx(a.events[k].t).margin(event_tol));
  }
  CHECK((b.final_q - a.final_q).cwiseAbs().maxCoeff() <= q_tol);
  CHECK((b.final_v - a.final_v).cwiseAbs().maxCoeff() <= v_tol);
}

}  // namespace stickslip::test
