"""make_bot checks every option's kind: a bad value is an InvalidError, never a bot that
misbehaves later (an endless search, a string used as a number, "false" read as true)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pardon.bots import describe_bot, make_bot
from pardon.core import InvalidError


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts(iterations=inf)", "takes a whole number"),  # searched for ever
        ("mcts(iterations=1e9999)", "takes a whole number"),
        ("mcts(iterations=abc)", "takes a whole number"),
        ("expectimax(depth=2.5)", "takes a whole number"),
        ("tactician(learned=abc)", "takes a number"),  # was accepted, then used as a weight
        ("expectimax(scale=nan)", "takes a number"),
        ("mcts(paired=2)", "true or false"),
        ("mcts(seconds=-1)", "positive time budget"),
        ("greedy(x=1)", "does not take the options"),
        ("tactician(weights=1)", "does not take the options"),
        ("Expectimax", "cannot read computer player"),
        ("expert(depth=99999)", "from 1 to 12 decisions"),  # ran out of stack at the first move
        ("mcts(root_depth=99999)", "at most 12 decisions"),
        ("expectimax(rank=0)", "ranked by a search of 1 to 12"),
        ("expectimax(width=-1)", "0 or more"),  # failed inside the search
        ("expectimax(roots=-2)", "0 or more"),  # searched all but two moves
        ("mcts(candidates=-1)", "0 or more"),
        ("mcts(iterations=2,iterations=3)", "given twice"),  # the last one silently won
    ],
)
def test_a_bad_option_value_is_an_invalid_error(spec: str, message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        make_bot(spec)


def test_a_spec_that_is_not_text_is_an_invalid_error() -> None:
    with pytest.raises(InvalidError, match="named by text"):
        make_bot(5)  # type: ignore[arg-type]


def test_boolean_words_are_read_as_booleans() -> None:
    assert describe_bot("mcts(stratified=false)")["stratified"] is False  # was the truthy string "false"
    assert describe_bot("mcts(stratified=true)")["stratified"] is True
    assert describe_bot("mcts(stratified=1)")["stratified"] == 1


@pytest.mark.parametrize(
    "spec",
    [
        "expectimax(scale=213.6,phase=0.8)",
        "expectimax(backup=chance,scale=40)",
        "mcts(iterations=20,seconds=0.5,threat=0.25)",
        "expert(depth=1)",
        "expectimax(learned=0,threat=0.8)",
        "mcts(iterations=50,rollout=random)",
        "expectimax(depth=12,roots=1)",
        "expectimax(width=0,roots=0)",
    ],
)
def test_the_documented_specs_still_make_players(spec: str) -> None:
    make_bot(spec)


def test_a_network_file_that_is_missing_or_not_a_network_is_an_invalid_error(tmp_path: Path) -> None:
    with pytest.raises(InvalidError, match="cannot read the network"):
        make_bot(f"expert(network={tmp_path / 'missing.json'})")
    broken = tmp_path / "broken.json"
    broken.write_text('{"w1": [')
    with pytest.raises(InvalidError, match="is not a network"):
        make_bot(f"expert(network={broken})")
    (tmp_path / "empty.json").write_text("{}")
    with pytest.raises(InvalidError, match="is not a network"):
        make_bot(f"expert(network={tmp_path / 'empty.json'})")


def test_a_network_kept_by_name_plays_as_it_was_shipped() -> None:
    """``expert(network=2026-12)`` is the 2-player network shipped in December 2026, kept as it
    was (its file's digest) for a later network to be measured against."""
    from pardon.bots.expert import KEPT_NETWORKS, Network, kept_networks

    assert "2026-12" in kept_networks()
    kept = KEPT_NETWORKS / "2026-12.json"
    assert hashlib.sha256(kept.read_bytes()).hexdigest() == KEPT_2026_12
    bot = make_bot("expert(network=2026-12)")
    assert bot._networks[2] == Network.load(kept)  # type: ignore[attr-defined]
    with pytest.raises(InvalidError, match=r"the networks kept by name: .*2026-12"):
        make_bot("expert(network=1999-01)")


#: The digest of the kept network of December 2026: a kept network never changes.
KEPT_2026_12 = "bc37a9c6cdd2fd267639407bb83e3c37c087533ac8c26d3e256b294ede4420bc"
