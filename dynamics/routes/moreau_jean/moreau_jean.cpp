#include "dynamics/routes/moreau_jean/moreau_jean.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "dynamics/contact/coupling.hpp"
#include "lcp/friction_facets.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/siconos_backend.hpp"

namespace stickslip::dynamics {
namespace {

constexpr const char* kOptionsWho = "MoreauJeanOptions";
constexpr const char* kSiconosPrefix = "siconos-";
/// A normal impulse counts only if the normal velocity change W_nn P_n it causes exceeds
/// this fraction of stick_velocity: iterative backends leave round-off-sized impulses.
constexpr double kImpulseFloor = 1e-3;
/// A contact solved with μs slips when |u_t| exceeds this fraction of the terms it sums
/// (slipFloor; Lemke leaves a saturated contact that sticks with up to ≈ 4e-11 of them:
/// blajer-2's guide).
constexpr double kSlipRoundOff = 1e-9;
/// Joint friction: fixed point on the bounds b (moreau_jean.hpp).
constexpr int kMaxBoundIterations = 100;
constexpr double kBoundTolerance = 1e-10;

template <typename T>
void require(bool ok, const char* what, T got) {
  if (ok) return;
  std::ostringstream os;
  os << kOptionsWho << ": expected " << what << ", got " << got;
  throw std::invalid_argument(os.str());
}

bool isSiconos(const std::string& solver) { return solver.rfind(kSiconosPrefix, 0) == 0; }

ContactMode modeOf(bool closed, double sliding_velocity, double stick_velocity) {
  if (!closed) return ContactMode::kOpen;
  if (std::abs(sliding_velocity) <= stick_velocity) return ContactMode::kStick;
  return sliding_velocity > 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
}

/// "auto" takes NSGS for decoupled contacts (each its own group: one sweep is exact), and for
/// groups of at most kAutoNsgsGroup coupled contacts once there are more than
/// kAutoNsgsContacts contacts (Lemke's dense pivots then cost more than the sweeps). Measured
/// on bench_scaling's hanging clearance chain: Gauss–Seidel takes 25 sweeps per step at 2
/// links, 1400 at 16 (10× Lemke's time), and does not converge in 10⁴ at 32; Lemke's exact
/// pivoting was 1.4× faster already at 2 links. Longer coupled groups go to Newton
/// (coupling.hpp), shorter ones to Lemke.
constexpr std::size_t kAutoNsgsGroup = 4;
constexpr std::size_t kAutoNsgsContacts = 16;

/// Newton's iterations per solve at most (and at most nsgs_max_sweeps): warm-started from the
/// last step it takes a few; far more means it is lost. From r = 0 (the first step, or contacts
/// that all close at once) it may take more: on the chain of 1024 links with 512 clearance
/// joints, 224 iterations, and then 1 to 4 a step.
constexpr int kNewtonIterations = 100, kNewtonColdIterations = 1000;

enum class AutoChoice { kNsgs, kNewton, kLemke };

/// From the largest coupled group of the nc contacts; `joints`: they are coupled through joints
/// that join the problem, where Gauss–Seidel would sweep along the joints too: never NSGS.
AutoChoice autoChoice(std::size_t group, std::size_t nc, bool joints) {
  if (!joints && (group == 1 || (group <= kAutoNsgsGroup && nc > kAutoNsgsContacts))) return AutoChoice::kNsgs;
  return group >= kNewtonFromCoupledContacts ? AutoChoice::kNewton : AutoChoice::kLemke;
}

/// Validates before any member is built from the options, so that our message comes first.
const MoreauJeanOptions& validated(const MoreauJeanOptions& o) {
  o.validate();
  return o;
}

}  // namespace

void MoreauJeanOptions::validate() const {
  require(t_end > 0.0 && std::isfinite(t_end), "t_end > 0", t_end);
  require(h > 0.0 && std::isfinite(h), "h > 0", h);
  require(theta >= 0.5 && theta <= 1.0, "theta in [0.5, 1]", theta);
  require(output_dt >= 0.0 && std::isfinite(output_dt), "output_dt >= 0", output_dt);
  require(stick_velocity > 0.0 && std::isfinite(stick_velocity), "stick_velocity > 0",
          stick_velocity);
  require(joint_position_feedback >= 0.0 && joint_position_feedback <= 1.0,
          "joint_position_feedback in [0, 1]", joint_position_feedback);
  require(joint_baumgarte_alpha >= 0.0 && std::isfinite(joint_baumgarte_alpha),
          "joint_baumgarte_alpha >= 0", joint_baumgarte_alpha);
  require(joint_baumgarte_beta >= 0.0 && std::isfinite(joint_baumgarte_beta),
          "joint_baumgarte_beta >= 0", joint_baumgarte_beta);
  require(gap_tolerance >= 0.0 && std::isfinite(gap_tolerance), "gap_tolerance >= 0",
          gap_tolerance);
  require(max_steps >= 1, "max_steps >= 1", max_steps);
  require(nsgs_tolerance > 0.0 && std::isfinite(nsgs_tolerance), "nsgs_tolerance > 0", nsgs_tolerance);
  require(nsgs_max_sweeps >= 1, "nsgs_max_sweeps >= 1", nsgs_max_sweeps);
  require(facets >= 3, "facets >= 3", facets);
  if (isMoreauJeanSolver(solver)) return;
  std::string valid = "auto, lemke, nsgs, newton";
  for (const std::string& n : lcp::siconosFc2dSolverNames()) valid += ", siconos-" + n;
  valid += " (planar contacts); auto, round-cone, nsgs, newton, lemke";
  for (const std::string& n : lcp::siconosFc3dSolverNames()) valid += ", siconos-" + n;
  require(false, ("solver one of " + valid + " (spatial contacts)").c_str(), "'" + solver + "'");
}

bool isMoreauJeanSolver(const std::string& solver) {
  if (solver == "auto" || solver == "lemke" || solver == "nsgs" || solver == "newton" ||
      solver == "round-cone")
    return true;
  if (!isSiconos(solver)) return false;
  const std::string name = solver.substr(std::char_traits<char>::length(kSiconosPrefix));
  for (const auto& names : {lcp::siconosFc2dSolverNames(), lcp::siconosFc3dSolverNames()})
    if (std::find(names.begin(), names.end(), name) != names.end()) return true;
  return false;
}

struct MoreauJeanStepper::Siconos {
  lcp::SiconosFc2dSolver solver;
  lcp::FrictionProblem2D problem;
  lcp::FrictionResult result;
};

/// The spatial contact problem per active-set size (na: 3na unknowns) and its solver: ours on the
/// round cone (lcp/round_cone.hpp), our faceted Lemke, or one of Siconos' fc3d solvers.
struct MoreauJeanStepper::Spatial {
  std::vector<lcp::FrictionProblem3D> problems;  ///< index na
  std::vector<lcp::RoundConeSolver> round;       ///< index na (its workspace per size)
  std::vector<lcp::FacetedFrictionSolver> faceted;
  std::unique_ptr<lcp::SiconosFc3dSolver> siconos;
  lcp::FrictionResult result;
  Eigen::VectorXd tangent_impulse;  ///< (P_t, P_b) per contact (zero if inactive)
  Eigen::Index solved = -1;         ///< the last step's active-set size; −1: no problem solved
};

const lcp::FrictionProblem3D* MoreauJeanStepper::spatialProblem() const {
  return spatial_ && spatial_->solved >= 0 ? &spatial_->problems[std::size_t(spatial_->solved)] : nullptr;
}

const lcp::FrictionResult* MoreauJeanStepper::spatialResult() const {
  return spatial_ && spatial_->solved >= 0 ? &spatial_->result : nullptr;
}

/// The contacts and the solver fit together (the constructor's contract); whether the
/// contacts are spatial.
std::optional<lcp::SparseFrictionProblem2D> MoreauJeanStepper::sparseProblem() const {
  if (sparse_solved_ < 0 || joint_blocks_ > 0) return std::nullopt;
  const Eigen::Index n = 2 * sparse_solved_;
  const lcp::SparseRowView w(n, n, w_outer_[std::size_t(n)], w_outer_.data(), w_inner_.data(), w_values_.data());
  return lcp::SparseFrictionProblem2D{w, qf_.head(n), mu_used_.head(sparse_solved_)};
}

bool MoreauJeanStepper::checkContactsAndSolver() const {
  const auto& contacts = contacts_;
  const auto& joint_friction = joints_;
  const auto isSpatial = [](const RigidContact& c) { return c.spatial(); };
  const bool spatial = std::any_of(contacts.begin(), contacts.end(), isSpatial);
  if (spatial && !std::all_of(contacts.begin(), contacts.end(), isSpatial))
    throw std::invalid_argument("Moreau–Jean: a mechanism's contacts are all spatial or all planar");
  for (const RigidContact& c : contacts) {
    // Rigid normals only: a compliant normal force belongs to the regularized route.
    if (c.normal != RigidContact::Normal::kUnilateral &&
        c.normal != RigidContact::Normal::kBilateral)
      throw std::invalid_argument(c.name +
                                  ": expected a unilateral or bilateral rigid contact for "
                                  "Moreau–Jean, got another normal law");
  }
  if (spatial && !joint_friction.empty())
    throw std::invalid_argument(joint_friction.front().name +
                                ": Moreau–Jean does not yet take friction in joints together with spatial contacts "
                                "(the penalty route does)");
  if (!spatial && options_.solver == "round-cone")
    throw std::invalid_argument("Moreau–Jean: the solver 'round-cone' is for spatial contacts; planar contacts take "
                                "auto, lemke, nsgs, newton or a Siconos fc2d solver");
  if (!joint_friction.empty() && options_.solver != "lemke" && options_.solver != "auto")
    throw std::invalid_argument(joint_friction.front().name +
                                ": friction in revolute joints needs the Moreau–Jean solver "
                                "'lemke', got '" + options_.solver + "'");
  const auto bilateral = std::find_if(contacts.begin(), contacts.end(), [](const RigidContact& c) {
    return c.normal == RigidContact::Normal::kBilateral;
  });
  if (!spatial && (options_.solver == "nsgs" || options_.solver == "newton") && bilateral != contacts.end())
    throw std::invalid_argument(bilateral->name + ": a bilateral contact needs the Moreau–Jean solver 'lemke' (its "
                                "impulse has either sign), got '" + options_.solver + "'");
  if (isSiconos(options_.solver)) {
    const std::string name = options_.solver.substr(std::char_traits<char>::length(kSiconosPrefix));
    const auto names = spatial ? lcp::siconosFc3dSolverNames() : lcp::siconosFc2dSolverNames();
    if (std::find(names.begin(), names.end(), name) == names.end())
      throw std::invalid_argument("Moreau–Jean: '" + options_.solver + "' is a Siconos solver for " +
                                  (spatial ? "planar" : "spatial") + " contacts; this mechanism's are " +
                                  (spatial ? "spatial" : "planar"));
  }
  return spatial;
}

void MoreauJeanStepper::coupleUnits(Eigen::Index joint_blocks) {
  const Eigen::Index nc = static_cast<Eigen::Index>(contacts_.size());
  // Units couple in W where their rows share a velocity column (fixed patterns: the contact
  // Jacobian's, sized by resizeContacts, and the model's joint rows).
  std::vector<std::vector<int>> columns(std::size_t(nc + joint_blocks));
  const int* outer = kin_.jacobian.outerIndexPtr();
  const int* inner = kin_.jacobian.innerIndexPtr();
  for (Eigen::Index k = 0; k < nc; ++k) columns[std::size_t(k)].assign(inner + outer[2 * k], inner + outer[2 * k + 2]);
  if (joint_blocks > 0) {
    const std::vector<std::vector<int>> pattern = mechanism_.jacobianPattern();
    for (std::size_t r = 0; r < pattern.size(); ++r) {
      std::vector<int>& unit = columns[std::size_t(nc) + r / 2];
      unit.insert(unit.end(), pattern[r].begin(), pattern[r].end());
    }
  }
  coupled_ = couplingByColumns(columns, int(mechanism_.velocitySize()));
}

/// NSGS's and Newton's workspaces, and the pattern of W (coupleUnits).
void MoreauJeanStepper::sizeNsgs() {
  const Eigen::Index nc = static_cast<Eigen::Index>(contacts_.size());
  const Eigen::Index units = nc + joint_blocks_;
  nsgs_r_.setZero(2 * units);
  nsgs_u_.setZero(2 * units);
  last_joint_impulse_.setZero(2 * joint_blocks_);
  position_.assign(static_cast<std::size_t>(units), -1);
  w_outer_.assign(static_cast<std::size_t>(2 * units + 1), 0);
  if (coupled_.size() != std::size_t(units)) coupleUnits(joint_blocks_);  // auto's choice found it
  std::size_t capacity = 0;
  for (const std::vector<int>& row : coupled_) capacity += 4 * row.size();
  if (!sparse_assembly_) capacity = std::size_t(4 * nc * nc);
  w_inner_.resize(capacity);
  w_values_.resize(capacity);
}

/// The contact solver's problems and workspaces, one slot per active-set size where it keeps them.
void MoreauJeanStepper::sizeSolvers(bool spatial) {
  const Eigen::Index nc = static_cast<Eigen::Index>(contacts_.size());
  if (spatial) {
    spatial_ = std::make_unique<Spatial>();
    Spatial& sp = *spatial_;
    sp.problems.resize(static_cast<std::size_t>(nc + 1));
    for (Eigen::Index na = 0; na <= nc; ++na) {
      lcp::FrictionProblem3D& p = sp.problems[std::size_t(na)];
      p.W.setZero(3 * na, 3 * na);
      p.q.setZero(3 * na);
      p.mu.setZero(na);
    }
    if (isSiconos(options_.solver))
      sp.siconos = std::make_unique<lcp::SiconosFc3dSolver>(
          options_.solver.substr(std::char_traits<char>::length(kSiconosPrefix)));
    else if (options_.solver == "lemke")
      sp.faceted.assign(static_cast<std::size_t>(nc + 1), lcp::FacetedFrictionSolver(options_.facets));
    else
      for (Eigen::Index na = 0; na <= nc; ++na) sp.round.emplace_back(roundConeOptions());
    sp.tangent_impulse.setZero(2 * nc);
    sp.result.message.reserve(256);
  } else if (isSiconos(options_.solver)) {
    siconos_ =
        std::make_unique<Siconos>(Siconos{lcp::SiconosFc2dSolver(options_.solver.substr(
                                              std::char_traits<char>::length(kSiconosPrefix))),
                                          {},
                                          {}});
  } else if (!use_nsgs_ && !use_newton_) {  // one slot per active-set size, filled when first met
    problems_.resize(static_cast<std::size_t>(nc + 1));
    lemke_.resize(static_cast<std::size_t>(nc + 1));
    results_.resize(static_cast<std::size_t>(nc + 1));
  }
}

MoreauJeanStepper::MoreauJeanStepper(const Mechanism& mechanism, const MoreauJeanOptions& options)
    : mechanism_(mechanism),
      contacts_(mechanism.contacts()),
      options_(validated(options)),
      response_(mechanism, options_.joint_baumgarte_alpha, options_.joint_baumgarte_beta),
      joints_(mechanism.jointFriction()) {
  const auto& model = mechanism;
  const auto& contacts = contacts_;
  const auto& joint_friction = joints_;
  const bool spatial = checkContactsAndSolver();
  const Eigen::Index nc = static_cast<Eigen::Index>(contacts.size());
  const Eigen::Index nj = static_cast<Eigen::Index>(joint_friction.size());
  const Eigen::Index nv = model.velocitySize(), m = model.constraintCount();
  const auto bilateral = std::find_if(contacts.begin(), contacts.end(), [](const RigidContact& c) {
    return c.normal == RigidContact::Normal::kBilateral;
  });
  // Where the joints are handled sparse, they can join NSGS's and Newton's problem as bilateral
  // blocks (no joint friction, unilateral contacts only).
  const bool joints_join = !spatial && m > 0 && response_.sparse() && nj == 0 && bilateral == contacts.end();
  // auto: by the contacts' coupling where W is assembled sparse and only unilateral contacts meet.
  const bool automatic = !spatial && options_.solver == "auto" && nc > 0 && nj == 0 && (m == 0 || joints_join) &&
                         model.inverseMassDiagonal() != nullptr && bilateral == contacts.end();
  mechanism.resizeContacts(kin_);
  AutoChoice choice = AutoChoice::kLemke;
  if (automatic) {
    coupleUnits(joints_join ? (m + 1) / 2 : 0);
    choice = autoChoice(largestCoupledGroup(coupled_, contacts.size()), contacts.size(), joints_join);
  }
  use_nsgs_ = !spatial && (options_.solver == "nsgs" || choice == AutoChoice::kNsgs);
  use_newton_ = !spatial && (options_.solver == "newton" || choice == AutoChoice::kNewton);
  contact_solver_ = use_nsgs_ ? "nsgs" : use_newton_ ? "newton" : options_.solver == "auto" ? "lemke" : options_.solver;
  if (spatial && options_.solver == "lemke") contact_solver_ = "lemke (" + std::to_string(options_.facets) + " facets)";
  if (spatial && (options_.solver == "nsgs" || options_.solver == "newton"))
    contact_solver_ = options_.solver + " (round cone)";
  if (spatial && (options_.solver == "round-cone" || options_.solver == "auto")) contact_solver_ = "round cone (auto)";
  sparse_assembly_ = (use_nsgs_ || use_newton_) && (m == 0 || joints_join) && model.inverseMassDiagonal() != nullptr;
  joint_blocks_ = sparse_assembly_ ? (m + 1) / 2 : 0;
  q_theta_.resize(model.positionSize());
  q_old_.resize(model.positionSize());
  v_old_.resize(nv);
  dq_.resize(nv);
  v_free_.resize(nv);
  impulse_.setZero(2 * nc);
  approach_.setZero(nc);
  sliding_.setZero(nc);
  mu_used_.setZero(nc + joint_blocks_);
  active_.assign(static_cast<std::size_t>(nc), 0);
  closed_.assign(static_cast<std::size_t>(nc), 0);
  slipped_.assign(static_cast<std::size_t>(nc), 0);
  side_.assign(static_cast<std::size_t>(nc), 1.0);
  const Eigen::Index rows_per_contact = spatial ? 3 : 2;
  if (!sparse_assembly_) {  // the dense W of every solver but sparse NSGS
    jat_.setZero(nv, rows_per_contact * nc + nj);
    gjt_.setZero(nv, rows_per_contact * nc + nj);
    w_.setZero(rows_per_contact * nc + nj, rows_per_contact * nc + nj);
  }
  qf_.setZero(rows_per_contact * nc + nj + 2 * joint_blocks_);
  wnn_.setZero(nc);
  last_impulse_.setZero(2 * nc);
  if (use_nsgs_ || use_newton_) sizeNsgs();
  if (sparse_assembly_) {
    proj_contacts_.assign(std::size_t(nc), 0);
    proj_penetrates_.assign(std::size_t(nc), 0);
    proj_rhs_.setZero(nc + m);
    proj_outer_.reserve(std::size_t(nc + m) + 1);
    proj_inner_.reserve(w_inner_.size());  // at most W's entries: up to 2 × 2 per coupled pair
    proj_values_.reserve(w_inner_.size());
  }
  r_.setZero(2 * nc + nj);
  joint_cols_.setZero(nv, nj);
  for (Eigen::Index e = 0; e < nj; ++e)
    mechanism_.addJointFrictionRow(std::size_t(e), 1.0, joint_cols_.col(e));
  joint_bound_.setZero(nj);
  bound_before_.setZero(nj);
  joint_mu_.setZero(nj);
  joint_tau_.setZero(nj);
  joint_reaction_.setZero(nj);
  joint_rate_.setZero(nj);
  joint_lambda_.setZero(m);
  step_dv_.setZero(nv);
  step_impulse_.setZero(nv);
  joint_slipped_.assign(static_cast<std::size_t>(nj), 0);
  reversal_tried_.assign(static_cast<std::size_t>(nc + nj), 0);
  sizeSolvers(spatial);
  // Room for the joints and a few penetrating contacts; projectPositions grows it if more.
  const Eigen::Index rows = m + (options_.project_contacts ? std::min<Eigen::Index>(nc, 8) : 0);
  if (response_.sparse() && !options_.project_positions) {  // projectThroughJoints: no dense D
    if (options_.project_contacts && joint_blocks_ == 0) {
      proj_contacts_.assign(std::size_t(nc), 0);
      proj_rhs_.setZero(nc);
      proj_phi_.setZero(m);
      proj_jc_.setZero(nv, nc);
      proj_gjc_.setZero(nv, nc);
    }
  } else if ((options_.project_positions || options_.joint_velocity_projection || options_.project_contacts) && rows > 0) {
    proj_d_.resize(rows, nv);
    proj_minv_dt_.resize(nv, rows);
    proj_s_.resize(rows, rows);
    proj_phi_.resize(rows);
    proj_mu_.resize(rows);
    proj_ldlt_.compute(Eigen::MatrixXd::Identity(m, m));  // sizes its storage (see eom_solver.cpp)
  }
  message_.reserve(256);
}

MoreauJeanStepper::~MoreauJeanStepper() = default;

bool MoreauJeanStepper::fail(RunStatus status, const std::string& why, lcp::Status solver, double residual) {
  status_ = status;
  message_ = why;
  solver_status_ = solver;
  solver_residual_ = residual;
  return false;
}

bool MoreauJeanStepper::step(double t, double h, Eigen::Ref<Eigen::VectorXd> q,
                             Eigen::Ref<Eigen::VectorXd> v) {
  const double theta = options_.theta;
  const Eigen::Index nc = static_cast<Eigen::Index>(contacts_.size());
  // Every position update through the mechanism's map q ← q + H(q) δ.
  q_theta_ = q;
  dq_ = (theta * h) * v;
  mechanism_.addToPositions(dq_, q_theta_);
  mechanism_.evaluateContacts(t + theta * h, q_theta_, v, kin_, /*drift=*/false);
  const bool updated = options_.joint_velocity_projection
                           ? response_.updateVelocityLevel(t + theta * h, q_theta_, v)
                           : response_.update(t + theta * h, q_theta_, v);
  if (!updated) return fail(RunStatus::kIntegratorFailure, response_.message());
  v_free_ = v + h * response_.freeAcceleration();
  if (options_.joint_velocity_projection)
    response_.projectVelocity(v_free_, options_.joint_position_feedback / h);
  if (!v_free_.allFinite()) {
    return fail(RunStatus::kIntegratorFailure, "the forces or the free velocity are NaN or Inf");
  }

  // Active set: bilateral contacts always; unilateral ones from the gap predicted half a
  // step ahead (γ = ½).
  Eigen::Index na = 0, bilateral = 0;
  for (Eigen::Index i = 0; i < nc; ++i) {
    approach_(i) = kin_.normal_velocity(i);
    const bool two_sided =
        contacts_[static_cast<std::size_t>(i)].normal == RigidContact::Normal::kBilateral;
    bilateral += two_sided;
    if (two_sided || closed_[static_cast<std::size_t>(i)] ||
        kin_.gap(i) + 0.5 * h * kin_.normal_velocity(i) <= options_.gap_tolerance)
      active_[static_cast<std::size_t>(na++)] = static_cast<int>(i);
  }

  q_old_ = q;
  v_old_ = v;
  impulse_.setZero();
  joint_tau_.setZero();
  const Eigen::Index nj = static_cast<Eigen::Index>(joints_.size());
  const Eigen::Index ncol = 2 * na + nj;  // contact columns, then the joints'
  if (spatial_) spatial_->solved = -1;
  sparse_solved_ = -1;
  if (ncol == 0) {
    v = v_free_;
  } else if (spatial_) {
    if (!solveSpatial(na, v)) return false;
    spatial_->solved = na;
  } else if (sparse_assembly_) {
    assembleSparse(na, t + h);
    if (!solveSparse(na, h)) return false;
    // v = v_free + M⁻¹ J_Aᵀ P over J's nonzeros.
    v = v_free_;
    const Eigen::VectorXd& minv = *mechanism_.inverseMassDiagonal();
    for (Eigen::Index a = 0; a < na; ++a) {
      const Eigen::Index i = active_[static_cast<std::size_t>(a)];
      for (Eigen::Index row = 0; row < 2; ++row)
        for (ContactJacobian::InnerIterator it(kin_.jacobian, 2 * i + row); it; ++it)
          v(it.col()) += minv(it.col()) * it.value() * r_(2 * a + row);
      impulse_(2 * i) = r_(2 * a);
      impulse_(2 * i + 1) = r_(2 * a + 1);
    }
    if (joint_blocks_ > 0)  // + M⁻¹ Dᵀ λ, the joints' share
      response_.sparseJoints()->addInverseMassDt(1.0, nsgs_r_.segment(2 * na, mechanism_.constraintCount()), v);
  } else {
    const double t_next = t + h;
    auto gjt = gjt_.leftCols(ncol);
    auto w = w_.topLeftCorner(ncol, ncol);
    auto qf = qf_.head(ncol);
    if (nj > 0 && !joint_reaction_known_) {
      // First step: start the bounds' fixed point from the reactions with P = τ = 0.
      step_dv_ = v_free_ - v_old_;
      step_impulse_ = h * response_.forces();
      response_.jointImpulse(step_dv_, step_impulse_, joint_lambda_);
      for (Eigen::Index e = 0; e < nj; ++e)
        joint_reaction_(e) = mechanism_.jointFrictionReaction(std::size_t(e), joint_lambda_, impulse_);
      last_h_ = h;
    }
    for (Eigen::Index e = 0; e < nj; ++e) {
      const JointFriction& j = joints_[static_cast<std::size_t>(e)];
      jat_.col(2 * na + e) = joint_cols_.col(e);
      joint_mu_(e) = joint_slipped_[static_cast<std::size_t>(e)] ? j.mu_kinetic : j.mu_static;
      // The last step's mean reaction over this step.
      joint_bound_(e) = joint_mu_(e) * j.lever * joint_reaction_(e) * (h / last_h_);
    }
    // A bilateral contact is posed as unilateral on the side σ of its last normal impulse
    // (normal row σ J_n); if that side would separate, σ flips and the problem is solved
    // again. One side always holds, so each contact flips at most once per step.
    for (Eigen::Index attempt = 0;; ++attempt) {
      for (Eigen::Index a = 0; a < na; ++a) {
        const Eigen::Index i = active_[static_cast<std::size_t>(a)];
        const RigidContact& c = contacts_[static_cast<std::size_t>(i)];
        const double side = side_[static_cast<std::size_t>(i)];
        jat_.col(2 * a) = side * kin_.jacobian.row(2 * i).transpose();
        jat_.col(2 * a + 1) = kin_.jacobian.row(2 * i + 1).transpose();
        mu_used_(a) = slipped_[static_cast<std::size_t>(i)] ? c.mu_kinetic : c.mu_static;
      }
      formDelassus(ncol);
      for (Eigen::Index a = 0; a < na; ++a) {
        const Eigen::Index i = active_[static_cast<std::size_t>(a)];
        const RigidContact& c = contacts_[static_cast<std::size_t>(i)];
        if (c.normal == RigidContact::Normal::kBilateral)
          // Hold g = 0: remove the fraction κ of the gap per step, as for the joints.
          qf(2 * a) += side_[static_cast<std::size_t>(i)] * options_.joint_position_feedback *
                       (kin_.gap(i) - theta * h * kin_.normal_velocity(i)) / h;
        else
          qf(2 * a) += c.restitution * std::min(kin_.normal_velocity(i), 0.0);
        if (c.surface_speed) qf(2 * a + 1) -= c.surface_speed(t_next);
      }
      if (!solveContacts(na, h)) return false;
      bool flipped = false;
      for (Eigen::Index a = 0; a < na && bilateral > 0; ++a) {
        const Eigen::Index i = active_[static_cast<std::size_t>(a)];
        if (contacts_[static_cast<std::size_t>(i)].normal != RigidContact::Normal::kBilateral ||
            r_(2 * a) > 0.0)
          continue;
        const double un = w.row(2 * a).dot(r_.head(ncol)) + qf(2 * a);
        if (un > options_.stick_velocity) {
          side_[static_cast<std::size_t>(i)] = -side_[static_cast<std::size_t>(i)];
          flipped = true;
        }
      }
      if (!flipped) break;
      if (attempt >= 2 * bilateral) {
        return fail(RunStatus::kNoConsistentMode,
                    "bilateral contacts: no side of their normal impulses is consistent");
      }
    }
    v = v_free_;
    for (Eigen::Index c = 0; c < ncol; ++c) v += r_(c) * gjt.col(c);  // G (J_Aᵀ P + C_Eᵀ τ)
    for (Eigen::Index a = 0; a < na; ++a) {
      const Eigen::Index i = active_[static_cast<std::size_t>(a)];
      impulse_(2 * i) = side_[static_cast<std::size_t>(i)] * r_(2 * a);
      impulse_(2 * i + 1) = r_(2 * a + 1);
    }
    joint_tau_ = r_.segment(2 * na, nj);
  }
  dq_ = h * ((1.0 - theta) * v_old_ + theta * v);
  mechanism_.addToPositions(dq_, q);

  if (!q.allFinite() || !v.allFinite()) {
    q = q_old_;
    v = v_old_;
    return fail(RunStatus::kIntegratorFailure, "the state became NaN or Inf");
  }

  // Mode bookkeeping for the next step's coefficient and for event reporting.
  std::fill(closed_.begin(), closed_.end(), 0);
  for (Eigen::Index a = 0; a < na; ++a) {
    const Eigen::Index i = active_[static_cast<std::size_t>(a)];
    closed_[static_cast<std::size_t>(i)] =
        contacts_[static_cast<std::size_t>(i)].normal == RigidContact::Normal::kBilateral ||
        r_(2 * a) * wnn_(a) > kImpulseFloor * options_.stick_velocity;
  }
  for (Eigen::Index i = 0; i < nc; ++i) {
    const RigidContact& c = contacts_[static_cast<std::size_t>(i)];
    if (spatial_) {
      // ‖v_T⁺‖, and as P_t the friction impulse along v_T⁺ (−‖P_T‖ at rest), so that
      // −P_t v_t⁺ = −P_Tᵀ v_T⁺ is the step's friction work.
      const Eigen::Vector2d vt(kin_.jacobian.row(2 * i + 1).dot(v), kin_.second_tangent.row(i).dot(v));
      const Eigen::Vector2d pt = spatial_->tangent_impulse.segment<2>(2 * i);
      sliding_(i) = vt.norm();
      impulse_(2 * i + 1) = sliding_(i) > options_.stick_velocity ? pt.dot(vt) / sliding_(i) : -pt.norm();
    } else {
      sliding_(i) = kin_.jacobian.row(2 * i + 1).dot(v) - (c.surface_speed ? c.surface_speed(t + h) : 0.0);
    }
    slipped_[static_cast<std::size_t>(i)] =
        closed_[static_cast<std::size_t>(i)] && std::abs(sliding_(i)) > options_.stick_velocity;
  }
  for (Eigen::Index e = 0; e < nj; ++e) {
    joint_rate_(e) = joint_cols_.col(e).dot(v);
    joint_slipped_[static_cast<std::size_t>(e)] =
        std::abs(joint_rate_(e)) > options_.stick_velocity;
  }
  if (options_.project_positions || (options_.project_contacts && na > 0)) projectPositions(t + h, q, na);
  last_h_ = h;
  last_impulse_ = impulse_;
  return true;
}

std::string MoreauJeanStepper::activeNames(Eigen::Index na) const {
  std::string names;
  for (Eigen::Index a = 0; a < na; ++a)
    names += (a == 0 ? "'" : ", '") +
             contacts_[static_cast<std::size_t>(active_[static_cast<std::size_t>(a)])].name + "'";
  return names;
}

bool MoreauJeanStepper::solveContacts(Eigen::Index na, double h) {
  for (Eigen::Index a = 0; a < na; ++a) wnn_(a) = w_(2 * a, 2 * a);
  if (siconos_) return solveSiconos(na);
  if (!use_nsgs_ && !use_newton_) return solveLemke(na, h);
  sparseFromDense(na);
  return solveSparse(na, h);
}

SparseJointSystem::Row MoreauJeanStepper::unitRow(int unit, int row) const {
  const Eigen::Index nc = static_cast<Eigen::Index>(contacts_.size());
  if (unit < nc) {
    const int* outer = kin_.jacobian.outerIndexPtr();
    const int begin = outer[2 * unit + row];
    return {kin_.jacobian.innerIndexPtr() + begin, kin_.jacobian.valuePtr() + begin, outer[2 * unit + row + 1] - begin};
  }
  const Eigen::Index joint_row = 2 * (unit - nc) + row;
  if (joint_row >= mechanism_.constraintCount()) return {nullptr, nullptr, 0};  // an odd count's padding
  return response_.sparseJoints()->row(joint_row);
}

double MoreauJeanStepper::rowProduct(const SparseJointSystem::Row& x, const SparseJointSystem::Row& y) const {
  const Eigen::VectorXd& minv = *mechanism_.inverseMassDiagonal();
  double sum = 0.0;
  for (int a = 0, b = 0; a < x.size && b < y.size;) {  // a merge of two sorted rows of at most six entries
    if (x.cols[a] < y.cols[b]) ++a;
    else if (y.cols[b] < x.cols[a]) ++b;
    else {
      sum += x.values[a] * minv(x.cols[a]) * y.values[b];
      ++a;
      ++b;
    }
  }
  return sum;
}

void MoreauJeanStepper::assembleSparse(Eigen::Index na, double t_next) {
  const ContactJacobian& j = kin_.jacobian;
  const int nc = int(contacts_.size());
  const Eigen::Index units = na + joint_blocks_;  // the active contacts, then the joint blocks
  const auto unitAt = [&](Eigen::Index p) { return p < na ? active_[std::size_t(p)] : nc + int(p - na); };
  for (Eigen::Index p = 0; p < units; ++p) position_[std::size_t(unitAt(p))] = int(p);
  int nnz = 0;
  for (Eigen::Index p = 0; p < units; ++p) {
    const int k = unitAt(p);
    for (int row = 0; row < 2; ++row) {
      const SparseJointSystem::Row x = unitRow(k, row);
      for (const int l : coupled_[std::size_t(k)]) {
        const int b = position_[std::size_t(l)];
        if (b < 0) continue;
        for (int col = 0; col < 2; ++col) {
          const SparseJointSystem::Row y = unitRow(l, col);
          if (x.size == 0 || y.size == 0) {  // the padding row of an odd number of joint rows: decoupled
            if (l != k || col != row) continue;
            w_values_[std::size_t(nnz)] = 1.0;
          } else {
            w_values_[std::size_t(nnz)] = rowProduct(x, y);
          }
          w_inner_[std::size_t(nnz)] = int(2 * b + col);
          ++nnz;
        }
      }
      w_outer_[std::size_t(2 * p + row + 1)] = nnz;
    }
  }
  qf_.segment(2 * na, 2 * joint_blocks_).setZero();  // D v = D v_free already (moreau_jean.hpp)
  mu_used_.segment(na, joint_blocks_).setZero();      // unused
  for (Eigen::Index a = 0; a < na; ++a) {
    const Eigen::Index k = active_[std::size_t(a)];
    wnn_(a) = rowProduct(unitRow(int(k), 0), unitRow(int(k), 0));
    const RigidContact& c = contacts_[std::size_t(k)];
    mu_used_(a) = slipped_[std::size_t(k)] ? c.mu_kinetic : c.mu_static;
    qf_(2 * a) = j.row(2 * k).dot(v_free_) + c.restitution * std::min(kin_.normal_velocity(k), 0.0);
    qf_(2 * a + 1) = j.row(2 * k + 1).dot(v_free_) - (c.surface_speed ? c.surface_speed(t_next) : 0.0);
  }
  for (Eigen::Index p = 0; p < units; ++p) position_[std::size_t(unitAt(p))] = -1;
}

void MoreauJeanStepper::sparseFromDense(Eigen::Index na) {
  int nnz = 0;
  for (Eigen::Index row = 0; row < 2 * na; ++row) {
    for (Eigen::Index col = 0; col < 2 * na; ++col)
      if (w_(row, col) != 0.0) {
        w_inner_[std::size_t(nnz)] = int(col);
        w_values_[std::size_t(nnz)] = w_(row, col);
        ++nnz;
      }
    w_outer_[std::size_t(row + 1)] = nnz;
  }
}

double MoreauJeanStepper::sparseSlipFloor(Eigen::Index i) const {
  double terms = std::abs(qf_(2 * i + 1));
  for (int k = w_outer_[std::size_t(2 * i + 1)]; k < w_outer_[std::size_t(2 * i + 2)]; ++k)
    terms += std::abs(w_values_[std::size_t(k)] * nsgs_r_(w_inner_[std::size_t(k)]));
  return kSlipRoundOff * terms;
}

bool MoreauJeanStepper::solveSparse(Eigen::Index na, double h) {
  const Eigen::Index n = 2 * na, nb = joint_blocks_, rows = n + 2 * nb;  // contacts' rows, then the joints'
  sparse_solved_ = na;
  const lcp::SparseRowView w(rows, rows, w_outer_[std::size_t(rows)], w_outer_.data(), w_inner_.data(),
                             w_values_.data());
  // Warm start: each contact's impulse of the last step, and the joints', rescaled to this step's length.
  const double scale = last_h_ > 0.0 ? h / last_h_ : 0.0;
  for (Eigen::Index a = 0; a < na; ++a) {
    const Eigen::Index k = active_[std::size_t(a)];
    nsgs_r_.segment<2>(2 * a) = scale * last_impulse_.segment<2>(2 * k);
  }
  nsgs_r_.segment(n, 2 * nb) = scale * last_joint_impulse_;
  const bool cold = nsgs_r_.head(rows).isZero(0.0);
  const lcp::NsgsOptions options{options_.nsgs_tolerance, options_.nsgs_max_sweeps};
  std::fill(reversal_tried_.begin(), reversal_tried_.end(), 0);
  for (;;) {
    // One solve by the path's solver: its status, iterations (sweeps), error and residual.
    lcp::Status status;
    int count;
    double error, residual;
    Eigen::Index failed = -1;  // NSGS: the contact whose local problem has no solution
    if (use_newton_) {
      const lcp::AlartCurnierSolver::Outcome o =
          newton_.solve(w, qf_.head(rows), mu_used_.head(na + nb), options.tolerance,
                        std::min(options.max_sweeps, cold ? kNewtonColdIterations : kNewtonIterations),
                        nsgs_r_.head(rows), nsgs_u_.head(rows), nb);
      status = o.status;
      count = o.iterations;
      error = residual = o.error;
    } else {
      const lcp::NsgsSolver::Outcome o =
          nsgs_.solve(w, qf_.head(rows), mu_used_.head(na + nb), options, nsgs_r_.head(rows), nsgs_u_.head(rows),
                      nb);
      status = o.status;
      count = o.sweeps;
      error = o.error;
      residual = o.residual;
      failed = o.failed_contact;
    }
    ++lcp_solves_;
    pivots_ += count;
    if (status != lcp::Status::kSuccess) {
      std::ostringstream os;
      os << contact_solver_ << " on " << na << " active contact(s)";
      if (nb > 0) os << " and " << mechanism_.constraintCount() << " joint rows";
      os << ": " << lcp::toString(status) << " after " << count
         << (use_newton_ ? " iterations" : " sweeps") << ", Siconos' error " << error << " (tolerance "
         << options.tolerance << ")";
      if (failed >= 0)
        os << "; the local problem of '" << contacts_[std::size_t(active_[std::size_t(failed)])].name
           << "' has no solution";
      return fail(RunStatus::kContactSolverFailure, os.str(), status, residual);
    }
    r_.head(n) = nsgs_r_.head(n);
    bool again = false;
    for (Eigen::Index a = 0; a < na; ++a) {
      const double ut = nsgs_u_(2 * a + 1);
      const double mu = nextMu(
          a, [&] { return ut; }, [&] { return sparseSlipFloor(a); },
          [&] { return std::abs(ut) > sparseSlipFloor(a); });
      again = again || mu != mu_used_(a);
      mu_used_(a) = mu;
    }
    if (!again) {
      last_joint_impulse_ = nsgs_r_.segment(n, 2 * nb);
      return true;
    }
  }
}

template <typename Velocity, typename Floor, typename Slips>
double MoreauJeanStepper::nextMu(Eigen::Index a, Velocity ut, Floor floor, Slips slips) {
  const auto k = static_cast<std::size_t>(active_[static_cast<std::size_t>(a)]);
  const RigidContact& c = contacts_[k];
  if (r_(2 * a) <= 0.0) return mu_used_(a);
  if (mu_used_(a) == c.mu_kinetic) {
    if (c.mu_static > c.mu_kinetic && slipped_[k] && !reversal_tried_[k]) {
      const double u = ut();
      if (u * sliding_(Eigen::Index(k)) < 0.0 && std::abs(u) > floor()) {
        reversal_tried_[k] = 1;
        return c.mu_static;
      }
    }
    return mu_used_(a);
  }
  return slips() ? c.mu_kinetic : mu_used_(a);
}

void MoreauJeanStepper::jointReactions(Eigen::Index na, double h) {
  // Λ from M Δv = h Q + J_Aᵀ P + C_Eᵀ τ − DᵀΛ with the step's Δv = v_free − v_k + G (…).
  const Eigen::Index ncol = 2 * na + static_cast<Eigen::Index>(joints_.size());
  step_dv_ = v_free_ - v_old_;
  step_impulse_ = h * response_.forces();
  for (Eigen::Index c = 0; c < ncol; ++c) {
    step_dv_ += r_(c) * gjt_.col(c);
    step_impulse_ += r_(c) * jat_.col(c);
  }
  response_.jointImpulse(step_dv_, step_impulse_, joint_lambda_);
  for (Eigen::Index a = 0; a < na; ++a) {  // the contacts' impulses: a pin's is its slot's
    const Eigen::Index i = active_[static_cast<std::size_t>(a)];
    impulse_(2 * i) = side_[static_cast<std::size_t>(i)] * r_(2 * a);
    impulse_(2 * i + 1) = r_(2 * a + 1);
  }
  for (std::size_t e = 0; e < joints_.size(); ++e)
    joint_reaction_(static_cast<Eigen::Index>(e)) = mechanism_.jointFrictionReaction(e, joint_lambda_, impulse_);
  joint_reaction_known_ = true;
}

/// The exact planar-friction LCP of friction_to_lcp.hpp, written in place: per contact
/// z = (P_n, β⁺, β⁻, λ), P_t = β⁺ − β⁻, w = (u_n, λ + u_t, λ − u_t, μ P_n − β⁺ − β⁻); then per
/// joint friction z = (a, c), τ = a − b, w = (ṡ⁺ + c, 2b − a) (moreau_jean.hpp). Its matrix M
/// from W; q follows the bounds (setLemkeQ).
void MoreauJeanStepper::formLemkeMatrix(Eigen::Index na) {
  const Eigen::Index nj = static_cast<Eigen::Index>(joints_.size());
  const Eigen::Index ncol = 2 * na + nj, nz = 4 * na;  // nz: first joint variable
  lcp::Problem& p = problems_[static_cast<std::size_t>(na)];
  lcp::Result& res = results_[static_cast<std::size_t>(na)];
  if (p.M.rows() != 4 * na + 2 * nj) {  // this active-set size is met for the first time
    p.M.setZero(4 * na + 2 * nj, 4 * na + 2 * nj);
    p.q.setZero(4 * na + 2 * nj);
    res.z.setZero(4 * na + 2 * nj);
    res.w.setZero(4 * na + 2 * nj);
    res.message.reserve(256);
  }
  const auto w = w_.topLeftCorner(ncol, ncol);
  p.M.setZero();
  for (Eigen::Index i = 0; i < na; ++i) {
    for (Eigen::Index j = 0; j < na; ++j) {
      const double nn = w(2 * i, 2 * j), nt = w(2 * i, 2 * j + 1);
      const double tn = w(2 * i + 1, 2 * j), tt = w(2 * i + 1, 2 * j + 1);
      p.M.block<3, 3>(4 * i, 4 * j) << nn, nt, -nt,  //
          tn, tt, -tt,                               //
          -tn, -tt, tt;
    }
    for (Eigen::Index f = 0; f < nj; ++f) {  // a_f moves u_n, u_t; τ_f on (β⁺, β⁻) rows
      const Eigen::Index cf = 2 * na + f, zf = nz + 2 * f;
      p.M(4 * i, zf) = w(2 * i, cf);
      p.M(4 * i + 1, zf) = w(2 * i + 1, cf);
      p.M(4 * i + 2, zf) = -w(2 * i + 1, cf);
      p.M(zf, 4 * i) = w(cf, 2 * i);
      p.M(zf, 4 * i + 1) = w(cf, 2 * i + 1);
      p.M(zf, 4 * i + 2) = -w(cf, 2 * i + 1);
    }
    const Eigen::Index k = 4 * i;
    p.M(k + 1, k + 3) = 1.0;
    p.M(k + 2, k + 3) = 1.0;
    p.M(k + 3, k) = mu_used_(i);
    p.M(k + 3, k + 1) = -1.0;
    p.M(k + 3, k + 2) = -1.0;
  }
  for (Eigen::Index e = 0; e < nj; ++e) {
    const Eigen::Index ze = nz + 2 * e;
    for (Eigen::Index f = 0; f < nj; ++f) p.M(ze, nz + 2 * f) = w(2 * na + e, 2 * na + f);
    p.M(ze, ze + 1) = 1.0;
    p.M(ze + 1, ze) = -1.0;
  }
}

/// q for the present bounds b: the contacts' rows as without joints, shifted by τ = −b.
void MoreauJeanStepper::setLemkeQ(Eigen::Index na) {
  const Eigen::Index nj = static_cast<Eigen::Index>(joints_.size());
  const Eigen::Index ncol = 2 * na + nj, nz = 4 * na;  // nz: first joint variable
  lcp::Problem& p = problems_[static_cast<std::size_t>(na)];
  const auto w = w_.topLeftCorner(ncol, ncol);
  for (Eigen::Index i = 0; i < na; ++i) {
    double un = qf_(2 * i), ut = qf_(2 * i + 1);
    for (Eigen::Index f = 0; f < nj; ++f) {
      un -= w(2 * i, 2 * na + f) * joint_bound_(f);
      ut -= w(2 * i + 1, 2 * na + f) * joint_bound_(f);
    }
    p.q(4 * i) = un;
    p.q(4 * i + 1) = ut;
    p.q(4 * i + 2) = -ut;
    p.q(4 * i + 3) = 0.0;
  }
  for (Eigen::Index e = 0; e < nj; ++e) {
    double rate = qf_(2 * na + e);
    for (Eigen::Index f = 0; f < nj; ++f) rate -= w(2 * na + e, 2 * na + f) * joint_bound_(f);
    p.q(nz + 2 * e) = rate;
    p.q(nz + 2 * e + 1) = 2.0 * joint_bound_(e);
  }
}

/// One Lemke solve; the impulses r from its z, or false with the failure recorded.
bool MoreauJeanStepper::solveLemkeOnce(Eigen::Index na) {
  const Eigen::Index nj = static_cast<Eigen::Index>(joints_.size());
  const Eigen::Index nz = 4 * na;  // the first joint variable
  lcp::Problem& p = problems_[static_cast<std::size_t>(na)];
  lcp::Result& res = results_[static_cast<std::size_t>(na)];
  lcp::LemkeSolver& lemke = lemke_[static_cast<std::size_t>(na)];
  lemke.solve(p, res);
  ++lcp_solves_;
  pivots_ += res.pivots;
  if (!res.ok()) {
    std::ostringstream os;
    os << "lemke on " << na << " active contact(s) " << activeNames(na);
    if (nj > 0) os << " and " << nj << " joint friction(s)";
    os << ": " << lcp::toString(res.status) << ", residual " << res.residual << " (relative "
       << res.relative_residual << "): " << res.message;
    return fail(RunStatus::kContactSolverFailure, os.str(), res.status, res.residual);
  }
  for (Eigen::Index i = 0; i < na; ++i) {
    r_(2 * i) = res.z(4 * i);
    r_(2 * i + 1) = res.z(4 * i + 1) - res.z(4 * i + 2);
  }
  for (Eigen::Index e = 0; e < nj; ++e) r_(2 * na + e) = res.z(nz + 2 * e) - joint_bound_(e);
  return true;
}

/// ṡ⁺ of joint friction e in the present solution.
double MoreauJeanStepper::jointRate(Eigen::Index na, Eigen::Index e) const {
  const Eigen::Index nj = static_cast<Eigen::Index>(joints_.size());
  const Eigen::Index ncol = 2 * na + nj;
  return w_.topLeftCorner(ncol, ncol).row(2 * na + e).dot(r_.head(ncol)) + qf_(2 * na + e);
}

/// The first step's bounds start at Λ with P = τ = 0, below the reaction of a joint held at
/// rest: from there the fixed point nears a stick at its friction limit only linearly, and leaves
/// the joint creeping past what friction at its limit can stop. A joint at rest starts instead
/// with twice the impulse that holds it alone, |ṡ⁺_free| / W_ee: held, its Λ is the stuck one,
/// and one more pass bounds it exactly (moreau_jean.hpp).
void MoreauJeanStepper::holdJointsAtRest(Eigen::Index na) {
  for (Eigen::Index e = 0; e < static_cast<Eigen::Index>(joints_.size()); ++e) {
    const Eigen::Index c = 2 * na + e;
    if (joint_mu_(e) == 0.0 || w_(c, c) <= 0.0 ||
        std::abs(joint_cols_.col(e).dot(v_old_)) > options_.stick_velocity)
      continue;
    joint_bound_(e) = std::max(joint_bound_(e), 2.0 * std::abs(qf_(c)) / w_(c, c));
  }
}

/// Fixed point on the joints' bounds b = μ r |Λ| (moreau_jean.hpp); one pass when nj = 0.
bool MoreauJeanStepper::solveJointBounds(Eigen::Index na, double h) {
  const Eigen::Index nj = static_cast<Eigen::Index>(joints_.size());
  const auto rate = [&](Eigen::Index e) { return jointRate(na, e); };
  bool was_at_rest = false;
  for (int it = 0;; ++it) {
    setLemkeQ(na);
    if (!solveLemkeOnce(na)) return false;
    if (nj == 0) return true;
    ++joint_iterations_;
    jointReactions(na, h);
    bool converged = true, at_rest = true, cycle = it > 0;
    Eigen::Index worst = 0;
    double worst_excess = -1.0, worst_change = 0.0;
    for (Eigen::Index e = 0; e < nj; ++e) {
      const JointFriction& j = joints_[static_cast<std::size_t>(e)];
      const double next = joint_mu_(e) * j.lever * joint_reaction_(e);
      const double change = std::abs(next - joint_bound_(e));
      const double tol = kBoundTolerance * (h + joint_bound_(e));
      // A joint at rest with its τ inside the new bound is solved for that bound too.
      const bool rest = std::abs(rate(e)) <= options_.stick_velocity;
      const bool inside = rest && std::abs(r_(2 * na + e)) <= next;
      at_rest = at_rest && rest;
      cycle = cycle && std::abs(next - bound_before_(e)) <= tol;
      if (change > tol && !inside) {
        converged = false;
        if (change / tol > worst_excess) {
          worst_excess = change / tol;
          worst = e;
          worst_change = change;
        }
      }
    }
    // A stuck loop whose friction is statically indeterminate (several joints and a slot at
    // rest together): the holding impulses form a set, and Lemke may alternate between two of
    // its vertices, each at rest under the other's bounds. Every solution ends the step at
    // rest; the present one is kept, with the bounds it was solved for.
    if (!converged && cycle && at_rest && was_at_rest) return true;
    was_at_rest = at_rest;
    bound_before_ = joint_bound_;
    for (Eigen::Index e = 0; e < nj; ++e)
      joint_bound_(e) = joint_mu_(e) * joints_[static_cast<std::size_t>(e)].lever * joint_reaction_(e);
    if (converged) return true;
    if (it + 1 >= kMaxBoundIterations) {
      std::ostringstream os;
      os << "joint friction '" << joints_[static_cast<std::size_t>(worst)].name
         << "': its bound mu r |Lambda| does not converge in " << kMaxBoundIterations
         << " iterations (|change| " << worst_change << " N m s, bound "
         << joint_bound_(worst) << " N m s): the joint is jammed (Painleve-type)";
      return fail(RunStatus::kNotConverged, os.str());
    }
  }
}

bool MoreauJeanStepper::solveLemke(Eigen::Index na, double h) {
  const Eigen::Index nj = static_cast<Eigen::Index>(joints_.size());
  const Eigen::Index ncol = 2 * na + nj;
  formLemkeMatrix(na);
  lcp::Problem& p = problems_[static_cast<std::size_t>(na)];
  const lcp::Result& res = results_[static_cast<std::size_t>(na)];
  const auto w = w_.topLeftCorner(ncol, ncol);
  const auto rate = [&](Eigen::Index e) { return jointRate(na, e); };
  const auto solveBounds = [&] { return solveJointBounds(na, h); };
  // Break-away inside the step: a contact or joint solved with μs that slips is re-solved
  // with μk. A reversal inside the step: one that slipped in the last step, solved with μk,
  // whose sliding velocity changes sign passed through rest, where μs holds: it is solved again
  // with μs, and keeps that solution if it sticks (else back to μk; also when the joints'
  // bounds do not converge with μs, as at an impact). Each switches at most once each way, so
  // at most 2 (na + nj) + 2 passes.
  // The coefficient active contact i, or joint e, is solved with; a joint's bound b = μ r |Λ|
  // follows (scaled, or from |Λ| when μ was 0).
  const auto setContactMu = [&](Eigen::Index i, double mu) {
    mu_used_(i) = mu;
    p.M(4 * i + 3, 4 * i) = mu;
  };
  const auto setJointMu = [&](Eigen::Index e, double mu) {
    joint_bound_(e) = joint_mu_(e) > 0.0 ? joint_bound_(e) * (mu / joint_mu_(e))
                                         : mu * joints_[static_cast<std::size_t>(e)].lever * joint_reaction_(e);
    joint_mu_(e) = mu;
  };
  if (!joint_reaction_known_) holdJointsAtRest(na);
  std::fill(reversal_tried_.begin(), reversal_tried_.end(), 0);
  bool retrying = false;
  for (;;) {
    if (!solveBounds()) {
      if (!retrying) return false;
      for (Eigen::Index i = 0; i < na; ++i) {
        const auto k = static_cast<std::size_t>(active_[static_cast<std::size_t>(i)]);
        if (reversal_tried_[k] && mu_used_(i) == contacts_[k].mu_static) setContactMu(i, contacts_[k].mu_kinetic);
      }
      for (Eigen::Index e = 0; e < nj; ++e) {
        const JointFriction& j = joints_[static_cast<std::size_t>(e)];
        if (reversal_tried_[contacts_.size() + static_cast<std::size_t>(e)] && joint_mu_(e) == j.mu_static)
          setJointMu(e, j.mu_kinetic);
      }
      status_ = RunStatus::kOk;
      message_.clear();
      retrying = false;
      continue;
    }
    retrying = false;
    bool again = false;
    for (Eigen::Index i = 0; i < na; ++i) {
      const double mu = nextMu(
          i, [&] { return w.row(2 * i + 1).dot(r_.head(ncol)) + qf_(2 * i + 1); },
          [&] { return slipFloor(2 * i + 1, ncol, r_); },
          // Slipping: the LCP's sliding speed λ = |u_t| is basic and above round-off.
          [&] { return res.z(4 * i + 3) > slipFloor(2 * i + 1, ncol, r_); });
      if (mu == mu_used_(i)) continue;
      retrying = retrying || mu > mu_used_(i);  // a reversal's μs: undone if the bounds fail
      setContactMu(i, mu);
      again = true;
    }
    for (Eigen::Index e = 0; e < nj; ++e) {
      const JointFriction& j = joints_[static_cast<std::size_t>(e)];
      const std::size_t tried = contacts_.size() + static_cast<std::size_t>(e);
      if (joint_mu_(e) == j.mu_kinetic && j.mu_static > j.mu_kinetic && joint_slipped_[std::size_t(e)] &&
          !reversal_tried_[tried] && rate(e) * joint_rate_(e) < 0.0 && std::abs(rate(e)) > options_.stick_velocity) {
        reversal_tried_[tried] = 1;
        setJointMu(e, j.mu_static);
        again = retrying = true;
        continue;
      }
      if (joint_mu_(e) == j.mu_kinetic || std::abs(rate(e)) <= options_.stick_velocity) continue;
      setJointMu(e, j.mu_kinetic);
      again = true;
    }
    if (!again) return true;
  }
}

lcp::RoundConeOptions MoreauJeanStepper::roundConeOptions() const {
  lcp::RoundConeOptions o;  // its tolerance: Siconos' fc3d error 1e-10
  o.method = lcp::roundConeMethod(options_.solver == "round-cone" ? "auto" : options_.solver);
  o.max_sweeps = options_.nsgs_max_sweeps;
  return o;
}

bool MoreauJeanStepper::solveSpatial(Eigen::Index na, Eigen::Ref<Eigen::VectorXd> v) {
  Spatial& sp = *spatial_;
  const Eigen::Index n = 3 * na;
  lcp::FrictionProblem3D& p = sp.problems[std::size_t(na)];
  for (Eigen::Index a = 0; a < na; ++a) {
    const Eigen::Index i = active_[std::size_t(a)];
    const RigidContact& c = contacts_[std::size_t(i)];
    jat_.col(3 * a) = kin_.jacobian.row(2 * i).transpose();
    jat_.col(3 * a + 1) = kin_.jacobian.row(2 * i + 1).transpose();
    jat_.col(3 * a + 2) = kin_.second_tangent.row(i).transpose();
    mu_used_(a) = slipped_[std::size_t(i)] ? c.mu_kinetic : c.mu_static;
  }
  formDelassus(n);
  for (Eigen::Index a = 0; a < na; ++a) {
    const Eigen::Index i = active_[std::size_t(a)];
    qf_(3 * a) += contacts_[std::size_t(i)].restitution * kin_.normal_velocity(i);
    wnn_(a) = w_(3 * a, 3 * a);
  }
  p.W = w_.topLeftCorner(n, n);  // sized once per active-set size: copies, no allocation
  p.q = qf_.head(n);
  lcp::FrictionResult& res = sp.result;
  // μs first where the contact did not slip; a contact that slips with it is solved again with
  // μk (at most na solves: each switch is final).
  for (;;) {
    p.mu = mu_used_.head(na);
    if (sp.siconos) res = sp.siconos->solve(p);
    else if (!sp.faceted.empty()) sp.faceted[std::size_t(na)].solve(p, res);
    else sp.round[std::size_t(na)].solve(p, res, sp.solved == na ? &res.r : nullptr);  // warm from the last step
    ++lcp_solves_;
    pivots_ += res.pivots;
    if (!res.ok()) {
      std::ostringstream os;
      os << contact_solver_ << " on " << na << " active spatial contact(s) " << activeNames(na) << ": "
         << lcp::toString(res.status) << ", residual " << res.residual << " (relative " << res.relative_residual
         << "): " << res.message;
      return fail(RunStatus::kContactSolverFailure, os.str(), res.status, res.residual);
    }
    bool again = false;
    for (Eigen::Index a = 0; a < na; ++a) {
      const RigidContact& c = contacts_[std::size_t(active_[std::size_t(a)])];
      if (mu_used_(a) == c.mu_kinetic || res.r(3 * a) <= 0.0) continue;
      // The round cone's solvers and Siconos' stop at a tolerance: a force on its cone (a slope
      // at tan α = μs) keeps a slip of ~1e-8 of the step's velocities where the exact answer
      // sticks. Up to stick_velocity that is stick, as the step's mode reads it (modeOf).
      const double floor = slipFloor(3 * a + 1, n, res.r) + slipFloor(3 * a + 2, n, res.r);
      const double slip = sp.faceted.empty() ? std::max(floor, options_.stick_velocity) : floor;
      if (res.u.segment<2>(3 * a + 1).norm() > slip) {
        mu_used_(a) = c.mu_kinetic;
        again = true;
      }
    }
    if (!again) break;
  }
  v = v_free_;
  for (Eigen::Index c = 0; c < n; ++c) v += res.r(c) * gjt_.col(c);  // G J_Aᵀ P
  sp.tangent_impulse.setZero();
  for (Eigen::Index a = 0; a < na; ++a) {
    const Eigen::Index i = active_[std::size_t(a)];
    impulse_(2 * i) = res.r(3 * a);
    sp.tangent_impulse.segment<2>(2 * i) = res.r.segment<2>(3 * a + 1);
    r_(2 * a) = res.r(3 * a);  // the planar layout the mode bookkeeping and projection read
    r_(2 * a + 1) = 0.0;
  }
  return true;
}

void MoreauJeanStepper::formDelassus(Eigen::Index ncol) {
  const auto jat = jat_.leftCols(ncol);
  auto gjt = gjt_.leftCols(ncol);
  response_.inverseMassTimesColumns(jat, gjt);
  for (Eigen::Index c = 0; c < ncol; ++c) {  // contiguous columns: no product kernel
    qf_(c) = jat.col(c).dot(v_free_);
    for (Eigen::Index r = 0; r < ncol; ++r) w_(r, c) = jat.col(r).dot(gjt.col(c));
  }
}

double MoreauJeanStepper::slipFloor(Eigen::Index row, Eigen::Index ncol, const Eigen::VectorXd& r) const {
  double terms = std::abs(qf_(row));
  for (Eigen::Index j = 0; j < ncol; ++j) terms += std::abs(w_(row, j) * r(j));
  return kSlipRoundOff * terms;
}

bool MoreauJeanStepper::solveSiconos(Eigen::Index na) {
  Siconos& s = *siconos_;
  auto solveOnce = [&]() {
    s.problem.W = w_.topLeftCorner(2 * na, 2 * na);
    s.problem.q = qf_.head(2 * na);
    s.problem.mu = mu_used_.head(na);
    s.result = s.solver.solve(s.problem);
    ++lcp_solves_;
    pivots_ += s.result.pivots;
    if (!s.result.ok()) {
      std::ostringstream os;
      os << "siconos-" << s.solver.name() << " on " << na << " active contact(s) "
         << activeNames(na) << ": " << lcp::toString(s.result.status) << ", residual "
         << s.result.residual << " (relative " << s.result.relative_residual
         << "): " << s.result.message;
      return fail(RunStatus::kContactSolverFailure, os.str(), s.result.status, s.result.residual);
    }
    r_.head(2 * na) = s.result.r;
    return true;
  };
  if (!solveOnce()) return false;
  bool again = false;
  for (Eigen::Index i = 0; i < na; ++i) {
    const RigidContact& c =
        contacts_[static_cast<std::size_t>(active_[static_cast<std::size_t>(i)])];
    if (mu_used_(i) == c.mu_kinetic || r_(2 * i) <= 0.0) continue;
    if (std::abs(s.result.u(2 * i + 1)) > slipFloor(2 * i + 1, 2 * na, r_)) {
      mu_used_(i) = c.mu_kinetic;
      again = true;
    }
  }
  return !again || solveOnce();
}

bool MoreauJeanStepper::pushed(Eigen::Index a) const {
  return contacts_[std::size_t(active_[std::size_t(a)])].normal != RigidContact::Normal::kBilateral && r_(2 * a) > 0.0;
}

Eigen::Index MoreauJeanStepper::penetratingContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                    Eigen::Index active, double& deepest) {
  deepest = 0.0;
  bool any = false;
  for (Eigen::Index a = 0; a < active && !any; ++a) any = pushed(a);
  if (!any) return 0;
  mechanism_.evaluateContacts(t, q, v_old_, kin_, /*drift=*/false);  // kin_ is no longer needed
  Eigen::Index rows = 0;
  for (Eigen::Index a = 0; a < active; ++a) {
    const Eigen::Index i = active_[std::size_t(a)];
    const double g = kin_.gap(i);
    if (!pushed(a) || g >= -options_.contact_projection_tolerance) continue;
    proj_contacts_[std::size_t(rows)] = int(i);
    proj_rhs_(rows++) = -g;
    deepest = std::max(deepest, -g);
  }
  return rows;
}

void MoreauJeanStepper::projectContactsSparse(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Index active) {
  const Eigen::VectorXd& minv = *mechanism_.inverseMassDiagonal();
  const int nc = int(contacts_.size()), m = int(joint_blocks_ > 0 ? mechanism_.constraintCount() : 0);
  const Eigen::Index rows = active + m;
  for (int it = 0; it < 5; ++it) {
    double worst = 0.0;
    const Eigen::Index penetrating = penetratingContacts(t, q, active, worst);
    if (penetrating == 0 || worst <= 1e-12) return;
    for (Eigen::Index a = 0; a < penetrating; ++a) proj_penetrates_[std::size_t(proj_contacts_[std::size_t(a)])] = 1;
    // S = R M⁻¹ Rᵀ in compressed rows, R every active contact's normal row and then, where the
    // joints join the problem, the joints' rows; its nonzeros those of rows sharing a column
    // (coupled_, ascending). A contact that does not penetrate has a decoupled unit row (its
    // couplings stored as zeros, μ = 0), so that the pattern holds while the active set does
    // and KLU refactors without allocating. Right-hand side −g, 0, −Φ.
    auto mu = proj_rhs_.head(rows);
    for (Eigen::Index a = 0; a < active; ++a) {
      const int i = active_[std::size_t(a)];
      position_[std::size_t(i)] = int(a);
      mu(a) = proj_penetrates_[std::size_t(i)] ? -kin_.gap(i) : 0.0;
    }
    for (int b = 0; b < int(joint_blocks_); ++b) position_[std::size_t(nc + b)] = int(active) + 2 * b;
    if (m > 0) {
      mechanism_.constraints(t, q, mu.tail(m));
      mu.tail(m) *= -1.0;
    }
    const auto decoupled = [&](int unit) { return unit < nc && !proj_penetrates_[std::size_t(unit)]; };
    proj_outer_.assign(1, 0);
    proj_inner_.clear();
    proj_values_.clear();
    for (Eigen::Index p = 0; p < rows; ++p) {
      const int unit = p < active ? active_[std::size_t(p)] : nc + int(p - active) / 2;
      const SparseJointSystem::Row x = unitRow(unit, p < active ? 0 : int(p - active) % 2);
      for (const int l : coupled_[std::size_t(unit)]) {
        const int b = position_[std::size_t(l)];
        if (b < 0) continue;
        for (int col = 0; col < (l < nc ? 1 : 2) && b + col < rows; ++col) {
          proj_inner_.push_back(b + col);
          proj_values_.push_back(decoupled(unit) || decoupled(l) ? (b + col == p ? 1.0 : 0.0)
                                                                 : rowProduct(x, unitRow(l, col)));
        }
      }
      proj_outer_.push_back(int(proj_inner_.size()));
    }
    for (Eigen::Index a = 0; a < active; ++a) position_[std::size_t(active_[std::size_t(a)])] = -1;
    for (int b = 0; b < int(joint_blocks_); ++b) position_[std::size_t(nc + b)] = -1;
    for (Eigen::Index a = 0; a < penetrating; ++a) proj_penetrates_[std::size_t(proj_contacts_[std::size_t(a)])] = 0;
    if (!proj_lu_.factor(int(rows), proj_outer_.data(), proj_inner_.data(), proj_values_.data()) ||
        !proj_lu_.solve(mu))
      return;
    dq_.setZero();  // M⁻¹ Rᵀ μ over R's nonzeros
    for (Eigen::Index a = 0; a < active; ++a)
      if (mu(a) != 0.0)
        for (ContactJacobian::InnerIterator e(kin_.jacobian, 2 * active_[std::size_t(a)]); e; ++e)
          dq_(e.col()) += minv(e.col()) * e.value() * mu(a);
    if (m > 0) response_.sparseJoints()->addInverseMassDt(1.0, mu.tail(m), dq_);
    mechanism_.addToPositions(dq_, q);
  }
}

void MoreauJeanStepper::projectThroughJoints(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Index active) {
  for (int it = 0; it < 5; ++it) {
    double worst = 0.0;
    const Eigen::Index rows = penetratingContacts(t, q, active, worst);
    if (rows == 0 || worst <= 1e-12) return;
    mechanism_.constraints(t, q, proj_phi_);
    response_.jointCorrection(proj_phi_, dq_);
    auto jc = proj_jc_.leftCols(rows);
    auto gjc = proj_gjc_.leftCols(rows);
    for (Eigen::Index a = 0; a < rows; ++a) jc.col(a) = kin_.jacobian.row(2 * proj_contacts_[std::size_t(a)]).transpose();
    response_.inverseMassTimesColumns(jc, gjc);
    proj_s_.resize(rows, rows);  // allocates only when the number of rows changes
    proj_s_.noalias() = jc.transpose() * gjc;
    proj_rhs_.head(rows).noalias() -= jc.transpose() * dq_;  // −(g + J_c Δq_Φ)
    proj_ldlt_.compute(proj_s_);
    if (proj_ldlt_.info() != Eigen::Success) return;
    proj_mu_ = proj_rhs_.head(rows);  // resizes only when the number of rows changes
    proj_ldlt_.solveInPlace(proj_mu_);
    dq_.noalias() += gjc * proj_mu_;
    mechanism_.addToPositions(dq_, q);
  }
}

void MoreauJeanStepper::projectPositions(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Index active) {
  if (sparse_assembly_ && !options_.project_positions) return projectContactsSparse(t, q, active);  // joints too
  if (response_.sparse() && !options_.project_positions) return projectThroughJoints(t, q, active);
  const Eigen::Index m = mechanism_.constraintCount();
  for (int it = 0; it < 5; ++it) {
    Eigen::Index rows = 0;
    double worst = 0.0;
    if (m > 0 && options_.project_positions) {
      mechanism_.constraints(t, q, proj_phi_.head(m));
      mechanism_.jacobian(t, q, proj_d_.topRows(m));
      worst = proj_phi_.head(m).lpNorm<Eigen::Infinity>();
      rows = m;
    }
    // Only a unilateral contact that pushed in this step can be projected: none, no evaluation.
    bool any = false;
    for (Eigen::Index a = 0; a < active && !any; ++a) any = pushed(a);
    if (options_.project_contacts && any) {
      mechanism_.evaluateContacts(t, q, v_old_, kin_, /*drift=*/false);  // kin_ is no longer needed
      for (Eigen::Index a = 0; a < active; ++a) {
        const Eigen::Index i = active_[static_cast<std::size_t>(a)];
        const double g = kin_.gap(i);
        if (!pushed(a) || g >= -options_.contact_projection_tolerance) continue;
        if (rows == 0 && m > 0) {  // the joints move with the contact's correction
          mechanism_.constraints(t, q, proj_phi_.head(m));
          mechanism_.jacobian(t, q, proj_d_.topRows(m));
          rows = m;
        }
        if (rows >= proj_d_.rows()) {  // more penetrating contacts than ever: grow (allocates)
          const Eigen::Index capacity = 2 * rows + 1;
          proj_d_.conservativeResize(capacity, Eigen::NoChange);
          proj_phi_.conservativeResize(capacity);
          proj_minv_dt_.resize(proj_d_.cols(), capacity);
          proj_mu_.resize(capacity);
        }
        proj_phi_(rows) = g;
        proj_d_.row(rows) = kin_.jacobian.row(2 * i);
        worst = std::max(worst, -g);
        ++rows;
      }
    }
    if (rows == 0 || worst <= 1e-12) return;
    auto d = proj_d_.topRows(rows);
    auto minv_dt = proj_minv_dt_.leftCols(rows);
    minv_dt = d.transpose();
    mechanism_.applyInverseMass(minv_dt);
    proj_s_.resize(rows, rows);  // allocates only when the number of rows changes
    proj_s_.noalias() = d * minv_dt;
    proj_ldlt_.compute(proj_s_);
    if (proj_ldlt_.info() != Eigen::Success) return;
    proj_rhs_ = -proj_phi_.head(rows);  // plain vectors: a solve or product of blocks allocates
    proj_mu_ = proj_ldlt_.solve(proj_rhs_);
    dq_.setZero();
    for (Eigen::Index c = 0; c < rows; ++c) dq_ += proj_mu_(c) * minv_dt.col(c);  // no product kernel
    mechanism_.addToPositions(dq_, q);
  }
}

namespace {

bool isSlip(EventKind k) { return k == EventKind::kSlipPositive || k == EventKind::kSlipNegative; }

/// A stick that lasts one step, followed by a slip, is the trace of a velocity that crossed
/// zero inside the step (the step ends at rest when an impulse within μk P_n stops it, and
/// the next, with μs, breaks away): it is reported as that slip at the stick's time, and
/// dropped with it when the slip resumes the direction it had (moreau_jean.hpp, Events).
void reportReversals(std::vector<ContactEvent>& events, double h) {
  std::vector<bool> drop(events.size(), false);
  for (std::size_t a = 0; a < events.size(); ++a) {
    if (events[a].kind != EventKind::kStick || drop[a]) continue;
    std::size_t b = a + 1;
    while (b < events.size() && events[b].contact != events[a].contact) ++b;
    if (b == events.size() || !isSlip(events[b].kind) || events[b].t - events[a].t > 1.5 * h) continue;
    std::size_t before = a;
    while (before > 0 && events[before - 1].contact != events[a].contact) --before;
    const bool resumed = before > 0 && !drop[before - 1] && events[before - 1].kind == events[b].kind;
    events[a].kind = events[b].kind;
    drop[b] = true;
    if (resumed) drop[a] = true;
  }
  std::size_t kept = 0;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (!drop[i]) events[kept++] = events[i];
  events.resize(kept);
}

}  // namespace

RunResult simulateMoreauJean(const Mechanism& mechanism, const Eigen::VectorXd& q0, const Eigen::VectorXd& v0,
                             const MoreauJeanOptions& options) {
  options.validate();
  const auto& model = mechanism;
  const std::vector<RigidContact>& contacts = mechanism.contacts();
  const std::vector<JointFriction>& joint_friction = mechanism.jointFriction();
  const Eigen::Index nq = model.positionSize(), nv = model.velocitySize();
  const Eigen::Index nc = static_cast<Eigen::Index>(contacts.size());
  const Eigen::Index nj = static_cast<Eigen::Index>(joint_friction.size());
  if (q0.size() != nq || v0.size() != nv || !q0.allFinite() || !v0.allFinite()) {
    std::ostringstream os;
    os << "simulateMoreauJean: expected finite q0 of size " << nq << " and v0 of size " << nv
       << ", got sizes " << q0.size() << " and " << v0.size();
    throw std::invalid_argument(os.str());
  }
  MoreauJeanStepper stepper(mechanism, options);
  requireNoInitialPenetration(mechanism, q0, options.gap_tolerance, "simulateMoreauJean");

  RunResult run;
  run.columns = historyColumns(model, contacts, joint_friction);
  const double h = options.h, t_end = options.t_end;
  // Counted as a double first: t_end / h may exceed any integer (1e300 / 1e-300).
  const double needed = std::ceil(t_end / h - 1e-9);
  Eigen::VectorXd q = q0, v = v0;
  run.final_q = q;
  run.final_v = v;
  if (!(needed <= double(options.max_steps))) {
    std::ostringstream os;
    os << "simulateMoreauJean: t_end / h needs " << needed << " steps, more than max_steps = " << options.max_steps;
    run.fail(RunStatus::kLimitReached, os.str());
    return run;
  }
  const long steps = std::max(1L, static_cast<long>(needed));

  // Initial modes from (q0, v0), so that a contact resting at t = 0 reports no event.
  std::vector<ContactMode> modes(static_cast<std::size_t>(nc), ContactMode::kOpen);
  {
    ContactKinematics kin;
    mechanism.evaluateContacts(0.0, q, v, kin);
    for (Eigen::Index i = 0; i < nc; ++i) {
      const bool two_sided =
          contacts[static_cast<std::size_t>(i)].normal == RigidContact::Normal::kBilateral;
      if (!two_sided && (std::abs(kin.gap(i)) > options.gap_tolerance ||
                         std::abs(kin.normal_velocity(i)) > options.stick_velocity))
        continue;
      modes[static_cast<std::size_t>(i)] =
          modeOf(true, kin.sliding_velocity(i), options.stick_velocity);
    }
  }
  // Joint frictions are never open: stick or slip from ṡ(v0).
  std::vector<ContactMode> joint_modes(static_cast<std::size_t>(nj));
  for (Eigen::Index e = 0; e < nj; ++e) {
    Eigen::VectorXd row = Eigen::VectorXd::Zero(nv);
    mechanism.addJointFrictionRow(std::size_t(e), 1.0, row);
    joint_modes[static_cast<std::size_t>(e)] = modeOf(true, row.dot(v), options.stick_velocity);
  }
  run.initial_modes = modes;
  run.initial_modes.insert(run.initial_modes.end(), joint_modes.begin(), joint_modes.end());

  // At most one sample per step, however fine output_dt.
  const Eigen::Index rows =
      options.output_dt > 0.0
          ? static_cast<Eigen::Index>(std::min(std::floor(t_end / options.output_dt + 1e-9), double(steps))) + 2
          : steps + 1;
  run.history.setZero(rows, 1 + nq + nv + 2 * nc + 2 * nj);
  Eigen::Index written = 0;
  // A row's forces are the impulses of the last step over its length.
  auto writeForces = [&](auto row, double step) {
    row.segment(1 + nq + nv, 2 * nc) = stepper.impulses().transpose() / step;
    for (Eigen::Index e = 0; e < nj; ++e) {
      row(1 + nq + nv + 2 * nc + 2 * e) = stepper.jointReactionImpulses()(e) / step;
      row(1 + nq + nv + 2 * nc + 2 * e + 1) = stepper.jointTorqueImpulses()(e) / step;
    }
  };
  auto record = [&](double t, double step) {
    auto row = run.history.row(written++);
    row(0) = t;
    row.segment(1, nq) = q.transpose();
    row.segment(1 + nq, nv) = v.transpose();
    if (step > 0.0) writeForces(row, step);
  };
  record(0.0, 0.0);
  long next_sample = 1;

  auto modeEvent = [](ContactMode m) {
    switch (m) {
      case ContactMode::kStick:
        return EventKind::kStick;
      case ContactMode::kSlipPositive:
        return EventKind::kSlipPositive;
      case ContactMode::kSlipNegative:
        return EventKind::kSlipNegative;
      case ContactMode::kOpen:
        break;
    }
    return EventKind::kOpen;
  };

  const double clock0 = threadCpuSeconds();
  double t = 0.0, friction_work = 0.0;
  for (long k = 0; k < steps; ++k) {
    const double t_next = k + 1 == steps ? t_end : double(k + 1) * h;
    const double hk = t_next - t;
    if (!stepper.step(t, hk, q, v)) {
      std::ostringstream os;
      os << "Moreau–Jean stopped at t = " << t << " s (step " << k + 1 << " of " << steps
         << "): " << stepper.message();
      run.fail(stepper.status(), os.str());
      run.solver_status = stepper.solverStatus();
      run.solver_residual = stepper.solverResidual();
      break;
    }
    t = t_next;
    ++run.steps;
    // The step's friction impulse P_t opposes v_t⁺ (maximal dissipation): −P_t v_t⁺ ≥ 0.
    for (Eigen::Index i = 0; i < nc; ++i)
      friction_work -= stepper.impulses()(2 * i + 1) * stepper.slidingVelocity()(i);
    for (Eigen::Index e = 0; e < nj; ++e)  // likewise −τ ṡ⁺ ≥ 0
      friction_work -= stepper.jointTorqueImpulses()(e) * stepper.jointRates()(e);
    if (options.progress) options.progress(t);
    // A change seen at the end of the step happened inside it: timed at its middle, the
    // estimate whose error is at most h/2 (at its end, up to h).
    const double t_event = t - 0.5 * hk;
    for (Eigen::Index i = 0; i < nc; ++i) {
      const RigidContact& c = contacts[static_cast<std::size_t>(i)];
      const ContactMode now =
          modeOf(stepper.closed(i), stepper.slidingVelocity()(i), options.stick_velocity);
      ContactMode& before = modes[static_cast<std::size_t>(i)];
      if (now == before) continue;
      const int ci = static_cast<int>(i);
      if (before == ContactMode::kOpen) {
        const bool impact = stepper.approachVelocity()(i) < -options.stick_velocity;
        run.events.push_back({t_event, ci, impact ? EventKind::kImpact : EventKind::kClose});
        if (c.frictional()) run.events.push_back({t_event, ci, modeEvent(now)});
      } else if (now == ContactMode::kOpen) {
        run.events.push_back({t_event, ci, EventKind::kOpen});
      } else if (c.frictional()) {
        run.events.push_back({t_event, ci, modeEvent(now)});
      }
      before = now;
    }
    for (Eigen::Index e = 0; e < nj; ++e) {
      const ContactMode now = modeOf(true, stepper.jointRates()(e), options.stick_velocity);
      ContactMode& before = joint_modes[static_cast<std::size_t>(e)];
      if (now == before) continue;
      run.events.push_back({t_event, static_cast<int>(nc + e), modeEvent(now)});
      before = now;
    }
    if (k == 0) writeForces(run.history.row(0), hk);  // no step behind t = 0: the one it starts
    if (options.output_dt < h) {  // 0, or finer than the step: every step (no count to catch up)
      record(t, hk);
    } else if (written < rows &&
               (k + 1 == steps || t >= double(next_sample) * options.output_dt - 1e-6 * h)) {
      record(t, hk);
      while (double(next_sample) * options.output_dt <= t + 1e-6 * h) ++next_sample;
    }
  }
  run.cpu_seconds = threadCpuSeconds() - clock0;
  reportReversals(run.events, h);
  run.history.conservativeResize(written, Eigen::NoChange);
  run.friction_work = friction_work;
  run.lcp_solves = stepper.lcpSolves();
  run.contact_solver = stepper.contactSolver();
  run.pivots = stepper.pivots();
  run.t_end = t;
  run.final_q = q;
  run.final_v = v;
  return run;
}

RunResult simulateMoreauJean(const RigidScenario& s, const MoreauJeanOptions& options) {
  return simulateMoreauJean(PlanarMechanism(s), s.q0, s.v0, options);
}

}  // namespace stickslip::dynamics
