"""A real ``pardon serve`` for the server benchmarks: on loopback, computer players at once."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(database: str, port: int) -> subprocess.Popen[bytes]:
    """The server, once it answers; with no limit on games created (the benchmarks' tables
    create one after each that ends), where the server measured has that limit at all."""
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--db", database, "--bot-pace", "0"]
    if "--create-rate" in subprocess.run([*command[:4], "--help"], check=False, capture_output=True, text=True).stdout:
        command += ["--create-rate", "0"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")
