#include "cli/compare_plots.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace stickslip::cli {
namespace {

namespace fs = std::filesystem;

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}


/// POSIX shell word: single quotes, a quote written as '\''.
std::string shellQuoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string axisLabel(const std::string& name) {
  const std::string unit = columnUnit(name);
  return unit.empty() ? name : name + " [" + unit + "]";
}

/// One panel: a title, axis labels and one curve per run that has the columns.
struct Panel {
  std::string title, xlabel, ylabel;
  bool equal_axes = false;
  /// Per run: the `using` expression, or "" when the run lacks the columns.
  std::vector<std::string> using_;
  std::string setup;  ///< extra gnuplot commands before the plot (ranges, objects)
};

/// "column(i)" for a canonical column of a run, or "" when absent.
std::string col(const Series& s, const std::string& name) {
  const int c = s.column(name);
  return c < 0 ? std::string() : "column(" + std::to_string(c + 1) + ")";
}

void writeScript(const std::string& dir, const std::string& name, const std::string& title,
                 const std::vector<PlotSource>& runs, const std::vector<Panel>& panels,
                 int columns) {
  std::ofstream f(fs::path(dir) / (name + ".gp"));
  if (!f) throw std::invalid_argument(dir + "/" + name + ".gp: cannot open for writing");
  const int rows = int((panels.size() + std::size_t(columns) - 1) / std::size_t(columns));
  const int width = columns == 1 ? 1000 : 560 * columns, height = std::max(420, 300 * rows);
  f << "# " << title << "\n"
    << "# Written by `stickslip compare`; edit and rerun `gnuplot " << name
    << ".gp` in this directory\n# to redraw " << name << ".png and " << name << ".svg.\n"
    << "set datafile separator ','\n"
    << "set grid\nset key top right box opaque noenhanced\n"
    << "set offsets 0, 0, graph 0.05, graph 0.05  # keep flat stretches (stick) off the frame\n"
    << "do for [fmt in \"png svg\"] {\n"
    << "  if (fmt eq \"png\") {\n"
    << "    if (strstrt(GPVAL_TERMINALS, \"pngcairo\") > 0) {\n"
    << "      set terminal pngcairo noenhanced size " << width << "," << height << " font \",10\"\n"
    << "    } else {\n"
    << "      set terminal png noenhanced size " << width << "," << height << "\n"
    << "    }\n"
    << "  } else {\n"
    << "    set terminal svg noenhanced size " << width << "," << height
    << " font \",10\" background rgb \"white\"\n"
    << "  }\n"
    << "  set output \"" << name << ".\" . fmt\n"
    << "  set multiplot layout " << rows << "," << columns << " title " << gnuplotQuoted(title) << "\n";
  for (const Panel& p : panels) {
    f << "  set title " << gnuplotQuoted(p.title) << " noenhanced\n"
      << "  set xlabel " << gnuplotQuoted(p.xlabel) << " noenhanced\n"
      << "  set ylabel " << gnuplotQuoted(p.ylabel) << " noenhanced\n"
      << (p.equal_axes ? "  set size ratio -1\n" : "  set size noratio\n")
      << "  unset object\n  set autoscale xy\n"
      << p.setup << "  plot ";
    bool first = true;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      if (p.using_[r].empty()) continue;
      f << (first ? "" : ", \\\n       ") << gnuplotQuoted(runs[r].csv_file) << " skip 1 using "
        << p.using_[r] << " with lines lw "
        << (r == 0   ? "3"
            : r == 1 ? "2"
                     : "1.2")
        << " title " << gnuplotQuoted(runs[r].label);  // the first (reference) widest, so overlaps show
      first = false;
    }
    f << "\n";
  }
  f << "  unset multiplot\n  set output\n}\n";
}

/// The velocity column of a coordinate column (body.x → body.vx, …), or "".
std::string velocityOf(const std::string& name) {
  if (endsWith(name, ".x")) return name.substr(0, name.size() - 2) + ".vx";
  if (endsWith(name, ".y")) return name.substr(0, name.size() - 2) + ".vy";
  if (endsWith(name, ".theta")) return name.substr(0, name.size() - 6) + ".omega";
  return "";
}

}  // namespace

std::vector<std::string> figureNames(const std::string& scenario) {
  return {scenario + "-histories", scenario + "-friction", scenario + "-phase",
          scenario + "-orbit"};
}

std::vector<std::string> writePlotScripts(const std::string& dir, const std::string& scenario,
                                          const std::vector<PlotSource>& runs,
                                          const std::vector<std::string>& outputs) {
  std::vector<std::string> written;
  const auto names = figureNames(scenario);
  auto usingFor = [&](const std::string& x, const std::string& y) {
    std::vector<std::string> u;
    for (const auto& r : runs) {
      const std::string cx = x == "t" ? "column(1)" : col(*r.series, x), cy = col(*r.series, y);
      u.push_back(cx.empty() || cy.empty() ? "" : "(" + cx + "):(" + cy + ")");
    }
    return u;
  };
  auto anyCurve = [](const Panel& p) {
    for (const auto& u : p.using_)
      if (!u.empty()) return true;
    return false;
  };

  // Time histories of the chosen outputs.
  std::vector<Panel> panels;
  for (const auto& o : outputs) {
    Panel p{o, "t [s]", axisLabel(o), false, usingFor("t", o), ""};
    if (anyCurve(p)) panels.push_back(std::move(p));
  }
  if (!panels.empty()) {
    writeScript(dir, names[0], scenario + ": time histories", runs, panels, 1);
    written.push_back(names[0]);
  }

  // F/N against the sliding velocity, per contact (Zheng et al. Fig. 8).
  std::vector<std::string> contacts;
  for (const auto& r : runs)
    for (const auto& c : contactsWith(*r.series, {"F", "v_t"}))
      if (std::find(contacts.begin(), contacts.end(), c) == contacts.end()) contacts.push_back(c);
  panels.clear();
  for (const auto& c : contacts) {
    Panel p{c + ": friction ratio against sliding velocity",
            c + ".v_t [m/s]",
            c + ".F / |" + c + ".N| [-]",
            false,
            {},
            ""};
    for (const auto& r : runs) {
      // The normal force, or its magnitude (the minimal form's joint reaction).
      const std::string n = r.series->column(c + ".N") >= 0 ? col(*r.series, c + ".N")
                                                            : col(*r.series, c + ".reaction");
      const std::string v = col(*r.series, c + ".v_t"), fr = col(*r.series, c + ".F");
      p.using_.push_back(v.empty() || n.empty() || fr.empty()
                             ? ""
                             : "(" + v + "):(abs(" + n + ") > 0 ? " + fr + "/abs(" + n +
                                   ") : NaN)");
    }
    panels.push_back(std::move(p));
  }
  if (!panels.empty()) {
    writeScript(dir, names[1],
                scenario + ": friction force over normal force (F/|N|) against sliding velocity",
                runs, panels, panels.size() > 1 ? 2 : 1);
    written.push_back(names[1]);
  }

  // Phase portraits: chosen coordinates against their velocities, else the first body's.
  panels.clear();
  std::vector<std::string> coordinates;
  for (const auto& o : outputs)
    if (!velocityOf(o).empty()) coordinates.push_back(o);
  if (coordinates.empty())
    for (const auto& n : runs.front().series->names)
      if (!velocityOf(n).empty()) coordinates.push_back(n);
  for (const auto& c : coordinates) {
    if (panels.size() == 3) break;
    Panel p{c + ": phase portrait",     axisLabel(c),
            axisLabel(velocityOf(c)),   false,
            usingFor(c, velocityOf(c)), ""};
    if (anyCurve(p)) panels.push_back(std::move(p));
  }
  if (!panels.empty()) {
    writeScript(dir, names[2], scenario + ": phase portraits", runs, panels,
                panels.size() > 1 ? 2 : 1);
    written.push_back(names[2]);
  }

  // Journal eccentricity orbits.
  panels.clear();
  std::vector<std::pair<std::string, std::string>> orbits;
  for (const auto& r : runs) {
    for (const auto& c : contactsWith(*r.series, {"e_x", "e_y"}))
      if (std::find(orbits.begin(), orbits.end(), std::pair{c + ".e_x", c + ".e_y"}) ==
          orbits.end())
        orbits.emplace_back(c + ".e_x", c + ".e_y");
    if (r.series->column("ecc_x") >= 0 && r.series->column("ecc_y") >= 0 &&
        std::find(orbits.begin(), orbits.end(),
                  std::pair<std::string, std::string>{"ecc_x", "ecc_y"}) == orbits.end())
      orbits.emplace_back("ecc_x", "ecc_y");
  }
  for (const auto& [ex, ey] : orbits) {
    Panel p{"journal eccentricity orbit (" + ex + ", " + ey + ")",
            axisLabel(ex),
            axisLabel(ey),
            true,
            usingFor(ex, ey),
            ""};
    // Centred on the bearing, with the circle of the largest |e| reached (the clearance when
    // the journal touches the bearing), so the orbit's place on it shows.
    double radius = 0.0;
    for (const auto& r : runs) {
      const int cx = r.series->column(ex), cy = r.series->column(ey);
      if (cx < 0 || cy < 0) continue;
      for (Eigen::Index i = 0; i < r.series->rows(); ++i) {
        const double e = std::hypot(r.series->data(i, cx), r.series->data(i, cy));
        if (std::isfinite(e)) radius = std::max(radius, e);
      }
    }
    if (radius > 0.0) {
      std::ostringstream setup;
      setup << std::setprecision(6) << "  set xrange [" << -1.15 * radius << ":" << 1.15 * radius
            << "]\n  set yrange [" << -1.15 * radius << ":" << 1.15 * radius << "]\n"
            << "  set object 1 circle at 0,0 size " << radius
            << " front fillstyle empty border lc rgb 'gray50' dt 2  # largest |e| reached\n";
      p.setup = setup.str();
    }
    if (anyCurve(p)) panels.push_back(std::move(p));
  }
  if (!panels.empty()) {
    writeScript(dir, names[3], scenario + ": journal eccentricity relative to the bearing", runs,
                panels, panels.size() > 1 ? 2 : 1);
    written.push_back(names[3]);
  }
  return written;
}

std::string gnuplotQuoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
  return q + "'";
}

bool gnuplotAvailable() { return std::system("gnuplot --version > /dev/null 2>&1") == 0; }

bool runGnuplot(const std::string& dir, const std::string& script, std::string& log) {
  const std::string command = "cd " + shellQuoted(dir) + " && gnuplot " + shellQuoted(script) + " 2>&1";
  log.clear();
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    log = "cannot start gnuplot";
    return false;
  }
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), int(buffer.size()), pipe) != nullptr) log += buffer.data();
  return pclose(pipe) == 0;
}

bool renderPlot(const std::string& dir, const std::string& name, std::string& log) {
  bool ok = runGnuplot(dir, name + ".gp", log);
  for (const char* ext : {".png", ".svg"}) {
    const fs::path file = fs::path(dir) / (name + ext);
    std::error_code ec;
    if (!fs::exists(file) || fs::file_size(file, ec) == 0) {
      ok = false;
      log += file.string() + " was not written\n";
    }
  }
  return ok;
}

}  // namespace stickslip::cli
