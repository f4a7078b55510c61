"""What a crowd of spectators costs the other games of ``pardon serve``.

A real server process is started on loopback (a fresh SQLite file, computer players at
once).  ``--games`` background games are played throughout, each a scripted client (a human
seat, connecting from 127.0.0.254) against a ``random`` computer player, the client moving
``--think`` seconds (jittered) after each of its turns; a new game replaces each one that
ends.  The latency of a move is the time from sending it to receiving its ``event``.  Phases
of ``--seconds`` each:

* **idle**: the background games alone;
* **one address**: a separate client process (the crowd) opens ``--connections`` spectator
  connections at once (``--concurrency`` handshakes under way) to one public game, itself
  being played (a human seat and three computers), all from 127.0.0.1; holds them; closes them;
* **many addresses**: the same, the connections spread over 127.0.0.2 … 127.0.0.N
  (``--addresses``, loopback aliases Linux allows without setup), so that the per-address
  cap does not turn them away: the per-game cap and the broadcasts are what is measured;
* **N readers** (``--readers N``): N clients of one address (127.0.0.253) fetch a finished
  game's replay over and over, each as soon as its last is answered (in a process of their own);
* **many, elsewhere** (``--control``): the same crowd and watched game at a second server
  process, the background games staying on the first: what the crowd costs the measured
  server through the machine alone (the cores it takes), not through the server.

Printed, as a table: for each phase the background moves' p50/p99/max latency, the ratio of
its p99 to the idle p99, the share of a core the measured server used, and the watched
game's own latency; then what the crowd's connections got (watching, refused and how, how
soon they were answered) and the crowd's own CPU time.  A move still unanswered when a phase
ends counts with the time it had waited.  Figures only: nothing is asserted.  Every
connection goes to 127.0.0.x; the run stops by itself (about ``4 × --seconds`` plus setup;
a crowd still busy after ``3 × --seconds`` is stopped).  Run it with ``PYTHONPATH`` naming
another checkout's ``src`` to measure that server instead.

    python benchmarks/spectators.py --control
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from served import free_port, start_server

#: The players' own address: other clients than the crowd's.
PLAYERS_ADDRESS = "127.0.0.254"


@dataclass
class Tally:
    """Latencies of moves by phase (the phase the move was sent in)."""

    phase: str = ""
    background: dict[str, list[float]] = field(default_factory=dict)
    watched: dict[str, list[float]] = field(default_factory=dict)
    waiting: list[tuple[str, bool, float]] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def record(self, watched: bool, phase: str, seconds: float) -> None:
        (self.watched if watched else self.background).setdefault(phase, []).append(seconds)


async def new_game(client: httpx.AsyncClient, seats: list[dict[str, Any]], seed: int, public: bool) -> dict[str, Any]:
    response = await client.post("/api/games", json={"seats": seats, "seed": seed, "public": public})
    response.raise_for_status()
    game: dict[str, Any] = response.json()
    return game


async def play(port: int, game: dict[str, Any], tally: Tally, think: float, watched: bool) -> None:
    """Play the game's first seat until it ends (or the task is cancelled), timing each move to its event.
    A move refused (too fast for the server's rate limit, say) is not timed, and is sent again."""
    waits = random.Random(game["id"])
    sent: dict[int, tuple[float, str]] = {}
    state: dict[str, Any] = {}
    url = f"ws://127.0.0.1:{port}{game['websocket']}"
    async with connect(url, max_size=2**22, local_addr=(PLAYERS_ADDRESS, 0)) as websocket:
        await websocket.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        try:
            while True:
                message = json.loads(await websocket.recv())
                kind = message["type"]
                if kind == "error":
                    tally.errors[message["code"]] += 1
                    sent.clear()
                    await asyncio.sleep(0.5)
                if kind == "event" and message["event"] in sent:
                    began, phase = sent.pop(message["event"])
                    tally.record(watched, phase, time.perf_counter() - began)
                if kind in ("sync", "event", "state"):
                    state = message["state"]
                if state.get("status") == "finished":
                    return
                if state.get("moves") and state["event"] + 1 not in sent:
                    await asyncio.sleep(think * waits.uniform(0.5, 1.5))
                    sent[state["event"] + 1] = (time.perf_counter(), tally.phase)
                    command = {"type": "move", "move": state["moves"][0]["move"], "event": state["event"]}
                    await websocket.send(json.dumps(command))
        finally:
            now = time.perf_counter()
            tally.waiting += [(phase, watched, now - began) for began, phase in sent.values()]


async def background(port: int, number: int, tally: Tally, think: float) -> None:
    """One background table: a game against a computer, and another when it ends (until cancelled)."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    transport = httpx.AsyncHTTPTransport(local_address=PLAYERS_ADDRESS)  # the players' REST too: not the crowd's
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, transport=transport) as client:
        seed = number * 1000
        while True:
            seed += 1
            try:
                await play(port, await new_game(client, seats, seed, public=False), tally, think, watched=False)
            except (httpx.HTTPError, OSError, ConnectionClosed) as error:  # counted, and the table goes on
                tally.errors[type(error).__name__] += 1
                await asyncio.sleep(1.0)


async def storm(port: int, game_id: str, count: int, addresses: list[str], hold: float, concurrency: int) -> None:
    """The crowd (run in a process of its own): ``count`` spectators of one game, opened at
    once from ``addresses`` in turn, held for ``hold`` seconds, then closed.  Prints a JSON summary."""
    url = f"ws://127.0.0.1:{port}/ws/games/{game_id}"
    gate = asyncio.Semaphore(concurrency)
    release = asyncio.Event()
    outcomes: Counter[str] = Counter()
    answered: list[float] = []
    opened = time.perf_counter()

    async def drain(websocket: ClientConnection) -> None:
        async for _ in websocket:
            pass

    async def one(number: int) -> None:
        async with gate:
            began = time.perf_counter()
            try:
                websocket = await connect(url, local_addr=(addresses[number % len(addresses)], 0), open_timeout=60)
                with contextlib.suppress(ConnectionClosed):  # a refusal may come before the hello is sent
                    await websocket.send(json.dumps({"type": "hello"}))
                first = json.loads(await asyncio.wait_for(websocket.recv(), 60))
            except Exception as error:  # what a crowd meets: count it, go on
                outcomes[f"failed: {type(error).__name__}"] += 1
                return
            answered.append(time.perf_counter() - began)
        outcome = "watching" if first["type"] == "welcome" else f"refused: {first.get('code')}"
        outcomes[outcome] += 1
        reader = asyncio.create_task(drain(websocket))
        if outcome == "watching":
            await release.wait()
            await websocket.close()
        await asyncio.gather(reader, return_exceptions=True)
        outcomes[f"closed {websocket.close_code}"] += 1

    tasks = [asyncio.create_task(one(number)) for number in range(count)]
    await asyncio.sleep(hold)
    release.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    ordered = sorted(answered)
    summary = {
        "outcomes": dict(outcomes),
        "answer_p50_ms": 1000 * ordered[len(ordered) // 2] if ordered else None,
        "answer_max_ms": 1000 * ordered[-1] if ordered else None,
        "seconds": time.perf_counter() - opened,
    }
    print(json.dumps(summary), flush=True)


#: Where the readers of a finished game's replay come from (one address, as the audit's).
READERS_ADDRESS = "127.0.0.253"


async def finished_game(port: int) -> str:
    """A game played to its end at once (a human seat moving without a pause against a computer)."""
    transport = httpx.AsyncHTTPTransport(local_address=PLAYERS_ADDRESS)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, transport=transport) as client:
        game = await new_game(client, [{"kind": "human"}, {"kind": "bot", "level": "random"}], 7, public=False)
    await play(port, game, Tally(), 0.0, watched=True)
    return str(game["id"])


async def read(port: int, game_id: str, readers: int, seconds: float) -> None:
    """The readers (run in a process of its own, as the crowd): ``readers`` clients from one address
    fetching a finished game's replay as fast as they are answered.  Prints a JSON summary."""
    outcomes: Counter[str] = Counter()
    stop = time.perf_counter() + seconds

    async def reader() -> None:
        transport = httpx.AsyncHTTPTransport(local_address=READERS_ADDRESS)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, transport=transport) as client:
            while time.perf_counter() < stop:
                try:
                    answer = await client.get(f"/api/games/{game_id}/replay")
                    outcomes[str(answer.status_code)] += 1
                except httpx.HTTPError as error:
                    outcomes[type(error).__name__] += 1

    await asyncio.gather(*(reader() for _ in range(readers)))
    summary = {"outcomes": {f"answered {code}": count for code, count in outcomes.items()}}
    print(json.dumps(summary | {"answer_p50_ms": None, "answer_max_ms": None}), flush=True)


def niced(command: list[str], nice: int) -> list[str]:
    """The command run at a lower CPU priority (``nice``): on a machine with few cores the
    crowd's own work would otherwise take the measured server's and the players' cores, which
    crowds on their own machines do not."""
    return ["nice", "-n", str(nice), *command] if nice else command


async def readers_phase(port: int, game_id: str, readers: int, seconds: float, nice: int) -> dict[str, Any]:
    # one argument, given with "=": a game's id may begin with "-"
    command = [sys.executable, __file__, f"--read={port}/{game_id}/{readers}", "--seconds", str(seconds)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = await asyncio.create_subprocess_exec(*niced(command, nice), stdout=asyncio.subprocess.PIPE)
    output, _ = await process.communicate()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary: dict[str, Any] = json.loads(output.decode().strip().splitlines()[-1])
    summary |= {"answer_p50_ms": float("nan"), "answer_max_ms": float("nan")}
    summary["cpu_seconds"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return summary


async def crowd_phase(port: int, game_id: str, arguments: argparse.Namespace, addresses: list[str]) -> dict[str, Any]:
    command = [sys.executable, __file__, f"--crowd={port}/{game_id}/{','.join(addresses)}"]
    command += ["--connections", str(arguments.connections), "--seconds", str(arguments.seconds - 2)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    process = await asyncio.create_subprocess_exec(
        *niced(command, arguments.crowd_nice), stdout=asyncio.subprocess.PIPE
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), timeout=3 * arguments.seconds + 30)
        summary: dict[str, Any] = json.loads(output.decode().strip().splitlines()[-1])
    except TimeoutError:  # the server could not keep up with the crowd: stop it, and say so
        process.kill()
        await process.wait()
        summary = {"outcomes": {"the crowd was stopped: still not done": arguments.connections}}
        summary |= {"answer_p50_ms": float("nan"), "answer_max_ms": float("nan")}
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary["cpu_seconds"] = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return summary


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Phase:
    name: str
    addresses: list[str]  # the crowd's; none: no crowd
    elsewhere: bool = False  # the crowd and the watched game at the other server (the control)
    readers: bool = False  # replay readers from one address instead of a crowd
    crowd: dict[str, Any] = field(default_factory=dict)
    server_cpu: float = 0.0  # share of one core the measured server used
    seconds: float = 0.0


def phases(arguments: argparse.Namespace) -> list[Phase]:
    many = [f"127.0.0.{host}" for host in range(2, 2 + arguments.addresses)]
    chosen = [Phase("idle", []), Phase("one address", ["127.0.0.1"]), Phase("many addresses", many)]
    if arguments.readers:
        chosen.insert(1, Phase(f"{arguments.readers} readers", [], readers=True))
    if arguments.control:
        chosen.append(Phase("many, elsewhere", many, elsewhere=True))
    return chosen


async def run(
    servers: list[subprocess.Popen[bytes]], ports: list[int], arguments: argparse.Namespace, tally: Tally
) -> list[Phase]:
    port = ports[0]
    tables = [asyncio.create_task(background(port, table, tally, arguments.think)) for table in range(arguments.games)]
    watched_seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3
    done = []
    await asyncio.sleep(2.0)  # the tables are playing
    for number, phase in enumerate(phases(arguments)):
        where = ports[-1] if phase.elsewhere else port
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{where}", timeout=60) as client:
            game = await new_game(client, watched_seats, 90_000 + number, public=True)
        watched = asyncio.create_task(play(where, game, tally if not phase.elsewhere else Tally(), 0.1, watched=True))
        await asyncio.sleep(0.5)
        print(f"{phase.name}: {arguments.seconds:g} s …", file=sys.stderr, flush=True)
        if phase.readers:
            finished = await finished_game(where)
        tally.phase, began, cpu = phase.name, time.perf_counter(), cpu_seconds(servers[0].pid)
        if phase.readers:
            phase.crowd = await readers_phase(
                where, finished, arguments.readers, arguments.seconds, arguments.crowd_nice
            )
        elif phase.addresses:
            phase.crowd = await crowd_phase(where, game["id"], arguments, phase.addresses)
        else:
            await asyncio.sleep(arguments.seconds)
        phase.seconds = time.perf_counter() - began
        phase.server_cpu = (cpu_seconds(servers[0].pid) - cpu) / phase.seconds
        tally.phase = ""
        await stopped(watched)
        done.append(phase)
        await asyncio.sleep(1.0)  # what the crowd left behind settles
    for table in tables:
        await stopped(table)
    return done


async def stopped(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def percentile(ordered: list[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report(tally: Tally, done: list[Phase], arguments: argparse.Namespace) -> None:
    for name, watched, waited in tally.waiting:
        if name:
            tally.record(watched, name, waited)
    idle_p99 = percentile(sorted(tally.background.get("idle", [])), 0.99)
    print(f"\n{arguments.games} background games (a human seat against a computer, think {arguments.think:g} s);")
    print(
        f"a crowd of {arguments.connections} spectator connections to one watched game; {arguments.seconds:g} s a phase"
    )
    head = (
        f"{'phase':16s} {'moves':>6s} {'p50 ms':>8s} {'p99 ms':>8s} {'max ms':>8s} {'p99/idle':>9s} {'server CPU':>10s}"
    )
    print(f"{head}   watched game: p50 / p99 ms")
    for phase in done:
        moves = sorted(tally.background.get(phase.name, []))
        own = sorted(tally.watched.get(phase.name, []))
        p50, p99, worst = (1000 * percentile(moves, share) for share in (0.5, 0.99, 1.0))
        shown = f"{1000 * percentile(own, 0.5):.1f} / {1000 * percentile(own, 0.99):.1f} ({len(own)} moves)"
        print(
            f"{phase.name:16s} {len(moves):6d} {p50:8.1f} {p99:8.1f} {worst:8.1f} {p99 / 1000 / idle_p99:9.2f}"
            f" {100 * phase.server_cpu:9.0f}%   {shown if own else '(elsewhere)'}"
        )
    for phase in done:
        if phase.crowd:
            crowd = phase.crowd
            outcomes = ", ".join(f"{count} {what}" for what, count in sorted(crowd["outcomes"].items()))
            answers = f"p50 {crowd['answer_p50_ms']:.1f} ms, max {crowd['answer_max_ms']:.1f} ms"
            print(f"{phase.name}: {outcomes}; answered in {answers}; the crowd's own CPU {crowd['cpu_seconds']:.1f} s")
    if tally.errors:
        print(f"errors to the players: {dict(tally.errors)}")
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f})")


def enough_files(wanted: int) -> None:
    """Room for every connection in this process and its children (the server, the crowd)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="background games played throughout")
    parser.add_argument("--connections", type=int, default=1000, help="spectator connections the crowd opens")
    parser.add_argument("--addresses", type=int, default=20, help="loopback addresses of the second crowd")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=0.1, help="mean seconds before each background move")
    parser.add_argument("--control", action="store_true", help="a fourth phase: the crowd at another server")
    parser.add_argument("--concurrency", type=int, default=200, help="the crowd's handshakes under way at once")
    parser.add_argument(
        "--readers", type=int, default=0, help="a phase of this many clients of one address reading a finished replay"
    )
    parser.add_argument(
        "--crowd-nice",
        type=int,
        default=19,
        help="the crowd's and readers' CPU priority (nice; 0: the same as the server's and players')",
    )
    parser.add_argument("--crowd", metavar="PORT/GAME/ADDRESSES", help=argparse.SUPPRESS)
    parser.add_argument("--read", metavar="PORT/GAME/READERS", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    enough_files(4 * arguments.connections + 1024)
    if arguments.read:
        port, game_id, readers = arguments.read.split("/")
        asyncio.run(read(int(port), game_id, int(readers), arguments.seconds))
        return
    if arguments.crowd:
        port, game_id, addresses = arguments.crowd.split("/")
        hold = max(1.0, arguments.seconds)
        asyncio.run(storm(int(port), game_id, arguments.connections, addresses.split(","), hold, arguments.concurrency))
        return
    with tempfile.TemporaryDirectory() as folder:
        count = 2 if arguments.control else 1
        ports = [free_port() for _ in range(count)]
        servers = [start_server(str(Path(folder) / f"server{n}.sqlite3"), ports[n]) for n in range(count)]
        try:
            tally = Tally()
            done = asyncio.run(run(servers, ports, arguments, tally))
        finally:
            for server in servers:
                server.kill()
                server.wait()
    report(tally, done, arguments)


if __name__ == "__main__":
    main()
