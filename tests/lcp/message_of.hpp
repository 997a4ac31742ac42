#pragma once
// The message of the std::invalid_argument that f() throws, for checks on its wording.
#include <stdexcept>
#include <string>

namespace stickslip::test {

template <typename F>
std::string messageOf(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

}  // namespace stickslip::test
