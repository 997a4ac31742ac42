#include "cli/animation_html.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace stickslip::cli {
namespace {

/// Six significant digits: what a screen can show, and a page a third the size of full precision.
std::string num(double x) {
  if (!std::isfinite(x)) return "null";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

std::string escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// A JSON string (inside a <script> block: "</" is written "<\/").
std::string jsonString(const std::string& s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"' || c == '\\') out += '\\';
    if (c == '/' && i > 0 && s[i - 1] == '<') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

template <class Matrix>
void writeFlat(std::ostream& os, const Matrix& m) {
  os << '[';
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) os << (r || c ? "," : "") << num(double(m(r, c)));
  os << ']';
}

void writeData(std::ostream& os, const AnimationScene& scene, const std::vector<AnimationTrack>& tracks) {
  os << "{\"bodies\":" << scene.bodies.size() << ",\"contacts\":[";
  for (std::size_t k = 0; k < scene.contacts.size(); ++k)
    os << (k ? "," : "") << "{\"name\":" << jsonString(scene.contacts[k]) << ",\"mu_s\":" << num(scene.mu_static[k])
       << ",\"tangent\":" << scene.tangent_sign[k] << "}";
  os << "],\"arrow\":" << num(0.15 * (scene.upper - scene.lower).maxCoeff()) << ",\"runs\":[";
  for (std::size_t r = 0; r < tracks.size(); ++r) {
    const AnimationTrack& tr = tracks[r];
    os << (r ? "," : "") << "{\"label\":" << jsonString(tr.label) << ",\"t\":[";
    for (std::size_t f = 0; f < tr.t.size(); ++f) os << (f ? "," : "") << num(tr.t[f]);
    os << "],\"pose\":";
    writeFlat(os, tr.pose);
    os << ",\"contact\":";
    writeFlat(os, tr.contact);
    os << ",\"mode\":";
    writeFlat(os, tr.mode);
    os << ",\"impact\":";
    writeFlat(os, tr.impact);
    os << "}";
  }
  os << "]}";
}

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
      os << "<g id=\"body-" << r << "-" << b << "\"><title>" << escaped(body.name) << "</title>";
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
body { font-family: sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.2em; margin: 0 0 .3em 0; }
#controls { display: flex; gap: 1em; align-items: center; margin: .4em 0; }
#time { flex: 1; }
#clock { font-family: monospace; min-width: 9em; }
#view { width: 100%; height: 62vh; border: 1px solid #ccc; background: #fcfcfc; }
line, polyline, polygon, rect, circle { vector-effect: non-scaling-stroke; }
.ground { stroke: #555; stroke-width: 2px; stroke-dasharray: 8 4; }
.guide { stroke: #555; stroke-width: 2px; }
.pin { fill: #fff; stroke: #222; stroke-width: 1.5px; }
.centroid { fill: var(--c); stroke: #fff; stroke-width: 1px; }
.run-0 { --c: #1f77b4; } .run-1 { --c: #d62728; } .run-2 { --c: #2ca02c; }
.run-3 { --c: #9467bd; } .run-4 { --c: #8c564b; } .run-5 { --c: #e377c2; }
.bar { stroke: var(--c); stroke-width: 7px; stroke-linecap: round; }
.plate, .block { fill: var(--c); fill-opacity: .35; stroke: var(--c); stroke-width: 2px; }
.disk, .journal { fill: var(--c); fill-opacity: .25; stroke: var(--c); stroke-width: 2px; }
.bearing { fill: none; stroke: var(--c); stroke-width: 3px; }
.contact { stroke: #000; stroke-width: 1px; }
.open { fill: #aaa; } .stick { fill: #2ca02c; } .slip { fill: #ff7f0e; } .impact { fill: #9400d3; }
.force { fill: none; stroke: var(--c); stroke-width: 2.5px; }
.slide { fill: none; stroke: #ff7f0e; stroke-width: 2px; }
table { border-collapse: collapse; font-size: .9em; }
td, th { padding: .1em .6em; text-align: left; }
.mode { font-weight: bold; }
.mode[data-mode="stick"] { color: #2ca02c; } .mode[data-mode^="slip"] { color: #ff7f0e; }
.mode[data-mode="open"] { color: #888; } .mode[data-mode="impact"] { color: #9400d3; }
.legend span { margin-right: 1em; }
#errors { color: #b00; }
)CSS";

const char* const kScript = R"JS(
"use strict";
(function () {
  const errors = document.getElementById("errors");
  window.addEventListener("error", function (e) { errors.textContent += e.message + "\n"; });
  const D = JSON.parse(document.getElementById("stickslip-data").textContent);
  const MODES = ["open", "stick", "slip+", "slip-"];
  const nb = D.bodies, nc = D.contacts.length;
  const byId = function (id) { return document.getElementById(id); };
  const tEnd = Math.max.apply(null, [0].concat(D.runs.map(function (r) { return r.t.length ? r.t[r.t.length - 1] : 0; })));
  const slider = byId("time"), clock = byId("clock"), play = byId("play"), speed = byId("speed");
  slider.max = tEnd;
  let t = 0, playing = true, last = null;

  function frameAt(run, time) {  // the last frame at or before `time`
    let lo = 0, hi = run.t.length - 1;
    if (time <= run.t[0]) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (run.t[mid] <= time) lo = mid; else hi = mid - 1;
    }
    return lo;
  }
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
  function render() {
    D.runs.forEach(function (run, r) {
      if (!run.t.length) return;  // a run that failed before its first sample
      const f = frameAt(run, t);
      for (let b = 0; b < nb; ++b) {
        const p = 3 * (f * nb + b);
        byId("body-" + r + "-" + b).setAttribute("transform", "translate(" + run.pose[p] + " " + run.pose[p + 1] +
          ") rotate(" + (run.pose[p + 2] * 180 / Math.PI) + ")");
      }
      for (let k = 0; k < nc; ++k) {
        const c = 6 * (f * nc + k);
        const x = run.contact[c], y = run.contact[c + 1], nx = run.contact[c + 2], ny = run.contact[c + 3];
        const N = run.contact[c + 4], F = run.contact[c + 5];
        const s = D.contacts[k].tangent, tx = s * ny, ty = -s * nx;
        const mode = run.impact[f * nc + k] ? "impact" : MODES[run.mode[f * nc + k]];
        const dot = byId("contact-" + r + "-" + k);
        dot.setAttribute("cx", x);
        dot.setAttribute("cy", y);
        dot.setAttribute("class", "contact " + (mode.startsWith("slip") ? "slip" : mode));
        const limit = D.contacts[k].mu_s * N;
        const scale = limit > 0 && F !== null ? D.arrow / limit : 0;
        byId("force-" + r + "-" + k).setAttribute("points", scale ? arrow(x, y, scale * F * tx, scale * F * ty) : "");
        const dir = mode === "slip+" ? 1 : mode === "slip-" ? -1 : 0;
        byId("slide-" + r + "-" + k).setAttribute("points", dir ? arrow(x, y, 0.3 * D.arrow * dir * tx, 0.3 * D.arrow * dir * ty) : "");
        const label = byId("mode-" + r + "-" + k);
        label.dataset.mode = mode;
        label.textContent = mode;
        byId("forces-" + r + "-" + k).textContent = N === null ? "" :
          "N = " + N.toPrecision(4) + " N, F = " + (F === null ? "-" : F.toPrecision(4)) + " N" +
          (limit > 0 && F !== null ? ", |F|/(\u03bcs N) = " + (Math.abs(F) / limit).toFixed(3) : "");
      }
    });
    clock.dataset.t = t;
    clock.textContent = "t = " + t.toFixed(4) + " s";
    slider.value = t;
  }
  function tick(now) {
    if (playing && last !== null) {
      t += (now - last) / 1000 * Number(speed.value);
      if (t > tEnd) t = 0;
      render();
    }
    last = now;
    window.requestAnimationFrame(tick);
  }
  play.addEventListener("click", function () {
    playing = !playing;
    play.textContent = playing ? "Pause" : "Play";
  });
  slider.addEventListener("input", function () {
    t = Number(slider.value);
    render();
  });
  const at = /(?:^#|&)t=([0-9.eE+-]+)/.exec(window.location.hash);
  if (at) {
    t = Math.min(Math.max(Number(at[1]), 0), tEnd);
    playing = false;
    play.textContent = "Play";
  }
  if (/(?:^#|&)bench/.test(window.location.hash)) {  // the cost of one frame, for tests
    const keep = t, n = 500, start = performance.now();
    for (let i = 0; i < n; ++i) { t = tEnd * i / n; render(); }
    clock.dataset.renderMs = ((performance.now() - start) / n).toFixed(4);
    t = keep;
  }
  render();
  window.requestAnimationFrame(tick);
})();
)JS";

}  // namespace

std::string animationTitle(const std::string& scenario, const std::vector<AnimationTrack>& tracks) {
  std::string title = "stickslip animate " + scenario + ":";
  for (std::size_t r = 0; r < tracks.size(); ++r) title += (r ? ", " : " ") + tracks[r].label;
  return title;
}

void writeAnimationHtml(std::ostream& os, const std::string& title, const AnimationScene& scene,
                        const std::vector<AnimationTrack>& tracks) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << escaped(title)
     << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n<h1>" << escaped(title) << "</h1>\n";
  os << "<div id=\"controls\"><button id=\"play\">Pause</button><label>speed <select id=\"speed\">";
  for (const char* s : {"0.1", "0.25", "0.5", "1", "2", "5", "10"})
    os << "<option value=\"" << s << "\"" << (std::string(s) == "1" ? " selected" : "") << ">" << s << "\u00d7</option>";
  os << "</select></label><input type=\"range\" id=\"time\" min=\"0\" step=\"any\" value=\"0\">"
     << "<span id=\"clock\" data-t=\"0\">t = 0 s</span></div>\n";
  writeSvg(os, scene, tracks.size());
  os << "<p class=\"legend\">contacts: <span style=\"color:#2ca02c\">\u25cf stick</span><span style=\"color:#ff7f0e\">"
        "\u25cf slip (small arrow: sliding direction)</span><span style=\"color:#888\">\u25cf open</span>"
        "<span style=\"color:#9400d3\">\u25cf impact</span>; long arrow: friction force on the first body, "
        "full length at |F| = \u03bcs N</p>\n<table id=\"modes\"><tr><th>method</th><th>contact</th><th>mode</th>"
        "<th>forces</th></tr>\n";
  for (std::size_t r = 0; r < tracks.size(); ++r)
    for (std::size_t k = 0; k < scene.contacts.size(); ++k)
      os << "<tr class=\"run-" << r % 6 << "\"><td style=\"color:var(--c)\">" << escaped(tracks[r].label) << "</td><td>"
         << escaped(scene.contacts[k]) << "</td><td><span class=\"mode\" id=\"mode-" << r << "-" << k
         << "\" data-mode=\"\"></span></td><td id=\"forces-" << r << "-" << k << "\"></td></tr>\n";
  os << "</table>\n<pre id=\"errors\"></pre>\n<script type=\"application/json\" id=\"stickslip-data\">";
  writeData(os, scene, tracks);
  os << "</script>\n<script>" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace stickslip::cli
