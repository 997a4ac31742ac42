#pragma once
// The engines' headers, and what every problem sets up the same way in each: MuJoCo's model
// from MJCF text, Bullet's world, ODE's contact joints. Each engine's part is compiled only when
// CMake found it (STICKSLIP_HAVE_<ENGINE>, CMakeLists.txt).
#include <cstdarg>
#include <memory>
#include <stdexcept>
#include <string>

#ifdef STICKSLIP_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif
#ifdef STICKSLIP_HAVE_BULLET
#include <btBulletDynamicsCommon.h>
#endif
#ifdef STICKSLIP_HAVE_DART
#include <dart/constraint/BoxedLcpConstraintSolver.hpp>
#include <dart/constraint/PgsBoxedLcpSolver.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/PrismaticJoint.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/SphereShape.hpp>
#include <dart/dynamics/WeldJoint.hpp>
#include <dart/simulation/World.hpp>
#endif
#ifdef STICKSLIP_HAVE_ODE
#include <ode/ode.h>
#endif

namespace stickslip::bench {

#ifdef STICKSLIP_HAVE_MUJOCO
/// The model of an MJCF text, loaded through MuJoCo's virtual file system; throws with MuJoCo's
/// message. The caller frees it (mj_deleteModel).
inline mjModel* loadMjcf(const std::string& xml) {
  auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  mj_makeEmptyFileVFS(vfs.get(), "model.xml", int(xml.size()));
  std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[vfs->nfile - 1]));
  char error[1000] = "";
  mjModel* m = mj_loadXML("model.xml", vfs.get(), error, sizeof error);
  mj_deleteVFS(vfs.get());
  if (m == nullptr) throw std::runtime_error(std::string("MuJoCo: ") + error);
  return m;
}
#endif

#ifdef STICKSLIP_HAVE_BULLET
/// Bullet's default world: its collision pipeline and sequential-impulse solver, gravity g,
/// the solver's iterations. Bodies added to it must be removed before it goes.
struct BulletWorld {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
  BulletWorld(const btVector3& g, int iterations) {
    world.setGravity(g);
    world.getSolverInfo().m_numIterations = iterations;
  }
};
#endif

#ifdef STICKSLIP_HAVE_ODE
/// An ODE world, its contact joints, and their surface: `mode` (dContactApprox1: the Coulomb
/// pyramid μ·N; 0: a force box, frictionless with μ = 0) and μ. No bounce.
struct OdeWorld {
  dWorldID world;
  dJointGroupID contacts;
  int mode;
  double mu;
};

/// dSpaceCollide's callback: up to 4 contact joints between two geoms, data an OdeWorld.
inline void odeNear(void* data, dGeomID a, dGeomID b) {
  auto* w = static_cast<OdeWorld*>(data);
  dContact contact[4]{};
  const int n = dCollide(a, b, 4, &contact[0].geom, sizeof(dContact));
  for (int i = 0; i < n; ++i) {
    contact[i].surface.mode = w->mode;
    contact[i].surface.mu = w->mu;
    dJointAttach(dJointCreateContact(w->world, w->contacts, &contact[i]), dGeomGetBody(a),
                 dGeomGetBody(b));
  }
}

/// ODE reports its LCP's internal failures on stderr; the benchmarks judge the outcome instead.
inline void ignoreOdeMessage(int, const char*, va_list) {}
#endif

}  // namespace stickslip::bench
