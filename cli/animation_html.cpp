#include "cli/animation_html.hpp"

#include "cli/animation_page.hpp"

namespace stickslip::cli {
namespace {

using page::num;

std::string points(const std::vector<Eigen::Vector2d>& p) {
  std::string s;
  for (const auto& x : p) s += (s.empty() ? "" : " ") + num(x.x()) + "," + num(x.y());
  return s;
}

void line(std::ostream& os, const Eigen::Vector2d& a, const Eigen::Vector2d& b, const char* cls) {
  os << "<line class=\"" << cls << "\" x1=\"" << num(a.x()) << "\" y1=\"" << num(a.y()) << "\" x2=\"" << num(b.x())
     << "\" y2=\"" << num(b.y()) << "\"/>";
}

void circle(std::ostream& os, const Eigen::Vector2d& c, double r, const std::string& cls, const std::string& id = "") {
  os << "<circle class=\"" << cls << "\"" << (id.empty() ? "" : " id=\"" + id + "\"") << " cx=\"" << num(c.x())
     << "\" cy=\"" << num(c.y()) << "\" r=\"" << num(r) << "\"/>";
}

void writeSvg(std::ostream& os, const AnimationScene& scene, std::size_t runs) {
  const Eigen::Vector2d size = scene.upper - scene.lower;
  const double pin = 0.012 * size.maxCoeff();
  os << "<svg id=\"view\" viewBox=\"" << num(scene.lower.x()) << " " << num(-scene.upper.y()) << " " << num(size.x())
     << " " << num(size.y()) << "\" preserveAspectRatio=\"xMidYMid meet\">\n<g transform=\"scale(1,-1)\">\n";
  for (const auto& [a, b] : scene.ground_lines) line(os, a, b, "ground");
  for (const auto& g : scene.ground_joints) circle(os, g, pin, "pin ground-pin");
  os << "\n";
  for (std::size_t r = 0; r < runs; ++r) {
    os << "<g class=\"run run-" << r % 6 << "\" id=\"run-" << r << "\"" << (runs > 1 ? " opacity=\"0.6\"" : "") << ">\n";
    for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
      const AnimationBody& body = scene.bodies[b];
      os << "<g id=\"body-" << r << "-" << b << "\"><title>" << page::escaped(body.name) << "</title>";
      if (body.hull.size() == 2)
        line(os, body.hull[0], body.hull[1], "bar");
      else if (body.hull.size() > 2)
        os << "<polygon class=\"plate\" points=\"" << points(body.hull) << "\"/>";
      if (body.block) {
        const double s = scene.block_size;
        os << "<rect class=\"block\" x=\"" << num(-s / 2) << "\" y=\"" << num(-s / 2) << "\" width=\"" << num(s)
           << "\" height=\"" << num(s) << "\"/>";
      }
      for (const auto& c : body.circles) circle(os, c.centre, c.radius, c.kind);
      for (const auto& [a, b2] : body.segments) line(os, a, b2, "guide");
      for (const auto& j : body.joints) circle(os, j, pin, "pin");
      circle(os, Eigen::Vector2d::Zero(), 0.7 * pin, "centroid");
      os << "</g>\n";
    }
    for (std::size_t k = 0; k < scene.contacts.size(); ++k) {
      os << "<polyline class=\"force\" id=\"force-" << r << "-" << k << "\" points=\"\"/>";
      os << "<polyline class=\"slide\" id=\"slide-" << r << "-" << k << "\" points=\"\"/>";
      circle(os, Eigen::Vector2d::Zero(), pin, "contact open", "contact-" + std::to_string(r) + "-" + std::to_string(k));
      os << "\n";
    }
    os << "</g>\n";
  }
  os << "</g>\n</svg>\n";
}

const char* const kStyle = R"CSS(
line, polyline, polygon, rect, circle { vector-effect: non-scaling-stroke; }
.ground { stroke: #555; stroke-width: 2px; stroke-dasharray: 8 4; }
.guide { stroke: #555; stroke-width: 2px; }
.pin { fill: #fff; stroke: #222; stroke-width: 1.5px; }
.centroid { fill: var(--c); stroke: #fff; stroke-width: 1px; }
.bar { stroke: var(--c); stroke-width: 7px; stroke-linecap: round; }
.plate, .block { fill: var(--c); fill-opacity: .35; stroke: var(--c); stroke-width: 2px; }
.disk, .journal { fill: var(--c); fill-opacity: .25; stroke: var(--c); stroke-width: 2px; }
.bearing { fill: none; stroke: var(--c); stroke-width: 3px; }
.contact { stroke: #000; stroke-width: 1px; }
.open { fill: #aaa; } .stick { fill: #2ca02c; } .slip { fill: #ff7f0e; } .impact { fill: #9400d3; }
.force { fill: none; stroke: var(--c); stroke-width: 2.5px; }
.slide { fill: none; stroke: #ff7f0e; stroke-width: 2px; }
)CSS";

// The SVG view: each body's group moved to its pose; each contact's dot, friction and sliding arrows.
const char* const kView = R"JS(
"use strict";
window.stickslipView = function (D) {
  const nb = D.bodies;
  const byId = function (id) { return document.getElementById(id); };
  function arrow(x, y, dx, dy) {  // a polyline with a head, in world units
    const len = Math.hypot(dx, dy);
    if (!(len > 0)) return "";
    const h = 0.25 * len, ux = dx / len, uy = dy / len;
    const ex = x + dx, ey = y + dy;
    return [[x, y], [ex, ey], [ex - h * (ux - 0.5 * uy), ey - h * (uy + 0.5 * ux)], [ex, ey],
            [ex - h * (ux + 0.5 * uy), ey - h * (uy - 0.5 * ux)]].map(function (q) {
      return q[0].toPrecision(6) + "," + q[1].toPrecision(6);
    }).join(" ");
  }
  return {
    pose: function (run, r, f) {
      for (let b = 0; b < nb; ++b) {
        const p = 3 * (f * nb + b);
        byId("body-" + r + "-" + b).setAttribute("transform", "translate(" + run.pose[p] + " " + run.pose[p + 1] +
          ") rotate(" + (run.pose[p + 2] * 180 / Math.PI) + ")");
      }
    },
    contact: function (run, r, k, c, mode, limit) {
      const x = run.contact[c], y = run.contact[c + 1], nx = run.contact[c + 2], ny = run.contact[c + 3];
      const F = run.contact[c + 5];
      const s = D.contacts[k].tangent, tx = s * ny, ty = -s * nx;
      const dot = byId("contact-" + r + "-" + k);
      dot.setAttribute("cx", x);
      dot.setAttribute("cy", y);
      dot.setAttribute("class", "contact " + (mode.startsWith("slip") ? "slip" : mode));
      const scale = limit > 0 && F !== null ? D.arrow / limit : 0;
      byId("force-" + r + "-" + k).setAttribute("points", scale ? arrow(x, y, scale * F * tx, scale * F * ty) : "");
      const dir = mode === "slip+" ? 1 : mode === "slip-" ? -1 : 0;
      byId("slide-" + r + "-" + k).setAttribute("points", dir ? arrow(x, y, 0.3 * D.arrow * dir * tx, 0.3 * D.arrow * dir * ty) : "");
    },
    draw: function () {}
  };
};
)JS";

}  // namespace

std::string animationTitle(const std::string& scenario, const std::vector<AnimationTrack>& tracks) {
  std::string title = "stickslip animate " + scenario + ":";
  for (std::size_t r = 0; r < tracks.size(); ++r) title += (r ? ", " : " ") + tracks[r].label;
  return title;
}

void writeAnimationHtml(std::ostream& os, const std::string& title, const AnimationScene& scene,
                        const std::vector<AnimationTrack>& tracks) {
  page::View view;
  view.style = kStyle;
  view.legend =
      "contacts: <span style=\"color:#2ca02c\">\u25cf stick</span><span style=\"color:#ff7f0e\">\u25cf slip (small "
      "arrow: sliding direction)</span><span style=\"color:#888\">\u25cf open</span><span style=\"color:#9400d3\">"
      "\u25cf impact</span>; long arrow: friction force on the first body, full length at |F| = \u03bcs N";
  view.element = [&](std::ostream& o) { writeSvg(o, scene, tracks.size()); };
  view.data = [&](std::ostream& o) {
    o << "\"bodies\":" << scene.bodies.size() << ",\"arrow\":" << num(0.15 * (scene.upper - scene.lower).maxCoeff())
      << ",";
  };
  view.scripts = [](std::ostream& o) { o << "<script>" << kView << "</script>\n"; };
  page::writePage(os, title, scene.contacts, scene.mu_static, scene.tangent_sign, 6, tracks, view);
}

AnimationTrack scenarioTrack(const mechanisms::Scenario& scenario, const std::string& label,
                             const std::vector<std::string>& columns, const Eigen::MatrixXd& history,
                             const dynamics::RunResult* result, std::size_t max_frames, double zero_velocity) {
  if (scenario.spatial)
    return spatialAnimationTrack(*scenario.spatial, label, columns, history, result, max_frames, zero_velocity);
  return animationTrack(mechanisms::planarModel(scenario, "animate"), label, columns, history, result, max_frames,
                        zero_velocity);
}

void writeScenarioAnimationHtml(std::ostream& os, const std::string& title, const mechanisms::Scenario& scenario,
                                const std::vector<AnimationTrack>& tracks) {
  if (scenario.spatial)
    writeSpatialAnimationHtml(os, title, spatialAnimationScene(*scenario.spatial, tracks), tracks);
  else
    writeAnimationHtml(os, title, animationScene(mechanisms::planarModel(scenario, "animate"), tracks), tracks);
}

}  // namespace stickslip::cli
