"""Builds the C extensions (the double-dummy solver, the movement search); everything else is
in pyproject.toml.

On x86-64 both are compiled for x86-64-v2 (population count in hardware: every x86-64
processor since about 2009). ``SOLVER_CFLAGS`` adds flags, e.g. ``-march=native``.
"""

import os
import platform

from setuptools import Extension, setup

flags = ["-O3", "-std=c99", "-Wall"]
if platform.machine().lower() in ("x86_64", "amd64"):
    flags.append("-march=x86-64-v2")
flags += os.environ.get("SOLVER_CFLAGS", "").split()

setup(
    ext_modules=[
        Extension("engine.solver._dds", sources=["engine/solver/_dds.c"], extra_compile_args=flags),
        Extension(
            "engine.schedule._search",
            sources=["engine/schedule/_search.c"],
            extra_compile_args=flags,
        ),
    ]
)
