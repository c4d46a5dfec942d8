"""The table's reaction clock after a late play (issue 23.13: a tactics card played late in
a window left the others 1-3 s, because the clock never restarted). The real TableCore on a
hand-driven clock: a play gives the window a new id and the table a full new clock."""

from __future__ import annotations

from typing import Any

from hardware.profiles import load_profile
from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.rules.strike import available_commands, waiting_for
from pi_app.table.loop import NewGameSpec, TableCore, Wiring
from pi_app.table_api import Viewer

SECONDS = 5
SPEC = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": SECONDS})
PLAYS = {"strike_play_rally": {}, "strike_play_expand": {"take": "tactics"}}


class Clock:
    """A hand-driven clock."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def strike_core(tmp_path, clock: Clock) -> TableCore:
    """The real table core on a button board, a Strike game started."""
    core = TableCore(Journal(tmp_path / "journal.sqlite"),
                     Wiring.from_profile(load_profile("classic-42")), clock=clock,
                     dice=lambda: FairDice(b"\x07" * 32))
    core.start(SPEC)
    return core


def bots_until(core: TableCore, done: Any) -> None:
    """StrikeBot plays for whoever is awaited until `done(state)`. Every seat first chooses
    to be asked in every window (RULES §7, "Passing"), from its phone, out of turn: windows
    then keep asking several players at once."""
    for player in SPEC.players:
        core.submit({"type": "strike_choose_passing", "player": player, "choice": "every"},
                    Viewer("player", player))
    bot = StrikeBot(waivers=False)
    for _ in range(3000):
        if done(core.state):
            return
        player = waiting_for(core.state)[0]
        core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))
    raise AssertionError("the bots never reached the position")


def late_play(state: Any) -> tuple[str, dict[str, Any]] | None:
    """A card a waited-for player may play while another one is still asked."""
    if state.window is None or len(waiting_for(state)) < 2:
        return None
    for player in waiting_for(state):
        for command, params in PLAYS.items():
            if command in available_commands(state, player):
                return player, {"type": command, "player": player, **params}
    return None


def test_a_late_play_gives_every_other_player_the_whole_reaction_time(tmp_path):
    clock = Clock()
    core = strike_core(tmp_path, clock)
    bots_until(core, late_play)
    player, command = late_play(core.state)
    first = core.state.window["id"]
    assert core.window_timer == (first, clock.now + SECONDS)
    clock.now += SECONDS - 1  # the card comes in the window's last second
    core.submit(command, Viewer("player", player))
    renewed = core.state.window["id"]
    assert renewed != first and core.window_timer == (renewed, clock.now + SECONDS)
    clock.now += 1.5  # past the first clock: the window is still open for the answers
    core.tick()
    assert core.state.window is not None and core.state.window["id"] == renewed
    assert waiting_for(core.state), "the others are still asked"
    clock.now += SECONDS
    core.tick()
    assert core.state.window is None or core.state.window["id"] != renewed


def test_on_a_button_board_holding_end_phase_closes_the_window_at_once(tmp_path):
    """Issue 23.13: on a button board nobody could pass, so every window ran its full time."""
    clock = Clock()
    core = strike_core(tmp_path, clock)
    bots_until(core, lambda s: s.window is not None and len(waiting_for(s)) > 1)
    window = core.state.window["id"]
    core.on_control("end_phase", "press")  # a short press is not the gesture: nothing changes
    assert core.state.window is not None and core.state.window["id"] == window
    core.on_control("end_phase", "long_press")
    assert core.state.window is None or core.state.window["id"] != window
    entry = core.journal.load(core.session.game_id).entries[-1]
    assert entry.command == {"type": "strike_close_window", "player": "table", "window": window}


def test_a_board_only_table_shows_the_roll_on_the_dice_leds_while_its_window_is_open(tmp_path):
    """Issue 32.5: the dice LEDs lit only once the window after a roll had closed, so a
    table without phones never saw the dice it was asked to react to."""
    from pi_app.table.lights import OFF, LedMap, render
    from pi_app.table.palette import Palette

    profile = load_profile("classic-42")
    leds = LedMap.build(profile.led_count, profile.territory_leds, profile.status_leds)
    clock = Clock()
    core = strike_core(tmp_path, clock)
    bots_until(core, lambda s: s.window is not None and s.window["kind"] == "rolled")
    dice = core.state.battle["dice"]
    battle = core.scene().last_battle
    assert battle is not None
    assert [list(battle.attack_dice), list(battle.defence_dice)] == [dice["attacker"],
                                                                     dice["defender"]]
    frame = render(core.scene(), leds, Palette(), clock.now)
    lit = [frame[i] != OFF for i in profile.status_leds["attack_dice"]]
    assert lit == [n < len(dice["attacker"]) for n in range(len(lit))]
