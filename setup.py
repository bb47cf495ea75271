"""Build hook for the optional compiled move generator (engine/_fastgen.c).

All project metadata lives in pyproject.toml; this file only declares the C extension. It is
optional: without a C compiler or the Python headers the build prints a warning, installs
the pure-Python package and the engine falls back to engine.movegen (see engine/native.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine._fastgen",
            sources=["engine/_fastgen.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
