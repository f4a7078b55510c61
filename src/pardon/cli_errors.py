"""What every ``pardon`` command shares for the errors a user can cause: one line, exit 2."""

from __future__ import annotations


class UserError(Exception):
    """A problem with what the user asked for; reported as one line."""


def install_hint(extra: str) -> str:
    """How to install an extra of this project: from its folder (a package called pardon on
    PyPI is another project altogether)."""
    return f"in pardon's folder, .venv/bin/pip install -e '.[{extra}]' (make setup installs every extra)"
