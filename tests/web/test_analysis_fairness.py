"""One address cannot keep the coach from everyone (issue 43, item 1): each address may have so
many analyses asked for and not answered (``429`` past them), those waiting take turns by
address, and one whose client has gone is never made."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_support import finished_game, run_coroutine

from pardon.web.coach_api import AnalysisCache


class _Asking:
    """What the cache reads of a request: its client's messages (``http.disconnect`` once it leaves)."""

    def __init__(self) -> None:
        self.left = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        await self.left.wait()
        return {"type": "http.disconnect"}


def test_analyses_take_turns_by_address_and_each_address_has_a_cap() -> None:
    async def scenario() -> tuple[list[str], int, list[bytes | None]]:
        cache, made, release = AnalysisCache(8, per_address=2), [], threading.Event()
        cache.worker.submit(release.wait)  # the analysis thread is busy: everything below waits

        def making(name: str) -> Callable[[], bytes]:
            def make() -> bytes:
                made.append(name)
                return name.encode()

            return make

        asked = [
            asyncio.create_task(cache.answer(_Asking(), address, making(name)))  # type: ignore[arg-type]
            for address, name in (("flood", "flood 1"), ("flood", "flood 2"))
        ]
        await asyncio.sleep(0)
        refused = cache.refusal("flood")  # a third from the flooding address
        asked.append(asyncio.create_task(cache.answer(_Asking(), "friend", making("friend"))))  # type: ignore[arg-type]
        await asyncio.sleep(0)
        release.set()
        answers = await asyncio.wait_for(asyncio.gather(*asked), 10)
        assert refused is not None and refused.headers["Retry-After"]
        return made, refused.status_code, answers

    made, status, answers = run_coroutine(scenario())
    assert status == 429
    assert made == ["flood 1", "friend", "flood 2"]  # the friend waits behind one analysis, not the flood
    assert answers == [b"flood 1", b"flood 2", b"friend"]


def test_an_analysis_whose_client_has_gone_is_never_made() -> None:
    async def scenario() -> tuple[list[str], bytes | None, int]:
        cache, made, release = AnalysisCache(8), [], threading.Event()
        busy = asyncio.create_task(cache.answer(_Asking(), "busy", lambda: release.wait(10) and b"busy"))  # type: ignore[arg-type]
        await asyncio.sleep(0)
        leaving = _Asking()
        gone = asyncio.create_task(cache.answer(leaving, "a", lambda: made.append("gone") or b""))  # type: ignore[arg-type, func-returns-value]
        await asyncio.sleep(0)
        leaving.left.set()
        answer = await asyncio.wait_for(gone, 5)
        release.set()
        assert await asyncio.wait_for(busy, 10) == b"busy"
        kept = await asyncio.wait_for(cache.answer(_Asking(), "b", lambda: b"made"), 10)  # type: ignore[arg-type]
        assert kept == b"made"
        return made, answer, cache.waiting

    made, answer, waiting = run_coroutine(scenario())
    assert answer is None and made == [] and waiting == 0


def test_one_address_past_its_cap_is_told_429_with_retry_after(make_server: Callable[..., TestClient]) -> None:
    server = make_server(analyses_per_address=1)
    one, two = finished_game(server, 5), finished_game(server, 6)
    cache = server.app.state.analyses  # type: ignore[attr-defined]
    release = threading.Event()
    cache.worker.submit(release.wait)
    answers: list[int] = []
    first = threading.Thread(target=lambda: answers.append(server.get(f"/api/games/{one}/analysis").status_code))
    first.start()
    deadline = time.monotonic() + 10
    while cache.waiting < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    refused = server.get(f"/api/games/{two}/analysis")
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
    release.set()
    first.join(60)
    assert answers == [200]
    assert server.get(f"/api/games/{two}/analysis").status_code == 200  # its turn is over: served
    assert server.get(f"/api/games/{one}/analysis").status_code == 200  # kept: no turn needed
