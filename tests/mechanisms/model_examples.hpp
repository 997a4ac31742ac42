#pragma once
// The folder of the scenario and model files (mechanisms/scenarios), defined once for the unity
// build.
#include <string>

namespace stickslip::test {

inline const std::string kExamples = STICKSLIP_MODEL_EXAMPLES;

}  // namespace stickslip::test
