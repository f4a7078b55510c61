"""Load test of ``pardon serve``: many concurrent games played by scripted clients over websockets.

A real server process is started on loopback (a fresh SQLite file, computer players at
once), ``--games`` games are created — a human seat against a ``random`` computer player —
and one scripted client per game plays the first legal move of every decision of its seat,
all at the same time.  Reported:

* decisions per second (the clients' and the computers' together) and client moves per second;
* latency from sending a move to receiving its broadcast (the event it became): p50, p99, max;
* errors (any ``error`` message, failed connection or unfinished game);
* the server's memory: resident size with every game open and active, less the size before
  the games were created, per game.

With ``--think 0`` the clients move the instant they may (a saturation test: latency is then
mostly the queue of 200 games' moves); ``--think 1`` gives each client about a second to think,
as people do: each wait is drawn between half and one and a half times ``--think`` (seeded),
so that, as with people, the 200 moves of a round do not all arrive in the same millisecond.
``--lockstep`` makes every wait exactly ``--think``: every client then moves at the same
instant, a burst of 200 moves (and the computers' 200 answers) at once, each second.  Every
request goes to 127.0.0.1 only, and the run stops by itself (``--seconds``).  ``--db`` names
another database, such as a PostgreSQL server's (an empty database or schema, best).

    python benchmarks/server_load.py --games 200 --think 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from served import free_port, start_server


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    moves: int = 0
    events: int = 0
    finished: int = 0


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


#: Clients sharing one loopback address (the server allows 64 websockets per address).
CLIENTS_PER_ADDRESS = 50


async def play(
    port: int,
    number: int,
    game: dict[str, Any],
    tally: Tally,
    deadline: float,
    started: asyncio.Event,
    think: float,
    jitter: bool,
) -> None:
    token = game["seats"][0]["token"]
    waits = random.Random(game["id"])
    address = (f"127.0.1.{1 + number // CLIENTS_PER_ADDRESS}", 0)  # under the server's cap of connections per address
    async with connect(f"ws://127.0.0.1:{port}{game['websocket']}", max_size=2**22, local_addr=address) as websocket:
        await websocket.send(json.dumps({"type": "hello", "token": token}))
        sent: dict[int, float] = {}
        state: dict[str, Any] = {}
        command: dict[str, Any] | None = None
        await started.wait()
        while time.monotonic() < deadline:
            message = json.loads(await websocket.recv())
            kind = message["type"]
            if kind == "error":
                tally.errors.append(message["code"])
                if message["code"] == "rate_limited" and command is not None:  # faster than allowed: again, later
                    await asyncio.sleep(0.2)
                    sent[command["event"] + 1] = time.perf_counter()
                    await websocket.send(json.dumps(command))
                continue
            if kind == "event":
                tally.events += 1
                if message["event"] in sent:
                    tally.latencies.append(time.perf_counter() - sent.pop(message["event"]))
            if kind not in ("sync", "event", "state"):
                continue
            state = message["state"]
            if state["status"] == "finished":
                tally.finished += 1
                return
            if state["moves"] and state["event"] + 1 not in sent:  # once per decision, whatever message shows it
                if think:
                    await asyncio.sleep(think * waits.uniform(0.5, 1.5) if jitter else think)
                sent[state["event"] + 1] = time.perf_counter()
                tally.moves += 1
                command = {"type": "move", "move": state["moves"][0]["move"], "event": state["event"]}
                await websocket.send(json.dumps(command))


async def run(
    port: int, games: list[dict[str, Any]], seconds: float, think: float, jitter: bool, tally: Tally, pid: int
) -> tuple[float, int]:
    started = asyncio.Event()
    deadline = time.monotonic() + seconds
    tasks = [
        asyncio.create_task(play(port, number, game, tally, deadline, started, think, jitter))
        for number, game in enumerate(games)
    ]
    await asyncio.sleep(1.0)  # every client connected and said hello
    begin = time.perf_counter()
    started.set()
    await asyncio.sleep(min(3.0, seconds / 4))
    peak = resident_kib(pid)  # every game open and being played
    results = await asyncio.gather(*tasks, return_exceptions=True)
    tally.errors += [type(result).__name__ for result in results if isinstance(result, BaseException)]
    return time.perf_counter() - begin, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--db", help="the server's database (default: a new SQLite file; or postgresql+psycopg://...)")
    parser.add_argument("--seconds", type=float, default=120.0, help="stop the clients after this long")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds before each move (0: at once)")
    parser.add_argument("--lockstep", action="store_true", help="every client waits exactly --think: bursts")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(arguments.db or str(Path(folder) / "load.sqlite3"), port)
        try:
            time.sleep(1.0)
            baseline = resident_kib(server.pid)
            body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
                games = [
                    client.post("/api/games", json={**body, "seed": seed}).json() for seed in range(arguments.games)
                ]
            tally = Tally()
            jitter = not arguments.lockstep
            elapsed, peak = asyncio.run(run(port, games, arguments.seconds, arguments.think, jitter, tally, server.pid))
        finally:
            server.kill()
            server.wait()
    report(arguments.games, tally, elapsed, baseline, peak)


def report(games: int, tally: Tally, elapsed: float, baseline: int, peak: int) -> None:
    latencies = sorted(tally.latencies)

    def percentile(share: float) -> float:
        return latencies[min(len(latencies) - 1, int(share * len(latencies)))] * 1000 if latencies else float("nan")

    unfinished = games - tally.finished
    print(f"games: {games} concurrent, {tally.finished} finished in {elapsed:.1f} s")
    print(f"decisions: {tally.events} ({tally.events / elapsed:.0f}/s)", end="; ")
    print(f"client moves: {tally.moves} ({tally.moves / elapsed:.0f}/s)")
    if latencies:
        print(
            f"move → broadcast latency: p50 {percentile(0.5):.1f} ms, p99 {percentile(0.99):.1f} ms, "
            f"max {latencies[-1] * 1000:.1f} ms, mean {statistics.fmean(latencies) * 1000:.1f} ms"
        )
    print(f"errors: {len(tally.errors)} {sorted(set(tally.errors))}; unfinished games: {unfinished}")
    print(f"server memory: {baseline / 1024:.1f} MiB idle, {peak / 1024:.1f} MiB with {games} games active")
    print(f"memory per active game: {(peak - baseline) / games:.0f} KiB")
    print(f"(python {sys.version.split()[0]}, {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
