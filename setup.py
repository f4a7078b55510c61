"""The optional compiled build: ``PARDON_MYPYC=1`` compiles the rules core with mypyc.

Everything else about the package is in pyproject.toml; without the variable this file
adds nothing and the package is pure Python (the path CI tests).  ``make compiled``
builds it into its own virtual environment, ``.venv-compiled``.
"""

import os
from pathlib import Path

from setuptools import setup

extensions = []
if os.environ.get("PARDON_MYPYC"):
    from mypyc.build import mypycify  # needs mypy installed where the build runs

    core = sorted(str(path) for path in Path("src/pardon/core").glob("*.py"))
    extensions = mypycify(core, opt_level="3")

setup(ext_modules=extensions)
