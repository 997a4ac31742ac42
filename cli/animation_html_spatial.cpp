// The spatial animation page: a three.js view (cli/three_js.hpp) of the scene of
// animation_spatial.hpp, in the page animation_page.hpp writes around it.
#include "cli/animation_html.hpp"
#include "cli/animation_page.hpp"
#include "cli/three_js.hpp"

namespace stickslip::cli {
namespace {

using page::num;

void writeVector(std::ostream& os, const Eigen::Vector3d& v) {
  os << "[" << num(v.x()) << "," << num(v.y()) << "," << num(v.z()) << "]";
}

const char* kindName(SpatialPart::Kind k) {
  using Kind = SpatialPart::Kind;
  switch (k) {
    case Kind::kBox: return "box";
    case Kind::kSphere: return "sphere";
    case Kind::kCylinder: return "cylinder";
    case Kind::kCapsule: return "capsule";
    case Kind::kBar: return "bar";
    case Kind::kAxle: return "axle";
    case Kind::kPin: return "pin";
    case Kind::kCentroid: return "centroid";
    case Kind::kJournal: return "journal";
    case Kind::kBearing: return "bearing";
    case Kind::kPlane: return "plane";
    case Kind::kGuide: return "guide";
  }
  return "pin";
}

void writeParts(std::ostream& os, const std::vector<SpatialPart>& parts) {
  os << "[";
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const SpatialPart& p = parts[i];
    os << (i ? "," : "") << "{\"kind\":\"" << kindName(p.kind) << "\",\"a\":";
    writeVector(os, p.a);
    os << ",\"b\":";
    writeVector(os, p.b);
    os << ",\"size\":";
    writeVector(os, p.size);
    os << ",\"radius\":" << num(p.radius) << "}";
  }
  os << "]";
}

const char* const kSpatialStyle = R"CSS(
#view { display: block; position: relative; }
#view canvas { width: 100%; height: 100%; display: block; }
)CSS";

// The WebGL view: each run's bodies as groups of meshes posed by (r, e0..e3); each contact a dot
// coloured by mode, the friction force an arrow while it slides (F t, against the sliding) and
// a ring of radius |F|/(μs N) in its tangent plane while it sticks; orbit, zoom and pan with the
// mouse (OrbitControls).
const char* const kSpatialView = R"JS(
"use strict";
window.stickslipView = function (D) {
  const container = document.getElementById("view");
  const renderer = new THREE.WebGLRenderer({antialias: true});
  container.appendChild(renderer.domElement);
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xfcfcfc);
  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  const sun = new THREE.DirectionalLight(0xffffff, 0.6);
  sun.position.set(1, -2, 3);
  scene.add(sun);

  const lo = new THREE.Vector3().fromArray(D.lower), hi = new THREE.Vector3().fromArray(D.upper);
  const centre = lo.clone().add(hi).multiplyScalar(0.5), reach = hi.distanceTo(lo);
  const camera = new THREE.PerspectiveCamera(40, 1, reach / 200, reach * 50);
  camera.up.set(0, 0, 1);
  camera.position.copy(centre).add(new THREE.Vector3(0.9, -1.5, 0.8).normalize().multiplyScalar(0.85 * reach));
  const controls = new THREE.OrbitControls(camera, renderer.domElement);
  controls.target.copy(centre);
  controls.update();
  function resize() {
    const w = container.clientWidth || 800, h = container.clientHeight || 500;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  }
  function draw() { renderer.render(scene, camera); }
  controls.addEventListener("change", draw);
  window.addEventListener("resize", function () { resize(); draw(); });
  resize();

  const COLOURS = [0x1f77b4, 0xd62728, 0x2ca02c, 0x9467bd, 0x8c564b, 0xe377c2];
  const MODE_COLOURS = {open: 0xaaaaaa, stick: 0x2ca02c, slip: 0xff7f0e, impact: 0x9400d3};
  const Y = new THREE.Vector3(0, 1, 0), Z = new THREE.Vector3(0, 0, 1);
  const pin = D.pin;
  const overlay = D.runs.length > 1;
  const grey = new THREE.MeshLambertMaterial({color: 0x999999, transparent: true, opacity: 0.25,
                                              side: THREE.DoubleSide, depthWrite: false});
  const white = new THREE.MeshLambertMaterial({color: 0xffffff});
  const guideMaterial = new THREE.LineBasicMaterial({color: 0x555555});

  // A cylinder (or capsule) from a to b.
  function between(a, b, radius, material, capsule, open) {
    const from = new THREE.Vector3().fromArray(a), to = new THREE.Vector3().fromArray(b);
    const length = from.distanceTo(to), group = new THREE.Group();
    const body = new THREE.Mesh(new THREE.CylinderGeometry(radius, radius, Math.max(length, 1e-12), 24, 1, !!open),
                                material);
    group.add(body);
    if (capsule)
      [-0.5, 0.5].forEach(function (s) {
        const cap = new THREE.Mesh(new THREE.SphereGeometry(radius, 24, 16), material);
        cap.position.set(0, s * length, 0);
        group.add(cap);
      });
    group.position.copy(from).add(to).multiplyScalar(0.5);
    if (length > 0) group.quaternion.setFromUnitVectors(Y, to.clone().sub(from).normalize());
    return group;
  }
  function mesh(p, material, solid) {
    const a = new THREE.Vector3().fromArray(p.a);
    let m;
    switch (p.kind) {
      case "box":
        m = new THREE.Mesh(new THREE.BoxGeometry(p.size[0], p.size[1], p.size[2]), solid);
        m.position.copy(a);
        return m;
      case "sphere": case "centroid": case "pin":
        m = new THREE.Mesh(new THREE.SphereGeometry(p.radius, 24, 16), p.kind === "pin" ? white : p.kind === "centroid" ? material : solid);
        m.position.copy(a);
        return m;
      case "cylinder": case "capsule": case "journal":
        return between(p.a, p.b, p.radius, solid, p.kind === "capsule");
      case "bar": return between(p.a, p.b, p.radius, material);
      case "axle": return between(p.a, p.b, p.radius, white);
      case "bearing": return between(p.a, p.b, p.radius, grey, false, true);
      case "plane":
        m = new THREE.Mesh(new THREE.PlaneGeometry(2 * p.radius, 2 * p.radius), grey);
        m.position.copy(a);
        m.quaternion.setFromUnitVectors(Z, new THREE.Vector3().fromArray(p.b));
        return m;
      case "guide":
        return new THREE.Line(new THREE.BufferGeometry().setFromPoints([a, new THREE.Vector3().fromArray(p.b)]),
                              guideMaterial);
    }
    return new THREE.Group();
  }
  D.ground.forEach(function (p) { scene.add(mesh(p, grey, grey)); });

  const ring = [];
  for (let i = 0; i <= 48; ++i) ring.push(new THREE.Vector3(Math.cos(i * Math.PI / 24), Math.sin(i * Math.PI / 24), 0));
  const runs = D.runs.map(function (run, r) {
    const colour = COLOURS[r % COLOURS.length];
    const material = new THREE.MeshLambertMaterial({color: colour, transparent: overlay, opacity: overlay ? 0.6 : 1});
    const solid = new THREE.MeshLambertMaterial({color: colour, transparent: true, opacity: overlay ? 0.4 : 0.7});
    const bodies = D.parts.map(function (parts) {
      const group = new THREE.Group();
      parts.forEach(function (p) { group.add(mesh(p, material, solid)); });
      scene.add(group);
      return group;
    });
    const contacts = D.contacts.map(function () {
      const dot = new THREE.Mesh(new THREE.SphereGeometry(1.3 * pin, 16, 12), new THREE.MeshBasicMaterial({color: MODE_COLOURS.open}));
      const force = new THREE.ArrowHelper(Z, new THREE.Vector3(), 1, colour);
      const slide = new THREE.ArrowHelper(Z, new THREE.Vector3(), 1, MODE_COLOURS.slip);
      const stuck = new THREE.Line(new THREE.BufferGeometry().setFromPoints(ring), new THREE.LineBasicMaterial({color: colour}));
      [dot, force, slide, stuck].forEach(function (o) { scene.add(o); });
      return {dot: dot, force: force, slide: slide, stuck: stuck};
    });
    return {bodies: bodies, contacts: contacts};
  });

  const v = new THREE.Vector3(), n = new THREE.Vector3(), t = new THREE.Vector3();
  return {
    pose: function (run, r, f) {
      runs[r].bodies.forEach(function (group, b) {
        const p = 7 * (f * D.parts.length + b);
        group.position.set(run.pose[p], run.pose[p + 1], run.pose[p + 2]);
        group.quaternion.set(run.pose[p + 4], run.pose[p + 5], run.pose[p + 6], run.pose[p + 3]);
      });
    },
    contact: function (run, r, k, c, mode, limit) {
      const o = runs[r].contacts[k], x = run.contact;
      v.set(x[c], x[c + 1], x[c + 2]);
      n.set(x[c + 3], x[c + 4], x[c + 5]);
      t.set(x[c + 6], x[c + 7], x[c + 8]);
      const F = x[c + 10];
      o.dot.position.copy(v);
      o.dot.material.color.setHex(MODE_COLOURS[mode.startsWith("slip") ? "slip" : mode]);
      const share = limit > 0 && F !== null ? Math.abs(F) / limit : 0;
      const sliding = mode.startsWith("slip") && x[c + 6] !== null;
      o.force.visible = sliding && share > 0;
      o.slide.visible = sliding;
      o.stuck.visible = mode === "stick" && share > 0;
      if (o.force.visible) {
        o.force.position.copy(v);
        o.force.setDirection(t.clone().multiplyScalar(F < 0 ? -1 : 1));
        o.force.setLength(D.arrow * share, 0.25 * D.arrow * share, 0.12 * D.arrow * share);
      }
      if (o.slide.visible) {
        o.slide.position.copy(v);
        o.slide.setDirection(t);
        o.slide.setLength(0.3 * D.arrow, 0.075 * D.arrow, 0.04 * D.arrow);
      }
      if (o.stuck.visible) {
        o.stuck.position.copy(v);
        o.stuck.quaternion.setFromUnitVectors(Z, n.lengthSq() > 0 ? n.normalize() : Z);
        o.stuck.scale.setScalar(D.arrow * share);
      }
    },
    draw: draw
  };
};
)JS";

}  // namespace

void writeSpatialAnimationHtml(std::ostream& os, const std::string& title, const SpatialAnimationScene& scene,
                               const std::vector<AnimationTrack>& tracks) {
  page::View view;
  view.style = kSpatialStyle;
  view.legend =
      "drag to orbit, wheel to zoom, right-drag to pan; contacts: <span style=\"color:#2ca02c\">\u25cf stick (ring: "
      "|F| in its tangent plane, radius at |F| = \u03bcs N)</span><span style=\"color:#ff7f0e\">\u25cf slip (small "
      "arrow: sliding direction)</span><span style=\"color:#888\">\u25cf open</span><span style=\"color:#9400d3\">"
      "\u25cf impact</span>; long arrow: friction force on the first body, full length at |F| = \u03bcs N";
  view.element = [](std::ostream& o) { o << "<div id=\"view\"></div>\n"; };
  const Eigen::Vector3d size = scene.upper - scene.lower;
  view.data = [&](std::ostream& o) {
    o << "\"parts\":[";
    for (std::size_t b = 0; b < scene.parts.size(); ++b) {
      o << (b ? "," : "");
      writeParts(o, scene.parts[b]);
    }
    o << "],\"ground\":";
    writeParts(o, scene.ground);
    o << ",\"lower\":";
    writeVector(o, scene.lower);
    o << ",\"upper\":";
    writeVector(o, scene.upper);
    o << ",\"pin\":" << num(scene.pin) << ",\"arrow\":" << num(0.15 * size.maxCoeff()) << ",";
  };
  view.scripts = [](std::ostream& o) {
    o << "<script>\n";
    writeThreeJs(o);
    o << "</script>\n<script>" << kSpatialView << "</script>\n";
  };
  page::writePage(os, title, scene.contacts, scene.mu_static, {}, 11, tracks, view);
}

}  // namespace stickslip::cli
