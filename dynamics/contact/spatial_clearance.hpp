#pragma once
/// \file Spatial revolute clearance joint: a cylindrical journal (radius R_J, length L_J) fixed in
/// body i inside a cylindrical bearing (bore radius R_B > R_J, length L_B > L_J, closed by an end
/// wall at each end) fixed in body j [thesis §4.2, eqs. 4.9–4.34; the thesis calls the bearing i
/// and the journal j, here the journal comes first as in journal_bearing.hpp]. The contact
/// geometry every route reads: where the two touch, how deep, and the rows of the relative
/// velocity there.
///
/// With P the centre and a the unit axis of each part (world), its two ends are
///   end A at P + ½ L a,  end B at P − ½ L a   (thesis eqs. 4.11–4.12),
/// and the clearances are c_r = R_B − R_J > 0 (radial) and c_a = L_B − L_J > 0 (axial).
/// The journal's surface is farthest from the bore's axis, and farthest beyond an end wall, on one
/// of its two end rims (distance to an axis and height above a plane are convex along a straight
/// generator). So four candidate contacts carry every contact the joint can make:
///   radial A, radial B: the point x of the journal's rim at end A (B) farthest from the bearing's
///     axis, ρ(x) = ‖Π_B (x − P_B)‖ with Π_B = I − a_B a_Bᵀ; penetration δ = ρ − R_B, normal
///     n = Π_B (x − P_B)/ρ (radial, outwards), bearing point C_B = x − δ n on the bore
///     (eqs. 4.24–4.29, where the thesis takes the middle of the rim's two intersections with
///     the bore; the farthest point is the same point to first order in the tilt, and it is
///     defined without contact too, so δ < 0 is the gap);
///   axial A, axial B: the point x of the journal's rim at end A (B) farthest beyond the bearing's
///     end wall A (B), whose outward normal is n = ±a_B; δ = nᵀ(x − P_B) − ½ L_B, C_B = x − δ n on
///     the wall (eqs. 4.19–4.23).
/// The rim's farthest point beyond a wall is c + R_J m/‖m‖, m = Π_J n the wall's normal seen in
/// the rim's plane (Π_J = I − a_J a_Jᵀ); ‖m‖ = sin θ, θ the tilt between the axes. For an aligned
/// joint (θ = 0) every point of the rim is equally deep and the thesis takes the rim's centre
/// (eqs. 4.17–4.18). Here the point moves from the centre at θ = 0 to the rim at θ = θ_a
/// (alignment_tolerance), c + R_J m / max(‖m‖, sin θ_a), so that the contact point, its depth and
/// its force are continuous in the pose.
/// The radial point maximizes ρ² over the rim's angle φ (a trigonometric quartic) by Newton's
/// method from the best of eight samples; in contact ρ > R_B needs ‖Π_B(c − P_B)‖ > c_r, so the
/// maximum is the one near the direction of the rim centre's offset and Newton converges in a few
/// steps. An aligned line contact (the journal's generator along the bore) is carried by its two
/// end points, each by the contact law; the thesis takes one point at the middle of the line
/// (eqs. 4.14–4.16). The two agree once the tilt makes one end deeper than the other by the
/// penetration, L_J sin θ > δ.
///
/// The thirteen contact cases of the thesis (Figure 4.7) are the combinations of the candidates
/// in contact (δ > 0), aligned or not (θ ≤ θ_a): contactCase().
///
/// Velocities: for body b with centroid r_b, rotation A_b and body-axes angular velocity ω′_b, the
/// material point at x moves at ṙ_b − (x − r_b)~ A_b ω′_b. With v_rel = v_i(x) − v_j(C_B) the
/// relative velocity of the journal's and the bearing's material points at the contact,
///   δ̇ = nᵀ v_rel   (exact: the contact points move along the surfaces, and C_J − C_B = δ n),
///   v_T = v_rel − (nᵀ v_rel) n   (eq. 4.34),
/// and for any unit d the row of dᵀ v_rel over (ṙ_i, ω′_i, ṙ_j, ω′_j) is
///   [dᵀ, ((x − r_i) × d)ᵀ A_i, −dᵀ, −((C_B − r_j) × d)ᵀ A_j]   (velocityRow).
/// A force f on the journal at x and −f on the bearing at C_B has the generalized force
/// rowᵀ (for d = f/‖f‖, times ‖f‖). The gap is g = −δ, so ġ = −nᵀ v_rel: a normal force Fₙ ≥ 0
/// pushing the parts apart is −Fₙ n on the journal (thesis eqs. 4.38–4.41).

#include <Eigen/Core>
#include <array>
#include <string_view>

namespace stickslip::dynamics {

/// The fixed description of a spatial revolute clearance joint.
struct SpatialClearanceJoint {
  Eigen::Vector3d journal_centre = Eigen::Vector3d::Zero();  ///< P′_J in body i's axes [m]
  Eigen::Vector3d journal_axis = Eigen::Vector3d::UnitZ();   ///< a′_J in body i's axes (unit)
  Eigen::Vector3d bearing_centre = Eigen::Vector3d::Zero();  ///< P′_B in body j's axes [m]
  Eigen::Vector3d bearing_axis = Eigen::Vector3d::UnitZ();   ///< a′_B in body j's axes (unit)
  double journal_radius = 0.0, bearing_radius = 0.0;         ///< R_J > 0, R_B > R_J [m]
  double journal_length = 0.0, bearing_length = 0.0;         ///< L_J > 0, L_B > L_J [m]
  /// θ_a [rad]: below this tilt the joint counts as aligned and an end wall's contact point moves
  /// towards the rim's centre (see the file comment). Default: 1e-3 of the largest tilt the radial
  /// clearance allows, 2 c_r / L_J, set by validate() when 0.
  double alignment_tolerance = 0.0;

  double radialClearance() const { return bearing_radius - journal_radius; }  ///< c_r [m]
  double axialClearance() const { return bearing_length - journal_length; }   ///< c_a [m]
  /// Throws std::invalid_argument("<who>: …") for a non-finite entry, a zero axis, R_J ≤ 0,
  /// R_B ≤ R_J, L_J ≤ 0, L_B ≤ L_J or a negative tolerance. Normalizes the axes and sets the
  /// default tolerance.
  void validate(std::string_view who = "dynamics::SpatialClearanceJoint");
};

/// One candidate contact of the joint at one pose.
struct SpatialClearanceContact {
  enum Which { kRadialA, kRadialB, kAxialA, kAxialB };
  double penetration = 0.0;  ///< δ [m]: > 0 in contact; −δ the gap
  Eigen::Vector3d normal = Eigen::Vector3d::Zero();         ///< n, the way the journal penetrates
  Eigen::Vector3d journal_point = Eigen::Vector3d::Zero();  ///< x on the journal's rim (world) [m]
  Eigen::Vector3d bearing_point = Eigen::Vector3d::Zero();  ///< C_B = x − δ n (world) [m]
  bool touching() const { return penetration > 0.0; }
};

/// A body's pose as the geometry reads it: centroid and rotation (the ground: 0 and I).
struct SpatialPose {
  Eigen::Vector3d r = Eigen::Vector3d::Zero();
  Eigen::Matrix3d A = Eigen::Matrix3d::Identity();
};

/// The four candidates, in SpatialClearanceContact::Which order, and the tilt between the axes.
struct SpatialClearanceGeometry {
  std::array<SpatialClearanceContact, 4> contacts;
  double tilt = 0.0;     ///< θ [rad], the angle between a_J and a_B
  bool aligned = false;  ///< θ ≤ θ_a
};

/// The candidates of `joint` (validated) with the journal on a body at pose `i` and the bearing on
/// one at pose `j`. Allocates nothing.
SpatialClearanceGeometry spatialClearanceGeometry(const SpatialClearanceJoint& joint, const SpatialPose& i,
                                                  const SpatialPose& j);

/// The contact case 1–13 of the thesis' Figure 4.7 for the candidates in contact:
///   1 none; aligned: 2 radial line, 3 axial surface, 4 both;
///   misaligned: 5 one radial, 6 one axial, 7 two radial, 8 two axial, 9 radial and axial at the
///   same end, 10 at different ends, 11 two radial and one axial, 12 one radial and two axial,
///   13 all four.
int contactCase(const SpatialClearanceGeometry& g);

/// v_rel at `contact` for the bodies' velocities (ṙ_i, ω′_i, ṙ_j, ω′_j) (see the file comment).
Eigen::Vector3d relativeVelocity(const SpatialClearanceContact& contact, const SpatialPose& i, const SpatialPose& j,
                                 const Eigen::Matrix<double, 12, 1>& velocities);

/// The row of dᵀ v_rel over (ṙ_i, ω′_i, ṙ_j, ω′_j) at `contact` (see the file comment).
Eigen::Matrix<double, 1, 12> velocityRow(const SpatialClearanceContact& contact, const Eigen::Vector3d& d,
                                         const SpatialPose& i, const SpatialPose& j);

}  // namespace stickslip::dynamics
