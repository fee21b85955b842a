"""Build of the compiled cores. Compiler directives live here, in one place.

ULM_DEBUG=1 builds for debugging: Cython's bounds checks back on, and the C
code compiled with AddressSanitizer and UndefinedBehaviorSanitizer (UBSan's
`bounds` check covers the fixed-size arrays of the C structs, which no Cython
directive does). Python itself is not sanitized, so load the runtime first:

    ULM_DEBUG=1 python setup.py build_ext --inplace
    LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 python -m pytest tests/test_rules_*.py

.ci/run does this in a copy of the tree, after the normal test run.
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
SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
COMPILE_ARGS = (["-O1", "-g", "-fno-omit-frame-pointer"] + SANITIZERS) if DEBUG else ["-O3"]
LINK_ARGS = SANITIZERS if DEBUG else []

extensions = [
    Extension("ulm._fastcore", ["ulm/_fastcore.pyx"], extra_compile_args=COMPILE_ARGS,
              extra_link_args=LINK_ARGS),
]
if os.path.exists("mcts/_search.pyx"):
    extensions.append(
        Extension("mcts._search", ["mcts/_search.pyx"], include_dirs=["."],
                  extra_compile_args=COMPILE_ARGS, extra_link_args=LINK_ARGS))

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES,
                            include_path=["."]))
