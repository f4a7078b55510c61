"""deploy/ for real: what docs/hosting.md tells a host to install, run as it is written.

Nothing here is a copy of deploy/'s files.  The Caddyfile is read from deploy/ with only the test's
values put in (``your-domain`` becomes ``localhost`` on a free port, the processes' ports 8001 and
8002 free ones, and Caddy's global options its own ports, its internal certificate authority and no
admin endpoint).  Each ``pardon serve`` is the command of ``ExecStart=`` in ``pardon@.service``
(``%i`` a free port, the program this checkout's), with the variables of ``pardon.env`` as
``EnvironmentFile=`` gives them (``PARDON_DB`` a fresh PostgreSQL database, ``your-domain`` the
test's).  The backup is ``pardon-backup`` with the same variables, and its copy is restored as
docs/hosting.md says.

The site's tests need Caddy (Debian's ``caddy``) and a PostgreSQL server (``PARDON_TEST_POSTGRES``,
as ``.ci/run`` sets it), and are skipped, saying which, without them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import SocketClient, free_port, wait_until_up
from websockets.asyncio.client import ClientConnection as AsyncConnection
from websockets.asyncio.client import connect as connect_async
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
POSTGRES = os.environ.get("PARDON_TEST_POSTGRES", "")
#: Where docs/hosting.md installs pardon (a virtual environment) and its source (deploy/ with it).
INSTALLED_PARDON = "/opt/pardon/venv/bin/pardon"
INSTALLED_SOURCE = "/opt/pardon/src"
ENVIRONMENT_FILE = "/etc/pardon/pardon.env"
UNITS = ("pardon@.service", "pardon-backup.service", "pardon-backup.timer")
#: The processes' ports in deploy/'s Caddyfile (pardon@8001, pardon@8002).
PORTS_IN_CADDYFILE = (8001, 8002)
PLAY_URL = re.compile(r"/play/(?P<id>[A-Za-z0-9_-]+)#token=(?P<token>[A-Za-z0-9_-]+)$")
#: The client addresses of the crowd (loopback aliases Linux answers without any setup).
CROWD = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
GREEDY = "127.0.0.6"

Message = dict[str, Any]


# -- deploy/'s files, read as systemd and Caddy read them ---------------------------------------


def read_unit(name: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit file: its sections, each setting's values in order (a setting may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for line in (DEPLOY / name).read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        assert not line.endswith("\\"), f"{name}: keep each setting on one line"
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        key, equals, value = line.partition("=")
        assert equals and current is not None, f"{name}: not a setting: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def read_environment_file(path: Path) -> dict[str, str]:
    """The variables of a systemd ``EnvironmentFile=`` (``KEY=VALUE`` lines, ``#`` comments)."""
    variables: dict[str, str] = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line[0] in "#;":
            continue
        key, equals, value = line.partition("=")
        assert equals and re.fullmatch(r"[A-Z_][A-Z0-9_]*", key), f"{path.name}: not a variable: {line!r}"
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        variables[key] = value
    return variables


def this_pardon() -> list[str]:
    """This checkout's ``pardon`` command, standing for the one the guide installs."""
    program = Path(sys.executable).with_name("pardon")
    return [str(program)] if program.exists() else [sys.executable, "-m", "pardon"]


def serve_command(port: int) -> list[str]:
    """``ExecStart=`` of ``pardon@.service`` for the instance ``port``, with this checkout's pardon."""
    (exec_start,) = read_unit("pardon@.service")["Service"]["ExecStart"]
    words = shlex.split(exec_start.replace("%i", str(port)))
    assert words[0] == INSTALLED_PARDON
    return [*this_pardon(), *words[1:]]


def service_environment(database: str, domain: str, home: Path) -> dict[str, str]:
    """What a process of ``pardon@.service`` sees: ``pardon.env`` (the database and the domain the
    test's), after the unit's own ``Environment=`` lines, as systemd orders them; and a PATH."""
    service = read_unit("pardon@.service")["Service"]
    assert service["EnvironmentFile"] == [ENVIRONMENT_FILE]
    variables: dict[str, str] = {}
    for assignment in service.get("Environment", []):
        for word in shlex.split(assignment):
            key, _, value = word.partition("=")
            variables[key] = value
    for key, value in read_environment_file(DEPLOY / "pardon.env").items():
        variables[key] = value.replace("your-domain", domain)
    assert variables["PARDON_DB"] == "postgresql:///pardon"  # the database the guide creates
    variables["PARDON_DB"] = database
    return {"PATH": os.environ["PATH"], "HOME": str(home), "LANG": "C.UTF-8", **variables}


def caddyfile(https_port: int, http_port: int, upstreams: tuple[int, int]) -> str:
    """deploy/'s Caddyfile for the test: ``your-domain`` is localhost on ``https_port``, the
    processes listen on ``upstreams``; Caddy's own ports, its internal certificate authority (no
    Let's Encrypt on a test machine) and no admin endpoint are added to its global options."""
    text = (DEPLOY / "Caddyfile").read_text()
    assert text.count("your-domain {") == 1
    text = text.replace("your-domain {", f"localhost:{https_port} {{")
    for wanted, given in zip(PORTS_IN_CADDYFILE, upstreams, strict=True):
        text = text.replace(f"127.0.0.1:{wanted}", f"127.0.0.1:{given}")
    assert f"reverse_proxy 127.0.0.1:{upstreams[0]} 127.0.0.1:{upstreams[1]} {{" in text
    first = next(line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#"))
    assert first == "{", "the Caddyfile begins with its global options"
    options = f"\tadmin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n\tlocal_certs\n\tskip_install_trust\n"
    return text.replace("{\n", "{\n" + options, 1)


def known_options() -> set[str]:
    """The options of ``pardon serve`` (``--trusted-proxy``), from its ``--help``."""
    shown = subprocess.run([*this_pardon(), "serve", "--help"], capture_output=True, text=True, check=True).stdout
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", shown))


# -- the files, checked as the programs that read them check them ---------------------------------


@pytest.mark.parametrize("name", UNITS)
def test_each_systemd_unit_is_one_systemd_accepts(name: str) -> None:
    """``systemd-analyze verify``: nothing wrong but the programs' absence here (the guide installs
    them under /opt/pardon)."""
    unit = read_unit(name)
    if name.endswith(".service"):
        service = unit["Service"]
        assert service["User"] == ["pardon"] and service["EnvironmentFile"] == [ENVIRONMENT_FILE]
        assert service["ExecStart"][0].startswith(("/opt/pardon/venv/bin/", f"{INSTALLED_SOURCE}/deploy/"))
        assert service["NoNewPrivileges"] == ["yes"] and service["ProtectSystem"] == ["strict"]
    if name == "pardon@.service":
        assert unit["Service"]["Restart"] == ["on-failure"]
        assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed: the units were checked for their settings only")
    run = subprocess.run(
        ["systemd-analyze", "verify", str(DEPLOY / name)], capture_output=True, text=True, check=False, cwd=DEPLOY
    )
    complaints = [
        line
        for line in (run.stdout + run.stderr).splitlines()
        if line.strip() and not re.search(r"Command /opt/pardon/\S+ is not executable: No such file", line)
    ]
    assert complaints == []


def test_the_backup_program_is_where_its_service_runs_it_from() -> None:
    (exec_start,) = read_unit("pardon-backup.service")["Service"]["ExecStart"]
    program = shlex.split(exec_start)[0]
    assert program.startswith(f"{INSTALLED_SOURCE}/")
    assert os.access(ROOT / program.removeprefix(f"{INSTALLED_SOURCE}/"), os.X_OK)


def test_every_variable_of_the_environment_file_is_an_option_of_pardon_serve() -> None:
    options = known_options()
    variables = read_environment_file(DEPLOY / "pardon.env")
    assert {"PARDON_DB", "PARDON_TRUSTED_PROXY", "PARDON_HOST"} <= set(variables)
    flags = {name: "--" + name.removeprefix("PARDON_").lower().replace("_", "-") for name in variables}
    unknown = [name for name, flag in flags.items() if flag not in options]
    assert unknown == []
    assert "--port" not in read_environment_file(DEPLOY / "pardon.env")  # the instance's, on the command line


def test_the_guide_installs_every_file_where_the_units_look_for_it() -> None:
    guide = (ROOT / "docs" / "hosting.md").read_text()
    for path in (INSTALLED_PARDON, INSTALLED_SOURCE, ENVIRONMENT_FILE, "/etc/caddy/Caddyfile"):
        assert path in guide
    for name in (*UNITS, "Caddyfile", "pardon.env", "pardon-backup"):
        assert f"deploy/{name}" in guide


def test_the_caddyfile_is_one_caddy_reads() -> None:
    if shutil.which("caddy") is None:
        pytest.skip("Caddy is not installed (.ci/run installs Debian's caddy)")
    run = subprocess.run(
        ["caddy", "adapt", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    config = json.dumps(json.loads(run.stdout))
    assert '"dial": "127.0.0.1:8001"' in config and '"dial": "127.0.0.1:8002"' in config
    assert '"uri": "/healthz"' in config and '"policy": "ip_hash"' in config
    formatted = subprocess.run(["caddy", "fmt", str(DEPLOY / "Caddyfile")], capture_output=True, text=True, check=True)
    assert formatted.stdout == (DEPLOY / "Caddyfile").read_text()  # as `caddy fmt` writes it


# -- a database, and the processes of the units -----------------------------------------------------


def fresh_database(url: str) -> Iterator[str]:
    """The URL of a new database on the PostgreSQL server at ``url`` (dropped afterwards)."""
    psycopg = pytest.importorskip("psycopg")
    from sqlalchemy.engine import make_url

    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    name = f"test_deploy_{secrets.token_hex(5)}"
    try:
        with psycopg.connect(plain, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f"CREATE DATABASE {name}")
    except psycopg.OperationalError as error:
        pytest.skip(f"the PostgreSQL server of PARDON_TEST_POSTGRES does not answer: {error}")
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(plain, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def need_postgres() -> None:
    if not POSTGRES:
        pytest.skip("no PostgreSQL server: set PARDON_TEST_POSTGRES=postgresql+psycopg://... (.ci/run does)")


@contextmanager
def unit_process(port: int, environment: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``pardon@PORT.service``'s process, its output (the journal's) kept in ``log``."""
    with log.open("ab") as sink:
        process = subprocess.Popen(serve_command(port), stdout=sink, stderr=subprocess.STDOUT, env=environment)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


class Site:
    """Caddy in front of two ``pardon serve`` processes, as the guide sets them up."""

    def __init__(self, folder: Path, database: str, stack: ExitStack) -> None:
        self.folder = folder
        self.https_port, self.http_port = free_port(), free_port()
        self.ports = (free_port(), free_port())
        self.url = f"https://localhost:{self.https_port}"
        self.environment = service_environment(database, f"localhost:{self.https_port}", folder)
        self.stack = stack
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        for port in self.ports:
            self.restart(port)
        config = folder / "Caddyfile"
        config.write_text(caddyfile(self.https_port, self.http_port, self.ports))
        caddy_home = {"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder)}
        with (folder / "caddy.log").open("wb") as sink:
            self.caddy = subprocess.Popen(
                ["caddy", "run", "--config", str(config), "--adapter", "caddyfile"],
                stdout=sink,
                stderr=subprocess.STDOUT,
                env={"PATH": os.environ["PATH"], **caddy_home},
            )
        stack.callback(self._stop_caddy)
        root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        self._wait(root.exists, "Caddy made no certificate authority")
        self.ssl = ssl.create_default_context(cafile=str(root))  # Caddy's own, trusted here alone
        self.http = stack.enter_context(httpx.Client(base_url=self.url, verify=self.ssl, timeout=20))
        self._wait(self._answers, "Caddy does not answer over https")

    def restart(self, port: int) -> None:
        """Start the process of ``port`` (again, as ``Restart=on-failure`` does)."""
        self.processes[port] = self.stack.enter_context(unit_process(port, self.environment, self.log(port)))

    def log(self, port: int) -> Path:
        return self.folder / f"pardon@{port}.log"

    def _answers(self) -> bool:
        try:
            return self.http.get("/healthz").status_code == 200
        except httpx.TransportError:
            return False

    def _wait(self, done: Callable[[], bool], failure: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not done():
            if self.caddy.poll() is not None:
                raise AssertionError(f"caddy exited: {(self.folder / 'caddy.log').read_text()[-3000:]}")
            assert time.monotonic() < deadline, f"{failure}: {(self.folder / 'caddy.log').read_text()[-3000:]}"
            time.sleep(0.1)

    def _stop_caddy(self) -> None:
        self.caddy.terminate()
        try:
            self.caddy.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.caddy.kill()
            self.caddy.wait()

    def websocket_url(self, game_id: str) -> str:
        return f"wss://localhost:{self.https_port}/ws/games/{game_id}"

    def create(self, seats: list[Message], **options: Any) -> Message:
        answer = self.http.post("/api/games", json={"seats": seats, **options})
        assert answer.status_code == 201, answer.text
        game: Message = answer.json()
        return game

    def serving(self, game_id: str) -> int:
        """The port of the process that took the first websocket of ``game_id`` (its logs say)."""
        accepted = []
        for port in self.ports:
            for line in self.log(port).read_text().splitlines():
                if line.startswith("{") and f"/ws/games/{game_id}" in line and "[accepted]" in line:
                    accepted.append((json.loads(line)["time"], port))
        assert accepted, "no process took the game's websockets"
        return min(accepted)[1]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    need_postgres()
    if shutil.which("caddy") is None:
        pytest.skip("Caddy is not installed (.ci/run installs Debian's caddy)")
    with ExitStack() as stack:
        database = stack.enter_context(contextmanager(fresh_database)(POSTGRES))
        yield Site(tmp_path_factory.mktemp("site"), database, stack)


# -- the site -------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_site_answers_over_https_with_its_metrics_kept_from_the_public(site: Site) -> None:
    assert site.http.get("/healthz").json() == {"status": "ok"}
    assert "<html" in site.http.get("/").text.lower()
    redirect = httpx.get(f"http://localhost:{site.http_port}/lobby", follow_redirects=False, timeout=10)
    assert redirect.status_code == 308  # to https (on Caddy's https port, 443 on a real site)
    assert redirect.headers["location"] in ("https://localhost/lobby", f"{site.url}/lobby")
    game = site.create([{"kind": "human"}, {"kind": "bot", "level": "random"}])
    assert game["seats"][0]["link"].startswith(f"{site.url}/play/")  # links of the site, https
    for port in site.ports:  # the journal's lines, one JSON object each (PARDON_LOG_FORMAT=json)
        lines = [line for line in site.log(port).read_text().splitlines() if line.strip()]
        assert lines and all(isinstance(json.loads(line), dict) for line in lines), lines[:5]
    for path in ("/metrics", "/metrics/", "/METRICS"):  # not for the public: Caddy's own 404, empty ...
        answer = site.http.get(path)
        assert (answer.status_code, answer.text) == (404, ""), path
    for port in site.ports:  # ... but for the host, from each process on the machine itself
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
        assert metrics.status_code == 200 and "# TYPE" in metrics.text


async def _watch(site: Site, game: Message, address: str, headers: dict[str, str] | None = None) -> Any:
    """A spectator's websocket through Caddy from ``address``: the connection and its first
    answer (``welcome``), or the error it was refused with and its close code."""
    connection: AsyncConnection = await connect_async(
        site.websocket_url(game["id"]),
        ssl=site.ssl,
        host="127.0.0.1",
        local_addr=(address, 0),
        additional_headers=headers,
        proxy=None,
        open_timeout=30,
    )
    with contextlib.suppress(ConnectionClosed):  # refused before its hello: the error waits to be read
        await connection.send(json.dumps({"type": "hello", "token": game["spectator_token"]}))
    answer = json.loads(await asyncio.wait_for(connection.recv(), 30))
    if answer["type"] == "error":
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(connection.recv(), 30)
        return None, answer, closed.value.rcvd.code if closed.value.rcvd else None
    return connection, answer, None


async def _crowd(site: Site, game: Message) -> None:
    opened: list[AsyncConnection] = []
    try:
        crowd = await asyncio.gather(*(_watch(site, game, address) for address in CROWD for _ in range(25)))
        assert [answer["type"] for _, answer, _ in crowd] == ["welcome"] * 100  # 100 through one proxy
        opened += [connection for connection, _, _ in crowd]
        # One address's 64, each claiming to be someone else: Caddy writes X-Forwarded-For itself.
        greedy = await asyncio.gather(
            *(_watch(site, game, GREEDY, {"X-Forwarded-For": f"10.0.0.{number}"}) for number in range(64))
        )
        assert [answer["type"] for _, answer, _ in greedy] == ["welcome"] * 64
        opened += [connection for connection, _, _ in greedy]
        refused, error, code = await _watch(site, game, GREEDY, {"X-Forwarded-For": "10.0.0.99"})
        assert refused is None and error["code"] == "too_many_connections" and code == 1013
        for connection in opened[:100]:  # the others' are still served
            await asyncio.wait_for(connection.ping(), 10)
    finally:
        await asyncio.gather(*(connection.close() for connection in opened if connection is not None))


@pytest.mark.slow
def test_a_hundred_websockets_from_four_addresses_are_served_and_one_address_gets_64(site: Site) -> None:
    game = site.create([{"kind": "human"}, {"kind": "bot", "level": "random"}])
    with ThreadPoolExecutor(1) as thread:  # a thread of its own: Playwright's loop may be running in this one
        thread.submit(asyncio.run, _crowd(site, game)).result()


def _play_until(pages: list[Any], event: int, seconds: float = 90) -> None:
    """Both players play by clicks (whoever's turn it is) until decision ``event`` is made."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from tests.web.browser.test_game_page import MY_TURN, furthest, play_by_clicks, state

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for page in pages:
            now = page.evaluate("() => window.pardonGame && window.pardonGame.state")
            if now and (now["event"] >= event or now["status"] == "finished"):
                return
            if page.evaluate(MY_TURN):
                try:
                    play_by_clicks(page, furthest(state(page)["moves"]))
                except PlaywrightTimeout:  # a move sent as its connection died: the page offers the turn again
                    continue
        time.sleep(0.05)
    raise AssertionError(f"the game did not reach decision {event}")


def _decisions(site: Site, game_id: str, token: str) -> list[tuple[int, str, str]]:
    """Every decision of the game so far, as a client that reconnects from the start is sent them."""
    with connect(site.websocket_url(game_id), ssl=site.ssl, open_timeout=20, proxy=None) as connection:
        client = SocketClient(connection, token)
        while not client.state:
            client.receive()
        return client.events


@pytest.mark.slow
def test_a_public_game_made_and_joined_in_browsers_goes_on_when_its_process_is_killed(site: Site, browser: Any) -> None:
    host, stranger = (browser.new_context(ignore_https_errors=True) for _ in range(2))
    try:
        for context in (host, stranger):
            context.set_default_timeout(20_000)
        page = host.new_page()
        page.emulate_media(reduced_motion="reduce")
        page.goto(site.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        form = page.locator("#online")
        form.locator("#online-public").check()
        form.get_by_role("button", name="Create the online game").click()
        mine = page.locator("#game-lobby").get_by_role("link", name="Go to my seat").get_attribute("href")
        assert mine is not None
        match = PLAY_URL.search(mine)
        assert match is not None
        game_id, token = match["id"], match["token"]

        lobby = stranger.new_page()
        lobby.emulate_media(reduced_motion="reduce")
        lobby.goto(site.url + "/lobby")
        card = lobby.locator(f"[data-game='{game_id}']")
        card.wait_for()
        card.get_by_role("button", name=re.compile("as Yellow")).click()
        lobby.wait_for_url(PLAY_URL)
        page.wait_for_function("document.querySelector('.invite[data-colour=yellow] .badge').textContent === 'Joined'")
        page.get_by_role("link", name="Go to my seat").click()
        page.wait_for_url(PLAY_URL)
        assert page.evaluate("location.protocol") == "https:"

        _play_until([page, lobby], 12)
        before = _decisions(site, game_id, token)
        victim = site.serving(game_id)  # the process the players' websockets reached: the game's owner
        os.kill(site.processes[victim].pid, signal.SIGKILL)
        site.processes[victim].wait(timeout=10)

        _play_until([page, lobby], before[-1][0] + 12)  # the pages reconnect, Caddy sends them to the other
        after = _decisions(site, game_id, token)
        assert after[: len(before)] == before  # nothing lost
        assert [event for event, _, _ in after] == list(range(1, len(after) + 1))
        assert len(after) >= len(before) + 12
        survivor = next(port for port in site.ports if port != victim)
        assert f"/ws/games/{game_id}" in site.log(survivor).read_text()
        summary = site.http.get(f"/api/games/{game_id}").json()
        assert summary["status"] == "playing" and summary["event"] >= after[-1][0]
    finally:
        for port, process in site.processes.items():
            if process.poll() is not None:
                site.restart(port)  # as systemd would: the other tests find both up
        host.close()
        stranger.close()


# -- backups, and restoring them ----------------------------------------------------------------------


def _game_with_decisions(port: int) -> tuple[str, str]:
    """A game played to decision 20 at the server on ``port``: its id and its record."""
    url = f"http://127.0.0.1:{port}"
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": 7}
    game = httpx.post(f"{url}/api/games", json=body, timeout=10).json()
    with connect(f"ws://127.0.0.1:{port}{game['websocket']}", proxy=None) as connection:
        SocketClient(connection, game["seats"][0]["token"]).play(until_event=20)
    return game["id"], httpx.get(f"{url}/api/games/{game['id']}/record", timeout=10).text


def _backup(environment: dict[str, str], folder: Path) -> Path:
    """``ExecStart=`` of pardon-backup.service, the program and the folder this test's."""
    (exec_start,) = read_unit("pardon-backup.service")["Service"]["ExecStart"]
    program, _, days = shlex.split(exec_start)
    old = folder / "pardon-20000101T000000Z.dump"  # a copy older than the days kept
    folder.mkdir(parents=True, exist_ok=True)
    old.write_text("old")
    os.utime(old, (time.time() - (int(days) + 1) * 86400,) * 2)
    run = subprocess.run(
        [str(ROOT / program.removeprefix(f"{INSTALLED_SOURCE}/")), str(folder), days],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    (copy,) = folder.iterdir()  # the old one removed, no part left
    assert run.stdout.endswith(f"pardon-backup: {copy}\n")
    return copy


@pytest.mark.slow
def test_a_postgresql_backup_restores_every_game(tmp_path: Path) -> None:
    need_postgres()
    with ExitStack() as stack:
        database = stack.enter_context(contextmanager(fresh_database)(POSTGRES))
        environment = service_environment(database, "localhost", tmp_path)
        port = free_port()
        with unit_process(port, environment, tmp_path / "pardon.log"):
            game_id, record = _game_with_decisions(port)
            copy = _backup(environment, tmp_path / "backups")  # while the server runs
        assert copy.suffix == ".dump"
        restored = stack.enter_context(contextmanager(fresh_database)(POSTGRES))  # the guide's createdb
        plain = restored.replace("postgresql+psycopg://", "postgresql://", 1)
        subprocess.run(["pg_restore", "--no-owner", "--dbname", plain, str(copy)], check=True)
        again = free_port()
        with unit_process(again, {**environment, "PARDON_DB": restored}, tmp_path / "restored.log"):
            assert httpx.get(f"http://127.0.0.1:{again}/api/games/{game_id}/record", timeout=10).text == record


@pytest.mark.slow
def test_a_sqlite_backup_restores_every_game(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    environment = service_environment(str(database), "localhost", tmp_path)
    environment["PARDON_COMMAND"] = this_pardon()[0] if len(this_pardon()) == 1 else ""
    if not environment["PARDON_COMMAND"]:
        pytest.skip("pardon is not installed as a command in this environment")
    port = free_port()
    with unit_process(port, environment, tmp_path / "pardon.log"):
        game_id, record = _game_with_decisions(port)
        copy = _backup(environment, tmp_path / "backups")
    assert copy.suffix == ".sqlite3"
    shutil.copyfile(copy, database)  # the guide's restore: the server stopped, the copy in its place
    for extra in ("-wal", "-shm"):
        Path(f"{database}{extra}").unlink(missing_ok=True)
    with unit_process(port, environment, tmp_path / "restored.log"):
        assert httpx.get(f"http://127.0.0.1:{port}/api/games/{game_id}/record", timeout=10).text == record
