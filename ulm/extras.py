"""The optional extras of the package and the message when one is missing.

`pip install ulm-engine` gives the engine, the search and the command line;
what needs more comes as an extra (pyproject.toml): `web` (starlette, uvicorn,
httptools: `ulm serve`), `picture` (cairosvg: PNG pictures), `plot` (matplotlib: plots),
`tune` (optuna: `ulm tune`), `cluster` (distributed: `--scheduler`), `rl`
(pettingzoo, gymnasium: `ulm.pettingzoo`), `openspiel` (open-spiel:
`ulm.openspiel`), `all`.
Every place that needs one imports it here, when it is needed, so that the
core commands never import an extra.
"""
from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(ImportError):
    """A feature's optional dependency is not installed; the message names the
    extra to install: `ulm serve needs the web extra: pip install 'ulm-engine[web]'`."""

    def __init__(self, what: str, extra: str, module: str):
        self.what, self.extra = what, extra
        super().__init__(f"{what} needs the {extra} extra: pip install 'ulm-engine[{extra}]'",
                         name=module)


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import `module` (of the extra `extra`) for `what` (the command, option or
    file that needs it) and return it; MissingExtra if it is not installed."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(what, extra, module) from None


def installed(module: str) -> bool:
    """Whether `module` can be imported (for outputs drawn only when their extra is there)."""
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True
