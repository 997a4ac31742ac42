#pragma once
/// \file three.js (r111, MIT licence, © the three.js authors) and its OrbitControls, as Debian's
/// libjs-three installs them, embedded in the executable at build time (cli/CMakeLists.txt): the
/// 3D drawing of the spatial animation page (animation_html.hpp), which must open from disk with
/// no network.

#include <ostream>

namespace stickslip::cli {

/// Writes three.min.js, then OrbitControls.js (which adds THREE.OrbitControls), as the text of
/// one <script> element (neither contains "</script" or "<!--").
void writeThreeJs(std::ostream& os);

}  // namespace stickslip::cli
