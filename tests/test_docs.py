"""The shell examples in docs/ are real: each command is run and its output compared.

A ```console block holds commands (``$ ...``) each followed by the output it prints
(stdout and stderr together).  The commands of one file run in order, in one fresh
folder, with a ``pardon`` command that runs this interpreter's pardon first on the PATH.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"
SOURCE = DOCS.parent / "src"
BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def examples(path: Path) -> list[tuple[str, str]]:
    """``(command, expected output)`` pairs, in the order they appear."""
    pairs: list[tuple[str, str]] = []
    for block in BLOCK.findall(path.read_text()):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            pairs.append((command, output))
    return pairs


def with_source() -> dict[str, str]:
    """This process's environment, importing pardon from this checkout."""
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SOURCE), environment.get("PYTHONPATH", "")]))
    return environment


DOCUMENTED = [path for path in sorted(DOCS.glob("*.md")) if examples(path)]


@pytest.mark.parametrize("path", DOCUMENTED, ids=[path.name for path in DOCUMENTED])
def test_every_shell_example_prints_what_the_docs_say(path: Path, tmp_path: Path) -> None:
    tools = tmp_path / "bin"
    tools.mkdir()
    command_file = tools / "pardon"
    command_file.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m pardon "$@"\n')
    command_file.chmod(0o755)
    environment = with_source()
    environment["PATH"] = f"{tools}{os.pathsep}{environment.get('PATH', '')}"
    for command, expected in examples(path):
        run = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert run.stdout + run.stderr == expected, f"{path.name}: $ {command}"


PYTHON_BLOCK = re.compile(r"^( *)```python\n(.*?)^\1```", re.DOTALL | re.MULTILINE)


def python_examples() -> list[tuple[str, str]]:
    """``(where, code)`` for each ```python block of the README and docs/ that is a script
    (the ``>>>`` examples are doctests, run by pytest's --doctest-glob)."""
    found = []
    for path in [DOCS.parent / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = path.read_text()
        for match in PYTHON_BLOCK.finditer(text):
            indent, body = match.group(1), match.group(2)
            code = "\n".join(line[len(indent) :] for line in body.splitlines())
            if ">>>" not in code:
                found.append((f"{path.name}:{text[: match.start()].count(chr(10)) + 1}", code))
    return found


PYTHON_EXAMPLES = python_examples()
#: Modules of optional extras an example may need (a GPU's JAX is not every machine's).
OPTIONAL = {"jax"}


@pytest.mark.parametrize(("where", "code"), PYTHON_EXAMPLES, ids=[where for where, _ in PYTHON_EXAMPLES])
def test_every_python_example_runs_as_written(where: str, code: str, tmp_path: Path) -> None:
    # each block on its own, as a reader copies it: README's GameState example used
    # parse_rules without importing it (a NameError)
    for module in OPTIONAL & set(re.findall(r"^(?:import|from) (\w+)", code, re.MULTILINE)):
        if importlib.util.find_spec(module) is None:  # an extra this machine has not installed
            pytest.skip(f"{where} needs {module} (pip install -e '.[{module}]')")
    run = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        env=with_source(),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, f"{where}:\n{run.stderr}"
