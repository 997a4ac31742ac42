#pragma once
// The folder of the example model files (mechanisms/examples), defined once for the unity build.
#include <string>

namespace stickslip::test {

inline const std::string kExamples = STICKSLIP_MODEL_EXAMPLES;

}  // namespace stickslip::test
