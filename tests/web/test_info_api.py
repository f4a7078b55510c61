"""The JSON the pages around the game read: presets, levels, the rules of each preset, replays."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_support import Player, create

from pardon.core.game import replay as replay_record
from pardon.core.notation import parse_record
from pardon.core.rules import PRESETS
from pardon.web.rulesdoc import to_html


def finished_game(server: TestClient, rules: str = "classic", seed: int = 11) -> dict[str, Any]:
    """A game of two computer players, played to the end by the server."""
    seats = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]
    game = create(server, seats, rules=rules, seed=seed)
    with server.websocket_connect(f"/ws/games/{game['id']}") as socket:  # a spectator: the game starts
        watcher = Player(socket)
        watcher.hello(game["spectator_token"])
        watcher.until(lambda message: message.get("state", {}).get("status") == "finished")
    summary: dict[str, Any] = server.get(f"/api/games/{game['id']}").json()
    return summary


def test_presets_name_every_preset_with_its_players_and_features(server: TestClient) -> None:
    presets = {preset["name"]: preset for preset in server.get("/api/presets").json()}
    assert list(presets) == list(PRESETS)
    assert presets["classic"]["players"] == [2, 3, 4]
    assert presets["solo"]["players"] == [1]
    assert presets["partners"]["players"] == [4] and presets["partners"]["partners"]
    assert presets["adult"]["hands"] and presets["adult"]["points"] and presets["adult"]["hints"]
    assert presets["modern"]["tokens"] and not presets["modern-no-tokens"]["tokens"]
    assert presets["modern"]["sorry_forward_4"] and presets["modern"]["leave_start"] != "circle"
    assert not presets["classic"]["sorry_forward_4"] and presets["classic"]["leave_start"] == "circle"
    assert all(preset["description"] for preset in presets.values())


def test_levels_are_described_and_one_is_the_default(server: TestClient) -> None:
    levels = server.get("/api/levels/described").json()
    assert [level["name"] for level in levels] == server.get("/api/levels").json()
    assert [level["name"] for level in levels if level["default"]] == ["expectimax"]


def test_each_preset_has_its_own_rules_sections(server: TestClient) -> None:
    titles = {}
    for name in PRESETS:
        page = server.get(f"/api/rules/{name}").json()
        titles[name] = [section["title"] for section in page["sections"]]
        assert titles[name][0].startswith("The classic game")  # how to play first, the board's numbering later
        assert {row["option"] for row in page["options"]} >= {"deck", "pawns", "tokens"}
    assert any("Fire and Ice" in title for title in titles["modern"])
    assert not any("Fire and Ice" in title for title in titles["classic"])
    assert any(title.startswith("Partners") for title in titles["partners"])
    assert any(title.startswith("The solo challenge") for title in titles["solo"])
    modern = server.get("/api/rules/modern").json()
    assert next(row for row in modern["options"] if row["option"] == "pawns") == {
        "option": "pawns",
        "value": 3,
        "classic": 4,
        "help": "pawns per colour: 4, or 3 for a faster game",
    }


def test_rules_text_is_escaped_html_with_tables_and_links() -> None:
    assert to_html("a <script>alert(1)</script> b") == "<p>a &lt;script&gt;alert(1)&lt;/script&gt; b</p>"
    table = to_html("| card | does |\n|---|---|\n| 4 | move **backward** 4 |")
    assert '<th scope="col">card</th>' in table and "<td>move <strong>backward</strong> 4</td>" in table
    assert to_html("- one\n  more\n- two") == "<ul><li>one more</li><li>two</li></ul>"


def test_unknown_preset_rules_are_refused_with_the_choices(server: TestClient) -> None:
    answer = server.get("/api/rules/chess")
    assert answer.status_code == 404
    assert answer.json()["error"] == "no_preset" and "classic" in answer.json()["message"]


def test_replay_of_a_finished_game_matches_its_record(server: TestClient) -> None:
    summary = finished_game(server)
    replay = server.get(f"/api/games/{summary['id']}/replay").json()
    record = parse_record(server.get(f"/api/games/{summary['id']}/record").text)
    assert [step["move"] for step in replay["steps"]] == [move for _colour, move in record.moves]
    final = replay_record(record)
    assert replay["winner"] == summary["winner"] == replay["steps"][-1]["position"]["winner"]
    assert replay["steps"][-1]["position"]["pawns"][summary["winner"]] == ["home"] * final.rules.pawns
    assert replay["start"]["pawns"]["red"] == ["start"] * 4
    first = replay["steps"][0]
    assert first["description"].startswith(first["colour"].capitalize())
    assert first["card"] == first["move"].split()[0]
    assert [step["event"] for step in replay["steps"]] == sorted({step["event"] for step in replay["steps"]})


def test_a_game_in_progress_is_not_replayed(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot"}])
    answer = server.get(f"/api/games/{game['id']}/replay")
    assert answer.status_code == 409
    assert answer.json()["error"] == "not_finished"
    assert server.get("/api/games/nosuchgame/replay").json()["error"] == "no_game"


def test_a_hand_game_replays_with_its_cards(server: TestClient) -> None:
    summary = finished_game(server, rules="adult", seed=5)
    steps = server.get(f"/api/games/{summary['id']}/replay").json()["steps"]
    assert all(step["card"] for step in steps)
    assert "hands" in steps[0]["position"]


def test_a_bot_seat_takes_every_level_offered(server: TestClient) -> None:
    """The levels the pages offer are the levels a game's bot seat accepts, the strongest included."""
    offered = server.get("/api/levels").json()
    assert offered[-1] == "expert"
    for level in offered:
        seats = [{"kind": "bot", "level": level}, {"kind": "human"}]
        assert server.post("/api/games", json={"seats": seats}).status_code == 201, level
    refused = server.post("/api/games", json={"seats": [{"kind": "bot", "level": "wizard"}, {"kind": "human"}]})
    assert refused.status_code == 422 and "expert" in refused.json()["message"]


def test_the_diamonds_are_a_board_option_of_their_own(server: TestClient) -> None:
    """The older board's diamonds were drawn only with the 44-card pack: RULES.md §4 makes them an
    option of their own, a drawing only."""

    def diamonds(rules: str) -> int:
        answer = server.get("/api/board", params={"rules": rules})
        assert answer.status_code == 200, answer.text
        return len(answer.json()["diamonds"])

    assert diamonds("classic-1939") == 4 and diamonds("classic(board=diamonds)") == 4
    assert diamonds("classic") == 0 and diamonds("classic(deck=44)") == 0 and diamonds("classic-1939(board=plain)") == 0
    presets = {preset["name"]: preset for preset in server.get("/api/presets").json()}
    assert presets["classic-1939"]["board"] == "diamonds" and presets["classic"]["board"] == "plain"
    refused = server.get("/api/board", params={"rules": "classic(board=round)"})
    assert refused.status_code == 422 and "board" in refused.json()["message"]
