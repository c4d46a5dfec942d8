"""Host routes: PIN checks and their rate limit, new game with seat QR codes, seats,
undo, pause, resume, end game, journal download."""

from __future__ import annotations

from .conftest import PIN, bot_step, host, seat

NEW = {"variant": "classic", "players": ["green", "yellow", "pink"]}


def test_host_routes_need_the_pin(client):
    res = client.get("/api/host/check")
    assert (res.status_code, res.get_json()["error"]["code"]) == (401, "pin_required")
    res = client.get("/api/host/check", headers=host("00000000"))
    assert (res.status_code, res.get_json()["error"]["code"]) == (403, "bad_pin")
    assert client.get("/api/host/check", headers=host()).status_code == 200


def test_wrong_pins_are_rate_limited_even_when_the_right_one_follows(client):
    codes = [client.get("/api/host/check", headers=host(f"{n:08d}")).status_code
             for n in range(6)]
    assert codes == [403] * 5 + [429]
    assert client.get("/api/host/check", headers=host(PIN)).status_code == 429


def test_right_pins_do_not_use_up_the_limit(client):
    for _ in range(20):
        assert client.get("/api/host/check", headers=host()).status_code == 200


def test_new_game_issues_a_token_and_qr_code_per_seat(client, table, tokens):
    res = client.post("/api/host/new_game", json=NEW, headers=host())
    assert res.status_code == 200
    seats = res.get_json()["seats"]
    assert seats == [{"player": p, "claimed": False, "phones": 0} for p in NEW["players"]]
    for player in NEW["players"]:
        s = client.get(f"/api/host/seats/{player}/code", headers=host()).get_json()["seat"]
        assert s["player"] == player
        assert "/me#t=" in s["url"] and s["qr_svg"].startswith("<svg")
        token = s["url"].split("#t=")[1]
        assert len(token) >= 22  # at least 128 bits in url-safe base64
        assert client.get("/api/me", headers=seat(token)).get_json() == {"player": s["player"]}
    assert table.state.players == NEW["players"]
    # the old game's phones are unseated
    assert client.get("/api/me", headers=seat(tokens["red"])).status_code == 403


def test_new_game_answers_the_new_games_public_view_at_once(client, table):
    """Issue 32.6: the host page showed the previous game for seconds after a new one
    started, until its next read of /api/state; the answer itself now holds the new game."""
    before = table.state.players
    res = client.post("/api/host/new_game", json=NEW, headers=host())
    state = res.get_json()["state"]
    assert before != NEW["players"] and state["players"] == NEW["players"]
    assert state["turn"] == table.state.turn and "hands" not in state
    assert state == client.get("/api/state").get_json()["state"]


def test_new_game_validates_its_parameters(client):
    bad = [
        ({**NEW, "variant": "chess"}, "bad_variant"),
        ({**NEW, "players": ["red"]}, "bad_players"),
        ({**NEW, "players": ["red", "red"]}, "bad_players"),
        ({**NEW, "players": ["red", "purple"]}, "bad_players"),
        ({**NEW, "house_rules": []}, "bad_house_rules"),
        ({**NEW, "house_rules": {"fortify": "teleport"}}, "bad_house_rules"),
        ({**NEW, "extra": 1}, "unknown_field"),
        ({"variant": "classic"}, "missing_field"),
    ]
    for body, code in bad:
        res = client.post("/api/host/new_game", json=body, headers=host())
        assert (res.status_code, res.get_json()["error"]["code"]) == (400, code), body


def test_seats_lists_links_and_reissue_replaces_one_token(client, tokens):
    seats = client.get("/api/host/seats", headers=host()).get_json()["seats"]
    assert {s["player"] for s in seats} == {"red", "blue", "green"}
    res = client.post("/api/host/seats/red/reissue", headers=host())
    assert res.status_code == 200
    assert res.get_json()["seat"]["player"] == "red"
    assert client.get("/api/me", headers=seat(tokens["red"])).status_code == 403
    assert client.get("/api/me", headers=seat(tokens["blue"])).status_code == 200
    res = client.post("/api/host/seats/purple/reissue", headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (404, "unknown_seat")


def test_undo_pause_resume_end_game(client, table, tokens):
    bot_step(table)
    earlier = table.state.copy()
    bot_step(table)
    assert table.state.owner != earlier.owner
    assert client.post("/api/host/undo", json={"count": 1}, headers=host()).status_code == 200
    assert table.state.owner == earlier.owner  # back to the position after the first move
    assert table.state.current_player == earlier.current_player
    assert client.post("/api/host/pause", headers=host()).status_code == 200
    res = client.post("/api/command", json={"command": {"type": "claim", "territory": "peru"}},
                      headers=seat(tokens[table.state.current_player]))
    assert (res.status_code, res.get_json()["error"]["code"]) == (409, "paused")
    assert client.post("/api/host/resume", headers=host()).status_code == 200
    res = client.post("/api/host/end_game", headers=host())
    assert res.get_json()["result"]["seed"] == table.dice.reveal()


def test_host_action_rejections(client):
    res = client.post("/api/host/explode", headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (404, "unknown_action")
    res = client.post("/api/host/undo", json={"count": 0}, headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_count")
    res = client.post("/api/host/undo", json={"override": "yes"}, headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_override")
    res = client.post("/api/host/undo", json={"steps": 1}, headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "unknown_field")
    res = client.post("/api/host/undo", json={"count": 5}, headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (409, "undo_nothing")


def test_undo_of_more_moves_than_were_played_is_refused_and_changes_nothing(client, table):
    bot_step(table)
    bot_step(table)
    before, revision = table.state.copy(), table.revision
    res = client.post("/api/host/undo", json={"count": 3}, headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (409, "undo_nothing")
    assert table.state == before
    assert table.revision == revision


def test_journal_download(client, table, tmp_path):
    import json
    import sqlite3

    bot_step(table)
    played, _viewer = table.submitted[-1]
    res = client.get("/api/host/journal", headers=host())
    assert res.status_code == 200
    assert "attachment" in res.headers["Content-Disposition"]
    copy = tmp_path / "downloaded.sqlite"
    copy.write_bytes(res.data)
    with sqlite3.connect(copy) as db:  # the table's own SQLite journal, whole
        rows = db.execute("SELECT seq, command_json FROM commands ORDER BY seq").fetchall()
    assert [seq for seq, _ in rows] == [0, 1]  # the game's start, then the move
    assert json.loads(rows[1][1]) == played
    assert client.get("/api/host/journal").status_code == 401


def test_a_live_sqlite_journal_downloads_with_its_wal_commits(client, table, tmp_path):
    import sqlite3

    db = tmp_path / "live.sqlite"
    writer = sqlite3.connect(db)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE entries (seq INTEGER)")
    writer.executemany("INSERT INTO entries VALUES (?)", [(n,) for n in range(5)])
    writer.commit()  # still in the -wal file, not yet checkpointed
    table.journal_path = lambda: str(db)
    res = client.get("/api/host/journal", headers=host())
    assert res.status_code == 200
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(res.data)
    assert sqlite3.connect(copy).execute("SELECT count(*) FROM entries").fetchone() == (5,)
    writer.close()


def test_the_journal_download_blanks_only_unrevealed_seeds_and_draws(client, table, tmp_path):
    import sqlite3

    from pi_app.journal import Journal

    path = tmp_path / "j.sqlite"
    journal = Journal(path)
    secret = "ae" * 32
    shown = "5e" * 32
    entry = {"type": "new_game", "variant": "classic", "players": ["red", "blue"],
             "house_rules": {}}
    running = journal.create_game("classic", ["red", "blue"], {}, "c0" * 32, secret, entry, [])
    ended = journal.create_game("classic", ["red", "blue"], {}, "c1" * 32, shown, entry, [])
    journal.reveal(ended)
    shuffle = ["u", 44, 40]  # a recognisable draw: 40 out of 44
    for game in (running, ended):  # version-2 rows: the dice position is checksummed too
        journal.append(game, 1, {"type": "claim", "player": "red", "territory": "peru"},
                       [["d", [6, 5, 4]], shuffle], dice_at=[2, 0])
        journal.save_snapshot(game, 1, {"deck": ["secret-card"]})  # a state holds the deck
    table.journal_path = lambda: str(path)
    res = client.get("/api/host/journal", headers=host())
    assert res.status_code == 200 and res.headers["Cache-Control"] == "no-store"
    assert secret.encode() not in res.data  # not even in a freed page
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(res.data)
    rows = dict(((game, (revealed, seed, commitment)) for game, revealed, seed, commitment in
                 sqlite3.connect(copy).execute(
                     "SELECT id, revealed, seed_hex, commitment FROM games")))
    assert rows == {running: (0, "", "c0" * 32), ended: (1, shown, "c1" * 32)}
    journal.close()
    # the draws (shuffles: deck order, missions) of the running game are gone too, yet the
    # copy is a sound journal: its moves load with their checksums
    copied = Journal(copy, read_only=True)
    hidden, kept = copied.load(running), copied.load(ended)
    assert [e.draws for e in hidden.entries] == [[], []]
    assert hidden.entries[1].command["territory"] == "peru"
    assert kept.entries[1].draws == [["d", [6, 5, 4]], shuffle]
    assert hidden.entries[1].dice_at == kept.entries[1].dice_at == [2, 0]
    copied.close()
    assert sqlite3.connect(copy).execute("SELECT COUNT(*) FROM snapshots").fetchone() == (0,)
    assert b"secret-card" not in res.data


def test_seat_links_use_this_machines_address_or_the_public_url(client, table, tmp_path,
                                                               tokens):
    import socket

    from pi_app.web import create_app

    res = client.get("/api/host/seats/red/code",
                     headers={**host(), "Host": "evil.example:8080"})
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_host")
    from pi_app.web.own_addresses import interface_addresses

    ipv4 = sorted(a for a in interface_addresses() if "." in a)
    for name in ("localhost:8080", "127.0.0.1", "[::1]:8080",
                 f"{socket.gethostname()}.local:8080", f"{ipv4[-1]}:8080"):
        res = client.get("/api/host/seats/red/code", headers={**host(), "Host": name})
        assert res.status_code == 200, name
        assert res.get_json()["seat"]["url"].startswith(f"http://{name}/me#t=")
    public = create_app(table, host_pin=PIN, data_dir=tmp_path / "p",
                        public_url="http://riskboard.lan:8080/")
    public.extensions["riskboard"].seats.issue_all(["red"])
    res = public.test_client().get("/api/host/seats/red/code",
                                   headers={**host(), "Host": "evil.example"})
    assert res.get_json()["seat"]["url"].startswith("http://riskboard.lan:8080/me#t=")


def test_a_forged_host_header_changes_nothing(client, table, tokens):
    evil = {**host(), "Host": "evil.example"}
    res = client.post("/api/host/new_game", json=NEW, headers=evil)
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_host")
    res = client.post("/api/host/seats/red/reissue", headers=evil)
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_host")
    assert table.state.players == ["red", "blue", "green"]
    assert client.get("/api/me", headers=seat(tokens["red"])).get_json() == {"player": "red"}
