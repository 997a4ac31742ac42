#pragma once
// A result that a solve giving no answer must leave as it was, and the check that it did. Its
// answer (z of a Result, r of a FrictionResult) holds 7s, its message "before".
#include <Eigen/Dense>
#include <catch2/catch.hpp>

#include "lcp/result.hpp"

namespace stickslip::test {

template <class R>
R untouchedResult(Eigen::VectorXd R::*answer) {
  R r;
  r.*answer = Eigen::VectorXd::Constant(3, 7.0);
  r.message = "before";
  return r;
}

template <class R>
void requireUntouched(const R& r, Eigen::VectorXd R::*answer) {
  CHECK(r.status == lcp::Status::kNotRun);
  CHECK(r.*answer == Eigen::VectorXd::Constant(3, 7.0));
  CHECK(r.message == "before");
}

}  // namespace stickslip::test
