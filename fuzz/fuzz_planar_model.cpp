/// libFuzzer target: models described in YAML from arbitrary text, muParser expressions
/// included: every input goes to the planar loader (mechanisms/planar_model_file.hpp) and to the
/// spatial one (mechanisms/spatial_model_file.hpp, `dimension: 3`); each refuses the other's.
///
/// Invariants (each violation aborts, so libFuzzer keeps the input):
///  - loading either returns a scenario or throws mechanisms::InputError naming the file;
///    nothing else escapes (no crash, no other exception, no hang);
///  - a loaded planar scenario is consistent: q0 and v0 have 3 entries per body, the joints
///    and drivers are closed at t = 0 (kinematic assembly succeeded), and the generalized
///    forces, the drivers and the belt speeds can be evaluated (their values may be anything:
///    an expression may well be 1/0);
///  - a loaded spatial scenario likewise: q0 has 7 entries per body with unit Euler
///    parameters, v0 6, the assembly succeeded and closed every joint and driver, and its
///    forces and drivers can be evaluated.

#include <cmath>
#include <cstdint>
#include <exception>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/spatial_model_file.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_planar_model";

/// `load(text)`, or false when it threw the InputError an input may cause.
template <class Scenario, class Load>
bool loads(const std::string& text, Scenario& s, Load load) {
  try {
    s = load(text);
    return true;
  } catch (const mechanisms::InputError& e) {
    const std::string what = e.what();
    if (what.rfind("fuzz.yaml:", 0) != 0) fuzz::fail(kTarget, "an error without the file name: " + what);
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string("loading threw something else than InputError: ") + e.what());
  } catch (...) {
    fuzz::fail(kTarget, "loading threw a non-standard exception");
  }
  return false;
}

/// Φ(q0) closed to 1e-9.
void requireClosed(const dynamics::MultibodySystem& m, const Eigen::VectorXd& q0) {
  if (m.constraintCount() == 0) return;
  Eigen::VectorXd phi(m.constraintCount());
  m.constraints(0.0, q0, phi);
  if (!(phi.lpNorm<Eigen::Infinity>() <= 1e-9))
    fuzz::fail(kTarget, "a loaded model is not assembled: |Phi(q0)| = " + std::to_string(phi.lpNorm<Eigen::Infinity>()));
}

void checkPlanar(const dynamics::RigidScenario& s) {
  const Eigen::Index n = s.model.positionSize();
  if (s.q0.size() != n || s.v0.size() != n) fuzz::fail(kTarget, "q0 or v0 of the wrong size");
  requireClosed(s.model, s.q0);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(n);
  s.model.generalizedForces(0.5, s.q0, s.v0, f);
  for (const auto& j : s.model.joints())
    if (j.angle) (void)(j.angle(0.5) + j.angle_rate(0.5) + j.angle_acceleration(0.5));
  for (const auto& c : s.contacts)
    if (c.surface_speed) (void)(c.surface_speed(0.5) + c.surface_acceleration(0.5));
}

void checkSpatial(const mechanisms::SpatialScenario& s) {
  const dynamics::SpatialModel& m = s.model;
  if (s.q0.size() != 7 * m.bodyCount() || s.v0.size() != 6 * m.bodyCount())
    fuzz::fail(kTarget, "spatial q0 or v0 of the wrong size");
  if (!s.assembly.ok()) fuzz::fail(kTarget, "a spatial model loaded with a failed assembly");
  for (int b = 0; b < m.bodyCount(); ++b)
    if (!(std::abs(s.q0.segment<4>(dynamics::SpatialModel::positionIndex(b, 3)).norm() - 1.0) <= 1e-12))
      fuzz::fail(kTarget, "Euler parameters not unit");
  requireClosed(m, s.q0);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(m.velocitySize());
  m.generalizedForces(0.5, s.q0, s.v0, f);
  for (const auto& j : m.joints())
    if (j.angle) (void)(j.angle(0.5) + j.angle_rate(0.5) + j.angle_acceleration(0.5));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  dynamics::RigidScenario planar;
  if (loads(text, planar, [](const std::string& t) { return mechanisms::loadPlanarModelText(t, "fuzz.yaml"); }))
    checkPlanar(planar);
  mechanisms::SpatialScenario spatial;
  if (loads(text, spatial, [](const std::string& t) { return mechanisms::loadSpatialModelText(t, "fuzz.yaml"); }))
    checkSpatial(spatial);
  return 0;
}
