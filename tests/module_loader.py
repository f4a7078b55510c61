"""Load a Python file that is not in an importable package: a script of ``scripts/`` or
reference code kept beside the tests (tests are not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_module(path: Path) -> ModuleType:
    """The module in ``path``, named after the file; loaded once, then shared."""
    name = path.stem
    found = sys.modules.get(name)
    if found is not None and getattr(found, "__file__", None) == str(path):
        return found
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass in it looks its module up by name
    spec.loader.exec_module(module)
    return module
