// stickslip.lcp (python/bindings.hpp): the complementarity solvers of lcp/solve.hpp on NumPy
// data, and Siconos' .dat files. Arrays are copied in and out (Eigen's dense types).
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lcp/friction_facets.hpp"
#include "lcp/lcp_auto.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/small_pivoting.hpp"
#include "lcp/solve.hpp"
#include "python/bindings.hpp"
#include "python/setting_text.hpp"

namespace py = pybind11;

namespace stickslip::python {

namespace {

/// The fields every result type shares: status (its name), ok, pivots, residuals, message.
template <typename R>
py::class_<R> resultClass(py::module_& m, const char* name, const char* doc) {
  return py::class_<R>(m, name, doc)
      .def_property_readonly("status", [](const R& r) { return std::string(lcp::toString(r.status)); })
      .def_property_readonly("ok", &R::ok)
      .def_readonly("pivots", &R::pivots)
      .def_readonly("residual", &R::residual)
      .def_readonly("relative_residual", &R::relative_residual)
      .def_readonly("message", &R::message);
}

/// "(r, c)" of a matrix, "(n,)" of a vector.
std::string shape(const Eigen::MatrixXd& a) {
  return "(" + std::to_string(a.rows()) + ", " + std::to_string(a.cols()) + ")";
}
std::string shape(const Eigen::VectorXd& a) { return "(" + std::to_string(a.size()) + ",)"; }

/// A Python user's mistake is a ValueError naming the argument, the expected and the given
/// shape; only the solver's own failures come back as a status.
template <typename A>
void requireShape(const char* function, const char* name, const A& a, Eigen::Index rows, Eigen::Index cols = -1) {
  const bool matrix = cols >= 0;
  if (a.rows() != rows || (matrix && a.cols() != cols)) {
    const std::string expected =
        matrix ? "(" + std::to_string(rows) + ", " + std::to_string(cols) + ")" : "(" + std::to_string(rows) + ",)";
    throw py::value_error(std::string(function) + ": " + name + " has shape " + shape(a) + ", expected " + expected);
  }
  if (!a.allFinite()) throw py::value_error(std::string(function) + ": " + name + " has a NaN or an infinite entry");
}

/// `a` as a real matrix or vector; TypeError naming it when it is not an array of numbers, or
/// holds complex ones (holdsComplex).
template <typename E>
E realArray(const char* function, const char* name, const py::object& a) {
  if (const py::array array = py::array::ensure(a); array && holdsComplex(array))
    throw py::type_error(std::string(function) + ": " + name + " holds complex numbers; expected real ones");
  try {
    return a.cast<E>();
  } catch (const py::cast_error&) {
    throw py::type_error(std::string(function) + ": " + name + ": expected an array of real numbers, got " +
                         py::repr(a).cast<std::string>());
  }
}

}  // namespace

void bindLcp(py::module_& m) {
  using namespace lcp;
  resultClass<lcp::Result>(m, "Result", "An LCP solve: z, w = M z + q, status, residual ‖min(z, w)‖∞, pivots.")
      .def_readonly("z", &lcp::Result::z)
      .def_readonly("w", &lcp::Result::w);
  resultClass<FrictionResult>(m, "FrictionResult",
                              "A planar friction solve: reactions r and velocities u = W r + q per contact (normal, "
                              "tangent), status, natural-map residual, pivots.")
      .def_readonly("r", &FrictionResult::r)
      .def_readonly("u", &FrictionResult::u)
      .def_readonly("solver", &FrictionResult::solver)
      .def_readonly("warning", &FrictionResult::warning);
  resultClass<MixedResult>(m, "MixedResult", "A mixed LCP solve: u free, v ⊥ w, status, residual, pivots.")
      .def_readonly("u", &MixedResult::u)
      .def_readonly("v", &MixedResult::v)
      .def_readonly("w", &MixedResult::w);

  const std::string solve_doc =
      "LCP(M, q): z ≥ 0, w = M z + q ≥ 0, zᵀw = 0. Solvers: lcp.solvers('lcp'); auto: on up to " +
      std::to_string(lcp::kSmallPivotingSize) +
      " unknowns block pivoting on the stack, beyond it with a kept factor; Lemke where it finds"
      " no solution; and on up to " +
      std::to_string(lcp::kAutoEnumerationSize) +
      " the enumeration where Lemke finds none. ValueError unless M is (n, n) and q (n,), all " +
      "finite; a solver's failure is the result's status.";  // pybind11 copies it
  m.def(
      "solve",
      [](const py::object& M_in, const py::object& q_in, const std::string& solver) {
        Eigen::MatrixXd M = realArray<Eigen::MatrixXd>("solve", "M", M_in);
        Eigen::VectorXd q = realArray<Eigen::VectorXd>("solve", "q", q_in);
        requireShape("solve", "M", M, M.rows(), M.rows());
        requireShape("solve", "q", q, M.rows());
        const Problem p{std::move(M), std::move(q)};
        py::gil_scoped_release release;
        return solveLcp(solver, p);
      },
      py::arg("M"), py::arg("q"), py::arg("solver") = "auto", solve_doc.c_str());
  m.def(
      "solve_friction",
      [](const py::object& W_in, const py::object& q_in, const py::object& mu_in, const std::string& solver,
         std::optional<int> facets) {
        Eigen::MatrixXd W = realArray<Eigen::MatrixXd>("solve_friction", "W", W_in);
        Eigen::VectorXd q = realArray<Eigen::VectorXd>("solve_friction", "q", q_in);
        Eigen::VectorXd mu = realArray<Eigen::VectorXd>("solve_friction", "mu", mu_in);
        // Planar when q has two entries per contact, spatial when it has three.
        const Eigen::Index d = mu.size() > 0 && q.size() == 3 * mu.size() ? 3 : 2;
        requireShape("solve_friction", "W", W, d * mu.size(), d * mu.size());
        requireShape("solve_friction", "q", q, d * mu.size());
        requireShape("solve_friction", "mu", mu, mu.size());
        // As `stickslip lcp --facets`: only where the faceted cone is used, within its range.
        if (facets && (d != 3 || solver != "lemke"))
          throw py::value_error("solve_friction: facets: the faceted cone is solver 'lemke''s on a spatial problem; "
                                "here solver '" + solver + "' on a " + (d == 3 ? "spatial" : "planar") +
                                " one does not use it");
        if (facets) requireFacetCount(*facets, "solve_friction: facets");
        if (d == 3) {
          const FrictionProblem3D p{std::move(W), std::move(q), std::move(mu)};
          py::gil_scoped_release release;
          return solveFriction(solver, p, facets.value_or(8));
        }
        const FrictionProblem2D p{std::move(W), std::move(q), std::move(mu)};
        py::gil_scoped_release release;
        return solveFriction(solver, p);
      },
      py::arg("W"), py::arg("q"), py::arg("mu"), py::arg("solver") = "auto", py::arg("facets") = py::none(),
      "Coulomb contact u = W r + q: planar (Siconos' fc2d, per contact normal then tangent; solvers "
      "lcp.solvers('fc2d')) when q has 2 entries per contact, spatial (fc3d, normal then two tangents, the round "
      "cone; solvers lcp.solvers('fc3d'), 'auto' ours and exact) when it has 3. `facets` (default 8): the faceted "
      "cone's directions per contact, spatial by 'lemke' only. A spatial W that looks wrong (not symmetric, or "
      "not positive semidefinite) sets `warning`, and so does a solved answer whose error in W's units is far above "
      "Siconos' error in the units given. ValueError unless W is (dm, dm), q (dm,) and mu (m,), all "
      "finite.");
  m.def(
      "solve_mlcp",
      [](const py::object& A_in, const py::object& B_in, const py::object& C_in, const py::object& D_in,
         const py::object& a_in, const py::object& b_in, const std::string& solver) {
        Eigen::MatrixXd A = realArray<Eigen::MatrixXd>("solve_mlcp", "A", A_in);
        Eigen::MatrixXd B = realArray<Eigen::MatrixXd>("solve_mlcp", "B", B_in);
        Eigen::MatrixXd C = realArray<Eigen::MatrixXd>("solve_mlcp", "C", C_in);
        Eigen::MatrixXd D = realArray<Eigen::MatrixXd>("solve_mlcp", "D", D_in);
        Eigen::VectorXd a = realArray<Eigen::VectorXd>("solve_mlcp", "a", a_in);
        Eigen::VectorXd b = realArray<Eigen::VectorXd>("solve_mlcp", "b", b_in);
        const Eigen::Index nu = a.size(), nv = b.size();  // free and complementary unknowns
        requireShape("solve_mlcp", "A", A, nu, nu);
        requireShape("solve_mlcp", "C", C, nu, nv);
        requireShape("solve_mlcp", "D", D, nv, nu);
        requireShape("solve_mlcp", "B", B, nv, nv);
        requireShape("solve_mlcp", "a", a, nu);
        requireShape("solve_mlcp", "b", b, nv);
        const MixedProblem p{std::move(A), std::move(B), std::move(C), std::move(D), std::move(a), std::move(b)};
        py::gil_scoped_release release;
        return solveMlcp(solver, p);
      },
      py::arg("A"), py::arg("B"), py::arg("C"), py::arg("D"), py::arg("a"), py::arg("b"), py::arg("solver") = "lemke",
      "Mixed LCP in Siconos' form: A u + C v + a = 0, w = D u + B v + b, 0 ≤ w ⊥ v ≥ 0. ValueError "
      "unless A is (n, n), C (n, m), D (m, n), B (m, m), a (n,) and b (m,), all finite.");
  m.def(
      "solvers",
      [](const std::string& kind) {
        if (kind == "lcp") return lcpSolverNames();
        if (kind == "mlcp") return mlcpSolverNames();
        if (kind == "fc2d") return frictionSolverNames();
        if (kind == "fc3d") return friction3dSolverNames();
        throw py::value_error("solvers: expected kind 'lcp', 'mlcp', 'fc2d' or 'fc3d', got '" + kind + "'");
      },
      py::arg("kind") = "lcp");
  m.def(
      "read_dat",
      [](const std::string& path) {
        const DatProblem problem = readDat(path);
        py::dict out;
        out["kind"] = datKindName(problem);
        if (const auto* p = std::get_if<Problem>(&problem)) {
          out["M"] = p->M;
          out["q"] = p->q;
        } else if (const auto* f = std::get_if<FrictionProblem2D>(&problem)) {
          out["W"] = f->W;
          out["q"] = f->q;
          out["mu"] = f->mu;
        } else if (const auto* f3 = std::get_if<FrictionProblem3D>(&problem)) {
          out["W"] = f3->W;
          out["q"] = f3->q;
          out["mu"] = f3->mu;
        } else if (const auto* s = std::get_if<SparseFrictionProblem2D>(&problem)) {
          // Stored compressed (storage 2): W as coordinates, so that NumPy alone reads it.
          std::vector<Eigen::Index> rows, cols;
          std::vector<double> values;
          for (Eigen::Index k = 0; k < s->W.outerSize(); ++k)
            for (SparseFrictionProblem2D::Matrix::InnerIterator it(s->W, k); it; ++it) {
              rows.push_back(it.row());
              cols.push_back(it.col());
              values.push_back(it.value());
            }
          py::dict w;
          w["shape"] = py::make_tuple(s->W.rows(), s->W.cols());
          w["row"] = py::array(py::cast(rows));
          w["col"] = py::array(py::cast(cols));
          w["value"] = py::array(py::cast(values));
          out["W"] = w;
          out["q"] = s->q;
          out["mu"] = s->mu;
        } else {
          const auto& x = std::get<MixedProblem>(problem);
          out["A"] = x.A, out["B"] = x.B, out["C"] = x.C, out["D"] = x.D, out["a"] = x.a, out["b"] = x.b;
        }
        return out;
      },
      py::arg("path"),
      "Reads a Siconos .dat problem: {'kind': 'lcp', 'M', 'q'}, {'kind': 'fc2d' or 'fc3d', 'W', 'q', 'mu'} (an "
      "fc2d W stored compressed comes as {'shape', 'row', 'col', 'value'}) or "
      "{'kind': 'mlcp', 'A', 'B', 'C', 'D', 'a', 'b'}. Raises ValueError naming the file.");
}

}  // namespace stickslip::python
