#pragma once
// A journal free in its bearing, the fixture of the rigid spatial clearance joint's tests
// (Moreau–Jean and event-driven).
#include <Eigen/Dense>

#include "dynamics/mechanism/spatial_mechanism.hpp"

namespace stickslip::dynamics::test {

/// A journal (body 0) in a bearing on the ground, or on a free housing (body 1), both axes
/// along z and centred: the thesis' joint of simulation 1 (R 9.5/10 mm, L 19/20 mm).
struct FreeJournal {
  SpatialModel model;
  Eigen::VectorXd q0, v0;
  SpatialClearance clearance;
};

inline FreeJournal freeJournal(double restitution, double mu, bool housing) {
  FreeJournal f;
  // Spherical inertias: no gyroscopic torque, so that the free flight keeps T to round-off.
  f.model.addBody("journal", 1.0, 1e-4 * Eigen::Matrix3d::Identity());
  if (housing) f.model.addBody("housing", 2.0, 3e-4 * Eigen::Matrix3d::Identity());
  f.q0 = Eigen::VectorXd::Zero(f.model.positionSize());
  for (BodyIndex b = 0; b < f.model.bodyCount(); ++b) f.q0(SpatialModel::positionIndex(b, 3)) = 1.0;
  f.v0 = Eigen::VectorXd::Zero(f.model.velocitySize());
  SpatialClearance& c = f.clearance;
  c.name = "pin";
  c.journal_body = 0;
  c.bearing_body = housing ? 1 : kGround;
  c.joint.journal_radius = 0.0095;
  c.joint.bearing_radius = 0.01;
  c.joint.journal_length = 0.019;
  c.joint.bearing_length = 0.02;
  c.law = LankaraniNikraveshLaw{{6.71e10, 1.5, 0.9}};
  c.mu_static = c.mu_kinetic = mu;
  c.rigid_restitution = restitution;
  c.rigid = true;
  return f;
}

/// The journal and its free housing spinning, the journal tilting about x: impacts on the rims
/// and the end walls, often two or three contacts at once.
inline FreeJournal spinningJournal() {
  FreeJournal f = freeJournal(0.9, 0.0, true);
  f.v0 << 0.0, 0.0, 0.01, 30.0, 0.0, 5.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.0;
  return f;
}

inline double kineticEnergy(const SpatialModel& model, const Eigen::VectorXd& v) {
  Eigen::MatrixXd mv = v;
  model.applyMass(mv);
  return 0.5 * v.dot(mv.col(0));
}

}  // namespace stickslip::dynamics::test
