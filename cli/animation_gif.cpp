#include "cli/animation_gif.hpp"

#include "cli/compare_plots.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace stickslip::cli {
namespace {

using Eigen::Vector2d;

const char* const kRunColours[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"};
const char* const kModeNames[] = {"open", "stick", "slip+", "slip-"};
const char* const kModeColours[] = {"#aaaaaa", "#2ca02c", "#ff7f0e", "#ff7f0e"};

std::string xy(const Vector2d& p) {
  std::ostringstream s;
  s << std::setprecision(7) << p.x() << "," << p.y();
  return s.str();
}


Eigen::Index frameAt(const AnimationTrack& track, double t) {
  const auto it = std::upper_bound(track.t.begin(), track.t.end(), t);
  return std::max<Eigen::Index>(0, Eigen::Index(it - track.t.begin()) - 1);
}

void segment(std::ostream& os, const Vector2d& a, const Vector2d& b, const std::string& style) {
  os << "set arrow from " << xy(a) << " to " << xy(b) << " nohead " << style << "\n";
}

void drawInstant(std::ostream& os, const AnimationScene& scene, const std::vector<AnimationTrack>& tracks, double t) {
  const double extent = (scene.upper - scene.lower).maxCoeff(), pin = 0.012 * extent, arrow = 0.15 * extent;
  os << "unset arrow; unset object\n";
  for (const auto& [a, b] : scene.ground_lines) segment(os, a, b, "dt 2 lw 2 lc rgb '#555555'");
  for (const Vector2d& g : scene.ground_joints)
    os << "set object circle at " << xy(g) << " size " << pin << " front fs empty border lc rgb '#222222'\n";
  std::string title = "t = " + [&] {
    std::ostringstream s;
    s << std::fixed << std::setprecision(3) << t;
    return s.str();
  }() + " s";
  for (std::size_t r = 0; r < tracks.size(); ++r) {
    const AnimationTrack& tr = tracks[r];
    if (tr.t.empty()) continue;  // a run that failed before its first sample
    const Eigen::Index f = frameAt(tr, t);
    const std::string colour = kRunColours[r % 6];
    for (std::size_t b = 0; b < scene.bodies.size(); ++b) {
      const AnimationBody& body = scene.bodies[b];
      auto at = [&](const Vector2d& s) { return worldPoint(tr, f, int(b), s); };
      if (body.hull.size() == 2) segment(os, at(body.hull[0]), at(body.hull[1]), "lw 5 lc rgb '" + colour + "'");
      std::vector<Vector2d> outline = body.hull;
      if (body.block) {
        const double h = 0.5 * scene.block_size;
        outline = {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
      }
      if (outline.size() > 2) {
        os << "set object polygon from " << xy(at(outline[0]));
        for (std::size_t i = 1; i <= outline.size(); ++i) os << " to " << xy(at(outline[i % outline.size()]));
        os << " fs empty border lc rgb '" << colour << "' lw 2\n";
      }
      for (const auto& c : body.circles)
        os << "set object circle at " << xy(at(c.centre)) << " size " << c.radius << " fs empty border lc rgb '"
           << colour << "' lw 2\n";
      for (const auto& [a, b2] : body.segments) segment(os, at(a), at(b2), "lw 2 lc rgb '#555555'");
      for (const Vector2d& j : body.joints)
        os << "set object circle at " << xy(at(j)) << " size " << pin << " front fs empty border lc rgb '#222222'\n";
      os << "set object circle at " << xy(at(Vector2d::Zero())) << " size " << 0.7 * pin << " front fs solid 1.0 fc rgb '"
         << colour << "'\n";  // the centroid
    }
    if (!scene.contacts.empty()) title += "   " + tr.label + ":";
    for (std::size_t k = 0; k < scene.contacts.size(); ++k) {
      const Eigen::Index c = Eigen::Index(6 * k);
      const Vector2d p(tr.contact(f, c), tr.contact(f, c + 1)), n(tr.contact(f, c + 2), tr.contact(f, c + 3));
      const Vector2d tangent = scene.tangent_sign[k] * Vector2d(n.y(), -n.x());
      const int mode = tr.mode(f, Eigen::Index(k));
      const bool impact = tr.impact(f, Eigen::Index(k)) != 0;
      os << "set object circle at " << xy(p) << " size " << pin << " front fs solid 1.0 fc rgb '"
         << (impact ? "#9400d3" : kModeColours[mode]) << "'\n";
      const double limit = scene.mu_static[k] * tr.contact(f, c + 4), force = tr.contact(f, c + 5);
      if (limit > 0.0 && std::isfinite(force) && force != 0.0)
        os << "set arrow from " << xy(p) << " rto " << xy(arrow * force / limit * tangent) << " lw 2 lc rgb '" << colour
           << "' front\n";
      title += " " + scene.contacts[k] + " " + (impact ? "impact" : kModeNames[mode]);
    }
  }
  os << "set title " << gnuplotQuoted(title) << " noenhanced\nplot NaN notitle\n";
}

}  // namespace

std::vector<double> gifInstants(const std::vector<AnimationTrack>& tracks, const GifOptions& options) {
  double t0 = 0.0, t1 = 0.0;
  bool first = true;
  for (const auto& tr : tracks)
    if (!tr.t.empty()) {
      t0 = first ? tr.t.front() : std::min(t0, tr.t.front());
      t1 = first ? tr.t.back() : std::max(t1, tr.t.back());
      first = false;
    }
  const double step = options.speed / options.fps;
  const long fit = long(std::floor((t1 - t0) / step + 1e-9)) + 1;
  const long n = std::max(1L, std::min<long>(fit, options.max_frames));
  std::vector<double> instants;
  for (long i = 0; i < n; ++i)
    instants.push_back(fit <= n ? t0 + step * double(i) : t0 + (t1 - t0) * double(i) / double(std::max(1L, n - 1)));
  return instants;
}

void writeAnimationGnuplot(std::ostream& os, const AnimationScene& scene, const std::vector<AnimationTrack>& tracks,
                           const std::vector<double>& instants, const GifOptions& options, const std::string& gif,
                           const std::string& frames_dir) {
  os << "# stickslip animate: " << instants.size() << " instants of " << tracks.size()
     << " run(s); rerun with `gnuplot` in this directory\n"
     << "set size ratio -1\nunset key\nset xrange [" << scene.lower.x() << ":" << scene.upper.x() << "]\nset yrange ["
     << scene.lower.y() << ":" << scene.upper.y() << "]\nset xlabel 'x [m]'\nset ylabel 'y [m]'\n";
  const int delay = std::max(1, int(std::lround(100.0 / options.fps)));  // GIF delays are in 1/100 s
  if (!gif.empty()) {
    os << "set terminal gif animate delay " << delay << " loop 0 optimize size " << options.width << ","
       << options.height << "\nset output " << gnuplotQuoted(gif) << "\n";
    for (double t : instants) drawInstant(os, scene, tracks, t);
    os << "unset output\n";
  }
  if (!frames_dir.empty()) {
    os << "set terminal pngcairo size " << options.width << "," << options.height << "\n";
    for (std::size_t i = 0; i < instants.size(); ++i) {
      std::ostringstream name;
      name << frames_dir << "/frame_" << std::setw(5) << std::setfill('0') << i << ".png";
      os << "set output " << gnuplotQuoted(name.str()) << "\n";
      drawInstant(os, scene, tracks, instants[i]);
    }
    os << "unset output\n";
  }
}

}  // namespace stickslip::cli
