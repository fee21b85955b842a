# cython: language_level=3
"""The compiled core of Ulm (see _fastcore.pxd for the state and the enums).

Everything from ``state_init`` to ``random_playout`` is plain C (nogil): the
state is one struct, a clone is a struct copy, and no step of a game touches a
Python object. The Python classes ``Game`` and ``State`` at the bottom wrap it.
Rule IDs refer to docs/rules.md.
"""

from libc.string cimport memset, memcpy
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t

# BMI2's pdep deposits the low bits of its first operand at the set bits of the
# second: pdep(1 << k, w) keeps just the k-th set bit of w. setup.py enables it
# only on CPUs where it is fast (see cpu_flags there).
cdef extern from *:
    """
    #if defined(__BMI2__)
    #include <immintrin.h>
    #define ULM_PDEP 1
    #define ulm_pdep64(x, mask) _pdep_u64((x), (mask))
    #else
    #define ULM_PDEP 0
    #define ulm_pdep64(x, mask) 0
    #endif
    """
    const int ULM_PDEP
    unsigned long long pdep64 "ulm_pdep64"(unsigned long long, unsigned long long) nogil

# The core in topics, one compilation unit (the hot helpers the search shares
# are cdef inline in _fastcore.pxd):
include "_tables.pxi"
include "_board.pxi"
include "_cards.pxi"
include "_turn.pxi"
include "_legal.pxi"
include "_apply.pxi"
include "_hidden.pxi"
include "_observation.pxi"   # a seat's observation as a tensor (after _hidden: what a seat knows)
include "_actions.pxi"       # the action table: each action's kind and fields, its name
include "_api.pxi"           # the Python classes: CoreGame, State
