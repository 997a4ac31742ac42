#pragma once
/// \file Turns a libFuzzer input into sizes and doubles for the binary fuzz targets.
///
/// Every number costs one selector byte: most selectors give a small integer (degenerate,
/// tie-rich problems are where pivoting rules break), some give a special value (0, ±Inf,
/// NaN, DBL_MAX, the smallest denormal, 1e±300, ε), the rest take the next 8 bytes as a raw
/// IEEE double. An exhausted input reads as zeros, so every byte string is a valid input.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

namespace stickslip::fuzz {

class FuzzInput {
 public:
  FuzzInput(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  /// An integer in [lo, hi].
  int range(int lo, int hi) { return lo + static_cast<int>(byte() % static_cast<unsigned>(hi - lo + 1)); }

  /// Any double, non-finite ones included.
  double real() {
    const std::uint8_t s = byte();
    if (s < 160) return static_cast<double>(static_cast<int>(s % 17) - 8);  // −8 … 8
    if (s < 176) return static_cast<double>(static_cast<int>(s % 16) - 8) / 4.0;  // quarters
    constexpr double kInf = std::numeric_limits<double>::infinity();
    switch (s) {
      case 176: return std::numeric_limits<double>::quiet_NaN();
      case 177: return kInf;
      case 178: return -kInf;
      case 179: return std::numeric_limits<double>::max();
      case 180: return -std::numeric_limits<double>::max();
      case 181: return std::numeric_limits<double>::denorm_min();
      case 182: return -std::numeric_limits<double>::denorm_min();
      case 183: return std::numeric_limits<double>::min();
      case 184: return 1e300;
      case 185: return -1e300;
      case 186: return 1e-300;
      case 187: return std::numeric_limits<double>::epsilon();
      case 188: return 1.0 + std::numeric_limits<double>::epsilon();
      case 189: return 1e8;
      case 190: return -1e-8;
      case 191: return -0.0;
      default: break;
    }
    double v = 0.0;
    std::uint8_t raw[8] = {};
    for (std::uint8_t& b : raw) b = byte();
    std::memcpy(&v, raw, sizeof v);
    return v;
  }

  /// A finite double only: small integers and quarters, or a raw double folded into ±1e6.
  double finite() {
    const std::uint8_t s = byte();
    if (s < 200) return static_cast<double>(static_cast<int>(s % 17) - 8) / ((s / 17) % 2 ? 4.0 : 1.0);
    double v = 0.0;
    std::uint8_t raw[8] = {};
    for (std::uint8_t& b : raw) b = byte();
    std::memcpy(&v, raw, sizeof v);
    if (!(v == v) || v > 1e6 || v < -1e6) return static_cast<double>(s) - 228.0;
    return v;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

/// Stops the fuzzer with a message: an invariant of the library failed on this input
/// (libFuzzer saves the input as a crash artifact).
[[noreturn]] inline void fail(const char* target, const std::string& what) {
  std::fprintf(stderr, "%s: invariant violated: %s\n", target, what.c_str());
  std::abort();
}

/// Runs read(stream) on `text`; returns whether it parsed. A reader may refuse its input only by
/// std::invalid_argument: anything else it throws stops the fuzzer, naming `who`.
template <typename Read>
bool tryRead(const char* target, const std::string& text, const char* who, Read read) {
  std::istringstream stream(text);
  try {
    read(stream);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  } catch (const std::exception& e) {
    fail(target, std::string(who) + " threw something else than invalid_argument: " + e.what());
  } catch (...) {
    fail(target, std::string(who) + " threw a non-standard exception");
  }
}

}  // namespace stickslip::fuzz
