"""Build of the compiled cores. Compiler directives live here, in one place.

ULM_DEBUG=1 builds for debugging: Cython's bounds checks back on, and the C
code compiled with AddressSanitizer and UndefinedBehaviorSanitizer (UBSan's
`bounds` check covers the fixed-size arrays of the C structs, which no Cython
directive does). Python itself is not sanitized, so load the runtime first:

    ULM_DEBUG=1 python setup.py build_ext --inplace
    LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
        UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 python -m pytest tests/ulm/rules/test_rules_*.py

.ci/run does this in a copy of the tree, after the normal test run.
ULM_PORTABLE=1 builds without CPU-specific instructions (see cpu_flags).
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


def cpu_flags():
    """-mpopcnt and -mbmi2 where the build machine's CPU has the instructions.

    The core counts bits (legal-decision sets, hands, coats) in its hottest
    loops; without -mpopcnt x86-64 compilers call a library routine for
    __builtin_popcountll. With -mbmi2 a playout finds the k-th legal decision
    with one pdep (docs/speed.md), except on AMD's Zen 1 and 2 (family 0x17 and
    older), which run pdep as slow microcode. Every x86-64 CPU since 2008 has
    POPCNT and most since 2013-2015 BMI2, but a binary built with them would
    crash (illegal instruction) on one without, so the flags are used only when
    this machine reports them (pip builds the core where it runs) and never
    when ULM_PORTABLE=1, the setting for wheels to share. Other architectures
    (aarch64) have their own bit count and need no flag."""
    import platform
    if os.environ.get("ULM_PORTABLE") == "1":
        return []
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return []
    info = {}
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                key, _, value = line.partition(":")
                info.setdefault(key.strip(), value.strip())
    except OSError:
        return []
    flags = info.get("flags", "").split()
    slow_pdep = (info.get("vendor_id") == "AuthenticAMD"
                 and int(info.get("cpu family", "0") or 0) < 0x19)
    return ((["-mpopcnt"] if "popcnt" in flags else [])
            + (["-mbmi2"] if "bmi2" in flags and not slow_pdep else []))


SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
COMPILE_ARGS = ((["-O1", "-g", "-fno-omit-frame-pointer"] + SANITIZERS) if DEBUG
                else ["-O3"] + cpu_flags())
LINK_ARGS = SANITIZERS if DEBUG else []

extensions = [
    Extension("ulm._fastcore", ["ulm/_fastcore.pyx"], extra_compile_args=COMPILE_ARGS,
              extra_link_args=LINK_ARGS),
]
if os.path.exists("mcts/searcher/_search.pyx"):
    extensions.append(
        Extension("mcts.searcher._search", ["mcts/searcher/_search.pyx"], include_dirs=["."],
                  extra_compile_args=COMPILE_ARGS, extra_link_args=LINK_ARGS))

setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES,
                            include_path=["."]))
