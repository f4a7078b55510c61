"""What hostile clients cost the other games of a public site: Caddy in front of two ``pardon serve``.

The site is the host's guide's (docs/hosting.md): deploy/'s Caddyfile, with the values a test machine
needs put in (``your-domain`` is localhost on a free port, Caddy's internal certificate authority,
the processes' free ports), in front of two processes started with ``ExecStart=`` of
deploy/pardon@.service and the variables of deploy/pardon.env, on one PostgreSQL database: a new
one made for the run on the server ``--postgres`` names (default: ``$PARDON_TEST_POSTGRES``) and
dropped after.  Two settings differ from the guide's, for the benchmark's own sake: computer
players move at once (``PARDON_BOT_PACE=0``) and games are created without limit
(``PARDON_CREATE_RATE=0``; the hostile clients create none).

``--games`` games (a scripted human seat against a ``random`` computer player) are played
throughout over wss through Caddy, from 127.0.1.x (50 clients an address), each client waiting
``--think`` seconds (jittered) before each move; a new game replaces each that ends.  Two phases
of ``--seconds`` each:

* **quiet**: the games alone;
* **hostile**: meanwhile a separate process runs hostile clients, all through Caddy, each kind
  from addresses of its own: lobby and replay readers (GET the lobby, games, records and
  replays as fast as they are answered), an analysis flood (the coach's analysis of finished
  games, over and over), a spectator burst (``--spectators`` websockets from 12 addresses, opened
  at once on the measured games, held, closed and opened again), and slow clients that trickle
  a request's bytes, one every half second.

Printed, as a markdown table: for each phase the measured games' moves (send to its event) p50
and p99, the decisions a second of the measured games, the CPU the two servers and Caddy used;
then what the hostile clients got (answers by status, spectators by outcome).  The hostile
clients and the load generator run on the same machine as the site, so their CPU is the site's
loss too (it is printed).  Figures only: nothing is asserted.  Every connection goes to
127.0.x.x; the run stops by itself (about ``2 × --seconds`` plus setup).

    python benchmarks/public.py --games 300 --seconds 45
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import shlex
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from served import free_port

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
PLAYERS_PER_ADDRESS = 50
READERS = [f"127.0.2.{host}" for host in range(1, 5)]
ANALYSTS = [f"127.0.3.{host}" for host in range(1, 5)]
CROWD = [f"127.0.4.{host}" for host in range(1, 13)]
TRICKLERS = [f"127.0.5.{host}" for host in range(1, 5)]


# -- the site, as deploy/ makes it ----------------------------------------------------------------------


def environment_file() -> dict[str, str]:
    variables = {}
    for line in (DEPLOY / "pardon.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            variables[key] = value
    return variables


def serve_command(port: int) -> list[str]:
    line = next(line for line in (DEPLOY / "pardon@.service").read_text().splitlines() if line.startswith("ExecStart="))
    words = shlex.split(line.removeprefix("ExecStart=").replace("%i", str(port)))
    program = Path(sys.executable).with_name("pardon")
    return [*([str(program)] if program.exists() else [sys.executable, "-m", "pardon"]), *words[1:]]


def caddyfile(https_port: int, http_port: int, upstreams: list[int]) -> str:
    text = (DEPLOY / "Caddyfile").read_text().replace("your-domain {", f"localhost:{https_port} {{")
    text = text.replace("127.0.0.1:8001", f"127.0.0.1:{upstreams[0]}").replace(
        "127.0.0.1:8002", f"127.0.0.1:{upstreams[1]}"
    )
    options = f"\tadmin off\n\thttp_port {http_port}\n\thttps_port {https_port}\n\tlocal_certs\n\tskip_install_trust\n"
    return text.replace("{\n", "{\n" + options, 1)


def database(server: str) -> tuple[str, str]:
    """A new database on the PostgreSQL server at ``server``: its URL, and its name."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"bench_public_{secrets.token_hex(4)}"
    with psycopg.connect(server.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return make_url(server).set(database=name).render_as_string(hide_password=False), name


def drop(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(server.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@dataclass
class Site:
    url: str
    https_port: int
    cafile: Path
    pids: list[int]
    caddy: int


def start_site(folder: Path, url: str, stack: ExitStack) -> Site:
    https_port, http_port, ports = free_port(), free_port(), [free_port(), free_port()]
    variables = environment_file() | {"PARDON_DB": url, "PARDON_BOT_PACE": "0", "PARDON_CREATE_RATE": "0"}
    variables = {key: value.replace("your-domain", f"localhost:{https_port}") for key, value in variables.items()}
    environment = {"PATH": os.environ["PATH"], "HOME": str(folder), **variables}
    pids = []
    for port in ports:
        process = subprocess.Popen(
            serve_command(port), env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        stack.callback(process.wait)
        stack.callback(process.kill)
        pids.append(process.pid)
        wait_for(lambda port=port: answers(f"http://127.0.0.1:{port}/healthz"), "pardon serve did not start")
    (folder / "Caddyfile").write_text(caddyfile(https_port, http_port, ports))
    caddy_environment = {"PATH": os.environ["PATH"], "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data")}
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
        env=caddy_environment | {"XDG_CONFIG_HOME": str(folder)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    stack.callback(caddy.wait)
    stack.callback(caddy.terminate)
    cafile = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    wait_for(cafile.exists, "Caddy made no certificate authority")
    site_url = f"https://localhost:{https_port}"
    wait_for(lambda: answers(f"{site_url}/healthz", verify=ssl.create_default_context(cafile=str(cafile))), "no Caddy")
    return Site(site_url, https_port, cafile, pids, caddy.pid)


def answers(url: str, verify: Any = True) -> bool:
    try:
        return httpx.get(url, timeout=2, verify=verify).status_code == 200
    except httpx.TransportError:
        return False


def wait_for(done: Any, failure: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit(failure)
        time.sleep(0.2)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- the measured games ------------------------------------------------------------------------------------


@dataclass
class Tally:
    phase: str = ""
    latencies: dict[str, list[float]] = field(default_factory=dict)
    events: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    finished: int = 0


def client(site: Site, address: str) -> httpx.AsyncClient:
    context = ssl.create_default_context(cafile=str(site.cafile))
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=context)
    return httpx.AsyncClient(base_url=site.url, transport=transport, timeout=60)


async def websocket(site: Site, path: str, address: str) -> ClientConnection:
    return await connect(
        f"wss://localhost:{site.https_port}{path}",
        ssl=ssl.create_default_context(cafile=str(site.cafile)),
        host="127.0.0.1",
        local_addr=(address, 0),
        proxy=None,
        max_size=2**24,
        open_timeout=60,
    )


async def play(site: Site, game: dict[str, Any], address: str, tally: Tally, think: float) -> None:
    """Play the game's human seat to its end, timing each move to its event."""
    waits = random.Random(game["id"])
    sent: dict[int, tuple[float, str]] = {}
    state: dict[str, Any] = {}
    async with await websocket(site, game["websocket"], address) as connection:
        await connection.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        while True:
            message = json.loads(await connection.recv())
            kind = message["type"]
            if kind == "error":
                tally.errors[message["code"]] += 1
                sent.clear()
                await asyncio.sleep(0.5)
            if kind == "event":
                tally.events[tally.phase] += 1
                if message["event"] in sent:
                    began, phase = sent.pop(message["event"])
                    tally.latencies.setdefault(phase, []).append(time.perf_counter() - began)
            if kind in ("sync", "event", "state"):
                state = message["state"]
            if state.get("status") == "finished":
                tally.finished += 1
                return
            if state.get("moves") and state["event"] + 1 not in sent:
                await asyncio.sleep(think * waits.uniform(0.5, 1.5))
                sent[state["event"] + 1] = (time.perf_counter(), tally.phase)
                command = {"type": "move", "move": state["moves"][0]["move"], "event": state["event"]}
                await connection.send(json.dumps(command))


async def table(site: Site, number: int, tally: Tally, think: float, first: dict[str, Any]) -> None:
    """One table: its game, and a new one each time it ends (until cancelled)."""
    address = f"127.0.1.{1 + number // PLAYERS_PER_ADDRESS}"
    game = first
    async with client(site, address) as rest:
        for seed in range(number * 1000 + 1, number * 1000 + 1000):
            try:
                await play(site, game, address, tally, think)
                game = await create(rest, seed)
            except (httpx.HTTPError, OSError, ConnectionClosed, TimeoutError) as error:
                tally.errors[type(error).__name__] += 1
                await asyncio.sleep(1.0)


async def create(rest: httpx.AsyncClient, seed: int, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    body = {"seats": seats or [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": seed}
    answer = await rest.post("/api/games", json=body)
    answer.raise_for_status()
    game: dict[str, Any] = answer.json()
    return game


async def finished_games(site: Site, count: int) -> list[str]:
    """Games between computers, played to their end (a spectator starts each)."""
    seats = [{"kind": "bot", "level": "random"}] * 4
    async with client(site, "127.0.0.1") as rest:
        games = [await create(rest, 50_000 + number, seats) for number in range(count)]

    async def watch(game: dict[str, Any]) -> None:
        async with await websocket(site, game["websocket"], "127.0.0.1") as connection:
            await connection.send(json.dumps({"type": "hello", "token": game["spectator_token"]}))
            async for raw in connection:
                message = json.loads(raw)
                if message.get("state", {}).get("status") == "finished":
                    return

    await asyncio.gather(*(asyncio.wait_for(watch(game), 120) for game in games))
    return [game["id"] for game in games]


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    cpu: dict[str, float] = field(default_factory=dict)
    hostile: dict[str, Any] = field(default_factory=dict)


async def run(site: Site, arguments: argparse.Namespace, folder: Path) -> tuple[Tally, list[Phase]]:
    tally = Tally()
    say(f"{arguments.games} games created …")
    finished = await finished_games(site, 12)
    games: list[dict[str, Any]] = []
    for start in range(0, arguments.games, PLAYERS_PER_ADDRESS):
        async with client(site, f"127.0.1.{1 + start // PLAYERS_PER_ADDRESS}") as rest:
            numbers = range(start, min(arguments.games, start + PLAYERS_PER_ADDRESS))
            games += await asyncio.gather(*(create(rest, number * 1000) for number in numbers))
    tables = [
        asyncio.create_task(table(site, number, tally, arguments.think, game)) for number, game in enumerate(games)
    ]
    await asyncio.sleep(3.0)  # every table connected and playing
    targets = {"finished": finished, "games": [(game["id"], game["spectator_token"]) for game in games[:10]]}
    (folder / "targets.json").write_text(json.dumps(targets))
    done = []
    for name in ("quiet", "hostile"):
        say(f"{name}: {arguments.seconds:g} s …")
        phase = Phase(name)
        watched = {"servers": site.pids, "caddy": [site.caddy]}
        before = {key: sum(cpu_seconds(pid) for pid in pids) for key, pids in watched.items()}
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        tally.phase, began = name, time.perf_counter()
        if name == "hostile":
            phase.hostile = await hostile_process(site, arguments, folder)
        else:
            await asyncio.sleep(arguments.seconds)
        phase.seconds = time.perf_counter() - began
        tally.phase = ""
        phase.cpu = {
            key: (sum(cpu_seconds(pid) for pid in pids) - before[key]) / phase.seconds for key, pids in watched.items()
        }
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        phase.cpu["hostile"] = (after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime) / phase.seconds
        done.append(phase)
        await asyncio.sleep(2.0)  # what the hostile clients left behind settles
    for task in tables:
        task.cancel()
    await asyncio.gather(*tables, return_exceptions=True)
    return tally, done


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# -- the hostile clients (a process of their own) ----------------------------------------------------------


async def hostile_process(site: Site, arguments: argparse.Namespace, folder: Path) -> dict[str, Any]:
    command = [sys.executable, __file__, "--hostile", site.url, str(site.cafile), str(folder / "targets.json")]
    command += ["--seconds", str(arguments.seconds), "--spectators", str(arguments.spectators)]
    process = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
    try:
        output, _ = await asyncio.wait_for(process.communicate(), timeout=2 * arguments.seconds + 60)
    except TimeoutError:
        process.kill()
        await process.wait()
        return {"stopped": "the hostile clients did not finish"}
    summary: dict[str, Any] = json.loads(output.decode().strip().splitlines()[-1])
    return summary


async def hostile(url: str, cafile: str, targets: dict[str, Any], seconds: float, spectators: int) -> dict[str, Any]:
    site = Site(url, int(url.rsplit(":", 1)[1]), Path(cafile), [], 0)
    deadline = time.monotonic() + seconds
    outcomes: dict[str, Counter[str]] = {kind: Counter() for kind in ("readers", "analysis", "spectators", "slow")}
    finished, watched = targets["finished"], targets["games"]

    async def reader(address: str, number: int) -> None:
        paths = ["/api/lobby", "/lobby", *(f"/api/games/{game}/replay" for game in finished)]
        paths += [f"/api/games/{game}/record" for game in finished] + [f"/replay/{game}" for game in finished]
        paths += [f"/api/games/{game}" for game, _ in watched]
        async with client(site, address) as rest:
            while time.monotonic() < deadline:
                try:
                    answer = await rest.get(paths[number % len(paths)])
                    outcomes["readers"][str(answer.status_code)] += 1
                except httpx.HTTPError as error:
                    outcomes["readers"][type(error).__name__] += 1
                    await asyncio.sleep(0.5)
                number += 1

    async def analyst(address: str, number: int) -> None:
        async with client(site, address) as rest:
            while time.monotonic() < deadline:
                try:
                    answer = await rest.get(f"/api/games/{finished[number % len(finished)]}/analysis", timeout=seconds)
                    outcomes["analysis"][str(answer.status_code)] += 1
                except httpx.HTTPError as error:
                    outcomes["analysis"][type(error).__name__] += 1
                number += 1

    async def spectator(number: int) -> None:
        game, token = watched[number % len(watched)]
        while time.monotonic() < deadline - 1:
            try:
                connection = await websocket(site, f"/ws/games/{game}", CROWD[number % len(CROWD)])
                with contextlib.suppress(ConnectionClosed):
                    await connection.send(json.dumps({"type": "hello", "token": token}))
                first = json.loads(await asyncio.wait_for(connection.recv(), 30))
            except Exception as error:  # what a crowd meets: count it, go on
                outcomes["spectators"][f"failed: {type(error).__name__}"] += 1
                await asyncio.sleep(1.0)
                continue
            outcomes["spectators"]["watching" if first["type"] == "welcome" else f"refused: {first.get('code')}"] += 1
            hold = min(seconds / 3, deadline - time.monotonic())
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                async with asyncio.timeout(max(0.0, hold)):
                    async for _ in connection:
                        pass
            await connection.close()

    async def trickler(address: str) -> None:
        request = f"GET /lobby HTTP/1.1\r\nHost: localhost:{site.https_port}\r\nUser-Agent: slow\r\n\r\n".encode()
        while time.monotonic() < deadline:
            try:
                _, writer = await asyncio.open_connection(
                    "127.0.0.1",
                    site.https_port,
                    ssl=ssl.create_default_context(cafile=cafile),
                    server_hostname="localhost",
                    local_addr=(address, 0),
                )
                for byte in request:
                    if time.monotonic() > deadline:
                        break
                    writer.write(bytes([byte]))
                    await writer.drain()
                    await asyncio.sleep(0.5)
                outcomes["slow"]["sent whole" if time.monotonic() <= deadline else "still sending at the end"] += 1
                writer.close()
            except (OSError, ConnectionError) as error:
                outcomes["slow"][f"cut: {type(error).__name__}"] += 1
                await asyncio.sleep(1.0)

    tasks = [reader(READERS[n % len(READERS)], n) for n in range(16)]
    tasks += [analyst(ANALYSTS[n % len(ANALYSTS)], n) for n in range(8)]
    tasks += [spectator(n) for n in range(spectators)]
    tasks += [trickler(TRICKLERS[n % len(TRICKLERS)]) for n in range(100)]
    await asyncio.gather(*tasks, return_exceptions=True)
    return {kind: dict(counts) for kind, counts in outcomes.items()}


# -- the report ------------------------------------------------------------------------------------------


def percentile(ordered: list[float], share: float) -> float:
    return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(tally: Tally, done: list[Phase], arguments: argparse.Namespace) -> None:
    print(f"\n`python benchmarks/public.py {' '.join(sys.argv[1:])}`\n")
    print(
        f"Caddy (deploy/Caddyfile) in front of two `pardon serve` on PostgreSQL; {arguments.games} games (a human"
        f" seat, scripted over wss, against a computer; think {arguments.think:g} s); {arguments.seconds:g} s a"
        " phase.\n"
    )
    print(
        "| phase | moves | move p50 ms | move p99 ms | decisions/s | servers CPU | Caddy CPU | hostile clients' CPU |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for phase in done:
        moves = sorted(tally.latencies.get(phase.name, []))
        cpu = phase.cpu
        print(
            f"| {phase.name} | {len(moves)} | {percentile(moves, 0.5):.1f} | {percentile(moves, 0.99):.1f} |"
            f" {tally.events[phase.name] / phase.seconds:.0f} | {100 * cpu['servers']:.0f}% |"
            f" {100 * cpu['caddy']:.0f}% | {100 * cpu['hostile']:.0f}% |"
        )
    for phase in done:
        for kind, counts in phase.hostile.items():
            shown = (
                ", ".join(f"{count} {what}" for what, count in sorted(counts.items()))
                if isinstance(counts, dict)
                else counts
            )
            print(f"\n- {kind}: {shown}", end="")
    print(f"\n\nerrors to the measured players: {dict(tally.errors) or 'none'}; games finished: {tally.finished}")
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="measured games played throughout")
    parser.add_argument("--seconds", type=float, default=45.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before each measured move")
    parser.add_argument("--spectators", type=int, default=600, help="the hostile spectators (from 12 addresses)")
    parser.add_argument("--postgres", default=os.environ.get("PARDON_TEST_POSTGRES", ""), help="a PostgreSQL server")
    parser.add_argument("--hostile", nargs=3, metavar=("URL", "CAFILE", "TARGETS"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if arguments.hostile:
        url, cafile, targets = arguments.hostile
        summary = asyncio.run(
            hostile(url, cafile, json.loads(Path(targets).read_text()), arguments.seconds, arguments.spectators)
        )
        print(json.dumps(summary), flush=True)
        return
    if not arguments.postgres:
        raise SystemExit("needs a PostgreSQL server: --postgres postgresql+psycopg://... (or PARDON_TEST_POSTGRES)")
    if shutil.which("caddy") is None:
        raise SystemExit("needs Caddy (apt-get install caddy)")
    url, name = database(arguments.postgres)
    try:
        with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
            site = start_site(Path(folder), url, stack)
            tally, done = asyncio.run(run(site, arguments, Path(folder)))
    finally:
        drop(arguments.postgres, name)
    report(tally, done, arguments)


if __name__ == "__main__":
    main()
