"""What the table waits for (issue 32, `pi_app.table.awaiting`): one object for every page
and the board. The bots play every variant through the rules; at each distinct decision the
object must name the seat the rules await, the step, and say it to that seat, to the others
and on the board; then the table's own states: a computer's held step (also when the next
seat is a computer: the silent wait of issue 32), a paused game, a game won, a game the host
ended (its seed and the dice page), no game, and what a seat's view may hold of its hand."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import SeededSource
from pi_app.rules import (
    Attack,
    Blitz,
    EndAttack,
    EndTurn,
    HouseRules,
    apply,
    awaiting_players,
    is_strike,
    new_game,
)
from pi_app.rules.strike import waiting_for
from pi_app.table.awaiting import Held, TableFacts, card_duty
from pi_app.table.gestures import best_set
from pi_app.table.kinds import waits as awaiting

THREE, TWO = ["red", "blue", "green"], ["red", "blue"]
VARIANTS = {"classic": (THREE, {}), "mission": (THREE, {}), "capital": (THREE, {}),
            "two-player": (TWO, {}), "allied": (TWO, {}),
            "strike": (TWO, {"reaction_seconds": 600})}
# the awaited seat's own sentence for each step of the board game
SEAT_KEYS = {"claim": "state.claim", "setup_place": "state.setup_place",
             "place_third": "state.place_third", "reinforce": "state.reinforce",
             "forced_trade": "state.forced_trade", "trade_down": "state.trade_down",
             "trade_down_place": "state.trade_down_place", "attack": "state.attack",
             "fortify": "state.fortify", "defend": "state.defend", "move_in": "state.move_in",
             "hq_pick": "state.hq_pick", "allied_place": "state.allied_place",
             "allied_attack": "state.allied_attack"}
STRIKE_SEAT_KEYS = {"strike.you_support", "strike.you_answer", "strike.you_answer_battle",
                    "strike.you_played", "strike.you_rolled", "strike.you_deployed",
                    "strike.you_window", "strike.you_attack_deploy", "strike.you_defend_deploy",
                    "strike.you_ready", "strike.your_turn"}


def played(variant: str, seed: int = 5, limit: int = 3000):
    """Every state of a bot game of `variant`, from its start to its end."""
    players, rules = VARIANTS[variant]
    house = rules if variant == "strike" else HouseRules(**rules)
    rng = SeededSource(seed)
    state = new_game(variant, players, house, rng).state
    yield state.copy()
    for _ in range(limit):
        if state.winner is not None:
            return
        waiting = waiting_for(state) if is_strike(state) else awaiting_players(state)
        bot: Any = StrikeBot() if is_strike(state) else SimpleBot()
        apply(state, steered(state, bot.choose(state, waiting[0])), rng)
        yield state.copy()


def steered(state, command):
    """The bots blitz and end their turns from the attack: a blitz is played as one attack
    (so the defender decides) and an end of turn as the end of the attack (so a fortify
    comes)."""
    if isinstance(command, Blitz):
        dice = min(3, state.armies[command.source] - 1)
        return Attack(command.player, command.source, command.target, dice)
    if isinstance(command, EndTurn) and state.phase == "attack":
        return EndAttack(command.player)
    return command


def rules_await(state) -> list[str]:
    return list(waiting_for(state)) if is_strike(state) else awaiting_players(state)


def colour_of(param: Any) -> str | None:
    return param.get("colour") if isinstance(param, dict) else None


def keys(sentences) -> list[str]:
    return [s["key"] for s in sentences if isinstance(s, dict) and "key" in s]


def check_board(state, aw, seen: set[str]) -> None:
    """The board game's decision, said to its seat, to another seat and on the board."""
    seats = rules_await(state)
    assert aw.status == "playing" and aw.hand == "seat" and list(aw.seats) == seats
    step = aw.step
    seen.add(step)
    me = seats[0]
    mine = aw.view(me, list(state.hands[me]))
    assert mine["you"] is True
    said = mine["says"]["seat"]
    assert said[0]["key"] == SEAT_KEYS[step], (step, said)
    params = said[0]["params"]
    if step == "defend":
        assert params["n"] == state.pending["max_dice"]
    if step == "move_in":
        assert params["to"] == {"territory": state.pending["to"]}
    if step in ("forced_trade", "trade_down"):
        assert params["n"] == len(state.hands[me]) == card_duty(state, me)[1]
    if step in ("setup_place", "reinforce", "trade_down_place"):
        assert params["n"] == state.reserves[me]
    # the board's line is headed by the seat deciding (a defence: by the attack's, issue
    # 32.6, the defender named after it) and names the phase
    heading = state.current_player if step == "defend" else me
    assert aw.colour == heading and aw.line[0] == {"word": "phase", "of": state.phase}
    others = [p for p in state.players if p not in seats and p not in state.eliminated]
    for other in others[:1]:
        theirs = aw.view(other, list(state.hands[other]))
        assert theirs["you"] is False
        sentence = theirs["says"]["seat"][0]
        if step == "hq_pick":
            assert sentence["key"] == "state.hq_waiting"
            assert sentence["params"]["players"] == {"colours": seats}
        else:
            assert sentence["key"] == "state.waiting", (step, sentence)
            assert colour_of(sentence["params"]["player"]) == me
    head = aw.banner[0]
    if step == "hq_pick":
        assert head["key"] == "banner.hq_pick" and head["params"]["waiting"] == {"colours": seats}
    elif state.phase == "allied" and (state.variant_data or {}).get("allied_turn"):
        assert head["key"] == "banner.allied"
        commander = state.variant_data["allied_turn"]["commander"]
        assert colour_of(head["params"]["commander"]) == commander
    else:
        assert head["key"] == "banner.turn"
        assert colour_of(head["params"]["player"]) == state.current_player
    if state.pending and state.pending["kind"] in ("defend", "move_in"):
        waiting = [s for s in aw.banner if s["key"] == "banner.waiting_for"]
        assert [colour_of(s["params"]["player"]) for s in waiting] == [me]
        # ... but never on the phone of the very seat it waits for
        assert "banner.waiting_for" not in keys(mine["says"]["banner"])


def check_strike(state, aw, seen: set[str]) -> None:
    """RISK Strike's decision, said to its seats and to everyone."""
    seats = rules_await(state)
    assert aw.status == "playing" and list(aw.seats) == seats
    seen.add(aw.step)
    head = aw.banner[0]
    assert head["key"] == "strike.banner" and head["params"]["waiting"] == {"colours": seats}
    for p in state.players:
        sentence = aw.view(p)["says"]["seat"][0]
        if p in seats:
            assert sentence["key"] in STRIKE_SEAT_KEYS, (aw.step, sentence)
        else:
            assert sentence["key"] in ("state.waiting", "strike.waiting_answer"), sentence
            assert sentence["params"]["player"] == {"colours": seats}


BOARD_STEPS = {"claim", "reinforce", "attack", "fortify", "defend", "move_in"}
WANTED = {"classic": BOARD_STEPS | {"setup_place", "forced_trade"},
          "mission": BOARD_STEPS - {"claim"} | {"setup_place"},
          "capital": {"hq_pick", "reinforce", "attack", "defend", "move_in"},
          "two-player": {"setup_place", "place_third", "reinforce", "attack", "defend"},
          "allied": {"setup_place", "reinforce", "attack", "allied_place", "allied_attack"},
          "strike": {"draw", "choose", "attacker_deploy", "defender_deploy", "window:deployed",
                     "ready"}}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_decision_of_every_variant_names_its_seat_and_step(variant):
    seen: set[str] = set()
    last = None
    for state in played(variant):
        last = state
        aw = awaiting(state, TableFacts())
        if state.winner is not None:
            break
        if is_strike(state):
            check_strike(state, aw, seen)
        else:
            check_board(state, aw, seen)
        json.dumps(aw.to_dict())  # the wire form is plain JSON
    assert WANTED[variant] <= seen, (variant, sorted(seen))
    assert last is not None and last.winner is not None
    over = awaiting(last, TableFacts(status="finished", seed="ab" * 32))
    assert over.status == "over" and over.seats == () and over.answers == ()
    assert over.over == {"winner": last.winner, "by": "won", "seed": "ab" * 32, "dice": "/dice"}
    loser = next(p for p in last.players if p != last.winner)
    assert keys(over.view(last.winner)["says"]["seat"]) == ["state.won", "over.seed"]
    assert keys(over.view(loser)["says"]["seat"]) == ["state.other_won", "over.seed"]
    assert over.view(loser)["tap"] is None


# ----- the table's own states -----------------------------------------------------------------
def claiming():
    """A Classic game in its claims, Red to claim."""
    state = new_game("classic", THREE, HouseRules(), SeededSource(5)).state
    assert state.phase == "claim"
    state.current_player = "red"
    return state


def test_a_computers_held_step_is_awaited_even_when_the_next_seat_is_a_computer():
    """The silent wait: Blue (computer) claimed, Green (computer) is next; the table holds
    Blue's claim until Confirm, and every page says so, naming Blue and the step."""
    state = claiming()
    free = next(t for t, o in state.owner.items() if o is None)
    state.current_player = "green"
    state.owner[free], state.armies[free] = "blue", 1
    held = Held("blue", (free,), None, ({"type": "claim", "player": "blue", "territory": free},))
    aw = awaiting(state, TableFacts(computers={"blue": "normal", "green": "normal"}, held=held))
    assert (aw.status, aw.hand, aw.step, aw.seats) == ("playing", "table", "computer_step",
                                                      ("blue",))
    assert aw.answers == ({"by": "button", "button": "confirm"},)
    assert aw.board == {"move": [free], "colour": "blue", "count": None}
    assert aw.colour == "blue"
    hold = next(s for s in aw.banner if s["key"] == "computer.hold")
    move = hold["params"]["did"]["list"][0]
    assert move["key"] == "computer.claimed"
    assert colour_of(move["params"]["player"]["params"]["player"]) == "blue"
    assert move["params"]["parts"] == {"list": [{"territory": free}], "join": "items"}
    assert hold["params"]["board"]["list"][0]["params"] == {
        "territory": {"territory": free}, "n": 1, "owner": {"colour": "blue"}}
    assert aw.line[-1] == hold == aw.to_dict()["says"]["computer"]
    # a human seat's phone says the held step too, not "waiting for Green (claiming)"
    assert aw.view("red")["says"]["seat"] == [hold]
    assert aw.view("red")["tap"] is None


def test_a_held_step_waits_for_confirm_also_once_the_turn_passed_to_a_human():
    """Issue 32.2: the step waits for Confirm into the next seat's turn; the board refuses
    anything else until then, so the table waits for the copy, not for Red yet."""
    state = claiming()
    free = next(t for t, o in state.owner.items() if o is None)
    state.owner[free], state.armies[free] = "blue", 1
    held = Held("blue", (free,), None, ({"type": "claim", "player": "blue", "territory": free},))
    aw = awaiting(state, TableFacts(computers={"blue": "normal"}, held=held))
    assert (aw.hand, aw.step, aw.seats) == ("table", "computer_step", ("blue",))
    mine = aw.view("red")
    assert keys(mine["says"]["seat"]) == ["computer.hold"]
    assert mine["you"] is False and mine["tap"] is None
    assert aw.board is not None and aw.board["move"] == [free]


def test_a_defence_the_game_needs_now_goes_before_a_held_step():
    state = claiming()
    state.phase, state.current_player = "attack", "blue"
    source = state.territories_of("blue")[0] if state.territories_of("blue") else "alaska"
    state.pending = {"kind": "defend", "player": "red", "from": "alaska", "to": "kamchatka",
                     "attacker": "blue", "max_dice": 2}
    held = Held("blue", (source,), 3, ({"type": "place", "player": "blue",
                                         "territory": source, "count": 3},),
                ({"player": "blue", "territory": source, "n": 3},))
    aw = awaiting(state, TableFacts(computers={"blue": "normal"}, held=held))
    assert (aw.hand, aw.step, aw.seats) == ("seat", "defend", ("red",))
    assert keys(aw.view("red")["says"]["seat"]) == ["computer.hold", "state.defend"]


def test_a_phases_held_step_says_its_placements_added_up():
    """Issue 32.2's sentence: "Blue (computer) placed 5 (Yakutsk 3, Irkutsk 2)", from the
    holding's placements per territory; a whole turn as "played its turn"."""
    state = claiming()
    moves = ({"type": "place", "player": "blue", "territory": "yakutsk", "count": 2},
             {"type": "place", "player": "blue", "territory": "irkutsk", "count": 2},
             {"type": "place", "player": "blue", "territory": "yakutsk", "count": 1})
    placed = ({"player": "blue", "territory": "yakutsk", "n": 3},
              {"player": "blue", "territory": "irkutsk", "n": 2})
    held = Held("blue", ("yakutsk", "irkutsk"), 5, moves, placed)
    did = awaiting(state, TableFacts(computers={"blue": "normal"}, held=held)).to_dict()[
        "says"]["computer"]["params"]["did"]["list"]
    assert did == [{"key": "computer.placed", "params": {
        "player": {"key": "log.computer.who", "params": {"player": {"colour": "blue"}}}, "n": 5,
        "parts": {"list": [{"key": "computer.placed_part", "params": {
            "territory": {"territory": t}, "n": n}} for t, n in (("yakutsk", 3), ("irkutsk", 2))],
            "join": "items"}}}]
    turn = Held("blue", ("yakutsk", "alaska"), 3, (
        moves[0], {"type": "attack", "player": "blue", "source": "kamchatka",
                   "target": "alaska", "dice": 3}), placed[:1])
    did = awaiting(state, TableFacts(computers={"blue": "normal"}, held=turn)).to_dict()[
        "says"]["computer"]["params"]["did"]["list"]
    assert keys(did) == ["computer.turn"]


def test_a_computer_deciding_at_once_is_the_computers_hand():
    state = claiming()
    state.current_player = "green"
    aw = awaiting(state, TableFacts(computers={"green": "easy"}))
    assert (aw.hand, aw.seats, aw.answers) == ("computer", ("green",), ())
    seat = aw.view("green")["says"]["seat"]
    assert seat == [{"key": "state.computer_seat", "params": {"colour": {"colour": "green"}}}]


def test_a_paused_computer_waits_for_the_host():
    state = claiming()
    state.current_player = "green"
    aw = awaiting(state, TableFacts(computers={"green": "easy"}, computers_paused=True))
    assert (aw.status, aw.hand, aw.seats) == ("playing", "host", ("green",))
    assert aw.answers == ({"by": "host", "action": "computer"},)


def test_a_paused_game_waits_for_the_host():
    aw = awaiting(claiming(), TableFacts(paused=True))
    assert (aw.status, aw.hand) == ("paused", "host")
    assert aw.banner[-1]["key"] == "banner.paused" and aw.line[-1]["key"] == "vboard.paused"
    assert keys(aw.view("red")["says"]["seat"]) == ["state.paused"]
    assert aw.view("red")["tap"] is None


@pytest.mark.parametrize("variant", ["classic", "strike"])
def test_a_game_the_host_ended_says_so_with_its_seed_and_offers_no_move(variant):
    players, rules = VARIANTS[variant]
    state = new_game(variant, players, rules if variant == "strike" else HouseRules(),
                     SeededSource(2)).state
    aw = awaiting(state, TableFacts(status="abandoned", seed="cd" * 32))
    assert (aw.status, aw.step, aw.seats, aw.hand, aw.answers) == ("over", "ended", (), None, ())
    assert aw.over == {"winner": None, "by": "host", "seed": "cd" * 32, "dice": "/dice"}
    assert keys(aw.banner) == keys(aw.line) == ["over.ended_by_host", "over.seed"]
    for p in players:
        view = aw.view(p)
        assert keys(view["says"]["seat"]) == ["over.ended_by_host", "over.seed"]
        assert view["you"] is False and view["tap"] is None and view["answers"] == []


def test_no_game_says_so():
    aw = awaiting(None, TableFacts(status=None))
    assert aw.status == "none" and keys(aw.banner) == ["state.no_game"]
    assert keys(aw.line) == ["vboard.no_game"]


def test_a_seats_view_says_its_set_only_from_its_own_hand():
    """Whether Red holds a set is Red's secret: only Red's view (from Red's hand) says it;
    the public and another seat's view are the same whatever Red holds."""
    state = claiming()
    state.phase, state.current_player = "reinforce", "red"
    state.reserves["red"] = 3
    with_set = ["alaska", "alberta", "wild-1"]
    aw = awaiting(state, TableFacts())
    mine = aw.view("red", with_set)
    assert keys(mine["says"]["seat"]) == ["state.reinforce", "state.can_trade"]
    assert mine["can_trade"] is True
    assert keys(aw.view("red", ["alaska"])["says"]["seat"]) == ["state.reinforce"]
    assert aw.view("red", ["alaska"])["can_trade"] is False
    state.hands["red"] = with_set
    other = awaiting(state, TableFacts())
    state.hands["red"] = ["alaska", "alaska", "alaska"]  # not a set of hers: the same count
    assert awaiting(state, TableFacts()).view("blue") == other.view("blue")
    assert other.view(None) == other.to_dict()
    assert other.view(None)["says"]["seat"] is None


def test_a_seats_one_trade_button_trades_the_set_the_boards_long_confirm_trades():
    """The phone's "trade" button and the board's long Confirm trade the same set: the table
    names it (`best_trade`) from the seat's own hand, to that seat only, and only while the
    seat may trade; the page no longer ranks the sets itself."""
    state = claiming()
    state.phase, state.current_player = "reinforce", "red"
    state.reserves["red"] = 3
    for i, t in enumerate(sorted(state.owner)):
        state.owner[t] = THREE[i % 3]
    owned = sorted(t for t in state.owner if state.owner[t] == "red")
    others = sorted(t for t in state.owner if state.owner[t] != "red")
    hands = [[*others[:4], "wild-1"], [owned[0], *others[:3], "wild-1", "wild-2"],
             [others[0], others[5], owned[1]], ["alaska"]]
    for hand in hands:
        state.hands["red"] = hand
        aw = awaiting(state, TableFacts())
        board = best_set(state, "red")
        assert aw.view("red", hand)["best_trade"] == (list(board) if board else None), hand
        assert aw.view("blue")["best_trade"] is None and aw.view(None)["best_trade"] is None
    # a set held while the step takes no trade (the attack): no button
    state.hands["red"] = hands[0]
    state.phase = "attack"
    assert best_set(state, "red") is not None
    assert awaiting(state, TableFacts()).view("red", hands[0])["best_trade"] is None


def test_an_eliminated_seat_is_told_by_whom():
    state = claiming()
    state.eliminated.append("green")
    aw = awaiting(state, TableFacts(eliminated_by={"green": "red"}))
    assert aw.view("green")["says"]["seat"] == [
        {"key": "state.eliminated_by", "params": {"player": {"colour": "red"}}}]


def test_a_tap_on_a_phone_means_what_the_step_asks():
    state = claiming()
    aw = awaiting(state, TableFacts())
    assert aw.view("red")["tap"] == {"any": {"type": "claim"}}
    assert aw.view("blue")["tap"] is None  # not Blue's move: a tap selects


def test_a_trade_down_is_two_duties_said_to_its_seat_and_to_the_others():
    """An elimination left Red more than 4 cards: Red trades down, then places what the
    trade gave; the others wait for Red with that duty's words."""
    state = claiming()
    state.phase, state.current_player = "attack", "red"
    state.hands["red"] = ["alaska", "alberta", "brazil", "peru", "wild-1", "wild-2"]
    state.pending = {"kind": "trade_down", "player": "red"}
    aw = awaiting(state, TableFacts())
    assert aw.step == "trade_down" and aw.seats == ("red",)
    assert aw.view("red")["says"]["seat"] == [{"key": "state.trade_down", "params": {"n": 6}}]
    waiting = aw.view("blue")["says"]["seat"][0]
    assert waiting["params"]["what"] == {"key": "duty.trade_down", "params": {"n": 6}}
    assert {"key": "duty.trade_down", "params": {"n": 6}} in aw.banner
    state.hands["red"] = state.hands["red"][:3]
    state.reserves["red"] = 7
    aw = awaiting(state, TableFacts())
    assert aw.step == "trade_down_place"
    assert aw.view("red")["says"]["seat"] == [
        {"key": "state.trade_down_place", "params": {"n": 7}}]
    # one at a tap, or all 7 on the territory tapped last ("all here", issue 32.4)
    assert aw.view("red")["tap"] == {"own": {"type": "place", "count": 1},
                                     "all": {"type": "place", "count": 7}}
    state.reserves["red"] = 1
    assert awaiting(state, TableFacts()).view("red")["tap"] == {
        "own": {"type": "place", "count": 1}}
    state.reserves["red"] = 7
    assert aw.view("blue")["says"]["seat"][0]["params"]["what"] == {
        "key": "duty.trade_down_place", "params": {"n": 7}}


# ----- the table publishes it, and its lights show the end ----------------------------------
def test_a_game_the_host_ended_reaches_every_viewer_and_the_board(tmp_path):
    from hardware.profiles import load_profile
    from pi_app.dice import FairDice
    from pi_app.journal import Journal
    from pi_app.table.lights import LedMap, render
    from pi_app.table.loop import NewGameSpec, TableCore, Wiring
    from pi_app.table.palette import Palette
    from pi_app.table.service import LocalTableService
    from pi_app.table_api import Viewer

    profile = load_profile("classic-42")
    leds = LedMap.from_profile(profile)
    scenes: list = []
    core = TableCore(Journal(tmp_path / "journal.sqlite"), Wiring.from_profile(profile),
                     show=scenes.append, clock=lambda: 100.0,
                     dice=lambda: FairDice(b"\x07" * 32))
    core.start(NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    playing = scenes[-1]
    assert playing.current_player is not None
    turn = leds.status["turn"][0]
    assert render(playing, leds, Palette(), 100.0)[turn] != (0, 0, 0)
    seed = core.host_action("end_game", {})["seed"]

    class Loop:  # the service reads the published snapshot only
        publisher = core.publisher

    service = LocalTableService(Loop(), leds=leds)  # type: ignore[arg-type]
    for viewer in (Viewer("spectator"), Viewer("host"), Viewer("player", "red")):
        waits = service.view(viewer)["table"]["waits"]
        assert waits["status"] == "over" and waits["seats"] == []
        assert waits["over"] == {"winner": None, "by": "host", "seed": seed, "dice": "/dice"}
    assert keys(service.view(Viewer("player", "red"))["table"]["waits"]["says"]["seat"]) == [
        "over.ended_by_host", "over.seed"]
    # the board: no one's turn and nothing awaited any more, the turn LED dark
    ended = scenes[-1]
    assert (ended.current_player, ended.awaiting, ended.phase) == (None, None, None)
    assert render(ended, leds, Palette(), 100.0)[turn] == (0, 0, 0)
