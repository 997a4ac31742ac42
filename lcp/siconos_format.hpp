#pragma once
/// \file Readers for the text (.dat) formats of Siconos Numerics 4.4: LCP, MLCP and 2D
/// frictional contact, written independently of Siconos from the layout its readers accept.
///
/// All three formats are whitespace-separated tokens; line breaks carry no meaning. A
/// NumericsMatrix block is
///   storage  rows  cols  <data>
/// with storage 0 (dense: `rows cols` repeated, then rows·cols numbers *column by column*,
/// which Siconos prints one column per text line for a square matrix) or 1 (sparse block:
///   nbblocks  nrowblocks  ncolblocks  rowblock_end[nrowblocks]  colblock_end[ncolblocks]
///   filled1  filled2  rowptr[filled1]  colblock[filled2]
///   then per block, in row-pointer order: its number, then its entries column by column,
/// where *_end are cumulative sizes) or 2 (compressed sparse: CSparse's text dump, cs_print,
/// by columns or as triplets; see readCompressedSparse in the source). Matrices are read
/// densely, within 2²⁶ entries, except W of FC2D through readFc2dDatSparse and readDat.
///
/// Layouts (n, m, nc: integers; M: a NumericsMatrix block):
///   LCP   n  M  q[n]
///   FC    d  nc  M  q[d·nc]  mu[nc]  [0|1]             (only d = 2 is read here; the last
///                                                       integer, written by later Siconos
///                                                       versions and unread by its reader, is
///                                                       skipped)
///   MLCP  hasM  hasABCD  n  m
///         [hasM:    blocksRows…(ending at n+m)  blocksIsComp[#blocks]  M  q[cols of M]]
///         [hasABCD: A[n×n] B[m×m] C[n×m] D[m×n] row by row,  a[n]  b[m]]
/// In the (M, q) form of an MLCP, rows blocksRows[k] … blocksRows[k+1]−1 are equalities if
/// blocksIsComp[k] = 0 (their variables are free) and complementarity rows otherwise; the
/// reader permutes them into MixedProblem's (A, B, C, D, a, b): equalities first, in order.
/// When a file holds both forms, (A, B, C, D, a, b) is returned, and if M is (n+m)×(n+m) the
/// two forms must agree exactly. After an LCP or FC problem, text is ignored if it starts
/// with a non-numeric token (comments such as "# from Murty"); further numbers are an error,
/// as they mean the sizes do not match the data. After an MLCP anything is ignored: the
/// collection's MLCP files append a reference solution, which Siconos' reader skips too.
///
/// Contract: every reader throws std::invalid_argument naming the reader, the file, the line
/// (where there is one) and the reason: cannot open, file ends early, non-numeric or
/// non-integer token, NaN/Inf entry, negative size, unsupported storage, non-square or
/// inconsistent sizes, numeric data left over. The returned problem passes validate().

#include <filesystem>
#include <istream>
#include <string>
#include <variant>

#include "lcp/problem.hpp"

namespace stickslip::lcp {

/// Reads an LCP (M, q) written by Siconos' linearComplementarity_printInFile.
Problem readLcpDat(const std::filesystem::path& file);
/// The same from a stream holding a file's text; `name` stands for the file in messages.
Problem readLcpDat(std::istream& in, const std::string& name);

/// Reads a mixed LCP written by Siconos' mixedLinearComplementarity_printInFile, in either
/// or both of its storages (see the file comment for the mapping to MixedProblem).
MixedProblem readMlcpDat(const std::filesystem::path& file);
MixedProblem readMlcpDat(std::istream& in, const std::string& name);

/// Reads a planar frictional contact problem (W, q, μ) written by Siconos'
/// frictionContact_printInFile with dimension 2; unknowns per contact (normal, tangent).
FrictionProblem2D readFc2dDat(const std::filesystem::path& file);
FrictionProblem2D readFc2dDat(std::istream& in, const std::string& name);

/// The same with W kept sparse whatever its storage (memory ∝ nnz(W)).
SparseFrictionProblem2D readFc2dDatSparse(const std::filesystem::path& file);
SparseFrictionProblem2D readFc2dDatSparse(std::istream& in, const std::string& name);

/// Reads a spatial frictional contact problem (W, q, μ) written with dimension 3; unknowns per
/// contact (normal, tangent, tangent); W dense or sparse-block (given densely).
FrictionProblem3D readFc3dDat(const std::filesystem::path& file);
FrictionProblem3D readFc3dDat(std::istream& in, const std::string& name);

/// An FC2D problem comes as FrictionProblem2D when W is stored dense (storages 0, 1) and as
/// SparseFrictionProblem2D when it is stored compressed (storage 2); an FC3D problem as
/// FrictionProblem3D.
using DatProblem = std::variant<Problem, MixedProblem, FrictionProblem2D, SparseFrictionProblem2D, FrictionProblem3D>;

/// Reads a .dat file of unknown kind. The file name (then its folder's name) names it:
/// "mlcp" → MLCP, "fc2d" → FC2D, "fc3d" → FC3D, "lcp" → LCP, and only that kind is read; a
/// file that fails it is refused with its error and the kinds it does read as. Without such a
/// name every kind is tried and the one that parses is returned. Throws std::invalid_argument,
/// listing what each attempt reported, if none parses, or if several parse.
DatProblem readDat(const std::filesystem::path& file);
/// The same from a stream; `name` plays the file name's part, as hint and in messages.
DatProblem readDat(std::istream& in, const std::string& name);

/// "lcp", "mlcp", "fc2d" or "fc3d" for the alternative held by p.
const char* datKindName(const DatProblem& p);

}  // namespace stickslip::lcp
