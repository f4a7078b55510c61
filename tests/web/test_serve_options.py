"""Every limit of the server is an option of ``pardon serve`` and an environment variable."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pardon.cli import _parser
from pardon.cli_serve import OPTIONS, option_values, settings_of
from pardon.web.settings import Settings


def _serve(*arguments: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **(env or {})}
    command = [sys.executable, "-m", "pardon", "serve", *arguments]
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=60, env=environment)


def test_every_setting_is_an_option_with_its_variable() -> None:
    set_by = {option.field for option in OPTIONS.values()}
    unset = [field.name for field in dataclasses.fields(Settings) if field.name not in set_by | {"database"}]
    assert unset == [], f"settings with no option of pardon serve: {unset}"
    shown = " ".join(_parser().parse_args(["serve"]).__dict__)  # parses with no argument at all
    assert shown
    help_text = _serve("--help").stdout
    for option in OPTIONS.values():
        assert option.flag in help_text and option.env in help_text


def test_the_environment_sets_options_and_the_command_line_wins() -> None:
    arguments = _parser().parse_args(["serve", "--create-rate", "7"])
    environ = {"PARDON_CREATE_RATE": "3", "PARDON_TRUSTED_PROXY": "10.0.0.0/8, 192.0.2.7", "PARDON_JOIN_BURST": "9"}
    values = option_values(arguments, environ)
    assert values["--create-rate"] == 7.0 and values["--join-burst"] == 9
    assert values["--trusted-proxy"] == ("10.0.0.0/8", "192.0.2.7")
    settings = settings_of({**values, "--db": "sqlite:///:memory:"})
    assert settings.trusted_proxies == ("10.0.0.0/8", "192.0.2.7") and settings.join_burst == 9
    hours = option_values(_parser().parse_args(["serve", "--expire-waiting", "2"]), {})
    assert settings_of({**hours, "--db": "sqlite:///:memory:"}).waiting_expiry == 7200.0


@pytest.mark.parametrize(
    ("env", "arguments", "words"),
    [
        ({"PARDON_CREATE_RATE": "-3"}, [], "PARDON_CREATE_RATE must be a number from 0 to"),
        ({"PARDON_CONNECTIONS_PER_ADDRESS": "lots"}, [], "PARDON_CONNECTIONS_PER_ADDRESS must be a whole number"),
        ({"PARDON_TRUSTED_PROXY": "the proxy"}, [], "--trusted-proxy must be an address or a network"),
        ({}, ["--trusted-proxy", "10.0.0.0/33"], "--trusted-proxy must be an address or a network"),
        ({"PARDON_LOG_FORMAT": "xml"}, [], "PARDON_LOG_FORMAT must be one of text, json"),
        ({}, ["--port", "70000"], "--port must be a whole number from 0 to 65,535"),
        ({}, ["--db", "/no/such/folder/games.sqlite3"], "the folder /no/such/folder does not exist"),
    ],
)
def test_a_wrong_value_from_either_is_one_line_and_changes_nothing(
    env: dict[str, str], arguments: list[str], words: str, tmp_path: Path
) -> None:
    database = tmp_path / "games.sqlite3"
    result = _serve("--port", "0", "--db", str(database), *arguments, env=env)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr
    assert not database.exists() and not Path("/no/such/folder").exists()


def test_the_database_comes_from_the_environment(tmp_path: Path) -> None:
    database = tmp_path / "from-env.sqlite3"
    result = _serve("--port", "70000", env={"PARDON_DB": str(database)})  # refused after reading PARDON_DB
    assert result.returncode == 2
    arguments = _parser().parse_args(["serve"])
    values = option_values(arguments, {"PARDON_DB": str(database)})
    assert settings_of(values).database.endswith("from-env.sqlite3")
