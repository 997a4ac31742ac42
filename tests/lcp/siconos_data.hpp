#pragma once
// The Siconos test collection copied into tests/data/siconos (lcp/, mlcp/, fc2d/, fc2d-more/, fc3d/).
#include <algorithm>
#include <filesystem>
#include <vector>

namespace stickslip::test {

inline const std::filesystem::path kSiconosData = STICKSLIP_SICONOS_DATA;

/// The .dat files of one folder of the collection, sorted by name.
inline std::vector<std::filesystem::path> datFiles(const char* folder) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(kSiconosData / folder))
    if (e.path().extension() == ".dat") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace stickslip::test
