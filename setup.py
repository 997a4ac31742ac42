"""The Python module for `pip install --no-build-isolation .` (pyproject.toml): CMake builds
its target stickslip_python, and the wheel takes the built extension as it is.

The build tree is STICKSLIP_BUILD_DIR, by default build/, the one scripts/setup.sh makes: after
it, the install builds nothing and only copies. A tree that does not exist yet is configured
Release. The extension must be built for the Python that installs it (its EXT_SUFFIX);
setuptools' own files go to build/setuptools, away from CMake's.
"""
import os
import re
import shutil
import subprocess
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    text = open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8").read()
    return re.search(r"project\(stickslip VERSION ([0-9.]+)", text).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        tree = os.path.abspath(os.environ.get("STICKSLIP_BUILD_DIR", os.path.join(ROOT, "build")))
        if not os.path.isfile(os.path.join(tree, "CMakeCache.txt")):
            subprocess.run(["cmake", "-S", ROOT, "-B", tree, "-DCMAKE_BUILD_TYPE=Release"], check=True)
        subprocess.run(["cmake", "--build", tree, "-j", str(os.cpu_count() or 1), "--target", "stickslip_python"],
                       check=True)
        built = os.path.join(tree, "python", "stickslip" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not os.path.isfile(built):
            raise RuntimeError("%s was not built: the build tree %s builds the module for another Python "
                               "(CMake uses /usr/bin/python3)" % (built, tree))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built, target)


setup(
    version=version(),
    packages=[],  # one extension module; lcp/, dynamics/, ... are C++ folders, not packages
    py_modules=[],
    ext_modules=[Extension("stickslip", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": os.path.join("build", "setuptools")}},
)
