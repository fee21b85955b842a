"""Which ulm a benchmark script imports: the checkout's own when it is built
in place (`pip install -e .` or `python setup.py build_ext --inplace`: the
figures are then those of the code beside the script), else the installed
one (`pip install .`, the README's install, leaves the checkout's ulm/
without its compiled core, and importing it would fail with "ulm's compiled
core is not built").

    import _ulm_path  # noqa: F401  (first, before ulm and mcts)
"""
from __future__ import annotations

import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def built_in_place(root: str = ROOT) -> bool:
    """Do the checkout's packages hold their compiled cores?"""
    return all(glob.glob(os.path.join(root, *where, name + ".*.so"))
               or glob.glob(os.path.join(root, *where, name + ".*.pyd"))
               for where, name in ((("ulm",), "_fastcore"), (("mcts", "searcher"), "_search")))


if built_in_place() and ROOT not in sys.path:
    sys.path.insert(0, ROOT)
