#pragma once
// g [m/s²] for the tests. One definition: a unity build compiles several test files as one
// unit, where each file's own copy would be a redefinition.

namespace stickslip::test {

inline constexpr double kG = 9.81;

}  // namespace stickslip::test
