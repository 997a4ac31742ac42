#pragma once
/// \file What the planar and the spatial animation pages share (animation_html.hpp): the page
/// around a view — title, controls, legend, the table of every contact's mode and forces, the
/// data and the driver script that plays it — and the helpers that write the data. A view is
/// its element, its style, its members of the data object and a script defining
/// `window.stickslipView(D)`, which returns {pose(run, r, f), contact(run, r, k, c, mode, limit),
/// draw()}: the driver calls pose and contact for every run at its frame, then draw.

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "cli/animation.hpp"

namespace stickslip::cli::page {

/// Six significant digits ("null" for NaN and infinities): what a screen shows.
std::string num(double x);
/// `s` escaped for HTML text and attributes.
std::string escaped(const std::string& s);
/// `s` as a JSON string safe inside a <script> element.
std::string jsonString(const std::string& s);

struct View {
  std::string style;                              ///< CSS for the view
  std::string legend;                             ///< HTML: what the drawing's marks mean
  std::function<void(std::ostream&)> element;     ///< the view's element, id "view"
  std::function<void(std::ostream&)> data;        ///< its members of the data object, each ending in ","
  std::function<void(std::ostream&)> scripts;     ///< its script elements (the last defines stickslipView)
};

/// The page: the data object holds the view's members, then "stride" (numbers per contact and
/// frame: N and F are the last two), "contacts" ({name, mu_s} and `tangent` when given) and
/// "runs" (label, t, pose, contact, mode, impact; flattened by frame).
void writePage(std::ostream& os, const std::string& title, const std::vector<std::string>& contacts,
               const std::vector<double>& mu_static, const std::vector<int>& tangent_sign, int stride,
               const std::vector<AnimationTrack>& tracks, const View& view);

}  // namespace stickslip::cli::page
