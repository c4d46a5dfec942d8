"""Computer seats at the table: two humans and two computers play a whole game on a button
board and on an NFC board; the humans move the computer's pieces as the lights ask."""

from __future__ import annotations

import pytest

from hardware.profiles import load_profile
from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.redaction import redact_event
from pi_app.rules import load_map
from pi_app.table.loop import TableCore, Wiring, awaited
from pi_app.table_api import CommandRejected, Viewer

BUTTONS = load_profile("classic-42")
NFC = load_profile("classic-42-nfc")
PLAYERS = ("red", "blue", "green", "yellow")
COMPUTERS = {"green": "hard", "yellow": "normal"}
BOARD = load_map()


class Clock:
    """A hand-driven clock."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_core(tmp_path, profile, variant="classic", players=PLAYERS, computers=None):
    clock = Clock()
    core = TableCore(Journal(tmp_path / "journal.sqlite"), Wiring.from_profile(profile),
                     clock=clock, dice=lambda: FairDice(b"\x05" * 32))
    core.start(None)
    core.host_action("new_game", {"variant": variant, "players": list(players),
                                  "house_rules": {} if variant == "strike" else
                                  {"setup": "deal"},
                                  "computers": dict(COMPUTERS if computers is None
                                                    else computers)})
    core.clock_ = clock  # type: ignore[attr-defined]
    return core


def channel(territory: str, profile) -> int:
    return Wiring.from_profile(profile).territory_channel(territory)


def move_markers(core, profile) -> int:
    """The humans make the board's markers match the game (returns how many they moved)."""
    moved = 0
    board = core.markers_  # what the humans last put down
    for territory, owner in core.state.owner.items():
        if board.get(territory) == owner:
            continue
        board[territory] = owner
        core.on_sensor(channel(territory, profile), "tag_removed", None)
        core.on_sensor(channel(territory, profile), "tag_present",
                       bytes.fromhex(profile.markers[owner][0]))
        moved += 1
    core.clock_.now += 1.0  # the readings settle
    core.tick()
    return moved


def play(core, profile, max_steps=20000):
    """Humans (red, blue) decide like SimpleBot on their phones; when the computer holds a
    step, its territories are lit and the humans move its pieces (press Confirm on a
    button board; on an NFC board move the markers, Confirm for army counts alone) before
    anyone plays on."""
    bot = SimpleBot()
    nfc = profile is NFC
    announced = holds = 0
    human_seen_announcement = False
    for _ in range(max_steps):
        state = core.state
        if state.winner is not None:
            break
        due = core._computer_due()
        if due is not None and due <= core.clock_.now:
            before = core.publisher.snapshot.revision
            core.tick()
            updates = core.publisher.updates_since(before)
            events = [e for _rev, evs in updates for e in evs]
            if events and events[0]["type"] == "computer_move":
                announced += 1
                # every phone gets the announcement before the command's own events
                shown = redact_event(events[0], "red")
                assert shown is not None and "(computer)" in shown["text"]
                human_seen_announcement = True
            continue
        hold = core.computer.hold()
        if hold is not None:  # it waits, even when the turn has passed to a human
            holds += 1
            lit = core.scene().highlight
            assert lit.mode == "copy" and [t for t, _n in lit.copy] == list(hold.territories)
            if nfc and hold.markers_show_it():
                move_markers(core, profile)
                if core.computers.hold is hold and core._computer_due() is None:
                    core.on_control("confirm", "press")
            else:
                if nfc:
                    move_markers(core, profile)
                core.on_control("confirm", "press")
            continue
        player = awaited(state)[0]
        assert player not in COMPUTERS, "the game waits on a computer that does not act"
        command = bot.choose(state, player)
        core.submit(command.to_dict(), Viewer("player", player))
        if nfc:
            move_markers(core, profile)
    return announced, holds, human_seen_announcement


@pytest.mark.slow
@pytest.mark.parametrize("profile", [BUTTONS, NFC], ids=["buttons", "nfc"])
def test_two_humans_and_two_computers_play_a_whole_game(tmp_path, profile):
    core = make_core(tmp_path, profile)
    if profile is NFC:
        dump = {channel(t, NFC): ("tag_present", bytes.fromhex(NFC.markers[o][0]))
                for t, o in core.state.owner.items()}
        core.on_dump(dump)
        core.markers_ = dict(core.state.owner)
    announced, holds, seen = play(core, profile)
    assert core.state.winner in PLAYERS
    assert announced > 20 and holds > 10 and seen
    # every computer command is in the journal like a human's
    record = core.journal.load(core.session.game_id)
    players = {e.command.get("player") for e in record.active_entries() if e.seq > 0}
    assert {"green", "yellow"} <= players


def play_phase(core) -> None:
    """Let the computer play while it is due at once (a whole phase, then it holds)."""
    for _ in range(500):
        due = core._computer_due()
        if due is None or due > core.clock_.now:
            return
        core.tick()
    raise AssertionError("the computer never stopped to hold its step")


def test_the_computer_waits_for_confirm_on_a_button_board(tmp_path):
    core = make_core(tmp_path, BUTTONS, computers={p: "hard" for p in PLAYERS[1:]})
    bot = SimpleBot()
    while core.state.current_player == "red" or core.state.pending is not None:
        player = awaited(core.state)[0]
        core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))
    play_phase(core)  # blue, green and yellow place their setup armies: one step
    hold = core.computer.hold()
    assert hold is not None and hold.players == ["blue", "green", "yellow"]
    assert core.state.current_player == "red"  # the turn has passed, the step still waits
    seq = core.session.last_seq
    core.clock_.now += 30
    core.tick()
    assert core.computer.hold() is hold and core.session.last_seq == seq  # no time set
    territory = core.state.territories_of("red")[0]
    core.on_sensor(channel(territory, BUTTONS), "press", None)
    assert core.publisher.snapshot.refusal["code"] == "computer_turn"
    assert core.session.last_seq == seq  # red's touch waits for the copy too
    core.on_control("confirm", "press")
    assert core.computers.hold is None
    core.on_sensor(channel(territory, BUTTONS), "press", None)
    assert core.session.last_seq == seq + 1  # now red places


def test_a_humans_phone_move_leaves_the_computers_step_waiting(tmp_path):
    """Only the copy releases a held step: a move a human makes on their phone meanwhile
    (the turn has passed to them) does not drop it unasked."""
    core = make_core(tmp_path, BUTTONS, computers={p: "hard" for p in PLAYERS[1:]})
    bot = SimpleBot()
    while core.state.current_player == "red":
        core.submit(bot.choose(core.state, "red").to_dict(), Viewer("player", "red"))
    play_phase(core)
    hold = core.computer.hold()
    assert hold is not None and core.state.current_player == "red"
    core.submit(bot.choose(core.state, "red").to_dict(), Viewer("player", "red"))
    assert core.computer.hold() is hold
    assert core.publisher.snapshot.computers["holding"]["players"] == hold.players
    assert [t for t, _n in core.scene().highlight.copy] == list(hold.territories)
    core.on_control("confirm", "press")
    assert core.computer.hold() is None


def test_the_host_sets_a_time_and_pauses_takes_over_and_hands_over(tmp_path):
    core = make_core(tmp_path, BUTTONS, computers={p: "hard" for p in PLAYERS[1:]})
    bot = SimpleBot()
    core.host_action("computer", {"confirm_after_s": 5})
    while core.state.current_player == "red" or core.state.pending is not None:
        player = awaited(core.state)[0]
        core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))
    play_phase(core)
    assert core.computer.hold() is not None
    core.clock_.now += 4.5
    core.tick()
    assert core.computer.hold() is not None
    core.clock_.now += 1.0
    core.tick()
    assert core.computers.hold is None  # the host's time passed: the step is released
    core.host_action("computer", {"paused": True})
    while core.state.current_player == "red":
        core.submit(bot.choose(core.state, "red").to_dict(), Viewer("player", "red"))
    seq = core.session.last_seq
    core.clock_.now += 60
    core.tick()
    assert core.session.last_seq == seq
    seat = core.state.current_player
    assert seat != "red"
    # take over: the seat is a phone's again, its commands are accepted
    with pytest.raises(CommandRejected) as refused:
        core.submit(bot.choose(core.state, seat).to_dict(), Viewer("player", seat))
    assert refused.value.code == "computer_seat"
    core.host_action("computer", {"seats": {seat: None}, "paused": False})
    core.submit(bot.choose(core.state, seat).to_dict(), Viewer("player", seat))
    assert seat not in core.computers.levels
    # hand red to the computer (a player who has to leave); journaled: a restart keeps it
    core.host_action("computer", {"seats": {"red": "easy"}})
    journal_rows = core.journal.computer_seats(core.session.game_id)
    assert journal_rows["red"] == "easy" and seat not in journal_rows
    again = TableCore(core.journal, core.wiring, clock=core.clock_)
    again.start(None)
    assert again.computers.levels == core.computers.levels


def test_bad_computer_settings_are_refused_and_change_nothing(tmp_path):
    core = make_core(tmp_path, BUTTONS)
    before = dict(core.computers.levels)
    for params in ({"seats": {"purple": "hard"}}, {"seats": {"red": "genius"}},
                   {"confirm_after_s": -1}, {"paused": "yes"}, {"trust_lights": 1}):
        with pytest.raises(CommandRejected) as refused:
            core.host_action("computer", params)
        assert refused.value.code == "bad_computer"
    assert core.computers.levels == before


def test_an_undo_of_the_computers_move_pauses_it_so_it_cannot_roll_again(tmp_path):
    core = make_core(tmp_path, BUTTONS, computers={p: "hard" for p in PLAYERS[1:]})
    core.host_action("computer", {"confirm_after_s": 1})
    bot = SimpleBot()
    while core.state.current_player == "red" or core.state.pending is not None:
        player = awaited(core.state)[0]
        core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))
    core.tick()  # the computer places
    played = len(core.journal.load(core.session.game_id).active_entries())
    core.host_action("undo", {})
    assert core.computers.paused and core.computers.hold is None
    core.clock_.now += 10
    core.tick()
    after = len(core.journal.load(core.session.game_id).active_entries())
    assert after == played - 1  # it did not play again
    core.host_action("computer", {"paused": False})
    core.tick()
    assert len(core.journal.load(core.session.game_id).active_entries()) == played


@pytest.mark.slow
@pytest.mark.parametrize("variant,players", [
    ("mission", PLAYERS), ("capital", PLAYERS), ("two-player", ("red", "blue")),
    ("allied", ("red", "blue")), ("strike", PLAYERS)])
def test_each_variant_is_played_to_its_end_by_computer_seats(tmp_path, variant, players):
    core = make_core(tmp_path, BUTTONS, variant, players,
                     computers={p: "normal" for p in players})
    core.host_action("computer", {"confirm_after_s": 0.5})
    for _ in range(30000):
        if core.state.winner is not None:
            break
        core.clock_.now += 0.6
        core.tick()
    assert core.state.winner in players


def test_a_computers_secret_hq_pick_is_announced_without_the_territory(tmp_path):
    core = make_core(tmp_path, BUTTONS, "capital", PLAYERS,
                     computers={"green": "hard", "yellow": "easy"})
    core.host_action("computer", {"confirm_after_s": 0.5})
    bot = SimpleBot()
    seen: list[dict] = []
    start = core.publisher.snapshot.revision
    while not core.state.hq_revealed:
        core.clock_.now += 0.6
        if core._computer_due() is not None:
            core.tick()
            continue
        player = next(p for p in awaited(core.state) if p not in ("green", "yellow"))
        core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))
    for _rev, events in core.publisher.updates_since(start):
        for event in events:
            shown = redact_event(event, "red")
            if shown is not None and shown["type"] == "computer_move":
                seen.append(shown)
    picks = [e for e in seen if e["command"]["type"] == "pick_hq"]
    assert {e["player"] for e in picks} == {"green", "yellow"}
    for event in picks:
        assert "territory" not in event["command"]
        hq = core.state.hq[event["player"]]
        assert hq not in str(event) and BOARD.names[hq] not in event["text"]


# --- issue 32.2: one held step per computer phase ----------------------------------------


def drive(core, turns: int):
    """The humans decide like SimpleBot on their phones; the computer seats play; the humans copy
    each held step and press Confirm before anyone plays on. Returns each held step as it
    was confirmed (`public()["holding"]` with the turn and the scene's copy highlight) and
    how often a human answered a computer's attack while its step was still being played."""
    bot, steps, defences = SimpleBot(), [], 0
    while core.state.winner is None and core.state.turn <= turns:
        due = core._computer_due()
        if due is not None and due <= core.clock_.now:
            core.tick()
            continue
        if core.computer.hold() is not None:
            holding = core.computers.public()["holding"]
            steps.append({**holding, "turn": core.computers.hold.turn,
                          "stage": core.computers.hold.stage,
                          "lit": core.scene().highlight.copy})
            core.on_control("confirm", "press")
            continue
        player = awaited(core.state)[0]
        assert player not in core.computers.levels, "the game waits on a computer"
        gathering = core.computers.hold
        core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))
        if gathering is not None:  # red defended: the computer's phase goes on
            defences += 1
            assert core.computers.hold is gathering and not gathering.waiting
    return steps, defences


def test_a_computers_turn_is_two_steps_its_placements_then_its_attacks_and_fortify(tmp_path):
    core = make_core(tmp_path, BUTTONS, computers={p: "hard" for p in PLAYERS[1:]})
    start = core.publisher.snapshot.revision
    steps, _ = drive(core, 16)
    turns = [s for s in steps if s["stage"] not in ("claim", "setup_place")]
    assert len({s["turn"] for s in turns}) >= 9
    for turn in {s["turn"] for s in turns}:
        held = [s for s in turns if s["turn"] == turn]
        assert len(held) <= 2
        placing = held[0]
        assert placing["stage"] == "reinforce"
        assert len(held) == 1 or held[1]["stage"] == "attack"
        # one instruction for all its armies: placements added up per territory
        assert {m["type"] for m in placing["moves"]} == {"place"}
        assert placing["count"] == sum(m["count"] for m in placing["moves"]) \
            == sum(p["n"] for p in placing["placed"])
        assert len({p["territory"] for p in placing["placed"]}) == len(placing["placed"])
    attacks = [s for s in turns if s["stage"] == "attack"]
    assert attacks and all(m["type"] in ("attack", "blitz", "move_in", "fortify", "place")
                           for s in attacks for m in s["moves"])
    # what is lit is what the step lists, each territory counted as the board must look
    for step in steps:
        assert [t for t, _n in step["lit"]] == step["territories"]
    # every command journaled and announced as before: one entry per computer move
    record = core.journal.load(core.session.game_id)
    played = [e for e in record.active_entries() if e.command.get("player") in PLAYERS[1:]]
    announced = [e for _rev, events in core.publisher.updates_since(start) for e in events
                 if e["type"] == "computer_move"]
    assert len(played) == len(announced)


def test_the_claims_of_consecutive_computer_seats_are_one_step(tmp_path):
    core = make_core(tmp_path, BUTTONS)
    core.host_action("new_game", {"variant": "classic", "players": list(PLAYERS),
                                  "house_rules": {"setup": "claim"},
                                  "computers": dict(COMPUTERS)})
    steps, _ = drive(core, 0)  # the setup is turn 0
    claims = [s for s in steps if s["stage"] == "claim"]
    assert len(claims) == 42 // 4 + 1  # one step a round (42 territories, 4 seats)
    for step in claims[:-1]:
        assert step["players"] == ["green", "yellow"]
        assert [(m["type"], m["player"]) for m in step["moves"]] == [
            ("claim", "green"), ("claim", "yellow")]
        assert step["territories"] == [m["territory"] for m in step["moves"]]
        assert [n for _t, n in step["lit"]] == [1, 1]  # one army each, in its colour


def test_trust_the_lights_copies_a_whole_computer_turn_with_one_confirm(tmp_path):
    core = make_core(tmp_path, BUTTONS, computers={p: "hard" for p in PLAYERS[1:]})
    core.host_action("computer", {"trust_lights": True})
    assert core.publisher.snapshot.computers["trust_lights"] is True
    steps, _ = drive(core, 12)
    turns = [s for s in steps if s["stage"] not in ("claim", "setup_place")]
    assert len(turns) == len({s["turn"] for s in turns}) >= 7  # one step a turn
    assert any({"place", "attack"} <= {m["type"] for m in s["moves"]} or
               {"place", "blitz"} <= {m["type"] for m in s["moves"]} for s in turns)
    # journaled with the other settings: a restart keeps it
    again = TableCore(core.journal, core.wiring, clock=core.clock_)
    again.start(None)
    assert again.computers.trust_lights is True
