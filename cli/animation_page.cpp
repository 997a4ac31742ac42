#include "cli/animation_page.hpp"

#include <cmath>
#include <cstdio>

namespace stickslip::cli::page {

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

namespace {

template <class Matrix>
void writeFlat(std::ostream& os, const Matrix& m) {
  os << '[';
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) os << (r || c ? "," : "") << num(double(m(r, c)));
  os << ']';
}

/// The runs, as the view and the driver script read them: per run its label, t, pose, contact
/// (`stride` numbers per contact and frame, N and F the last two), mode and impact, flattened.
void writeRuns(std::ostream& os, const std::vector<AnimationTrack>& tracks) {
  os << "\"runs\":[";
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
  os << "]";
}

void writeContacts(std::ostream& os, const std::vector<std::string>& names, const std::vector<double>& mu_static,
                   const std::vector<int>& tangent_sign) {
  os << "\"contacts\":[";
  for (std::size_t k = 0; k < names.size(); ++k)
    os << (k ? "," : "") << "{\"name\":" << jsonString(names[k]) << ",\"mu_s\":" << num(mu_static[k])
       << (tangent_sign.empty() ? "" : ",\"tangent\":" + std::to_string(tangent_sign[k])) << "}";
  os << "]";
}

const char* const kStyle = R"CSS(
body { font-family: sans-serif; margin: 1em; color: #222; }
h1 { font-size: 1.2em; margin: 0 0 .3em 0; }
#controls { display: flex; gap: 1em; align-items: center; margin: .4em 0; }
#time { flex: 1; }
#clock { font-family: monospace; min-width: 9em; }
#view { width: 100%; height: 62vh; border: 1px solid #ccc; background: #fcfcfc; }
.run-0 { --c: #1f77b4; } .run-1 { --c: #d62728; } .run-2 { --c: #2ca02c; }
.run-3 { --c: #9467bd; } .run-4 { --c: #8c564b; } .run-5 { --c: #e377c2; }
table { border-collapse: collapse; font-size: .9em; }
td, th { padding: .1em .6em; text-align: left; }
.mode { font-weight: bold; }
.mode[data-mode="stick"] { color: #2ca02c; } .mode[data-mode^="slip"] { color: #ff7f0e; }
.mode[data-mode="open"] { color: #888; } .mode[data-mode="impact"] { color: #9400d3; }
.legend span { margin-right: 1em; }
#errors { color: #b00; }
)CSS";

// Plays the runs: the time, the controls, "#t=T" and "#bench", and the table; the view draws.
const char* const kDriver = R"JS(
"use strict";
(function () {
  const errors = document.getElementById("errors");
  window.addEventListener("error", function (e) { errors.textContent += e.message + "\n"; });
  const D = JSON.parse(document.getElementById("stickslip-data").textContent);
  const view = window.stickslipView(D);
  const MODES = ["open", "stick", "slip+", "slip-"];
  const nc = D.contacts.length, S = D.stride;
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
  function render() {
    D.runs.forEach(function (run, r) {
      if (!run.t.length) return;  // a run that failed before its first sample
      const f = frameAt(run, t);
      view.pose(run, r, f);
      for (let k = 0; k < nc; ++k) {
        const c = S * (f * nc + k);
        const N = run.contact[c + S - 2], F = run.contact[c + S - 1];
        const mode = run.impact[f * nc + k] ? "impact" : MODES[run.mode[f * nc + k]];
        const limit = D.contacts[k].mu_s * N;
        view.contact(run, r, k, c, mode, limit);
        const label = byId("mode-" + r + "-" + k);
        label.dataset.mode = mode;
        label.textContent = mode;
        byId("forces-" + r + "-" + k).textContent = N === null ? "" :
          "N = " + N.toPrecision(4) + " N, F = " + (F === null ? "-" : F.toPrecision(4)) + " N" +
          (limit > 0 && F !== null ? ", |F|/(\u03bcs N) = " + (Math.abs(F) / limit).toFixed(3) : "");
      }
    });
    view.draw();
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

void writePage(std::ostream& os, const std::string& title, const std::vector<std::string>& contacts,
               const std::vector<double>& mu_static, const std::vector<int>& tangent_sign, int stride,
               const std::vector<AnimationTrack>& tracks, const View& view) {
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << escaped(title)
     << "</title>\n<style>" << kStyle << view.style << "</style>\n</head>\n<body>\n<h1>" << escaped(title)
     << "</h1>\n";
  os << "<div id=\"controls\"><button id=\"play\">Pause</button><label>speed <select id=\"speed\">";
  for (const char* s : {"0.1", "0.25", "0.5", "1", "2", "5", "10"})
    os << "<option value=\"" << s << "\"" << (std::string(s) == "1" ? " selected" : "") << ">" << s << "\u00d7</option>";
  os << "</select></label><input type=\"range\" id=\"time\" min=\"0\" step=\"any\" value=\"0\">"
     << "<span id=\"clock\" data-t=\"0\">t = 0 s</span></div>\n";
  view.element(os);
  os << "<p class=\"legend\">" << view.legend << "</p>\n<table id=\"modes\"><tr><th>method</th><th>contact</th>"
        "<th>mode</th><th>forces</th></tr>\n";
  for (std::size_t r = 0; r < tracks.size(); ++r)
    for (std::size_t k = 0; k < contacts.size(); ++k)
      os << "<tr class=\"run-" << r % 6 << "\"><td style=\"color:var(--c)\">" << escaped(tracks[r].label) << "</td><td>"
         << escaped(contacts[k]) << "</td><td><span class=\"mode\" id=\"mode-" << r << "-" << k
         << "\" data-mode=\"\"></span></td><td id=\"forces-" << r << "-" << k << "\"></td></tr>\n";
  os << "</table>\n<pre id=\"errors\"></pre>\n<script type=\"application/json\" id=\"stickslip-data\">{";
  view.data(os);
  os << "\"stride\":" << stride << ",";
  writeContacts(os, contacts, mu_static, tangent_sign);
  os << ",";
  writeRuns(os, tracks);
  os << "}</script>\n";
  view.scripts(os);
  os << "<script>" << kDriver << "</script>\n</body>\n</html>\n";
}

}  // namespace stickslip::cli::page
