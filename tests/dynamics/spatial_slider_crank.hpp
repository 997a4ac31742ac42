#pragma once
// The thesis' spatial slider-crank (Tables 2.1–2.2), built directly on SpatialModel for the
// dynamics tests (independent of the model file that describes the built-in).
#include <Eigen/Dense>

#include "dynamics/model/model_assembly.hpp"
#include "dynamics/model/spatial_model.hpp"

namespace stickslip::dynamics {

inline void setSpatialBody(Eigen::VectorXd& q, BodyIndex b, const Eigen::Vector3d& r,
                           const Eigen::Vector4d& p) {
  q.segment<3>(7 * b) = r;
  q.segment<4>(7 * b + 3) = p;
}

/// The thesis' spatial slider-crank (Tables 2.1–2.2): crank about y at
/// the origin, rod by a spherical joint at the crank tip and a universal joint at the slider,
/// slider along z on the line x = 0, y = 0.147. The crank speed is held in assembly.
struct SpatialSliderCrank {
  SpatialModel model;
  Eigen::VectorXd q0, v0;
  AssemblyResult assembly;
  SpatialSliderCrank() {
    model.setGravity({0, 0, -9.81});
    const BodyIndex crank = model.addBody(
        "crank", 0.12, Eigen::Matrix3d(Eigen::Vector3d(1e-4, 1e-4, 1e-5).asDiagonal()));
    const BodyIndex rod =
        model.addBody("rod", 0.5, Eigen::Matrix3d(Eigen::Vector3d(4e-3, 4e-4, 4e-3).asDiagonal()));
    const BodyIndex slider = model.addBody(
        "slider", 0.5, Eigen::Matrix3d(Eigen::Vector3d(1e-4, 1e-4, 1e-4).asDiagonal()));
    q0 = Eigen::VectorXd::Zero(21);
    const Eigen::Vector4d rod_p = Eigen::Vector4d(0.8680, -0.4966, 0, 0).normalized();
    setSpatialBody(q0, crank, {0, 0, 0.05}, {1, 0, 0, 0});
    setSpatialBody(q0, rod, {0, 0.0735, -0.025}, rod_p);
    setSpatialBody(q0, slider, {0, 0.147, -0.15}, {1, 0, 0, 0});
    model.addRevolute(kGround, Eigen::Vector3d::Zero(), Eigen::Vector3d::UnitY(), crank,
                      {0, 0, -0.05}, Eigen::Vector3d::UnitY());
    model.addSpherical(crank, {0, 0, 0.05}, rod, {0, -0.145, 0});
    // Cross axes: x on the slider, and on the rod the direction of Table 2.2's rod ω.
    const Eigen::Vector3d rod_axis =
        rotationMatrix(rod_p).transpose() * Eigen::Vector3d(0, -1.5661, -1.6112).normalized();
    model.addUniversal(rod, {0, 0.145, 0}, rod_axis, slider, Eigen::Vector3d::Zero(),
                       Eigen::Vector3d::UnitX());
    model.addTranslational(kGround, {0, 0.147, 0}, Eigen::Vector3d::UnitZ(), slider,
                           Eigen::Vector3d::Zero(), q0);
    v0 = Eigen::VectorXd::Zero(18);
    v0.segment<3>(3) << 0, -6.2832, 0;  // crank ω′ = ω (A = I)
    assembly = assemble(model, 0.0, {SpatialModel::velocityIndex(crank, 4)}, q0, v0);
  }
};

}  // namespace stickslip::dynamics
