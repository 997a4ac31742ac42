#include "dynamics/routes/event_driven/event_driven.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <Eigen/SparseLU>
#include <Eigen/SparseQR>

#include "dynamics/contact/coupling.hpp"
#include "dynamics/friction/friction_law.hpp"
#include "dynamics/model/constrained_response.hpp"
#include "lcp/friction_facets.hpp"
#include "lcp/friction_hlcp.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/lemke.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/planar_newton.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/solve.hpp"
#include "lcp/trial_and_error.hpp"

namespace stickslip::dynamics {

void EventDrivenOptions::validate() const {
  std::ostringstream os;
  const double root_tol = 100.0 * std::numeric_limits<double>::epsilon() * 2.0 * t_end;
  if (!(t_end > 0.0) || !std::isfinite(t_end)) os << "t_end > 0, got " << t_end;
  else if (!(relative_tolerance > 0.0) || !(absolute_tolerance > 0.0))
    os << "tolerances > 0, got " << relative_tolerance << ", " << absolute_tolerance;
  else if (!(event_tolerance >= root_tol))
    os << "event_tolerance >= CVODE's root tolerance at t_end (" << root_tol << " s), got "
       << event_tolerance;
  else if (!(gap_tolerance > 0.0) || !(velocity_tolerance > 0.0) || !(plastic_velocity >= 0.0))
    os << "gap and velocity tolerances > 0 and plastic_velocity >= 0, got " << gap_tolerance
       << ", " << velocity_tolerance << ", " << plastic_velocity;
  else if (!(baumgarte_alpha >= 0.0) || !(baumgarte_beta >= 0.0))
    os << "Baumgarte alpha, beta >= 0, got " << baumgarte_alpha << ", " << baumgarte_beta;
  else if (!(output_dt > 0.0)) os << "output_dt > 0, got " << output_dt;
  else if (!(max_step >= 0.0)) os << "max_step >= 0, got " << max_step;
  else if (max_events < 1) os << "max_events >= 1, got " << max_events;
  else if (max_steps < 1 || max_total_steps < 1)
    os << "max_steps and max_total_steps >= 1, got " << max_steps << ", " << max_total_steps;
  else if (facets < 3) os << "facets >= 3, got " << facets;
  else if (unit_response_joints < 0) os << "unit_response_joints >= 0, got " << unit_response_joints;
  else if (impact_law != "newton" && impact_law != "newton-tangential")
    os << "impact_law newton or newton-tangential, got '" << impact_law << "'";
  if (!os.str().empty()) throw std::invalid_argument("EventDrivenOptions: expected " + os.str());
}

namespace {

bool closed(ContactMode m) { return m != ContactMode::kOpen; }
double sgn(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
/// In force units (setForceUnits): far below any load of a mechanism, far above the round-off of
/// a vanishing one.
constexpr double kSideHysteresis = 1e-9;
/// A stick phase that starts with its force within this fraction of its limit μs N (a slope at
/// tan α = μs) holds there only to the integrator's tolerance: its root fires this far beyond
/// the limit instead. The break-away decision takes the same fraction as "at the limit".
constexpr double kStickAtLimit = 1e-6;
/// Siconos' fc3d error to which a spatial slip from rest is solved again (refineSlipFromRest).
constexpr double kRefinedTolerance = 1e-13;

/// Whether the normal rows and columns of W (every `rows`-th from 0) have a positive definite
/// symmetric part: then the normal block is a P-matrix, and a contact problem without solution
/// is not Painlevé's paradox (a sufficient test; false says nothing).
bool normalBlockIsP(const Eigen::MatrixXd& W, Eigen::Index rows) {
  const Eigen::Index n = W.rows() / rows;
  Eigen::MatrixXd normal(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) normal(i, j) = 0.5 * (W(rows * i, rows * j) + W(rows * j, rows * i));
  return Eigen::LLT<Eigen::MatrixXd>(normal).info() == Eigen::Success;
}

/// Events closer than event_tolerance to each other beyond this count stop the run (Zeno).
constexpr long kMaxEventsAtOneInstant = 50;

/// Relative to Σ |P| (|u⁻| + |u⁺|) / 2: the impulses' work counts as positive beyond this.
constexpr double kImpactWorkTolerance = 1e-8;

/// Thrown inside the engine to end the run with its status and a message (never leaves this
/// file); an unsolved contact problem also carries the solver's status and residual.
struct RunFailure : std::runtime_error {
  RunFailure(RunStatus s, const std::string& what, lcp::Status solver = lcp::Status::kSuccess,
             double residual = std::numeric_limits<double>::quiet_NaN())
      : std::runtime_error(what), status(s), solver_status(solver), solver_residual(residual) {}
  RunStatus status;
  lcp::Status solver_status;
  double solver_residual;
};

class Engine {
 public:
  Engine(const Mechanism& mechanism, const EventDrivenOptions& opt)
      : mechanism_(mechanism), contacts_(mechanism.contacts()), joints_(mechanism.jointFriction()), opt_(opt),
        response_(mechanism, opt.baumgarte_alpha, opt.baumgarte_beta),
        nc_(static_cast<Eigen::Index>(contacts_.size())),
        nj_(static_cast<Eigen::Index>(joints_.size())), nv_(mechanism.velocitySize()),
        nq_(mechanism.positionSize()) {
    const auto& contacts = contacts_;
    const auto& joints = joints_;
    opt.validate();
    spatial_ = std::any_of(contacts.begin(), contacts.end(), [](const RigidContact& c) {
      return c.spatial();
    });
    if (spatial_) {
      requireSpatialContacts(opt);
      if (opt.solver != "lemke") {  // auto, round-cone, nsgs, newton: the round cone
        lcp::RoundConeOptions round;
        round.method = lcp::roundConeMethod(opt.solver == "round-cone" ? "auto" : opt.solver);
        round_ = std::make_unique<lcp::RoundConeSolver>(round);
        round.tolerance = kRefinedTolerance;
        round_fine_ = std::make_unique<lcp::RoundConeSolver>(round);
      } else {
        faceted_ = std::make_unique<lcp::FacetedFrictionSolver>(opt.facets);
      }
    }
    if (opt.solver.rfind("siconos-", 0) == 0 && !spatial_)
      siconos_ = std::make_unique<lcp::SiconosFc2dSolver>(opt.solver.substr(8));
    else if (opt.solver != "lemke" && opt.solver != "auto" && opt.solver != "nsgs" && opt.solver != "newton" &&
             opt.solver != "trial-and-error" && !(spatial_ && opt.solver == "round-cone"))
      throw std::invalid_argument("EventDrivenOptions: expected solver auto, lemke, nsgs, newton, trial-and-error or "
                                  "siconos-<fc2d solver> (spatial contacts: auto, lemke, round-cone, nsgs or newton), got '" +
                                  opt.solver + "'");
    mechanism.resizeContacts(kin_);
    minv_ = mechanism.inverseMassDiagonal();
    // Joints handled sparse join the sparse path's problems as rows of their own (file comment);
    // NSGS would sweep along them, so they need Newton.
    const Eigen::Index m = mechanism.constraintCount();
    const bool structure = nj_ == 0 && (m == 0 || (response_.sparse() && opt.solver != "nsgs")) && minv_ != nullptr &&
                           nq_ == nv_ &&
                           std::none_of(contacts.begin(), contacts.end(), [](const RigidContact& c) {
                             return c.normal == RigidContact::Normal::kBilateral;
                           });
    // Spatial contacts' nsgs and newton are the round cone's (lcp/round_cone.hpp), not the planar
    // sparse path's.
    const bool planar_sparse_solver = (opt.solver == "nsgs" || opt.solver == "newton") && !spatial_;
    sparse_ = structure && opt.sparse_path && (nc_ >= kSparseFromContacts || planar_sparse_solver);
    if (planar_sparse_solver && !sparse_)
      throw std::invalid_argument("EventDrivenOptions: solver " + opt.solver + " needs the sparse path (no joint "
                                  "friction, no bilateral contact, a diagonal mass matrix, joints only with newton and "
                                  "from 16 joint rows); use lemke");
    d_rows_ = sparse_ ? m : 0;
    d_blocks_ = (d_rows_ + 1) / 2;
    // auto on the sparse path: Newton for a long coupled group (coupling.hpp) or with joints, else NSGS.
    by_newton_ = sparse_ && !spatial_ &&
                 (opt.solver == "newton" || (opt.solver == "auto" && (d_rows_ > 0 || largestCoupledGroup(contacts) >=
                                                                                           kNewtonFromCoupledContacts)));
    modes_.assign(contacts.size(), ContactMode::kOpen);
    side_.assign(contacts.size(), 1.0);
    normal_force_ = Eigen::VectorXd::Zero(nc_);
    root_level_ = Eigen::VectorXd::Zero(nc_);
    stick_band_ = Eigen::VectorXd::Zero(nc_ + nj_);
    friction_force_ = Eigen::VectorXd::Zero(nc_);
    contact_forces_ = Eigen::VectorXd::Zero(2 * nc_);
    smooth_friction_ = Eigen::VectorXd::Zero(nc_);
    joint_modes_.assign(joints.size(), ContactMode::kStick);
    tied_.assign(joints.size(), 0);
    mu_override_.assign(joints.size(), std::numeric_limits<double>::quiet_NaN());
    tendency_.assign(joints.size(), 0.0);
    contact_tied_.assign(contacts.size(), 0);
    contact_mu_override_.assign(contacts.size(), std::numeric_limits<double>::quiet_NaN());
    contact_tendency_.assign(contacts.size(), 0.0);
    torque_ = Eigen::VectorXd::Zero(nj_);
    reaction_ = Eigen::VectorXd::Zero(nj_);
    lambda_ = Eigen::VectorXd::Zero(mechanism.constraintCount());
    // Rows per contact: n, t, and a spatial contact's second tangent b.
    const Eigen::Index rows = (spatial_ ? 3 : 2) * nc_ + nj_;
    if (!sparse_) {
      rows_.resize(rows, nv_);
      cols_.resize(nv_, rows);
      gb_.resize(nv_, rows);
    }
    slip_direction_.assign(contacts.size(), Eigen::Vector3d::Zero());
    friction_second_ = Eigen::VectorXd::Zero(nc_);
    joint_rows_ = Eigen::MatrixXd::Zero(nj_, nv_);
    Eigen::VectorXd row(nv_);
    for (Eigen::Index e = 0; e < nj_; ++e) {
      row.setZero();
      mechanism_.addJointFrictionRow(std::size_t(e), 1.0, row);
      joint_rows_.row(e) = row.transpose();
    }
    rhs_.resize(rows + d_rows_);
    known_.resize(nv_);
    extra_.resize(nv_);
    g_extra_.resize(nv_);
    force_.resize(nv_);
    const Eigen::Index units = std::min(nj_, Eigen::Index(opt.unit_response_joints));
    unit_vdot_.resize(nv_, units);
    unit_force_.resize(nv_, units);
    unit_lambda_.resize(m, units);
    unit_rs_.resize(rows, units);
    lambda0_.resize(m);
    slipping_joints_.reserve(std::size_t(nj_));
    unknown_.reserve(std::size_t(rows));
    vdot_.resize(nv_);
  }

  RunResult run(const Eigen::VectorXd& q0, const Eigen::VectorXd& v0);

 private:
  const RigidContact& contact(Eigen::Index k) const { return contacts_[std::size_t(k)]; }
  const JointFriction& joint(Eigen::Index e) const { return joints_[std::size_t(e)]; }
  static bool slipping(ContactMode m) {
    return m == ContactMode::kSlipPositive || m == ContactMode::kSlipNegative;
  }
  static double direction(ContactMode m) { return m == ContactMode::kSlipPositive ? 1.0 : -1.0; }
  void decideJoints(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                    const std::vector<int>& fired);
  bool bilateral(Eigen::Index k) const { return contact(k).normal == RigidContact::Normal::kBilateral; }
  bool compliant(Eigen::Index k) const { return contact(k).normal == RigidContact::Normal::kCompliant; }
  void decideCompliant(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                       const std::vector<int>& fired);
  void update(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
              const Eigen::Ref<const Eigen::VectorXd>& v);
  bool phase(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
             const Eigen::Ref<const Eigen::VectorXd>& v);
  void contactForces(Eigen::Index n);
  void roots(double t, const Eigen::Ref<const Eigen::VectorXd>& y, Eigen::Ref<Eigen::VectorXd> g);
  bool respond(const Eigen::VectorXd& extra, bool homogeneous, Eigen::Index n, Eigen::Index contact_rows,
               Eigen::Ref<Eigen::VectorXd> vdot, Eigen::Ref<Eigen::VectorXd> force, Eigen::VectorXd& r);
  /// Whether every root function of the present modes reads the kinematics alone (gaps, slip
  /// speeds, slipping joints' rates), so that roots() need not solve the phase's forces.
  bool kinematicRoots() const;
  void onEvent(double t, const std::vector<int>& roots, Eigen::VectorXd& y, Eigen::VectorXd& q, Eigen::VectorXd& v,
               long& events_here, double& last_event_t);
  void handleEvent(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, bool initial,
                   const std::vector<int>& fired = {});
  bool impact(double t, Eigen::VectorXd& v);
  /// Throws RunFailure when the impact's contact impulses P put energy in (beyond round-off):
  /// ½ Pᵀ(u⁻ + u⁺), u⁺ = u⁻ + W P, with u⁻ the contacts' relative velocities before it.
  void checkImpactWork(double t, const std::vector<Eigen::Index>& set, const Eigen::VectorXd& before,
                       const Eigen::VectorXd& w_impulse, const Eigen::VectorXd& impulse) const;
  void decideModes(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                   const std::vector<int>& fired);
  /// Records contact k's change of mode at a decision (a slip that starts again: `restarts`).
  void modeEvent(double t, Eigen::Index k, ContactMode before, ContactMode after, bool restarts);
  /// Our Lemke solves bilateral contacts (two_sided) as the friction HLCP of
  /// lcp/friction_hlcp.hpp; Siconos' solvers see them on their present side.
  lcp::FrictionResult solveProblem(const lcp::FrictionProblem2D& p,
                                   const std::vector<bool>& two_sided = {});
  /// The sparse path's NSGS on `sparse` (its q and μ taken from p), falling back to
  /// solveProblem on the dense W (written into p) when it stops short within
  /// lcp::kDenseFrictionContacts contacts.
  lcp::FrictionResult solveSparse(lcp::SparseFrictionProblem2D& sparse, lcp::FrictionProblem2D& p);
  /// Throws RunFailure for an unsolved problem: time, size, solver, status, residual, detail.
  [[noreturn]] void unsolved(const lcp::FrictionResult& r, const lcp::FrictionProblem2D& p,
                             double t, const std::string& detail = "") const;
  ContactMode trialAndError(const lcp::FrictionProblem2D& p, bool stick_candidate, double mu_s,
                            double tol, Eigen::Vector2d& r) const;
  void project(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v);
  void removeDrift(double t, Eigen::VectorXd& q, Eigen::VectorXd& v);
  void setStickBands();
  /// force_unit_ from the contacts' normal rows at (q0, v0) and the joints' sliding rows.
  void setForceUnits(const Eigen::VectorXd& q0, const Eigen::VectorXd& v0);

  // Spatial contacts (a spatial clearance joint's, event_driven.hpp): three rows each (n, t, b),
  // friction in the tangent plane, a slip mode with its direction. They come alone (a spatial
  // mechanism has no planar contact) and take the dense path (Euler parameters: q̇ ≠ v).
  /// Throws std::invalid_argument for what the spatial path does not take (the file comment).
  void requireSpatialContacts(const EventDrivenOptions& opt) const;
  bool impactSpatial(double t, Eigen::VectorXd& v);
  void decideSpatial(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                     const std::vector<int>& fired);
  /// Solves the fc3d problem of a spatial impact or mode decision into spatial_result_.
  bool trySpatial(const lcp::FrictionProblem3D& p);
  /// scaled_ ← p posed in W's units (spatial_scale_).
  void scaleSpatial(const lcp::FrictionProblem3D& p);
  /// The problem trySpatial last solved (scaled_), again to kRefinedTolerance when a contact at
  /// rest slips.
  void refineSlipFromRest(const std::vector<bool>& rest, double tol);
  /// "round cone (auto)", "nsgs (round cone)", "newton (round cone)" or "lemke (K facets)".
  std::string spatialSolverName() const;
  /// Throws RunFailure for spatial_result_, unsolved, with `detail` after the solver's status.
  [[noreturn]] void spatialFailure(double t, const lcp::FrictionProblem3D& p, const std::vector<Eigen::Index>& set,
                                   const std::string& detail = "") const;
  const lcp::FrictionResult& solveSpatial(double t, const lcp::FrictionProblem3D& p,
                                          const std::vector<Eigen::Index>& set) {
    if (!trySpatial(p)) spatialFailure(t, p, set);
    return spatial_result_;
  }
  /// A spatial contact slipping from rest: its kinetic force acts against slip_direction_
  /// (world) until the sliding speed reaches twice velocity_tolerance; then against v_T.
  bool anchored(Eigen::Index k) const { return slip_direction_[std::size_t(k)].squaredNorm() > 0.0; }
  /// A stuck contact's (joint's) distance from breaking away, μs |N| − |F| (μs ℓ R − |T|), in
  /// the present phase: positive inside its friction cone.
  double stickMargin(Eigen::Index k) const {
    const double force = spatial_ ? std::hypot(friction_force_(k), friction_second_(k)) : std::abs(friction_force_(k));
    return contact(k).mu_static * std::abs(normal_force_(k)) - force;
  }
  double jointStickMargin(Eigen::Index e) const {
    return joint(e).mu_static * joint(e).lever * reaction_(e) - std::abs(torque_(e));
  }
  /// Contact k's normal force has fallen to zero at this event (unloaded_, handleEvent) and the
  /// decision leaves it n of the set's largest normal force n_max. The decision's LCP is
  /// degenerate there (N = 0 and g̈ = 0 both hold), and its N is only as near zero as the
  /// event's location and the drift's removal leave it (~1e-7 N). But a force that kept
  /// falling would pull, and a phase that starts within CVODE's root tolerance of the crossing
  /// never sees it. So the contact lifts off; should it press again, its gap's root closes it.
  bool liftsOff(Eigen::Index k, double n, double n_max) const {
    return unloaded_[std::size_t(k)] && n <= 1e-6 * std::max(force_unit_(k), n_max);
  }
  /// Adds scale × (the row of sᵀ v_rel) of spatial contact k, s a unit tangent (world), to
  /// column n of cols_.
  void addTangentCol(Eigen::Index n, Eigen::Index k, const Eigen::Vector3d& s, double scale) {
    const Eigen::Matrix3d& f = kin_.frame[std::size_t(k)];
    cols_.col(n) += scale * s.dot(f.col(1)) * kin_.jacobian.row(2 * k + 1).transpose();
    cols_.col(n) += scale * s.dot(f.col(2)) * kin_.second_tangent.row(k).transpose();
  }
  /// x ← x − G Rᵀ (R G Rᵀ)⁺ err for the first n rows R of rows_ (at the last update()): the
  /// G-weighted least correction that zeroes R's error, joints kept to first order.
  void subtractCorrection(Eigen::Index n, const Eigen::VectorXd& err, Eigen::VectorXd& x);
  void record(double t, const Eigen::Ref<const Eigen::VectorXd>& y);
  void addEvent(double t, Eigen::Index k, EventKind kind) {
    run_.events.push_back({t, static_cast<int>(k), kind});
  }

  bool spatial_ = false;
  std::vector<Eigen::Vector3d> slip_direction_;  // an anchored slip's direction; 0: along v_T
  Eigen::VectorXd friction_second_;              // a stuck spatial contact's force along b
  std::unique_ptr<lcp::FacetedFrictionSolver> faceted_;
  std::unique_ptr<lcp::RoundConeSolver> round_;  ///< spatial contacts with solver nsgs or newton
  std::unique_ptr<lcp::RoundConeSolver> round_fine_;  ///< the same to kRefinedTolerance
  lcp::FrictionResult fine_result_;
  lcp::FrictionResult spatial_result_;
  lcp::FrictionProblem3D scaled_;  // the problem the spatial solvers see (scaleSpatial)
  double spatial_scale_ = 1.0;
  std::vector<bool> unloaded_;  // per contact, at the present event: liftsOff()
  Eigen::VectorXd drift_step_;   // removeDrift's correction of a spatial mechanism
  Eigen::VectorXd root_level_;  // per contact, for the present phase: where its unilateral root fires
  Eigen::VectorXd stick_band_;  // per contact, then joint: how far beyond μs N its stick root fires
  // Per contact, then joint: the force (torque) 1/(J M⁻¹ Jᵀ) that gives its normal (sliding)
  // row a unit acceleration, the joints left out. The thresholds below which a force of this
  // mechanism counts as zero are fractions of it, so that they follow the mechanism's units
  // (a 1e-10 kg block's weight is not zero); it is 1 N for a free 1 kg body.
  Eigen::VectorXd force_unit_;

  const Mechanism& mechanism_;
  const std::vector<RigidContact>& contacts_;
  const std::vector<JointFriction>& joints_;
  const EventDrivenOptions& opt_;
  ConstrainedResponse response_;
  Eigen::Index nc_, nj_, nv_, nq_;
  std::unique_ptr<lcp::SiconosFc2dSolver> siconos_;
  lcp::LemkeSolver lemke_;
  ContactKinematics kin_;
  std::vector<ContactMode> modes_;
  std::vector<double> side_;  // σ: the side a bilateral contact's normal force acts on
  Eigen::VectorXd normal_force_, friction_force_, vdot_;
  Eigen::VectorXd contact_forces_;  // (N_k, F_k) interleaved: a pin's reaction reads its slot's
  Eigen::VectorXd smooth_friction_;  ///< F of the contacts with a regularized friction law
  std::vector<ContactMode> joint_modes_;      // kStick or slip; never open
  // A stuck joint whose relative rotation the other stuck joints already hold (several stuck
  // joints of a 1-DoF loop): it has no row of its own; its torque is indeterminate.
  std::vector<char> tied_;
  std::vector<double> mu_override_;           // slip coefficient for the group test; NaN: μk
  std::vector<double> tendency_;              // sign of each group member's motion without friction
  // Stuck frictional contacts held by a group of stuck joints (a prismatic guide in the loop):
  // no tangential row, indeterminate friction; with their own test coefficients and tendencies.
  std::vector<char> contact_tied_;
  std::vector<double> contact_mu_override_, contact_tendency_;
  std::vector<ContactMode> modes_at_event_;   // contact modes when the present event began
  std::size_t events_at_event_ = 0;           // events recorded before it
  bool group() const {
    return std::find(tied_.begin(), tied_.end(), 1) != tied_.end() ||
           std::find(contact_tied_.begin(), contact_tied_.end(), 1) != contact_tied_.end();
  }
  double slipCoefficient(Eigen::Index k) const {
    const double o = contact_mu_override_[std::size_t(k)];
    return std::isnan(o) ? contact(k).mu_kinetic : o;
  }
  double groupMargin(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                     const Eigen::Ref<const Eigen::VectorXd>& v);
  Eigen::VectorXd torque_, reaction_, lambda_;  // joint friction T, |R| and the multipliers
  Eigen::MatrixXd rows_, cols_;
  // The sparse path (sparse_: no joints, no joint friction, no bilateral contact, M diagonal):
  // the mode system's rows R and columns C kept as sparse rows (C transposed), so that its
  // matrix R M⁻¹ C, the event's W and the projections cost what the contacts' coupling costs.
  bool sparse_ = false;
  bool by_newton_ = false;  // the sparse path's solver: Newton (else NSGS)
  bool used_nsgs_ = false, used_newton_ = false, used_lemke_ = false;  // for RunResult::contact_solver
  lcp::PlanarNewtonSolver newton_;  // its sparse analysis carries over from event to event
  const Eigen::VectorXd* minv_ = nullptr;  // M⁻¹'s diagonal on the sparse path
  std::vector<Eigen::Triplet<double>> row_entries_, col_entries_;
  lcp::SparseRowMatrix sparse_rows_, sparse_cols_t_;
  Eigen::SparseMatrix<double> sparse_system_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> sparse_lu_;
  Eigen::VectorXd sparse_work_;
  /// Row n of R (or of Cᵀ) = scale × row jrow of the contact Jacobian; added to it with add.
  void setRow(Eigen::Index n, Eigen::Index jrow, double scale) {
    if (!sparse_) rows_.row(n) = scale * kin_.jacobian.row(jrow);
    else pushRow(row_entries_, n, jrow, scale);
  }
  void setCol(Eigen::Index n, Eigen::Index jrow, double scale, bool add = false) {
    if (sparse_) pushRow(col_entries_, n, jrow, scale);
    else if (add) cols_.col(n) += scale * kin_.jacobian.row(jrow).transpose();
    else cols_.col(n) = scale * kin_.jacobian.row(jrow).transpose();
  }
  void pushRow(std::vector<Eigen::Triplet<double>>& entries, Eigen::Index n, Eigen::Index jrow, double scale) const {
    for (ContactJacobian::InnerIterator it(kin_.jacobian, jrow); it; ++it)
      entries.emplace_back(int(n), int(it.col()), scale * it.value());
  }
  /// out = G x for the columns x, without forming G (nv solves with S) unless there are as many
  /// columns as velocities (constrained_response.hpp).
  void applyG(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> out) {
    if (response_.sparse() || x.cols() < nv_) response_.inverseMassTimesColumns(x, out);
    else out.noalias() = response_.inverseMass() * x;
  }
  /// R M⁻¹ Cᵀ for the rows Cᵀ given (sparse_cols_t_, or sparse_rows_ for R M⁻¹ Rᵀ).
  lcp::SparseRowMatrix rowsInverseMassCols(const lcp::SparseRowMatrix& cols_t) const {
    return sparse_rows_ * minv_->asDiagonal() * Eigen::SparseMatrix<double>(cols_t.transpose());
  }
  // Joints on the sparse path (handled sparse, constrained_response.hpp): their m rows D join
  // the mode system and the projections as rows of their own, and the events' and impacts'
  // problems as ⌈m/2⌉ bilateral blocks after the contacts' (an odd count padded by a decoupled
  // row), where eliminating them would make W dense.
  Eigen::Index d_rows_ = 0, d_blocks_ = 0;
  Eigen::MatrixXd eliminated_gc_;  ///< G Cᵀ of the last eliminatedW()
  /// D's rows (at the last update) as rows first … first + m − 1 of R and of Cᵀ.
  void pushJointRows(Eigen::Index first) {
    const SparseJointSystem& d = *response_.sparseJoints();
    for (Eigen::Index r = 0; r < d_rows_; ++r) {
      const SparseJointSystem::Row row = d.row(r);
      for (int e = 0; e < row.size; ++e) {
        row_entries_.emplace_back(int(first + r), row.cols[e], row.values[e]);
        col_entries_.emplace_back(int(first + r), row.cols[e], row.values[e]);
      }
    }
  }
  /// R M⁻¹ Cᵀ of an event's or impact's problem, its joints' padding row (m odd) decoupled.
  lcp::SparseRowMatrix problemW() const {
    lcp::SparseRowMatrix w = rowsInverseMassCols(sparse_cols_t_);
    if (d_rows_ % 2 == 1) w.coeffRef(w.rows() - 1, w.rows() - 1) = 1.0;
    return w;
  }
  /// R G Cᵀ, dense, of the first n rows of R and Cᵀ: the contacts' W with the joints eliminated,
  /// for Lemke or the trial and error on a small problem (G Cᵀ kept in eliminated_gc_).
  Eigen::MatrixXd eliminatedW(Eigen::Index n) {
    const Eigen::MatrixXd c = Eigen::MatrixXd(sparse_cols_t_.topRows(n)).transpose();
    eliminated_gc_.resize(nv_, n);
    applyG(c, eliminated_gc_);
    return sparse_rows_.topRows(n) * eliminated_gc_;
  }
  /// Whether a problem of nk contacts goes to NSGS or Newton on the sparse W (else Lemke on the
  /// dense W).
  bool bySparseSolver(Eigen::Index nk) const {
    return sparse_ && (opt_.solver == "nsgs" || opt_.solver == "newton" ||
                       (opt_.solver == "auto" && nk > lcp::kAutoLemkeContacts));
  }
  /// Before an assembly by setRow and setCol: drops what an abandoned one left.
  void startRows() {
    row_entries_.clear();
    col_entries_.clear();
  }
  /// R and Cᵀ (n rows each) from the entries pushed since startRows().
  void buildSparseRows(Eigen::Index n) {
    sparse_rows_.resize(n, nv_);
    sparse_rows_.setFromTriplets(row_entries_.begin(), row_entries_.end());
    sparse_cols_t_.resize(n, nv_);
    sparse_cols_t_.setFromTriplets(col_entries_.begin(), col_entries_.end());
  }
  // Workspace of phase(), sized once.
  Eigen::MatrixXd joint_rows_;  // row e: C_e, the constant row of joint e's rate ṡ = C_e v
  Eigen::VectorXd rhs_, known_, extra_, g_extra_, force_, r_;
  // The slipping joints' unit responses (respond(), one column each) and the response to the
  // known forces alone.
  std::vector<Eigen::Index> slipping_joints_;
  Eigen::MatrixXd unit_vdot_, unit_force_, unit_lambda_, unit_rs_;
  Eigen::VectorXd unit_r_, r0_, lambda0_;
  Eigen::MatrixXd gb_;
  Eigen::FullPivLU<Eigen::MatrixXd> lu_;
  Eigen::MatrixXd system_;  // spatial contacts: the mode system, solved by cod_
  Eigen::VectorXd system_rhs_, system_check_;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod_;
  std::vector<std::pair<Eigen::Index, int>> unknown_;  // (element, 0 normal / 1 friction / 2 joint / 3 friction along b)
  std::vector<double> samples_;
  RunResult run_;
};

void Engine::update(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v) {
  if (!response_.update(t, q, v)) throw RunFailure(RunStatus::kIntegratorFailure, response_.message());
  mechanism_.evaluateContacts(t, q, v, kin_);
}

// Forces and accelerations of the smooth phase with the present modes (file comment of
// event_driven.hpp). Slipping joint friction depends on |R|, which depends on it: a fixed
// point from the last values. Returns false when the mode system is singular.
bool Engine::phase(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                   const Eigen::Ref<const Eigen::VectorXd>& v) {
  update(t, q, v);
  const double a = opt_.baumgarte_alpha, b = opt_.baumgarte_beta;
  startRows();
  Eigen::Index n = 0;
  Eigen::VectorXd& rhs = rhs_;
  auto& unknown = unknown_;
  unknown.clear();
  // Compliant contacts: N is a function of the state, so it is a known force here.
  Eigen::VectorXd& known = known_;
  known.setZero();
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (!compliant(k)) continue;
    const RigidContact& c = contact(k);
    const double n_k = std::max(0.0, normalForce(*c.compliant_law, -kin_.gap(k), -kin_.normal_velocity(k),
                                                c.impact_velocity));
    normal_force_(k) = n_k;
    known += n_k * kin_.jacobian.row(2 * k).transpose();
    if (c.smooth_friction) {
      smooth_friction_(k) = c.smooth_friction->force({kin_.sliding_velocity(k), n_k, 0.0}, {});
      known += smooth_friction_(k) * kin_.jacobian.row(2 * k + 1).transpose();
    }
    const ContactMode m = modes_[std::size_t(k)];
    if (slipping(m)) known -= direction(m) * c.mu_kinetic * n_k * kin_.jacobian.row(2 * k + 1).transpose();
  }
  for (Eigen::Index k = 0; k < nc_; ++k) {
    const ContactMode m = modes_[std::size_t(k)];
    if (!closed(m)) continue;
    if (compliant(k)) {
      if (m == ContactMode::kStick) {
        setRow(n, 2 * k + 1, 1.0);
        setCol(n, 2 * k + 1, 1.0);
        rhs(n) = -kin_.tangential_drift(k) - 2.0 * a * kin_.sliding_velocity(k);
        unknown.emplace_back(k, 1);
        ++n;
      }
      continue;
    }
    setRow(n, 2 * k, 1.0);
    setCol(n, 2 * k, 1.0);
    if (slipping(m) && anchored(k)) addTangentCol(n, k, slip_direction_[std::size_t(k)], -contact(k).mu_kinetic);
    else if (slipping(m)) setCol(n, 2 * k + 1, -direction(m) * slipCoefficient(k) * side_[std::size_t(k)], true);
    rhs(n) = -kin_.normal_drift(k) - 2.0 * a * kin_.normal_velocity(k) - b * b * kin_.gap(k);
    unknown.emplace_back(k, 0);
    ++n;
    if (m == ContactMode::kStick && !contact_tied_[std::size_t(k)]) {
      setRow(n, 2 * k + 1, 1.0);
      setCol(n, 2 * k + 1, 1.0);
      rhs(n) = -kin_.tangential_drift(k) - 2.0 * a * kin_.sliding_velocity(k);
      unknown.emplace_back(k, 1);
      ++n;
      if (spatial_) {  // and along b, where v_b = 0 (t is along v_T)
        rows_.row(n) = kin_.second_tangent.row(k);
        cols_.col(n) = kin_.second_tangent.row(k).transpose();
        rhs(n) = -kin_.second_drift(k);
        unknown.emplace_back(k, 3);
        ++n;
      }
    }
  }
  for (Eigen::Index e = 0; e < nj_; ++e) {
    if (joint_modes_[std::size_t(e)] != ContactMode::kStick || tied_[std::size_t(e)]) continue;
    rows_.row(n) = joint_rows_.row(e);
    cols_.col(n) = joint_rows_.row(e).transpose();
    rhs(n) = -2.0 * a * joint_rows_.row(e).dot(v);
    unknown.emplace_back(e, 2);
    ++n;
  }
  auto& r = r_;
  const Eigen::Index contact_rows = n;  // then the joints' rows, on the sparse path
  if (sparse_ && d_rows_ > 0) {
    pushJointRows(n);
    response_.sparseJoints()->multiplyD(response_.freeAcceleration(), rhs.segment(n, d_rows_));  // D v̇ = D a₀
    n += d_rows_;
  }
  if (sparse_) {
    buildSparseRows(n);
    if (n > 0) {
      sparse_system_ = rowsInverseMassCols(sparse_cols_t_);
      sparse_lu_.compute(sparse_system_);
      if (sparse_lu_.info() != Eigen::Success) return false;
    }
  } else if (n > 0) {
    applyG(cols_.leftCols(n), gb_.leftCols(n));
    if (spatial_) {
      // Two rims stuck on one generator of the bore have dependent rows along it (how they
      // share the friction is indeterminate): the least-squares forces of least norm.
      system_ = rows_.topRows(n) * gb_.leftCols(n);
      cod_.compute(system_);
    } else {
      lu_.compute(rows_.topRows(n) * gb_.leftCols(n));
      if (!lu_.isInvertible()) return false;
    }
  }
  // The slipping joints' friction torques T = −μ ℓ |R(λ)| depend on the response to them,
  // which is affine in T: one solve for the known forces and one per slipping joint give it
  // whole, and the fixed point then costs no further solve. With more than
  // unit_response_joints slipping, each iterate solves again instead (fewer solves than one per
  // joint).
  slipping_joints_.clear();
  for (Eigen::Index e = 0; e < nj_; ++e)
    if (slipping(joint_modes_[std::size_t(e)])) slipping_joints_.push_back(e);
  const auto s = Eigen::Index(slipping_joints_.size());
  const bool affine = s <= opt_.unit_response_joints;
  if (affine) {
    if (!respond(known, false, n, contact_rows, vdot_, force_, r0_)) return false;
    lambda0_ = response_.freeMultipliers();
    if (!force_.isZero(0.0)) {
      response_.multiplierChange(force_, lambda_);
      lambda0_ += lambda_;
    }
    for (Eigen::Index i = 0; i < s; ++i) {
      extra_ = joint_rows_.row(slipping_joints_[std::size_t(i)]).transpose();
      if (n == 0 && !sparse_) {  // the torque alone: G extra and its multipliers, one solve
        response_.inverseMassTimesColumns(extra_, unit_vdot_.col(i), unit_lambda_.col(i));
        unit_force_.col(i) = extra_;
        continue;
      }
      if (!respond(extra_, true, n, contact_rows, unit_vdot_.col(i), unit_force_.col(i), unit_r_)) return false;
      response_.multiplierChange(unit_force_.col(i), unit_lambda_.col(i));
      unit_rs_.col(i).head(n) = unit_r_;
    }
  }
  for (int it = 0;; ++it) {
    if (affine) {  // λ(T) and r(T) from the unit responses
      lambda_ = lambda0_;
      r = r0_;
      for (Eigen::Index i = 0; i < s; ++i) {
        const double torque = torque_(slipping_joints_[std::size_t(i)]);
        lambda_ += torque * unit_lambda_.col(i);
        r += torque * unit_rs_.col(i).head(n);
      }
    } else {
      extra_ = known;
      for (const Eigen::Index e : slipping_joints_) extra_ += torque_(e) * joint_rows_.row(e).transpose();
      if (!respond(extra_, false, n, contact_rows, vdot_, force_, r)) return false;
      response_.multipliers(force_, lambda_);
    }
    if (nj_ > 0) contactForces(contact_rows);  // a pin's reaction is its slot's force
    double change = 0.0, size = 0.0;
    for (Eigen::Index e = 0; e < nj_; ++e) {
      reaction_(e) = mechanism_.jointFrictionReaction(std::size_t(e), lambda_, contact_forces_);
      const ContactMode m = joint_modes_[std::size_t(e)];
      if (!slipping(m)) continue;
      const double mu = std::isnan(mu_override_[std::size_t(e)]) ? joint(e).mu_kinetic
                                                                  : mu_override_[std::size_t(e)];
      const double next = -direction(m) * mu * joint(e).lever * reaction_(e);
      change = std::max(change, std::abs(next - torque_(e)));
      size = std::max(size, std::abs(next));
      torque_(e) = next;
    }
    if (change <= 1e-13 * std::max(1.0, size)) break;
    if (it == 100) {
      std::ostringstream os;
      os << "friction in the revolute joints does not converge at t = " << t
         << " s (|change| " << change << " N m): the joint is jammed (Painleve-type)";
      throw RunFailure(RunStatus::kNotConverged, os.str());
    }
  }
  if (affine)
    for (Eigen::Index i = 0; i < s; ++i) {
      const double torque = torque_(slipping_joints_[std::size_t(i)]);
      vdot_ += torque * unit_vdot_.col(i);
      force_ += torque * unit_force_.col(i);
    }
  contactForces(contact_rows);
  return true;
}

// The response of the phase's mode system (n unknowns, the first contact_rows the contacts')
// to the generalized force `extra`: v̇ = a₀ + G extra + G C r with the rows' equations R v̇ =
// rhs, and the total force extra + C r. `homogeneous`: without a₀ and rhs, the change per unit
// of `extra`. False when the system has no solution.
bool Engine::respond(const Eigen::VectorXd& extra, bool homogeneous, Eigen::Index n, Eigen::Index contact_rows,
                     Eigen::Ref<Eigen::VectorXd> vdot, Eigen::Ref<Eigen::VectorXd> force, Eigen::VectorXd& r) {
  if (homogeneous) vdot.setZero();
  else vdot = response_.freeAcceleration();
  if (sparse_) {
    vdot.noalias() += minv_->asDiagonal() * extra;
  } else if (!extra.isZero(0.0)) {  // no known force (most phases): no solve for it
    applyG(extra, g_extra_);
    vdot += g_extra_;
  }
  force = extra;
  if (n == 0) {
    r.resize(0);
    return true;
  }
  if (homogeneous) system_rhs_.setZero(n);
  else system_rhs_ = rhs_.head(n);
  if (sparse_) system_rhs_ -= sparse_rows_ * vdot;
  else system_rhs_.noalias() -= rows_.topRows(n) * vdot;
  if (sparse_) {
    r = sparse_lu_.solve(system_rhs_);
    if (!r.allFinite()) return false;
    sparse_work_ = sparse_cols_t_.transpose() * r;  // C r, the joints' Dᵀ μ with it
    vdot.noalias() += minv_->asDiagonal() * sparse_work_;
    if (d_rows_ > 0) sparse_work_ = sparse_cols_t_.topRows(contact_rows).transpose() * r.head(contact_rows);
    force += sparse_work_;
    return true;
  }
  if (spatial_) {
    r = cod_.solve(system_rhs_);
    // Dependent rows with different right-hand sides: no acceleration satisfies them all.
    system_check_.noalias() = system_ * r;
    system_check_ -= system_rhs_;
    if (!(system_check_.norm() <= 1e-8 * (1.0 + system_rhs_.norm()))) return false;
  } else {
    r = lu_.solve(system_rhs_);
  }
  vdot.noalias() += gb_.leftCols(n) * r;
  force.noalias() += cols_.leftCols(n) * r;
  return true;
}

// The forces of phase()'s present solution r_ (n unknowns): each contact's N and F
// (normal_force_, friction_force_, and interleaved in contact_forces_) and the stuck joints'
// torques.
void Engine::contactForces(Eigen::Index n) {
  for (Eigen::Index k = 0; k < nc_; ++k)
    if (!compliant(k)) normal_force_(k) = 0.0;
  friction_force_.setZero();
  friction_second_.setZero();
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto [k, what] = unknown_[std::size_t(i)];
    if (what == 0) normal_force_(k) = r_(i);
    else if (what == 1) friction_force_(k) = r_(i);
    else if (what == 3) friction_second_(k) = r_(i);
    else torque_(k) = r_(i);
  }
  for (Eigen::Index k = 0; k < nc_; ++k) {
    const ContactMode m = modes_[std::size_t(k)];
    if (contact(k).smooth_friction)
      friction_force_(k) = smooth_friction_(k);
    else if (slipping(m))
      friction_force_(k) = -direction(m) * slipCoefficient(k) * std::abs(normal_force_(k));
    contact_forces_(2 * k) = normal_force_(k);
    contact_forces_(2 * k + 1) = friction_force_(k);
  }
}

bool Engine::kinematicRoots() const {
  for (Eigen::Index k = 0; k < nc_; ++k) {
    const ContactMode m = modes_[std::size_t(k)];
    if (closed(m) && !(compliant(k) && m != ContactMode::kStick)) return false;
  }
  for (const ContactMode m : joint_modes_)
    if (!slipping(m)) return false;
  return true;
}

void Engine::roots(double t, const Eigen::Ref<const Eigen::VectorXd>& y, Eigen::Ref<Eigen::VectorXd> g) {
  if (kinematicRoots()) {
    if (nc_ > 0) mechanism_.evaluateContacts(t, y.head(nq_), y.tail(nv_), kin_);
  } else if (!phase(t, y.head(nq_), y.tail(nv_))) {
    g.setOnes();
    return;
  }
  for (Eigen::Index k = 0; k < nc_; ++k) {
    const ContactMode m = modes_[std::size_t(k)];
    const RigidContact& c = contact(k);
    // A bilateral contact's side flips only once its force has clearly changed sign: at a
    // dead centre it sits at round-off and would otherwise fire on every step.
    g(2 * k) = compliant(k)  ? 1.0
               : !closed(m)  ? kin_.gap(k) - root_level_(k)
               : bilateral(k) ? side_[std::size_t(k)] * normal_force_(k) + kSideHysteresis * force_unit_(k)
                              : normal_force_(k) - root_level_(k);
    // A spatial slip from rest ends when its speed reaches 2 velocity_tolerance (then against
    // v_T), a slip against v_T when the speed falls to half of it (the mode decision's
    // threshold lies between); a spatial stick when the force leaves the round cone.
    const double vt = kin_.sliding_velocity(k), vtol = opt_.velocity_tolerance;
    if (!c.frictional())
      g(2 * k + 1) = 1.0;
    else if (spatial_ && slipping(m))
      g(2 * k + 1) = anchored(k) ? 2.0 * vtol - vt : vt - 0.5 * vtol;
    else if (spatial_ && m == ContactMode::kStick)
      g(2 * k + 1) = stickMargin(k) + stick_band_(k);
    else if (m == ContactMode::kSlipPositive || m == ContactMode::kSlipNegative)
      g(2 * k + 1) = (m == ContactMode::kSlipPositive ? 1.0 : -1.0) * kin_.sliding_velocity(k);
    else if (m == ContactMode::kStick && contact_tied_[std::size_t(k)])
      g(2 * k + 1) = 1.0;  // the group's root decides
    else if (m == ContactMode::kStick)
      g(2 * k + 1) = stickMargin(k) + stick_band_(k);
    else
      g(2 * k + 1) = 1.0;
  }
  const bool grouped = group();
  const double margin = grouped ? groupMargin(t, y.head(nq_), y.tail(nv_)) : 0.0;
  bool first = true;
  for (Eigen::Index e = 0; e < nj_; ++e) {
    const ContactMode m = joint_modes_[std::size_t(e)];
    if (slipping(m))
      g(2 * nc_ + e) = direction(m) * joint_rows_.row(e).dot(y.tail(nv_));
    else if (grouped)  // the group's one root, on its first member
      g(2 * nc_ + e) = std::exchange(first, false) ? margin : 1.0;
    else
      g(2 * nc_ + e) = jointStickMargin(e) + stick_band_(nc_ + e);
  }
}

lcp::FrictionResult Engine::solveProblem(const lcp::FrictionProblem2D& p,
                                         const std::vector<bool>& two_sided) {
  const bool any_two_sided = std::find(two_sided.begin(), two_sided.end(), true) != two_sided.end();
  used_lemke_ = used_lemke_ || !siconos_;
  lcp::FrictionResult r = siconos_        ? siconos_->solve(p)
                          : any_two_sided ? lcp::solveFrictionHlcpWithLemke(p, two_sided, lemke_)
                                          : lcp::solveFrictionWithLemke(p, lemke_);
  ++run_.lcp_solves;
  run_.pivots += r.pivots;
  return r;
}

lcp::FrictionResult Engine::solveSparse(lcp::SparseFrictionProblem2D& sparse, lcp::FrictionProblem2D& p) {
  sparse.q.setZero(sparse.W.rows());  // the joints' rows after the contacts': q = 0, μ unused
  sparse.q.head(p.q.size()) = p.q;
  sparse.mu.setZero(sparse.W.rows() / 2);
  sparse.mu.head(p.mu.size()) = p.mu;
  lcp::FrictionResult r = by_newton_ ? lcp::solveFrictionNewton(sparse, 1e-12, 200, nullptr, &newton_)
                                     : lcp::solveFrictionNsgs(sparse);
  ++run_.lcp_solves;
  run_.pivots += r.pivots;
  (by_newton_ ? used_newton_ : used_nsgs_) = true;
  if (r.ok() || p.contacts() > lcp::kDenseFrictionContacts) return r;
  // Stopped short: Lemke, exact, on the dense W (the joints eliminated).
  p.W = sparse.bilateral > 0 ? eliminatedW(p.q.size()) : Eigen::MatrixXd(sparse.W);
  return solveProblem(p);
}

void Engine::unsolved(const lcp::FrictionResult& r, const lcp::FrictionProblem2D& p, double t,
                      const std::string& detail) const {
  std::ostringstream os;
  os << "contact problem at t = " << t << " s (" << p.contacts() << " contacts) not solved by "
     << opt_.solver << ": " << lcp::toString(r.status) << ", residual " << r.residual
     << (r.message.empty() ? "" : " (" + r.message + ")") << detail;
  throw RunFailure(RunStatus::kContactSolverFailure, os.str(), r.status, r.residual);
}

// Trial-and-error for one contact with rows (n, t) of u = W r + q: assume stick, accept if
// the force lies in the friction segment, else slip against the sticking force.
ContactMode Engine::trialAndError(const lcp::FrictionProblem2D& p, bool stick_candidate,
                                  double mu_s, double tol, Eigen::Vector2d& r) const {
  const Eigen::Matrix2d w = p.W.topLeftCorner<2, 2>();
  const Eigen::Vector2d q = p.q.head<2>();
  r.setZero();
  if (stick_candidate) {
    r = w.fullPivLu().solve(-q);
    if (r(0) >= 0.0 && std::abs(r(1)) <= mu_s * r(0) + tol) return ContactMode::kStick;
    // Slip against the force that would be needed to stick. Where sticking would pull on the
    // contact (rₙ < 0), or needs no finite force at all (a kinematic reversal such as a
    // slider at a dead centre: W_tt ≈ 0), slipping is accepted only if the sliding then
    // accelerates the way it slips.
    const double s = -sgn(r(1));
    const double n = -q(0) / (w(0, 0) - s * mu_s * w(0, 1));
    const double sliding_acceleration = q(1) + (w(1, 0) - s * mu_s * w(1, 1)) * n;
    if (s != 0.0 && n > 0.0 && (r(0) >= 0.0 || s * sliding_acceleration >= -tol)) {
      r << n, -s * mu_s * n;
      return s > 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
    }
    r.setZero();
    if (q(0) >= -tol) return ContactMode::kOpen;
    throw RunFailure(RunStatus::kNoConsistentMode, "trial-and-error found no consistent mode (stick, slip or open)");
  }
  const double n = -q(0) / w(0, 0);
  if (n > 0.0) {
    r(0) = n;
    return ContactMode::kSlipPositive;  // keeps its slip; only "closed" matters to the caller
  }
  return ContactMode::kOpen;
}

void Engine::project(double t, const Eigen::VectorXd& q, Eigen::VectorXd& v) {
  update(t, q, v);
  startRows();
  Eigen::Index n = 0;
  Eigen::VectorXd err(rhs_.size());
  for (Eigen::Index k = 0; k < nc_; ++k) {
    const ContactMode m = modes_[std::size_t(k)];
    if (!closed(m)) continue;
    if (!compliant(k)) {
      setRow(n, 2 * k, 1.0);
      err(n++) = kin_.normal_velocity(k);
    }
    if (m == ContactMode::kStick && !contact_tied_[std::size_t(k)]) {
      setRow(n, 2 * k + 1, 1.0);
      err(n++) = kin_.sliding_velocity(k);
      if (spatial_) {
        rows_.row(n) = kin_.second_tangent.row(k);
        err(n++) = kin_.second_tangent.row(k).dot(v);
      }
    }
  }
  for (Eigen::Index e = 0; e < nj_; ++e) {
    if (joint_modes_[std::size_t(e)] != ContactMode::kStick || tied_[std::size_t(e)]) continue;
    rows_.row(n) = joint_rows_.row(e);
    err(n++) = joint_rows_.row(e).dot(v);
  }
  if (n > 0) subtractCorrection(n, err, v);
}

void Engine::subtractCorrection(Eigen::Index n, const Eigen::VectorXd& err, Eigen::VectorXd& x) {
  if (sparse_) {
    // S y = err in the least-squares sense, S = R M⁻¹ Rᵀ: S's null space is Rᵀ's, so M⁻¹Rᵀ y is
    // the same for every least-squares y, and a rank-revealing QR gives one. The joints' rows,
    // with error 0, keep them to first order (G = M⁻¹ without joints).
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + d_rows_);
    rhs.head(n) = err.head(n);
    if (d_rows_ > 0) pushJointRows(n);
    buildSparseRows(n + d_rows_);
    const Eigen::SparseMatrix<double> gat = minv_->asDiagonal() * Eigen::SparseMatrix<double>(sparse_rows_.transpose());
    const Eigen::SparseMatrix<double> s = sparse_rows_ * gat;
    Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr(s);
    if (qr.info() != Eigen::Success)
      throw RunFailure(RunStatus::kIntegratorFailure, "the projection's QR failed (" + std::to_string(n) + " rows)");
    x -= gat * qr.solve(rhs);
    return;
  }
  Eigen::MatrixXd gat(nv_, n);
  applyG(rows_.topRows(n).transpose(), gat);
  const Eigen::MatrixXd s = rows_.topRows(n) * gat;
  x -= gat * s.completeOrthogonalDecomposition().solve(err.head(n));
}

// The integrator leaves the closed contacts of the phase that ends off their constraints by
// its tolerance (g, ġ ≈ rtol), and the mode decision at the event reads g and ġ against
// gap_tolerance and velocity_tolerance: a loose rtol would have a sliding block "lift off" a
// slope below its surface and fall through it. So the unilateral ones are put back on
// g = 0 (Gauss–Newton steps of subtractCorrection on the gaps) and the velocities projected
// with the ending phase's modes before anything is decided.
void Engine::removeDrift(double t, Eigen::VectorXd& q, Eigen::VectorXd& v) {
  for (int iteration = 0; iteration < 4; ++iteration) {
    update(t, q, v);
    startRows();
    Eigen::Index n = 0;
    double worst = 0.0;
    Eigen::VectorXd err(nc_);
    for (Eigen::Index k = 0; k < nc_; ++k) {
      // The closed contacts back onto g = 0, and the open ones that sank below it (an event's
      // root fires a little below g = 0 where it must: the phase's comment in handleEvent).
      if (compliant(k) || bilateral(k) || (!closed(modes_[std::size_t(k)]) && kin_.gap(k) >= 0.0)) continue;
      setRow(n, 2 * k, 1.0);
      err(n++) = kin_.gap(k);
      worst = std::max(worst, std::abs(kin_.gap(k)));
    }
    if (n == 0 || worst <= 1e-3 * opt_.gap_tolerance) break;
    if (nq_ == nv_) {  // q̇ = v (planar)
      subtractCorrection(n, err, q);
    } else {  // q̇ = H(q) v (Euler parameters): the correction is a velocity-space step
      drift_step_.setZero(nv_);
      subtractCorrection(n, err, drift_step_);
      mechanism_.addToPositions(drift_step_, q);
    }
  }
  project(t, q, v);
}

bool Engine::impact(double t, Eigen::VectorXd& v) {
  std::vector<Eigen::Index> set;
  bool any = false;
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (compliant(k)) continue;
    if (bilateral(k) || kin_.gap(k) <= opt_.gap_tolerance) set.push_back(k);
    if (!bilateral(k) && kin_.gap(k) <= opt_.gap_tolerance &&
        kin_.normal_velocity(k) < -opt_.velocity_tolerance)
      any = true;
  }
  if (!any) return false;
  const auto nk = static_cast<Eigen::Index>(set.size());
  const Eigen::VectorXd pre = kin_.normal_velocity;
  // The sparse path (no bilateral contact there) keeps W and the velocity jump sparse.
  const bool by_nsgs = bySparseSolver(nk);
  const bool tangential = opt_.impact_law == "newton-tangential";
  for (int attempt = 0; attempt < 4 * (1 << std::min<int>(int(nk), 8)); ++attempt) {
    Eigen::MatrixXd j(sparse_ ? 0 : 2 * nk, nv_), gjt;
    lcp::FrictionProblem2D p;
    lcp::SparseFrictionProblem2D sparse_problem;
    p.q.resize(2 * nk);
    p.mu.resize(nk);
    startRows();
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      const double sigma = bilateral(k) ? side_[std::size_t(k)] : 1.0;
      if (sparse_) {
        setRow(2 * i, 2 * k, 1.0);
        setRow(2 * i + 1, 2 * k + 1, 1.0);
        setCol(2 * i, 2 * k, 1.0);
        setCol(2 * i + 1, 2 * k + 1, 1.0);
      } else {
        j.row(2 * i) = sigma * kin_.jacobian.row(2 * k);
        j.row(2 * i + 1) = kin_.jacobian.row(2 * k + 1);
      }
      const double gdot = sigma * kin_.normal_velocity(k);
      const double e = (!bilateral(k) && -gdot > opt_.plastic_velocity) ? contact(k).restitution : 0.0;
      p.q(2 * i) = gdot + e * std::min(gdot, 0.0);
      p.q(2 * i + 1) = (tangential ? 1.0 + e : 1.0) * kin_.sliding_velocity(k);
      p.mu(i) = contact(k).mu_kinetic;
    }
    if (sparse_) {  // the impulses act along the rows (C = R), the joints' after the contacts'
      if (d_rows_ > 0) pushJointRows(2 * nk);
      buildSparseRows(2 * nk + 2 * d_blocks_);
      sparse_problem.W = problemW();
      sparse_problem.bilateral = d_blocks_;
      if (!by_nsgs) p.W = d_rows_ > 0 ? eliminatedW(2 * nk) : Eigen::MatrixXd(sparse_problem.W);
    } else {
      gjt.resize(nv_, j.rows());
      applyG(j.transpose(), gjt);
      p.W = j * gjt;
    }
    const lcp::FrictionResult r = by_nsgs ? solveSparse(sparse_problem, p) : solveProblem(p);
    if (!r.ok()) unsolved(r, p, t);
    // A bilateral contact that the impulse would pull off its side: try the other side.
    bool flipped = false;
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      if (bilateral(k) && r.u(2 * i) > opt_.velocity_tolerance) {
        side_[std::size_t(k)] = -side_[std::size_t(k)];
        flipped = true;
        break;
      }
    }
    if (flipped) continue;
    Eigen::VectorXd before = p.q;  // without Newton's e ġ⁻ (and e v_t⁻)
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      before(2 * i) = (bilateral(k) ? side_[std::size_t(k)] : 1.0) * kin_.normal_velocity(k);
      before(2 * i + 1) = kin_.sliding_velocity(k);
    }
    Eigen::VectorXd w_impulse;
    if (sparse_ && (d_rows_ == 0 || r.r.size() > 2 * nk)) {  // on the sparse W, the joints' rows with it
      w_impulse = (sparse_problem.W * r.r).head(2 * nk);
      v += minv_->asDiagonal() * (sparse_rows_.transpose() * r.r);
    } else {  // on the dense W (the joints eliminated)
      w_impulse = p.W * r.r;
      v += (sparse_ ? eliminated_gc_ : gjt) * r.r;
    }
    checkImpactWork(t, set, before, w_impulse, r.r.head(2 * nk));
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      if (!bilateral(k) && pre(k) < -opt_.velocity_tolerance) addEvent(t, k, EventKind::kImpact);
    }
    return true;
  }
  std::ostringstream os;
  os << "impact at t = " << t << " s: no consistent side for the bilateral contacts";
  throw RunFailure(RunStatus::kNoConsistentMode, os.str());
}

void Engine::requireSpatialContacts(const EventDrivenOptions& opt) const {
  const auto refuse = [](const std::string& why) { throw std::invalid_argument("event-driven: " + why); };
  if (opt.solver != "auto" && opt.solver != "lemke" && opt.solver != "nsgs" && opt.solver != "newton" &&
      opt.solver != "round-cone")
    refuse("spatial contacts take the solver lemke (our Lemke on the faceted cone, facets " +
           std::to_string(opt.facets) + "), or round-cone, nsgs or newton (ours on the round cone), got '" +
           opt.solver + "'");
  bool friction = false;
  for (const RigidContact& c : contacts_) {
    if (!c.spatial())
      refuse("contact '" + c.name + "' is planar, and others of the mechanism are spatial");
    if (c.normal == RigidContact::Normal::kCompliant && c.frictional())
      refuse("contact '" + c.name + "' is compliant with Coulomb friction in its tangent plane; event-driven takes "
             "a spatial clearance joint's friction on its rigid contacts (rigid_restitution)");
    friction = friction || c.frictional();
  }
  if (friction && nj_ > 0)
    refuse("friction in joint '" + joint(0).name + "' together with a spatial clearance joint's friction");
}

// Both solve the problem posed in W's units, (W/s, q) for s r (lcp::frictionScale, exact), as the
// planar reduction does: a heavy mechanism's forces (W ~ 1/m) no longer weigh m times over in
// the solvers' natural map, whose tolerance a 1e5 kg box on a slope then missed.
void Engine::scaleSpatial(const lcp::FrictionProblem3D& p) {
  spatial_scale_ = lcp::frictionScale(p.W);
  scaled_.W = p.W / spatial_scale_;
  scaled_.q = p.q;
  scaled_.mu = p.mu;
}

bool Engine::trySpatial(const lcp::FrictionProblem3D& p) {
  scaleSpatial(p);
  if (round_) {
    round_->solve(scaled_, spatial_result_);
  } else {
    faceted_->solve(scaled_, spatial_result_);
    used_lemke_ = true;
  }
  spatial_result_.r /= spatial_scale_;
  ++run_.lcp_solves;
  run_.pivots += spatial_result_.pivots;
  return spatial_result_.ok();
}

// A slip from rest on the round cone is solved again, from its answer, to kRefinedTolerance,
// and that answer kept if it converges: at the default tolerance a contact whose force sits on its
// cone (a slope at tan α = μs) has an acceleration of ~1e-8 ‖q‖, above the 1e-9 ‖q‖ of a slip.
void Engine::refineSlipFromRest(const std::vector<bool>& rest, double tol) {
  if (!round_fine_) return;
  bool slips = false;
  for (Eigen::Index i = 0; i < scaled_.contacts() && !slips; ++i)
    slips = rest[std::size_t(i)] && spatial_result_.u.segment<2>(3 * i + 1).norm() > tol;
  if (!slips) return;
  spatial_result_.r *= spatial_scale_;  // the start, in W's units (a power of two: exact both ways)
  round_fine_->solve(scaled_, fine_result_, &spatial_result_.r);
  spatial_result_.r /= spatial_scale_;
  fine_result_.r /= spatial_scale_;
  ++run_.lcp_solves;
  run_.pivots += fine_result_.pivots;
  if (fine_result_.ok()) std::swap(spatial_result_, fine_result_);
}

std::string Engine::spatialSolverName() const {
  if (!round_) return "lemke (" + std::to_string(opt_.facets) + " facets)";
  return opt_.solver == "round-cone" || opt_.solver == "auto" ? "round cone (auto)" : opt_.solver + " (round cone)";
}

void Engine::spatialFailure(double t, const lcp::FrictionProblem3D& p, const std::vector<Eigen::Index>& set,
                            const std::string& detail) const {
  std::ostringstream os;
  os << "contact problem at t = " << t << " s (" << p.contacts() << " spatial contacts:";
  for (const Eigen::Index k : set) os << " '" << contact(k).name << "'";
  os << ") not solved by " << spatialSolverName() << ": " << lcp::toString(spatial_result_.status)
     << ", residual " << spatial_result_.residual
     << (spatial_result_.message.empty() ? "" : " (" + spatial_result_.message + ")") << detail;
  throw RunFailure(RunStatus::kContactSolverFailure, os.str(), spatial_result_.status, spatial_result_.residual);
}

// The impact of spatial contacts: the fc3d problem over (n, t, b) of every contact at g ≈ 0,
// Moreau's form (1 + e) ġ⁻ on each with the impact's one e (the file comment), kinetic friction;
// with the impact law newton-tangential, (1 + e) v_T⁻ on the tangential rows too.
bool Engine::impactSpatial(double t, Eigen::VectorXd& v) {
  std::vector<Eigen::Index> set;
  bool any = false;
  double fastest = 0.0;  // the impact's fastest approach: below plastic_velocity it is plastic
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (compliant(k) || kin_.gap(k) > opt_.gap_tolerance) continue;
    set.push_back(k);
    fastest = std::max(fastest, -kin_.normal_velocity(k));
    any = any || kin_.normal_velocity(k) < -opt_.velocity_tolerance;
  }
  if (!any) return false;
  const auto nk = Eigen::Index(set.size());
  Eigen::MatrixXd j(3 * nk, nv_);
  lcp::FrictionProblem3D p;
  p.q.resize(3 * nk);
  p.mu.resize(nk);
  const bool tangential = opt_.impact_law == "newton-tangential";
  Eigen::VectorXd before(3 * nk);  // (ġ⁻, v_t⁻, v_b⁻)
  for (Eigen::Index i = 0; i < nk; ++i) {
    const Eigen::Index k = set[std::size_t(i)];
    j.row(3 * i) = kin_.jacobian.row(2 * k);
    j.row(3 * i + 1) = kin_.jacobian.row(2 * k + 1);
    j.row(3 * i + 2) = kin_.second_tangent.row(k);
    p.mu(i) = contact(k).mu_kinetic;
    const double e = fastest > opt_.plastic_velocity ? contact(k).restitution : 0.0;
    before.segment<3>(3 * i) << kin_.normal_velocity(k), kin_.sliding_velocity(k),
        j.row(3 * i + 2).dot(v);  // 0 to round-off: t is along v_T
    p.q.segment<3>(3 * i) = before.segment<3>(3 * i);
    p.q(3 * i) *= 1.0 + e;
    if (tangential) p.q.segment<2>(3 * i + 1) *= 1.0 + e;
  }
  Eigen::MatrixXd gjt(nv_, j.rows());
  applyG(j.transpose(), gjt);
  p.W = j * gjt;
  const lcp::FrictionResult& r = solveSpatial(t, p, set);
  checkImpactWork(t, set, before, p.W * r.r, r.r);
  v += gjt * r.r;
  for (const Eigen::Index k : set)
    if (kin_.normal_velocity(k) < -opt_.velocity_tolerance) addEvent(t, k, EventKind::kImpact);
  return true;
}

// The mode decision of spatial contacts: the fc3d problem at the acceleration level over the
// contacts at g ≈ 0, ġ ≈ 0, u = (g̈, v̇_t, v̇_b) = W r + R a₀ + (b_n, b_t, b_b). A contact at rest
// (‖v_T‖ ≤ velocity_tolerance) has the cone ‖F_T‖ ≤ μs N; a sliding one carries its kinetic
// force −μk N t in W's normal column, its cone shut (μ = 0). At rest: v̇_T = 0 sticks, else it
// slips from rest against its tangential acceleration's direction, anchored until it slides.
void Engine::decideSpatial(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                           const std::vector<int>& fired) {
  update(t, q, v);
  std::vector<Eigen::Index> set;
  std::vector<ContactMode> next(contacts_.size(), ContactMode::kOpen);
  for (Eigen::Index k = 0; k < nc_; ++k)
    if (!compliant(k) && kin_.gap(k) <= opt_.gap_tolerance && std::abs(kin_.normal_velocity(k)) <= opt_.velocity_tolerance)
      set.push_back(k);
  const auto nk = Eigen::Index(set.size());
  std::vector<Eigen::Vector3d> direction(contacts_.size(), Eigen::Vector3d::Zero());
  if (nk > 0) {
    lcp::FrictionProblem3D p;
    p.q.resize(3 * nk);
    p.mu.resize(nk);
    std::vector<bool> rest(std::size_t(nk), false);
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      const RigidContact& c = contact(k);
      rows_.row(3 * i) = kin_.jacobian.row(2 * k);
      rows_.row(3 * i + 1) = kin_.jacobian.row(2 * k + 1);
      rows_.row(3 * i + 2) = kin_.second_tangent.row(k);
      cols_.leftCols(3 * nk).middleCols(3 * i, 3) = rows_.middleRows(3 * i, 3).transpose();
      rest[std::size_t(i)] = c.frictional() && kin_.sliding_velocity(k) <= opt_.velocity_tolerance;
      p.mu(i) = rest[std::size_t(i)] ? c.mu_static : 0.0;
      if (!rest[std::size_t(i)] && c.frictional()) cols_.col(3 * i) -= c.mu_kinetic * kin_.jacobian.row(2 * k + 1).transpose();
      p.q.segment<3>(3 * i) << kin_.normal_drift(k), kin_.tangential_drift(k), kin_.second_drift(k);
    }
    applyG(cols_.leftCols(3 * nk), gb_.leftCols(3 * nk));
    p.W = rows_.topRows(3 * nk) * gb_.leftCols(3 * nk);
    p.q += rows_.topRows(3 * nk) * response_.freeAcceleration();
    if (!trySpatial(p)) {
      // With a contact sliding, W's normal block need not be a P-matrix (the kinetic force's
      // moment pulls the contact shut): no solution is then Painlevé's paradox.
      const bool sliding = std::any_of(set.begin(), set.end(), [&](Eigen::Index k) {
        return contact(k).frictional() && kin_.sliding_velocity(k) > opt_.velocity_tolerance;
      });
      spatialFailure(t, p, set,
                     !sliding                   ? ""
                     : normalBlockIsP(p.W, 3) ? " — not Painlevé's paradox (the normal block is a P-matrix, its "
                                                  "symmetric part positive definite): the solvers found no solution"
                                                : " — inconsistent (Painlevé-type) contact problem: no normal forces "
                                                  "keep the sliding contacts closed");
    }
    const double tol = 1e-9 * std::max(1.0, p.q.lpNorm<Eigen::Infinity>());
    refineSlipFromRest(rest, tol);
    const lcp::FrictionResult& res = spatial_result_;
    double n_max = 0.0;
    for (Eigen::Index i = 0; i < nk; ++i) n_max = std::max(n_max, res.r(3 * i));
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      const Eigen::Matrix3d& f = kin_.frame[std::size_t(k)];
      const Eigen::Vector3d force = res.r(3 * i + 1) * f.col(1) + res.r(3 * i + 2) * f.col(2);
      const Eigen::Vector3d accel = res.u(3 * i + 1) * f.col(1) + res.u(3 * i + 2) * f.col(2);
      ContactMode& m = next[std::size_t(k)];
      if ((res.r(3 * i) <= tol * force_unit_(k) && res.u(3 * i) > tol) || liftsOff(k, res.r(3 * i), n_max))
        m = ContactMode::kOpen;
      else if (!rest[std::size_t(i)]) m = ContactMode::kSlipPositive;  // sliding on, or frictionless
      else if (accel.norm() > tol) m = ContactMode::kSlipPositive, direction[std::size_t(k)] = accel.normalized();
      else m = ContactMode::kStick;
      // Break-away (as planar contacts): the sticking force has just reached μs N.
      const bool limit_fired = !fired.empty() && fired[std::size_t(2 * k + 1)] != 0 &&
                               modes_[std::size_t(k)] == ContactMode::kStick;
      if (limit_fired && m == ContactMode::kStick &&
          force.norm() >= (1.0 - kStickAtLimit) * p.mu(i) * res.r(3 * i) && force.norm() > 0.0) {
        m = ContactMode::kSlipPositive;
        direction[std::size_t(k)] = -force.normalized();
      }
    }
    // The contacts that slip from rest do so with μk: their direction is the tangential
    // acceleration's under kinetic friction, which the problem with μk gives (where W_TT is
    // anisotropic it differs much from the direction at μs).
    bool again = false;
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      if (direction[std::size_t(k)].squaredNorm() == 0.0) continue;
      p.mu(i) = contact(k).mu_kinetic;
      again = true;
    }
    if (again) {
      const lcp::FrictionResult& slip = solveSpatial(t, p, set);
      for (Eigen::Index i = 0; i < nk; ++i) {
        const Eigen::Index k = set[std::size_t(i)];
        const Eigen::Matrix3d& f = kin_.frame[std::size_t(k)];
        const Eigen::Vector3d accel = slip.u(3 * i + 1) * f.col(1) + slip.u(3 * i + 2) * f.col(2);
        if (direction[std::size_t(k)].squaredNorm() > 0.0 && accel.norm() > tol)
          direction[std::size_t(k)] = accel.normalized();
      }
    }
  }
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (compliant(k)) continue;
    const ContactMode before = modes_[std::size_t(k)];
    // A slip from rest (or through it) is an event; one already anchored goes on.
    const bool starts = direction[std::size_t(k)].squaredNorm() > 0.0 && !(slipping(before) && anchored(k));
    if (!initial) modeEvent(t, k, before, next[std::size_t(k)], starts);
    modes_[std::size_t(k)] = next[std::size_t(k)];
    slip_direction_[std::size_t(k)] = direction[std::size_t(k)];
  }
}

void Engine::checkImpactWork(double t, const std::vector<Eigen::Index>& set, const Eigen::VectorXd& before,
                             const Eigen::VectorXd& w_impulse, const Eigen::VectorXd& impulse) const {
  double work = 0.0, scale = 0.0;
  for (Eigen::Index i = 0; i < impulse.size(); ++i) {
    const double after = before(i) + w_impulse(i);
    work += 0.5 * impulse(i) * (before(i) + after);
    scale += 0.5 * std::abs(impulse(i)) * (std::abs(before(i)) + std::abs(after));
  }
  if (!(work > kImpactWorkTolerance * scale)) return;
  std::ostringstream os;
  os << "impact at t = " << t << " s adds " << work << " J of energy at";
  for (const Eigen::Index k : set) os << " '" << contact(k).name << "'";
  os << ": Newton's restitution with Coulomb friction is not energetically consistent here "
        "(Kane's paradox: a sticking or reversing contact whose impulse couples with the "
        "normal one); lower the restitution or the friction of these contacts"
     << (opt_.impact_law == "newton" ? ", or take the impact law newton-tangential (--impact-law), which restitutes "
                                       "the tangential velocity with the same e and never adds energy at one contact"
                                     : "");
  throw RunFailure(RunStatus::kNoConsistentMode, os.str());
}

void Engine::decideModes(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                         const std::vector<int>& fired) {
  update(t, q, v);
  std::vector<Eigen::Index> set;
  std::vector<ContactMode> next(contacts_.size(), ContactMode::kOpen);
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (compliant(k)) continue;
    const bool touching = bilateral(k) || (kin_.gap(k) <= opt_.gap_tolerance &&
                                           std::abs(kin_.normal_velocity(k)) <= opt_.velocity_tolerance);
    if (touching) set.push_back(k);
  }
  const auto nk = static_cast<Eigen::Index>(set.size());
  const int tries = 1 << std::min<int>(int(nk), 8);
  for (int attempt = 0; attempt <= tries; ++attempt) {
    if (attempt == tries) {
      std::ostringstream os;
      os << "inconsistent contact problem at t = " << t
         << " s: no side of the bilateral contacts admits a solution (Painlevé-type)";
      throw RunFailure(RunStatus::kNoConsistentMode, os.str());
    }
    startRows();
    lcp::FrictionProblem2D p;
    p.q.resize(2 * nk);
    p.mu.resize(nk);
    std::vector<bool> candidate(std::size_t(nk), false);
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      const RigidContact& c = contact(k);
      const double sigma = bilateral(k) ? side_[std::size_t(k)] : 1.0;
      setRow(2 * i, 2 * k, sigma);
      setRow(2 * i + 1, 2 * k + 1, 1.0);
      setCol(2 * i, 2 * k, sigma);
      setCol(2 * i + 1, 2 * k + 1, 1.0);
      const double vt = kin_.sliding_velocity(k);
      candidate[std::size_t(i)] = c.frictional() && std::abs(vt) <= opt_.velocity_tolerance;
      if (candidate[std::size_t(i)]) {
        p.mu(i) = c.mu_static;
      } else {
        p.mu(i) = 0.0;  // frictionless, or sliding with its kinetic force on the normal column
        if (sgn(vt) != 0.0) setCol(2 * i, 2 * k + 1, -sgn(vt) * c.mu_kinetic, true);
      }
      p.q(2 * i) = sigma * kin_.normal_drift(k);
      p.q(2 * i + 1) = kin_.tangential_drift(k);
    }
    // Many contacts on the sparse path: W stays sparse and NSGS (with its exact finish) solves
    // it; otherwise W is dense, for Lemke.
    const bool by_nsgs = bySparseSolver(nk);
    lcp::SparseFrictionProblem2D sparse_problem;
    if (sparse_) {  // the joints' rows after the contacts', their u = D (v̇ − a₀)
      if (d_rows_ > 0) pushJointRows(2 * nk);
      buildSparseRows(2 * nk + 2 * d_blocks_);
      sparse_problem.W = problemW();
      sparse_problem.bilateral = d_blocks_;
      p.q += sparse_rows_.topRows(2 * nk) * response_.freeAcceleration();
      if (!by_nsgs || nk == 1) p.W = d_rows_ > 0 ? eliminatedW(2 * nk) : Eigen::MatrixXd(sparse_problem.W);
    } else {
      applyG(cols_.leftCols(2 * nk), gb_.leftCols(2 * nk));
      p.W = rows_.topRows(2 * nk) * gb_.leftCols(2 * nk);
      p.q += rows_.topRows(2 * nk) * response_.freeAcceleration();
    }
    const double tol = 1e-9 * std::max(1.0, p.q.lpNorm<Eigen::Infinity>());
    if (nk == 1 && !bilateral(set[0]) && contact(set[0]).frictional() && !candidate[0] &&
        p.W(0, 0) < 0.0 && p.q(0) > tol) {
      // One sliding contact whose friction makes g̈ fall with N (A = W₀₀ < 0) while it would
      // lift off without it (g̈ = q > 0 at N = 0): N = 0 and N = q / |A| both solve the LCP.
      std::ostringstream os;
      os << "indeterminate (Painlevé-type) contact problem at t = " << t << " s: '"
         << contact(set[0]).name << "' (sliding) may lift off (N = 0, normal acceleration "
         << p.q(0) << " m/s²) or stay closed (N = " << p.q(0) / -p.W(0, 0)
         << " N): the contact problem has two solutions";
      throw RunFailure(RunStatus::kNoConsistentMode, os.str());
    }

    Eigen::VectorXd r = Eigen::VectorXd::Zero(2 * nk), u = p.q;
    std::vector<ContactMode> lcp_mode(static_cast<std::size_t>(nk));
    const bool single = nk == 1;
    if (opt_.solver == "trial-and-error" && nk > 1)
      throw RunFailure(RunStatus::kContactSolverFailure,
                       "solver trial-and-error handles one contact at a time; " +
                       std::to_string(nk) + " contacts touch at t = " + std::to_string(t) + " s");
    if (nk > 0 && opt_.solver != "trial-and-error") {
      std::vector<bool> two_sided(std::size_t(nk), false);
      for (Eigen::Index i = 0; i < nk; ++i) two_sided[std::size_t(i)] = bilateral(set[std::size_t(i)]);
      const lcp::FrictionResult res = by_nsgs ? solveSparse(sparse_problem, p) : solveProblem(p, two_sided);
      if (!res.ok()) {
        // Name the contacts; with one sliding, no solution at the acceleration level (Lemke's
        // secondary ray) is Painlevé's paradox: the friction's moment pulls the contact into
        // the ground faster than the normal force can push it out.
        std::ostringstream os;
        bool sliding = false;
        os << "; contacts:";
        for (Eigen::Index i = 0; i < nk; ++i) {
          const RigidContact& c = contact(set[std::size_t(i)]);
          const bool slides = !candidate[std::size_t(i)] && c.frictional();
          sliding = sliding || slides;
          os << " " << c.name << (slides ? " (sliding)" : "");
        }
        if (sliding && res.status == lcp::Status::kRayTermination) {
          // Painlevé needs a normal block that is no P-matrix; one whose symmetric part is
          // positive definite is one, and then the ray says nothing about existence.
          if (normalBlockIsP(p.W.size() > 0 ? p.W : Eigen::MatrixXd(sparse_problem.W), 2))
            os << " — not Painlevé's paradox (the normal block is a P-matrix, its symmetric part positive "
                  "definite): the solvers found no solution of the friction problem";
          else
            os << " — inconsistent (Painlevé-type) contact problem: no normal force keeps the "
                  "sliding contact closed";
        }
        unsolved(res, p, t, os.str());
      }
      r = res.r;
      u = res.u;
    }
    // A bilateral contact solved by the HLCP pushes on the other wall where rₙ < 0: its side
    // flips and the problem is posed again on it (a sliding contact's kinetic force sits in
    // W's normal column for its side; the trial-and-error cross-check reads p).
    bool flipped_side = false;
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      if (!bilateral(k) || r(2 * i) >= -tol) continue;
      side_[std::size_t(k)] = -side_[std::size_t(k)];
      flipped_side = true;
    }
    if (flipped_side) continue;
    for (Eigen::Index i = 0; i < nk; ++i) {
      ContactMode m;
      if (r(2 * i) <= tol && u(2 * i) > tol) m = ContactMode::kOpen;
      else if (!candidate[std::size_t(i)])
        m = sgn(kin_.sliding_velocity(set[std::size_t(i)])) >= 0 ? ContactMode::kSlipPositive
                                                               : ContactMode::kSlipNegative;
      else if (std::abs(u(2 * i + 1)) <= tol) m = ContactMode::kStick;
      else m = u(2 * i + 1) > 0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
      lcp_mode[std::size_t(i)] = m;
    }
    if (single && (opt_.solver == "trial-and-error" || opt_.cross_check)) {
      Eigen::Vector2d rt;
      ContactMode m = trialAndError(p, candidate[0], p.mu(0), tol, rt);
      if (!candidate[0] && closed(m))  // sliding on: its direction is that of v_t
        m = kin_.sliding_velocity(set[0]) >= 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
      if (opt_.solver == "trial-and-error") {
        lcp_mode[0] = m;
        r = rt;
        u = p.W * rt + p.q;
      } else if (candidate[0]) {
        ++run_.mode_checks;
        if (m != lcp_mode[0]) ++run_.mode_mismatches;
      }
    }
    // A bilateral contact cannot open: pose it on its other side.
    bool flipped = false;
    for (Eigen::Index i = 0; i < nk && !flipped; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      if (bilateral(k) && lcp_mode[std::size_t(i)] == ContactMode::kOpen) {
        side_[std::size_t(k)] = -side_[std::size_t(k)];
        flipped = true;
      }
    }
    if (flipped) continue;
    double n_max = 0.0;
    for (Eigen::Index i = 0; i < nk; ++i) n_max = std::max(n_max, r(2 * i));
    for (Eigen::Index i = 0; i < nk; ++i) {
      const Eigen::Index k = set[std::size_t(i)];
      ContactMode& m = lcp_mode[std::size_t(i)];
      // Break-away: the sticking force has just reached μs N (its root fired), so the
      // decision sits on the boundary of the friction segment where "stick" is exact only at
      // this instant; the force keeps growing, so the contact slips against it.
      const bool limit_fired = !fired.empty() && fired[std::size_t(2 * k + 1)] != 0 &&
                               modes_[std::size_t(k)] == ContactMode::kStick;
      if (limit_fired && m == ContactMode::kStick &&
          std::abs(r(2 * i + 1)) >= (1.0 - kStickAtLimit) * p.mu(i) * r(2 * i))
        m = r(2 * i + 1) > 0.0 ? ContactMode::kSlipNegative : ContactMode::kSlipPositive;
      if (liftsOff(k, r(2 * i), n_max)) m = ContactMode::kOpen;
      next[std::size_t(k)] = m;
    }
    break;
  }
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (compliant(k)) continue;
    if (!initial) modeEvent(t, k, modes_[std::size_t(k)], next[std::size_t(k)], false);
    modes_[std::size_t(k)] = next[std::size_t(k)];
  }
}

void Engine::modeEvent(double t, Eigen::Index k, ContactMode before, ContactMode after, bool restarts) {
  if (before == after && !restarts) return;
  if (after == ContactMode::kOpen) addEvent(t, k, EventKind::kOpen);
  else if (after == ContactMode::kStick) addEvent(t, k, EventKind::kStick);
  else if (contact(k).frictional() && (after != before || !closed(before) || restarts))
    addEvent(t, k, after == ContactMode::kSlipPositive ? EventKind::kSlipPositive : EventKind::kSlipNegative);
  else if (!closed(before)) addEvent(t, k, EventKind::kClose);
}

// Friction of compliant contacts, whose normal force is known: with one such contact at
// rest and no other active rows, its tangential acceleration is a = a₀ + w F exactly
// (w = J_t G J_tᵀ), and the decision is lcp::SingleContact's — by the saturation LCP and by
// trial and error, compared (Zheng et al. §3.2–3.3). Otherwise the contacts at rest are
// assumed stuck and released one at a time, like the joints.
void Engine::decideCompliant(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                             const std::vector<int>& fired) {
  std::vector<Eigen::Index> rest;
  const std::vector<ContactMode> before = modes_;
  bool other_rows = false;
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (!compliant(k)) {
      other_rows = other_rows || closed(modes_[std::size_t(k)]);
      continue;
    }
    const double vt = kin_.sliding_velocity(k);
    if (contact(k).frictional() && std::abs(vt) <= opt_.velocity_tolerance) rest.push_back(k);
    modes_[std::size_t(k)] = vt >= 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
  }
  for (Eigen::Index e = 0; e < nj_; ++e) other_rows = other_rows || joint_modes_[std::size_t(e)] == ContactMode::kStick;
  auto at_limit = [&](Eigen::Index k, double excess, double limit) {
    return !fired.empty() && fired[std::size_t(2 * k + 1)] != 0 &&
           before[std::size_t(k)] == ContactMode::kStick && excess >= -kStickAtLimit * limit;
  };
  if (rest.size() == 1 && !other_rows) {
    const Eigen::Index k = rest.front();
    if (!phase(t, q, v)) throw RunFailure(RunStatus::kIntegratorFailure, "singular mode system at t = " + std::to_string(t) + " s");
    const auto jt = kin_.jacobian.row(2 * k + 1);
    lcp::SingleContact sc;
    const Eigen::VectorXd jt_column = jt.transpose();
    Eigen::VectorXd gjt(nv_);
    applyG(jt_column, gjt);
    sc.compliance = jt_column.dot(gjt);
    sc.free_acceleration = jt.dot(vdot_) + kin_.tangential_drift(k) - sc.compliance * friction_force_(k);
    sc.normal_force = normal_force_(k);
    sc.mu_static = contact(k).mu_static;
    sc.mu_kinetic = contact(k).mu_kinetic;
    const lcp::SingleContactResult by_lcp = lcp::solveSingleContactWithLemke(sc, lemke_);
    const lcp::SingleContactResult by_trial = lcp::solveByTrialAndError(sc);
    ++run_.lcp_solves;
    run_.pivots += by_lcp.pivots;
    if (!by_lcp.ok() || !by_trial.ok())
      throw RunFailure(RunStatus::kContactSolverFailure, "stick/slip decision of " + contact(k).name + " at t = " + std::to_string(t) +
                       " s failed: " + (by_lcp.ok() ? by_trial.message : by_lcp.message));
    if (opt_.cross_check || opt_.solver == "trial-and-error") {
      ++run_.mode_checks;
      if (by_lcp.mode != by_trial.mode) ++run_.mode_mismatches;
    }
    const lcp::SingleContactResult& d = opt_.solver == "trial-and-error" ? by_trial : by_lcp;
    ContactMode m = d.mode == lcp::ContactMode::kStick          ? ContactMode::kStick
                    : d.mode == lcp::ContactMode::kSlipPositive ? ContactMode::kSlipPositive
                                                                : ContactMode::kSlipNegative;
    const double limit = sc.mu_static * sc.normal_force;
    if (m == ContactMode::kStick && at_limit(k, std::abs(d.friction) - limit, limit))
      m = d.friction > 0.0 ? ContactMode::kSlipNegative : ContactMode::kSlipPositive;
    modes_[std::size_t(k)] = m;
  } else if (!rest.empty()) {
    for (const Eigen::Index k : rest) modes_[std::size_t(k)] = ContactMode::kStick;
    for (std::size_t pass = 0; pass <= rest.size(); ++pass) {
      if (!phase(t, q, v)) throw RunFailure(RunStatus::kIntegratorFailure, "singular mode system at t = " + std::to_string(t) + " s");
      Eigen::Index worst = -1;
      double worst_excess = 0.0;
      for (const Eigen::Index k : rest) {
        if (modes_[std::size_t(k)] != ContactMode::kStick) continue;
        const double limit = contact(k).mu_static * normal_force_(k);
        const double excess = std::abs(friction_force_(k)) - limit;
        if ((excess > 1e-9 * std::max(force_unit_(k), limit) || at_limit(k, excess, limit)) &&
            (worst < 0 || excess > worst_excess)) {
          worst = k;
          worst_excess = excess;
        }
      }
      if (worst < 0) break;
      modes_[std::size_t(worst)] =
          friction_force_(worst) > 0.0 ? ContactMode::kSlipNegative : ContactMode::kSlipPositive;
    }
  }
  for (Eigen::Index k = 0; k < nc_; ++k) {
    const ContactMode m = modes_[std::size_t(k)];
    if (compliant(k) && contact(k).frictional() && !initial && m != before[std::size_t(k)])
      addEvent(t, k, m == ContactMode::kStick ? EventKind::kStick
                     : m == ContactMode::kSlipPositive ? EventKind::kSlipPositive
                                                       : EventKind::kSlipNegative);
  }
}

// Friction in revolute joints, by trial and error: every joint at rest (|ṡ| ≈ 0) is
// assumed stuck; the one whose torque leaves |T| ≤ μs r |R| the most starts to slip against
// it, and the others are checked again, until all remaining stuck joints hold.
void Engine::decideJoints(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v, bool initial,
                          const std::vector<int>& fired) {
  const std::vector<ContactMode> before = joint_modes_;
  const bool was_grouped = group();
  std::fill(tied_.begin(), tied_.end(), 0);
  std::fill(contact_tied_.begin(), contact_tied_.end(), 0);
  // Frictional contacts at rest in the loop (a prismatic guide) belong to a group too, whatever
  // the contact decision (made with ideal joints) gave them.
  update(t, q, v);
  std::vector<Eigen::Index> stuck_contacts;
  const std::vector<ContactMode> decided = modes_;
  for (Eigen::Index k = 0; k < nc_; ++k)
    if (!compliant(k) && contact(k).frictional() && closed(modes_[std::size_t(k)]) &&
        std::abs(kin_.sliding_velocity(k)) <= opt_.velocity_tolerance) {
      stuck_contacts.push_back(k);
      modes_[std::size_t(k)] = ContactMode::kStick;
    }
  // What the contact decision recorded for k at this event gives way to mode m.
  auto redo = [&](Eigen::Index k, ContactMode m) {
    modes_[std::size_t(k)] = m;
    auto& ev = run_.events;
    ev.erase(std::remove_if(ev.begin() + std::ptrdiff_t(events_at_event_), ev.end(),
                            [&](const ContactEvent& x) { return x.contact == int(k); }),
             ev.end());
    if (!initial && m != modes_at_event_[std::size_t(k)])
      addEvent(t, k, m == ContactMode::kStick ? EventKind::kStick
                     : m == ContactMode::kSlipPositive ? EventKind::kSlipPositive
                                                       : EventKind::kSlipNegative);
  };
  std::vector<Eigen::Index> rest;
  for (Eigen::Index e = 0; e < nj_; ++e) {
    const double rate = joint_rows_.row(e).dot(v);
    joint_modes_[std::size_t(e)] = std::abs(rate) <= opt_.velocity_tolerance ? ContactMode::kStick
                                   : rate > 0.0                            ? ContactMode::kSlipPositive
                                                                            : ContactMode::kSlipNegative;
    if (joint_modes_[std::size_t(e)] == ContactMode::kStick) rest.push_back(e);
  }
  // Several joints at rest whose rows depend on each other (a 1-DoF loop): one stuck joint
  // holds them all, and the group sticks or slips as a whole, by Blajer & Markiewicz's
  // criterion (§5): with every member resisting at μs, does the tendency of the motion
  // without friction reverse?
  if (!rest.empty() && rest.size() + stuck_contacts.size() > 1 && !phase(t, q, v)) {
    for (std::size_t i = 1; i < rest.size(); ++i) tied_[std::size_t(rest[i])] = 1;
    for (const Eigen::Index k : stuck_contacts) contact_tied_[std::size_t(k)] = 1;
    const double margin = groupMargin(t, q, v);
    const bool broke = !fired.empty() && was_grouped && fired[std::size_t(2 * nc_ + rest.front())] != 0;
    if (margin <= 0.0 || (broke && margin <= 1e-9)) {
      std::fill(tied_.begin(), tied_.end(), 0);
      std::fill(contact_tied_.begin(), contact_tied_.end(), 0);
      for (const Eigen::Index e : rest) {  // slip in the direction of the tendency
        joint_modes_[std::size_t(e)] = tendency_[std::size_t(e)] >= 0.0 ? ContactMode::kSlipPositive
                                                                        : ContactMode::kSlipNegative;
        torque_(e) = 0.0;
      }
      for (const Eigen::Index k : stuck_contacts)
        redo(k, contact_tendency_[std::size_t(k)] >= 0.0 ? ContactMode::kSlipPositive
                                                         : ContactMode::kSlipNegative);
    } else {
      for (const Eigen::Index k : stuck_contacts) redo(k, ContactMode::kStick);
    }
    if (!phase(t, q, v)) throw RunFailure(RunStatus::kIntegratorFailure, "singular mode system at t = " + std::to_string(t) + " s");
    rest.clear();
  } else {
    modes_ = decided;  // no group: the contact decision stands
  }
  // Joints at rest are released one at a time, the one whose sticking torque most exceeds μs r |R|
  // first; a released joint whose relative acceleration then opposes its slip (a joint released
  // later took its load: on a hanging chain the pins above) sticks again, once.
  std::vector<char> restuck(std::size_t(nj_), 0);
  for (Eigen::Index pass = 0; pass <= 3 * nj_ && !rest.empty(); ++pass) {
    if (!phase(t, q, v)) {
      // A stuck joint whose row the joints already hold — a slider at a crank's dead centre,
      // where no free motion moves it — leaves its friction undetermined and the mode system
      // singular. Its rate is zero by kinematics, and it reverses: it slips the way its rate
      // accelerates without friction.
      Eigen::Index dependent = -1;
      for (const Eigen::Index e : rest)
        if (joint_modes_[std::size_t(e)] == ContactMode::kStick) {
          joint_modes_[std::size_t(e)] = ContactMode::kSlipPositive;
          torque_(e) = 0.0;
          if (phase(t, q, v)) {
            dependent = e;
            break;
          }
          joint_modes_[std::size_t(e)] = ContactMode::kStick;
        }
      if (dependent < 0) {
        std::ostringstream os;
        os << "singular mode system at t = " << t << " s with joint friction stuck";
        throw RunFailure(RunStatus::kIntegratorFailure, os.str());
      }
      const ContactMode m = joint_rows_.row(dependent).dot(vdot_) >= 0.0 ? ContactMode::kSlipPositive
                                                                          : ContactMode::kSlipNegative;
      joint_modes_[std::size_t(dependent)] = m;
      torque_(dependent) = -direction(m) * joint(dependent).mu_kinetic * joint(dependent).lever * reaction_(dependent);
      continue;
    }
    const double round_off = 1e-9 * std::max(1.0, vdot_.lpNorm<Eigen::Infinity>());
    const auto back = std::find_if(rest.begin(), rest.end(), [&](Eigen::Index e) {
      const ContactMode m = joint_modes_[std::size_t(e)];
      return m != ContactMode::kStick && !restuck[std::size_t(e)] &&
             direction(m) * joint_rows_.row(e).dot(vdot_) < -round_off;
    });
    if (back != rest.end()) {
      joint_modes_[std::size_t(*back)] = ContactMode::kStick;
      restuck[std::size_t(*back)] = 1;
      continue;
    }
    Eigen::Index worst = -1;
    double worst_excess = 0.0;
    for (Eigen::Index e = 0; e < nj_; ++e) {
      if (joint_modes_[std::size_t(e)] != ContactMode::kStick) continue;
      const double limit = joint(e).mu_static * joint(e).lever * reaction_(e);
      const double excess = std::abs(torque_(e)) - limit;
      // Break-away: the torque has just reached the limit (its root fired) and keeps growing.
      const bool at_limit = !fired.empty() && fired[std::size_t(2 * nc_ + e)] != 0 &&
                            before[std::size_t(e)] == ContactMode::kStick &&
                            excess >= -kStickAtLimit * limit;
      if ((excess > 1e-9 * std::max(force_unit_(nc_ + e), limit) || at_limit) && (worst < 0 || excess > worst_excess)) {
        worst = e;
        worst_excess = excess;
      }
    }
    if (worst < 0) break;
    auto slip = [&](ContactMode m) {
      joint_modes_[std::size_t(worst)] = m;
      torque_(worst) = -direction(m) * joint(worst).mu_kinetic * joint(worst).lever * reaction_(worst);
    };
    slip(torque_(worst) > 0.0 ? ContactMode::kSlipNegative : ContactMode::kSlipPositive);
    // At a kinematic reversal (the joint's rate carried by no free motion: a link turning back
    // while the crank goes on) the sticking torque is ill-determined, its sign round-off: the
    // joint slips the way its rate accelerates. (At an ordinary break-away with μk = μs that
    // acceleration starts from zero: round-off must not flip it.)
    if (phase(t, q, v) && direction(joint_modes_[std::size_t(worst)]) * joint_rows_.row(worst).dot(vdot_) <
                              -1e-9 * std::max(1.0, vdot_.lpNorm<Eigen::Infinity>()))
      slip(joint_modes_[std::size_t(worst)] == ContactMode::kSlipPositive ? ContactMode::kSlipNegative
                                                                          : ContactMode::kSlipPositive);
  }
  for (Eigen::Index e = 0; e < nj_; ++e) {
    const ContactMode m = joint_modes_[std::size_t(e)];
    if (!initial && m != before[std::size_t(e)])
      addEvent(t, nc_ + e, m == ContactMode::kStick ? EventKind::kStick
                           : m == ContactMode::kSlipPositive ? EventKind::kSlipPositive
                                                             : EventKind::kSlipNegative);
  }
}

// Blajer's test for a stuck group: the relative accelerations without friction give the
// tendency d_e of each member (kept in tendency_); with every member slipping along d_e
// against μs at its own |R| (the largest friction it can offer), the group holds if the
// motion reverses. Returns −d s̈ of the first member under that friction (> 0: holds), or 1
// without a tendency. Ends with the phase of the present modes evaluated.
double Engine::groupMargin(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v) {
  std::vector<Eigen::Index> members, contacts;
  for (Eigen::Index e = 0; e < nj_; ++e)
    if (joint_modes_[std::size_t(e)] == ContactMode::kStick) members.push_back(e);
  for (Eigen::Index k = 0; k < nc_; ++k)
    if (contact_tied_[std::size_t(k)]) contacts.push_back(k);
  const std::vector<ContactMode> modes = joint_modes_, contact_modes = modes_;
  const std::vector<char> tied = tied_, contact_tied = contact_tied_;
  const Eigen::VectorXd torque = torque_;
  auto rate = [&](Eigen::Index e) { return joint_rows_.row(e).dot(vdot_); };
  auto slide = [&](Eigen::Index k) {  // v̇_t = J_t v̇ + b_t
    return kin_.jacobian.row(2 * k + 1).dot(vdot_) + kin_.tangential_drift(k);
  };
  // A member whose motion is round-off of the lead's (a guide at a dead centre) does not
  // move with the group to first order: like sgn(0) in Blajer's law, it resists with nothing.
  double lead = 0.0;
  auto moves = [&](double tendency) { return std::abs(tendency) > 1e-9 * std::abs(lead); };
  auto setAll = [&](bool free) {
    for (const Eigen::Index e : members) {
      joint_modes_[std::size_t(e)] = free || tendency_[std::size_t(e)] >= 0.0 ? ContactMode::kSlipPositive
                                                                               : ContactMode::kSlipNegative;
      mu_override_[std::size_t(e)] = free || !moves(tendency_[std::size_t(e)]) ? 0.0 : joint(e).mu_static;
      torque_(e) = 0.0;
    }
    for (const Eigen::Index k : contacts) {
      modes_[std::size_t(k)] = free || contact_tendency_[std::size_t(k)] >= 0.0 ? ContactMode::kSlipPositive
                                                                                 : ContactMode::kSlipNegative;
      contact_mu_override_[std::size_t(k)] =
          free || !moves(contact_tendency_[std::size_t(k)]) ? 0.0 : contact(k).mu_static;
    }
  };
  std::fill(tied_.begin(), tied_.end(), 0);
  std::fill(contact_tied_.begin(), contact_tied_.end(), 0);
  setAll(true);
  double margin = 1.0;
  if (!members.empty() && phase(t, q, v)) {
    for (const Eigen::Index e : members) tendency_[std::size_t(e)] = rate(e);
    for (const Eigen::Index k : contacts) contact_tendency_[std::size_t(k)] = slide(k);
    lead = tendency_[std::size_t(members.front())];
    // A contact that does not move to first order (a guide at a dead centre) starts to slide
    // the way the curvature of the loop takes it: its velocity-product term for velocities
    // along the group's starting motion.
    ContactKinematics probe;
    for (const Eigen::Index k : contacts)
      if (!moves(contact_tendency_[std::size_t(k)])) {
        if (probe.gap.size() == 0) mechanism_.evaluateContacts(t, q, vdot_, probe);
        contact_tendency_[std::size_t(k)] = std::copysign(1e-300, probe.tangential_drift(k));
      }
    if (std::abs(lead) > 1e-12 * std::max(1.0, std::abs(lead))) {
      setAll(false);
      if (phase(t, q, v)) margin = -(lead >= 0.0 ? 1.0 : -1.0) * rate(members.front());
    }
  }
  joint_modes_ = modes;
  modes_ = contact_modes;
  tied_ = tied;
  contact_tied_ = contact_tied;
  torque_ = torque;
  std::fill(mu_override_.begin(), mu_override_.end(), std::numeric_limits<double>::quiet_NaN());
  std::fill(contact_mu_override_.begin(), contact_mu_override_.end(), std::numeric_limits<double>::quiet_NaN());
  phase(t, q, v);
  return margin;
}

void Engine::handleEvent(double t, Eigen::VectorXd& q, Eigen::VectorXd& v, bool initial,
                         const std::vector<int>& fired) {
  if (!initial) removeDrift(t, q, v);
  update(t, q, v);
  // The closed contacts whose normal force the ending phase has brought to zero.
  unloaded_.assign(contacts_.size(), false);
  if (!initial && phase(t, q, v))
    for (Eigen::Index k = 0; k < nc_; ++k)
      unloaded_[std::size_t(k)] = closed(modes_[std::size_t(k)]) && !bilateral(k) && !compliant(k) &&
                                  ((!fired.empty() && fired[std::size_t(2 * k)] != 0) ||
                                   normal_force_(k) <= kSideHysteresis * force_unit_(k));
  if (spatial_ ? impactSpatial(t, v) : impact(t, v)) update(t, q, v);
  modes_at_event_ = modes_;
  events_at_event_ = run_.events.size();
  if (spatial_) decideSpatial(t, q, v, initial, fired);
  else decideModes(t, q, v, initial, fired);
  decideCompliant(t, q, v, initial, fired);
  if (nj_ > 0) decideJoints(t, q, v, initial, fired);
  project(t, q, v);
  // Bilateral sides follow the sign of the normal force of the new phase.
  if (phase(t, q, v))
    for (Eigen::Index k = 0; k < nc_; ++k)
      if (bilateral(k) && normal_force_(k) != 0.0) side_[std::size_t(k)] = sgn(normal_force_(k));
  // A unilateral root that starts the phase at zero, within the tolerances that count as zero
  // (an open contact's gap, a closed one's force), may start at or below it, or return to it
  // within one of CVODE's steps, and then never be seen to decrease through zero. Such a root
  // fires a margin below its start or zero instead: a closed contact's 2 kSideHysteresis; an
  // open contact's 2 gap_tolerance, or if it leaves an impact, max(ġ event_tolerance, 1e-3
  // gap_tolerance) (back within the event's tolerance in time, above the gap's round-off,
  // which reaches 1e-14 m on a spatial clearance joint's nearly aligned rims). removeDrift
  // lifts it out of that depth at the event.
  root_level_.setZero();
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (compliant(k) || bilateral(k)) continue;
    const double g = kin_.gap(k), gdot = kin_.normal_velocity(k), n = normal_force_(k);
    if (!closed(modes_[std::size_t(k)]) && g <= opt_.gap_tolerance)
      root_level_(k) = std::min(g, 0.0) - (gdot > opt_.velocity_tolerance
                                               ? std::max(gdot * opt_.event_tolerance, 1e-3 * opt_.gap_tolerance)
                                               : 2.0 * opt_.gap_tolerance);
    else if (closed(modes_[std::size_t(k)]) && n <= kSideHysteresis * force_unit_(k))
      root_level_(k) = std::min(n, 0.0) - 2.0 * kSideHysteresis * force_unit_(k);
  }
  setStickBands();
}

void Engine::setForceUnits(const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) {
  const auto unit = [](double w) { return w > 0.0 && std::isfinite(1.0 / w) ? 1.0 / w : 1.0; };
  Eigen::MatrixXd x(nv_, 1);  // once per contact and joint, at the start
  const auto weight = [&](const Eigen::VectorXd& row) {  // row M⁻¹ rowᵀ
    x.col(0) = row;
    mechanism_.applyInverseMass(x);
    return row.dot(x.col(0));
  };
  force_unit_.resize(nc_ + nj_);
  if (nc_ > 0) mechanism_.evaluateContacts(0.0, q0, v0, kin_, false);
  for (Eigen::Index k = 0; k < nc_; ++k) {
    if (minv_ == nullptr) {
      force_unit_(k) = unit(weight(kin_.jacobian.row(2 * k).transpose()));
      continue;
    }
    double w = 0.0;  // a diagonal M⁻¹ over the row's few entries (a granular pile's thousands of rows)
    for (ContactJacobian::InnerIterator it(kin_.jacobian, 2 * k); it; ++it)
      w += it.value() * it.value() * (*minv_)(it.col());
    force_unit_(k) = unit(w);
  }
  for (Eigen::Index e = 0; e < nj_; ++e) force_unit_(nc_ + e) = unit(weight(joint_rows_.row(e).transpose()));
}

// stick_band_ of the phase that starts (kStickAtLimit): the force of a stick at its limit drifts
// with the Baumgarte term on the sliding velocity the integrator leaves.
void Engine::setStickBands() {
  stick_band_.setZero();
  for (Eigen::Index k = 0; k < nc_; ++k) {
    const double limit = contact(k).mu_static * std::abs(normal_force_(k));
    if (modes_[std::size_t(k)] == ContactMode::kStick && stickMargin(k) <= kStickAtLimit * limit)
      stick_band_(k) = kStickAtLimit * limit;
  }
  for (Eigen::Index e = 0; e < nj_; ++e) {
    const double limit = joint(e).mu_static * joint(e).lever * reaction_(e);
    if (joint_modes_[std::size_t(e)] == ContactMode::kStick && jointStickMargin(e) <= kStickAtLimit * limit)
      stick_band_(nc_ + e) = kStickAtLimit * limit;
  }
}

void Engine::record(double t, const Eigen::Ref<const Eigen::VectorXd>& y) {
  if (!phase(t, y.head(nq_), y.tail(nv_))) return;
  for (Eigen::Index k = 0; k < nc_; ++k)
    if (!compliant(k) && !bilateral(k) && !(run_.max_penetration >= -kin_.gap(k))) run_.max_penetration = -kin_.gap(k);
  samples_.push_back(t);
  for (Eigen::Index i = 0; i < y.size(); ++i) samples_.push_back(y(i));
  for (Eigen::Index k = 0; k < nc_; ++k) {
    samples_.push_back(normal_force_(k));
    // A stuck spatial contact's F is −‖F_T‖, as Moreau–Jean's at rest (its t is arbitrary).
    const bool stuck_spatial = spatial_ && modes_[std::size_t(k)] == ContactMode::kStick;
    samples_.push_back(contact_tied_[std::size_t(k)] ? std::numeric_limits<double>::quiet_NaN()
                       : stuck_spatial               ? -std::hypot(friction_force_(k), friction_second_(k))
                                                     : friction_force_(k));
  }
  // A stuck group's friction torques, and hence its reactions, are indeterminate (Blajer).
  const bool grouped = group();
  for (Eigen::Index e = 0; e < nj_; ++e) {
    const bool unknown = grouped && joint_modes_[std::size_t(e)] == ContactMode::kStick;
    samples_.push_back(unknown ? std::numeric_limits<double>::quiet_NaN() : reaction_(e));
    samples_.push_back(unknown ? std::numeric_limits<double>::quiet_NaN() : torque_(e));
  }
}

/// An event at t, where CVODE stopped on `roots`: the guards against events that accumulate,
/// then the event itself from the state y, which it updates (q, v: its workspaces).
void Engine::onEvent(double t, const std::vector<int>& roots, Eigen::VectorXd& y, Eigen::VectorXd& q,
                     Eigen::VectorXd& v, long& events_here, double& last_event_t) {
  // Root functions 2k, 2k + 1 belong to contact k, 2 nc + e to joint friction e.
  const auto firing = [&] {
    std::string names;
    for (std::size_t k = 0; k < roots.size(); ++k) {
      if (roots[k] == 0) continue;
      const std::string& name = Eigen::Index(k) < 2 * nc_ ? contact(Eigen::Index(k) / 2).name
                                                          : joints_[k - std::size_t(2 * nc_)].name;
      if (names.find("'" + name + "'") == std::string::npos)
        names += (names.empty() ? "'" : ", '") + name + "'";
    }
    return names.empty() ? std::string("none") : names;
  };
  if (std::abs(t - last_event_t) <= opt_.event_tolerance) {
    if (++events_here > kMaxEventsAtOneInstant) {
      std::ostringstream os;
      os << "events accumulate at t = " << t << " s: more than " << kMaxEventsAtOneInstant
         << " within event_tolerance = " << opt_.event_tolerance << " s, the last at "
         << firing() << " (Zeno, or modes that contradict each other)";
      throw RunFailure(RunStatus::kLimitReached, os.str());
    }
  } else {
    events_here = 0;
  }
  last_event_t = t;
  if (long(run_.events.size()) >= opt_.max_events) {
    std::ostringstream os;
    os << "more than max_events = " << opt_.max_events << " events by t = " << t
       << " s, the last at " << firing();
    throw RunFailure(RunStatus::kLimitReached, os.str());
  }
  q = y.head(nq_);
  v = y.tail(nv_);
  mechanism_.normalizePositions(q);  // Euler parameters back to unit norm at each restart
  handleEvent(t, q, v, false, roots);
  y << q, v;
}

RunResult Engine::run(const Eigen::VectorXd& q0, const Eigen::VectorXd& v0) {
  if (q0.size() != nq_ || v0.size() != nv_)
    throw std::invalid_argument("simulateEventDriven: expected q0, v0 of sizes " +
                                std::to_string(nq_) + ", " + std::to_string(nv_));
  requireNoInitialPenetration(mechanism_, q0, opt_.gap_tolerance, "simulateEventDriven");
  setForceUnits(q0, v0);
  const double start = threadCpuSeconds();
  Eigen::VectorXd q = q0, v = v0, y(nq_ + nv_);
  y << q, v;  // the state reported if the first event already fails
  double t = 0.0;
  long events_here = 0;
  double last_event_t = -1.0;
  try {
    handleEvent(t, q, v, true);
    run_.initial_modes = modes_;
    run_.initial_modes.insert(run_.initial_modes.end(), joint_modes_.begin(), joint_modes_.end());
    y << q, v;
    CvodeOptions co;
    co.method = opt_.integrator;
    co.relative_tolerance = opt_.relative_tolerance;
    co.absolute_tolerance = opt_.absolute_tolerance;
    co.max_step = opt_.max_step;
    co.max_steps = std::min(opt_.max_steps, opt_.max_total_steps);
    CvodeIntegrator ode(
        int(nq_ + nv_),
        [this](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy, Eigen::Ref<Eigen::VectorXd> dy) {
          if (!yy.allFinite() || !phase(tt, yy.head(nq_), yy.tail(nv_))) return false;
          mechanism_.positionRate(yy.head(nq_), yy.tail(nv_), dy.head(nq_));
          dy.tail(nv_) = vdot_;
          return true;
        },
        co, int(2 * nc_ + nj_),
        [this](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy, Eigen::Ref<Eigen::VectorXd> g) {
          roots(tt, yy, g);
        });
    // Every root function is positive inside its phase and an event is its decrease
    // through zero. Counting only those keeps a function that starts at zero (a slip that
    // begins at v_t = 0, a contact that closes at g = 0) from firing on round-off.
    if (nc_ + nj_ > 0) ode.setRootDirections(std::vector<int>(std::size_t(2 * nc_ + nj_), -1));
    ode.reset(t, y);
    record(t, y);
    double next_out = opt_.output_dt;
    while (t < opt_.t_end) {
      const double target = std::min(next_out, opt_.t_end);
      const OdeStep step = ode.advance(target, y);
      // CVODE stops at the budget (its max_steps): a failure there is the budget's.
      const long taken = run_.steps + ode.statistics().steps;
      if (taken > opt_.max_total_steps || (step.status == OdeStatus::kFailure && taken >= opt_.max_total_steps)) {
        std::ostringstream os;
        os << "more than max_total_steps = " << opt_.max_total_steps << " integrator steps by t = " << step.t << " s";
        throw RunFailure(RunStatus::kLimitReached, os.str());
      }
      if (step.status == OdeStatus::kFailure) {
        std::ostringstream os;
        os << "integration failed at t = " << step.t << " s: " << step.message;
        if (!phase(step.t, y.head(nq_), y.tail(nv_)))
          os << " — the mode system is singular: a stuck contact or joint whose constraint the "
                "joints already impose to first order (e.g. a guide at a dead centre)";
        throw RunFailure(RunStatus::kIntegratorFailure, os.str());
      }
      t = step.t;
      if (opt_.progress) opt_.progress(t);
      if (step.status == OdeStatus::kReachedTime) {
        record(t, y);
        next_out += opt_.output_dt;
        continue;
      }
      // An event: record the state before and after it.
      record(t, y);
      onEvent(t, step.roots, y, q, v, events_here, last_event_t);
      run_.steps += ode.statistics().steps;
      ode.reset(t, y);
      record(t, y);
      // The event's rows stand for a sample that falls on it: CVODE cannot advance to a
      // target within round-off of where it restarts.
      const double close = 1e-12 * std::max(1.0, std::abs(t));
      while (next_out <= t + close) next_out += opt_.output_dt;
      if (opt_.t_end - t <= close) break;
    }
    run_.steps += ode.statistics().steps;
  } catch (const RunFailure& e) {
    run_.fail(e.status, e.what());
    run_.solver_status = e.solver_status;
    run_.solver_residual = e.solver_residual;
  }
  run_.t_end = t;
  run_.final_q = y.head(nq_);
  run_.final_v = y.tail(nv_);
  const Eigen::Index cols = 1 + nq_ + nv_ + 2 * nc_ + 2 * nj_;
  run_.columns = historyColumns(mechanism_, contacts_, joints_);
  run_.history = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      samples_.data(), Eigen::Index(samples_.size()) / cols, cols);
  run_.cpu_seconds = threadCpuSeconds() - start;
  // "auto": Lemke per event, or NSGS or Newton on the sparse path beyond lcp::kAutoLemkeContacts.
  const char* sparse_solver = used_newton_ ? "newton" : "nsgs";
  run_.contact_solver = spatial_ ? spatialSolverName()
                        : opt_.solver != "auto" && opt_.solver != "nsgs" && opt_.solver != "newton" ? opt_.solver
                        : (used_nsgs_ || used_newton_) && used_lemke_ ? std::string(sparse_solver) + "+lemke"
                        : used_nsgs_ || used_newton_                   ? std::string(sparse_solver)
                                                                       : std::string("lemke");
  return std::move(run_);
}

}  // namespace

RunResult simulateEventDriven(const Mechanism& mechanism, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                              const EventDrivenOptions& options) {
  Engine engine(mechanism, options);
  return engine.run(q0, v0);
}

RunResult simulateEventDriven(const RigidScenario& s, const EventDrivenOptions& options) {
  return simulateEventDriven(PlanarMechanism(s), s.q0, s.v0, options);
}

}  // namespace stickslip::dynamics
