// The stream overloads of the .dat readers (used by fuzz/fuzz_dat_reader.cpp): the same
// problems as the file readers on the whole collection, the name in messages and as hint.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "lcp/message_of.hpp"
#include "lcp/siconos_format.hpp"
#include "siconos_data.hpp"

using namespace stickslip::lcp;
using stickslip::test::datFiles;

namespace {

std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

using stickslip::test::messageOf;

}  // namespace

TEST_CASE("stream readers return what the file readers return", "[lcp][siconos-format]") {
  for (const char* folder : {"lcp", "mlcp", "fc2d"}) {
    for (const auto& file : datFiles(folder)) {
      INFO(file.string());
      std::istringstream in(slurp(file));
      const DatProblem from_stream = readDat(in, file.string());
      const DatProblem from_file = readDat(file);
      REQUIRE(from_stream.index() == from_file.index());
      if (const auto* p = std::get_if<Problem>(&from_stream)) {
        const auto& f = std::get<Problem>(from_file);
        CHECK(p->M == f.M);
        CHECK(p->q == f.q);
      } else if (const auto* m = std::get_if<MixedProblem>(&from_stream)) {
        const auto& f = std::get<MixedProblem>(from_file);
        CHECK((m->A == f.A && m->B == f.B && m->C == f.C && m->D == f.D));
        CHECK((m->a == f.a && m->b == f.b));
      } else {
        const auto& s = std::get<FrictionProblem2D>(from_stream);
        const auto& f = std::get<FrictionProblem2D>(from_file);
        CHECK((s.W == f.W && s.q == f.q && s.mu == f.mu));
      }
    }
  }
}

TEST_CASE("stream readers name the stream in messages and take the hint from it",
          "[lcp][siconos-format]") {
  // n = 1, M dense 1×1 = [1], q = [-1].
  {
    std::istringstream in("1\n0 1 1\n1 1\n1\n-1\n");
    const Problem p = readLcpDat(in, "memory.dat");
    CHECK(p.M(0, 0) == 1.0);
    CHECK(p.q(0) == -1.0);
  }
  {
    std::istringstream in("1\n0 1 1\n1 1\n1\n");
    const std::string msg = messageOf([&] { readLcpDat(in, "memory.dat"); });
    CHECK_THAT(msg, Catch::Contains("lcp::readLcpDat: memory.dat:") &&
                        Catch::Contains("file ends early"));
  }
  {
    std::istringstream in("nonsense");
    const std::string msg = messageOf([&] { readDat(in, "some/where/mlcp_x.dat"); });
    CHECK_THAT(msg, Catch::StartsWith("lcp::readDat: some/where/mlcp_x.dat: its name says mlcp, but it does not "
                                      "read as one:\n  lcp::readMlcpDat: some/where/mlcp_x.dat:"));
  }
  {
    // An LCP in a file named fc3d is refused, not read as the LCP its numbers happen to make.
    std::istringstream in("1\n0 1 1\n1 1\n1\n-1\n");
    const std::string msg = messageOf([&] { readDat(in, "fc3d/problem.dat"); });
    CHECK_THAT(msg, Catch::StartsWith("lcp::readDat: fc3d/problem.dat: its folder's name says fc3d, but it does "
                                      "not read as one:") &&
                        Catch::EndsWith("\n  it reads as lcp: rename it to read it so"));
  }
  {
    std::istringstream in;
    in.setstate(std::ios::failbit);
    CHECK_THAT(messageOf([&] { readFc2dDat(in, "bad"); }), Catch::Contains("cannot open"));
  }
}

TEST_CASE("an MLCP with n + m = 0 and blocksRows starting below 0 is refused, not indexed", "[lcp][siconos-format]") {
  // Found by fuzz_fc3d_reader through readDat's fallback: blocksRows −1, 0 passed the checks
  // when n + m = 0 and marked row −1 (undefined behaviour).
  const std::string text = "1 0 0\n0 -1 0\n0 0\n0 -1";
  std::istringstream in(text);
  CHECK_THAT(messageOf([&] { readMlcpDat(in, "m.dat"); }), Catch::Contains("blocksRows must start at 0, got -1"));
  std::istringstream again(text);
  CHECK_THROWS_AS(readDat(again, "fuzz_fc3d.dat"), std::invalid_argument);
}
