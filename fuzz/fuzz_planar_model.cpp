/// libFuzzer target: planar models described in YAML (mechanisms/planar_model_file.hpp) from
/// arbitrary text, muParser expressions included.
///
/// Invariants (each violation aborts, so libFuzzer keeps the input):
///  - loading either returns a scenario or throws mechanisms::InputError; nothing else
///    escapes (no crash, no other exception, no hang);
///  - a loaded scenario is consistent: q0 and v0 have 3 entries per body, the joints and
///    drivers are closed at t = 0 (kinematic assembly succeeded), and the generalized forces,
///    the drivers and the belt speeds can be evaluated (their values may be anything: an
///    expression may well be 1/0).

#include <cmath>
#include <cstdint>
#include <exception>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/planar_model_file.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_planar_model";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  dynamics::RigidScenario s;
  try {
    s = mechanisms::loadPlanarModelText(text, "fuzz.yaml");
  } catch (const mechanisms::InputError& e) {
    const std::string what = e.what();
    if (what.rfind("fuzz.yaml:", 0) != 0) fuzz::fail(kTarget, "an error without the file name: " + what);
    return 0;
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string("loading threw something else than InputError: ") + e.what());
  } catch (...) {
    fuzz::fail(kTarget, "loading threw a non-standard exception");
  }

  const Eigen::Index n = s.model.positionSize();
  if (s.q0.size() != n || s.v0.size() != n) fuzz::fail(kTarget, "q0 or v0 of the wrong size");
  if (s.model.constraintCount() > 0) {
    Eigen::VectorXd phi(s.model.constraintCount());
    s.model.constraints(0.0, s.q0, phi);
    if (!(phi.lpNorm<Eigen::Infinity>() <= 1e-9))
      fuzz::fail(kTarget, "a loaded model is not assembled: |Phi(q0)| = " + std::to_string(phi.lpNorm<Eigen::Infinity>()));
  }
  Eigen::VectorXd f = Eigen::VectorXd::Zero(n);
  s.model.generalizedForces(0.5, s.q0, s.v0, f);
  for (const auto& j : s.model.joints())
    if (j.angle) (void)(j.angle(0.5) + j.angle_rate(0.5) + j.angle_acceleration(0.5));
  for (const auto& c : s.contacts)
    if (c.surface_speed) (void)(c.surface_speed(0.5) + c.surface_acceleration(0.5));
  return 0;
}
