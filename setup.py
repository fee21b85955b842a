"""Build of the compiled cores. Compiler directives live here, in one place.

ULM_DEBUG=1 turns bounds checks and C assertions back on for debugging.
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("ULM_DEBUG") == "1"
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
    "binding": True,
}
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3"]

extensions = [
    Extension("ulm._fastcore", ["ulm/_fastcore.pyx"], extra_compile_args=COMPILE_ARGS),
]
if os.path.exists("mcts/_search.pyx"):
    extensions.append(
        Extension("mcts._search", ["mcts/_search.pyx"], include_dirs=["."],
                  extra_compile_args=COMPILE_ARGS))

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES,
                            include_path=["."]))
