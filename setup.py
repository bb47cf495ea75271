"""Build hook for the optional compiled cores: the move generator (engine/_fastgen.c) and the
lexicon builder (engine/_fastlex.c).

All project metadata lives in pyproject.toml; this file only declares the C extensions. They
are optional: without a C compiler or the Python headers the build prints a warning, installs
the pure-Python package and the search seam falls back to its pure-Python reference (see engine/search/__init__.py) and
to the pure-Python lexicon builder (engine/lexicon.py).
"""

import platform

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    """The move generator gets ``-mpopcnt`` on x86-64 with GCC or Clang: a GADDAG step counts
    the bits of a mask, one instruction with it and a dozen without (tight loops against the
    build without it: 0.88-0.95x the time with no blank, 0.94-0.99x with one; docs/engine.md).
    Every x86-64 CPU since 2008 has POPCNT; on one without, the module refuses to load (its
    init checks) and the pure-Python reference answers."""

    def build_extensions(self) -> None:
        if self.compiler.compiler_type == "unix" and platform.machine().lower() in ("x86_64", "amd64"):
            for ext in self.extensions:
                if ext.name == "engine._fastgen":
                    ext.extra_compile_args = [*ext.extra_compile_args, "-mpopcnt"]
        super().build_extensions()


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            "engine._fastgen",
            sources=["engine/_fastgen.c"],
            # -O2, not -O3: half the compile time on every first install (0.9 s of CPU instead
            # of 1.7 s), and the search as fast (bench/run.py --against a -O3 build, 6 positions,
            # 3 rounds: median ratio 0.99, within the noise of a shared machine; docs/operations.md)
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "engine._fastlex",
            sources=["engine/_fastlex.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
