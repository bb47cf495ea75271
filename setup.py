"""Build hook for the optional compiled cores: the move generator (engine/_fastgen.c) and the
lexicon builder (engine/_fastlex.c).

All project metadata lives in pyproject.toml; this file only declares the C extensions. They
are optional: without a C compiler or the Python headers the build prints a warning, installs
the pure-Python package and the search seam falls back to its pure-Python reference (see engine/search/__init__.py) and
to the pure-Python lexicon builder (engine/lexicon.py).
"""

from setuptools import Extension, setup

setup(
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
