"""The host's journal download holds nothing secret of a game still running (issue 12.2).

Tested as an attacker would: a real table plays a game of each variant into a position
with secrets (hands, missions, deck orders, HQ picks, RISK Strike hands, decks and spy
reports), every hidden value is collected from the engine's own state and the journal
file itself (the seed, the draws, the secret commands), and the downloaded bytes are
searched for each. The download must still be a sound journal (every row passes its
checksum), and once the host ends the game (the seed revealed) `riskboard replay` and
`verify-dice` read it.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest

from pi_app.cli import main
from pi_app.journal import Journal
from pi_app.rules import is_strike
from pi_app.table.loop import NewGameSpec

from .conftest import host
from .real_table import reach


def forms(value: Any) -> list[bytes]:
    """The ways `value` may appear in the file as JSON (compact, the journal's, or spaced)."""
    return [json.dumps(value, separators=(",", ":")).encode(), json.dumps(value).encode()]


def engine_secrets(state: Any) -> dict[str, list[bytes]]:
    """Every value of `state` no spectator may see, named, in each written form."""
    secrets: dict[str, list[bytes]] = {}
    full = state.to_dict()
    if is_strike(state):
        for player, hand in full["hands"].items():
            if len(hand) >= 2:
                secrets[f"hand of {player}"] = forms(hand)
        for deck in ("continent_deck", "tactics_deck"):
            if len(full[deck]) >= 3:
                secrets[deck] = forms(full[deck][:3])
        for player, report in full["spied"].items():
            if len(report["hand"]) >= 2:
                secrets[f"spy report of {player}"] = forms(report["hand"])
        return secrets
    for player, hand in full["hands"].items():
        if len(hand) >= 2:
            secrets[f"hand of {player}"] = forms(hand)
    if len(full["deck"]) >= 3:
        secrets["deck order"] = forms(full["deck"][:3])
    for player, mission in full["missions"].items():
        secrets[f"mission of {player}"] = [mission["text"].encode(), *forms(mission)]
    if not state.hq_revealed:
        for player, territory in full["hq"].items():
            secrets[f"hq of {player}"] = forms({"type": "pick_hq", "player": player,
                                                "territory": territory})
    return secrets


def journal_secrets(path, game_id: int, state: Any) -> dict[str, list[bytes]]:
    """The seed, every draw and every secret command row of the game, read from the file."""
    db = sqlite3.connect(path)
    (seed,) = db.execute("SELECT seed_hex FROM games WHERE id = ?", (game_id,)).fetchone()
    secrets = {"seed": [seed.encode(), bytes.fromhex(seed)]}
    for seq, command_json, draws_json in db.execute(
            "SELECT seq, command_json, draws_json FROM commands WHERE game_id = ?", (game_id,)):
        if len(draws_json) > 12:  # a shuffle or a deal, not a lone die
            secrets[f"draws of seq {seq}"] = [draws_json.encode()]
        command = json.loads(command_json)
        final = (not is_strike(state) and state.hq_revealed
                 and state.hq.get(command.get("player")) == command.get("territory"))
        if command.get("type") == "pick_hq" and not final:
            secrets[f"hq pick of seq {seq}"] = [command_json.encode()]
    db.close()
    return secrets


def download(table, tmp_path) -> tuple[bytes, Any]:
    res = table.client.get("/api/host/journal", headers=host())
    assert res.status_code == 200
    copy = tmp_path / "download.sqlite"
    copy.write_bytes(res.data)
    return res.data, copy


def assert_nothing_secret_downloads(table, tmp_path) -> dict[str, list[bytes]]:
    state = table.state()
    game_id = table.loop.call(lambda core: core.session.game_id)
    secrets = {**engine_secrets(state),
               **journal_secrets(table.loop.journal_path, game_id, state)}
    data, copy = download(table, tmp_path)
    found = sorted(name for name, needles in secrets.items()
                   if any(needle in data for needle in needles))
    assert found == []
    journal = Journal(copy, read_only=True)  # still a sound journal: every row checks
    record = journal.load(game_id)
    assert not record.corrupt and record.torn_at is None
    assert len(record.entries) == table.mark()[0] + 1
    journal.close()
    return secrets


CARDS_HELD = 6  # enough cards in hands that the hands and the deck are worth hiding


def cards_held(state: Any) -> int:
    return sum(len(h) for h in state.to_dict()["hands"].values())


@pytest.mark.slow
@pytest.mark.parametrize("spec", [
    NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}),
    NewGameSpec("mission", ("red", "blue", "green"), {"setup": "deal"}),
    NewGameSpec("two-player", ("red", "blue"), {}),
    NewGameSpec("allied", ("red", "blue"), {}),
    NewGameSpec("capital", ("red", "blue", "green"), {"setup": "deal"}),
], ids=lambda spec: spec.variant)
def test_a_running_board_game_downloads_without_its_secrets(tables, tmp_path, spec):
    table = reach(tables, spec, lambda s: cards_held(s) >= CARDS_HELD and s.pending is None
                  and s.phase == "attack")
    secrets = assert_nothing_secret_downloads(table, tmp_path)
    assert "seed" in secrets and any(k.startswith("hand of") for k in secrets)
    if spec.variant == "mission":
        assert any(k.startswith("mission of") for k in secrets)


def test_a_running_strike_game_downloads_without_hands_decks_or_spy_reports(tables,
                                                                             tmp_path):
    table = reach(tables, NewGameSpec("strike", ("red", "blue", "green"),
                                      {"reaction_seconds": 0}),
                  lambda s: s.window is None and any(s.spied.values()))
    secrets = assert_nothing_secret_downloads(table, tmp_path)
    assert {"continent_deck", "tactics_deck"} <= set(secrets)
    assert any(k.startswith("spy report") for k in secrets)


def capital_at_hq_pick(tables):
    return reach(tables, NewGameSpec("capital", ("red", "blue", "green"), {"setup": "deal"}),
                 lambda s: s.phase == "hq_pick")


def test_capital_hq_picks_are_blank_until_the_reveal(tables, tmp_path):
    table = capital_at_hq_pick(tables)
    red, blue = table.state().players[:2]
    first, second = table.state().territories_of(red)[:2]
    table.play(red, {"type": "pick_hq", "territory": first})
    table.play(red, {"type": "pick_hq", "territory": second})  # changed its mind
    table.play(blue, {"type": "pick_hq", "territory": table.state().territories_of(blue)[0]})
    secrets = assert_nothing_secret_downloads(table, tmp_path)
    assert {k for k in secrets if k.startswith("hq of")} == {f"hq of {red}", f"hq of {blue}"}
    _data, copy = download(table, tmp_path)
    picks = [json.loads(text) for (text,) in sqlite3.connect(copy).execute(
        "SELECT command_json FROM commands WHERE command_json LIKE '%pick_hq%'")]
    assert [p["territory"] for p in picks] == ["", "", ""] and len(picks) == 3


def test_after_the_reveal_the_hqs_are_public_but_a_changed_pick_stays_secret(tables,
                                                                            tmp_path):
    table = capital_at_hq_pick(tables)
    players = table.state().players
    changed = table.state().territories_of(players[0])[0]
    table.play(players[0], {"type": "pick_hq", "territory": changed})
    for player in players:
        table.play(player, {"type": "pick_hq",
                            "territory": table.state().territories_of(player)[1]})
    state = table.state()
    assert state.hq_revealed
    secrets = assert_nothing_secret_downloads(table, tmp_path)
    assert "hq pick of seq" in " ".join(secrets)  # the changed pick was looked for
    _data, copy = download(table, tmp_path)
    picks = [json.loads(text) for (text,) in sqlite3.connect(copy).execute(
        "SELECT command_json FROM commands WHERE command_json LIKE '%pick_hq%' ORDER BY seq")]
    assert [p["territory"] for p in picks] == [
        "", *(state.hq[p] for p in players)]


def test_the_journaled_seat_tokens_never_download(tables, tmp_path):
    """The journal keeps each game's seat tokens (a restart seats the same phones); the
    host's download must not hand them out."""
    table = tables(NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    game_id = table.loop.call(lambda core: core.session.game_id)
    journal = Journal(table.loop.journal_path, read_only=True)
    assert journal.seat_tokens(game_id) == table.tokens  # they are in the file
    journal.close()
    data, copy = download(table, tmp_path)
    assert not any(token.encode() in data for token in table.tokens.values())
    assert sqlite3.connect(copy).execute("SELECT count(*) FROM seat_tokens").fetchone() == (0,)


def test_the_journals_state_snapshots_never_download(tables, tmp_path, monkeypatch):
    """The session keeps the whole state (hands, deck, missions) in the journal now and
    then, to resume fast; none of it may reach the host's download."""
    monkeypatch.setattr("pi_app.session.SNAPSHOT_EVERY", 5)
    table = reach(tables, NewGameSpec("mission", ("red", "blue", "green"), {"setup": "deal"}),
                  lambda s: cards_held(s) >= 4 and s.pending is None and s.phase == "attack")
    db = sqlite3.connect(table.loop.journal_path)
    assert db.execute("SELECT count(*) FROM snapshots").fetchone()[0] > 0  # they are there
    db.close()
    assert_nothing_secret_downloads(table, tmp_path)
    _data, copy = download(table, tmp_path)
    assert sqlite3.connect(copy).execute("SELECT count(*) FROM snapshots").fetchone() == (0,)


def test_a_table_the_download_does_not_know_is_emptied(tables, tmp_path):
    """Whatever another part of the service keeps in the journal file one day is not
    handed to the host unless the download knows it is public."""
    table = tables(NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    db = sqlite3.connect(table.loop.journal_path)
    db.execute("CREATE TABLE future_notes (note TEXT)")
    db.execute("INSERT INTO future_notes VALUES ('SECRET-NOTE-0123456789')")
    db.commit()
    db.close()
    data, copy = download(table, tmp_path)
    assert b"SECRET-NOTE-0123456789" not in data
    assert sqlite3.connect(copy).execute("SELECT count(*) FROM future_notes").fetchone() == (0,)


@pytest.mark.parametrize("spec", [
    NewGameSpec("capital", ("red", "blue", "green"), {"setup": "deal"}),
    NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 0}),
], ids=lambda spec: spec.variant)
def test_once_the_game_is_ended_the_download_replays_and_verifies(tables, tmp_path, spec,
                                                                   capsys):
    table = reach(tables, spec, lambda s: cards_held(s) >= 4)
    game_id = table.loop.call(lambda core: core.session.game_id)
    res = table.client.post("/api/host/end_game", headers=host())
    assert res.status_code == 200
    _data, copy = download(table, tmp_path)
    assert main(["replay", str(copy), str(game_id)]) == 0
    assert main(["verify-dice", str(copy), str(game_id)]) == 0
