"""Websockets let into the application by turns (issue 43, item 3): a crowd opening hundreds at
once is let in a few at a time, spread out, and a player of another address is not kept
waiting behind it."""

from __future__ import annotations

import asyncio
import time

from web_support import run_coroutine

from pardon.web.server import Admission
from pardon.web.settings import Settings


def _let_in(admission: Admission, crowd: list[str], then: list[str], wait: float) -> list[tuple[str, float]]:
    """Who is let in, in order, and when (seconds after the crowd came): the crowd all at
    once, then, a moment later, ``then``."""

    async def scenario() -> list[tuple[str, float]]:
        began = time.monotonic()
        order: list[tuple[str, float]] = []
        for number, address in enumerate(crowd):
            admission.admit(address, lambda who=f"{address}#{number}": order.append((who, time.monotonic() - began)))
        await asyncio.sleep(0.005)
        order.append(("arrived", time.monotonic() - began))  # when ``then`` comes (late on a busy machine)
        for address in then:
            admission.admit(address, lambda who=address: order.append((who, time.monotonic() - began)))
        await asyncio.sleep(wait)
        return order

    return run_coroutine(scenario())


def _without_arrival(order: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [entry for entry in order if entry[0] != "arrived"]


def test_a_crowd_is_let_in_a_burst_at_once_then_at_the_rate() -> None:
    order = _without_arrival(_let_in(Admission(rate=100, burst=4), ["10.0.0.1"] * 12, [], wait=0.3))
    assert len(order) == 12
    assert all(when < 0.005 for _, when in order[:4])  # the burst, at once
    # never faster than the rate: the fifth after 10 ms, the sixth after 20, ... (later if the loop is late)
    assert all(when >= (number - 3) / 100 - 0.001 for number, (_, when) in enumerate(order) if number >= 4)
    assert [who for who, _ in order] == [f"10.0.0.1#{number}" for number in range(12)]  # in the order they came


def test_a_player_of_another_address_is_let_in_at_the_next_turn_not_after_the_crowd() -> None:
    order = _let_in(Admission(rate=100, burst=4), ["10.0.0.1"] * 30, ["10.0.0.2"], wait=0.1)
    names = [who for who, _ in order]
    arrived = names.index("arrived")  # the crowd's websockets let in before the player came
    # at the next turn: the crowd's turn that was due, if any, then the player's (not after the crowd)
    assert names.index("10.0.0.2") <= arrived + 2
    assert dict(order)["10.0.0.2"] - dict(order)["arrived"] < 0.05


def test_no_rate_lets_everyone_in_at_once() -> None:
    order = _without_arrival(_let_in(Admission(rate=0, burst=4), ["10.0.0.1"] * 50, [], wait=0))
    assert len(order) == 50


def test_the_servers_burst_is_small_enough_not_to_hold_the_other_games() -> None:
    """A crowd's first websockets are let in 4 at once by default: 20 at once (the welcome, the
    room and the sync of each) held every game's next move for 50 to 75 ms (benchmarks/spectators.py)."""
    settings = Settings(database="sqlite://")
    assert (settings.admit_rate, settings.admit_burst) == (100.0, 4)
