"""A bot that plays on the board with fingers: it decides a move, then makes it by gestures.

It drives a whole table from outside, as the players' hands would (issue 34.2: it lives
with the table it drives, not with the computer players, which see only their seat's
redacted view). Which kind of game is running it asks the table's seam (`kinds.kind_of`).

`next_gestures(state, selection)` is pure: from the published game state and the board's
current selection it returns the touches and button presses (`Touch`, `Press`) that make
the bot's next move, in the gesture language of `gestures.py`. `play(hands, ...)` repeats
that until someone wins, with `hands` doing the touching: `SimHands` touches sensors through
the emulated Pico over its pty and presses gpiozero MockFactory buttons, and waits for the
table loop to answer each one. Used by the end-to-end and board-rig tests.

The strategy is crude on purpose (it only has to finish games quickly): claim where it is
strongest, pile reinforcements on the best attacking border, trade sets at once, blitz any
neighbour it does not fear, move everything in, and fortify an idle interior stack forward.

Every other variant is played by the variant bots (`pi_app.computer.simple_bot.SimpleBot`,
`pi_app.computer.strike_bot.StrikeBot`): `board_moves` and `strike_moves` ask the bot for
its command and make it with the board's gestures wherever the board has one (HQ pick,
neutral placing, the Allied phase, Strike's draw / declare / deploy / roll); decisions made
from a hidden hand (Strike tactics, supporters' troops, passing in a reaction window) go in
as the player's phone would send them (`PhoneCommand`). `play(..., leave_windows=n)` leaves
the first n Strike windows in which the bot would only pass to the table's reaction timer.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, cast

from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    Command,
    EndAttack,
    EndTurn,
    Fortify,
    GameState,
    MoveIn,
    PickHQ,
    Place,
    PlaceNeutral,
    TradeCards,
    awaiting_players,
    card_sets,
    fortify_destinations,
    game_info,
    load_map,
)
from pi_app.rules import strike as strike_rules
from pi_app.table.gestures import (
    BLITZ,
    CARDS,
    CONFIRM,
    END_PHASE,
    ROLL,
    UNDO,
    Press,
    Selection,
    Touch,
    waiting_for,
)
from pi_app.table.kinds import STRIKE_KIND, kind_of
from pi_app.table.strike_gestures import defenders_for

BOARD = load_map()
BOUNCE_GAP_S = 0.04  # hardware.controls ignores edges closer than its 0.03 s debounce
Gesture = Touch | Press


@dataclass(frozen=True)
class PhoneCommand:
    """A decision the board has no gesture for, sent as `player`'s phone would send it."""

    player: str
    command: dict[str, Any]


Move = Gesture | PhoneCommand


class Hands(Protocol):
    """Something that touches territories and presses control buttons on a table."""

    def do(self, gesture: Gesture) -> None:
        """Make one gesture and return once the table has answered it."""
        ...

    def submit(self, player: str, command: dict[str, Any]) -> None:
        """Send a command from `player`'s phone; return once the table journaled it."""
        ...

    def wait(self, revision: int, timeout: float) -> None:
        """Return once the table's revision moves past `revision` (or `timeout` passes)."""
        ...

    def look(self) -> tuple[GameState | strike_rules.StrikeState | None, Selection, int]:
        """The table's current (state copy, selection, revision)."""
        ...


def _enemy_neighbours(state: GameState, territory: str) -> list[str]:
    me = state.owner[territory]
    return [n for n in BOARD.neighbours[territory] if state.owner[n] != me]


def _best_border(state: GameState, player: str) -> str:
    """The own territory to pile armies on: facing the weakest opponent, else the weakest
    enemy stack, and already strong."""
    mine = state.territories_of(player)
    borders = [t for t in mine if _enemy_neighbours(state, t)] or mine
    rivals = [p for p in state.active_players() if p != player]
    weakest = min(rivals, key=state.territory_count) if rivals else None

    def score(t: str) -> tuple[bool, int, int]:
        enemies = _enemy_neighbours(state, t)
        faces_weakest = any(state.owner[n] == weakest for n in enemies)
        thinnest = min((state.armies[n] for n in enemies), default=99)
        return (faces_weakest, state.armies[t] - thinnest, state.armies[t])

    return max(borders, key=score)


def _claim_choice(state: GameState, player: str) -> str:
    free = [t for t, o in state.owner.items() if o is None]

    def score(t: str) -> tuple[int, int]:
        continent = BOARD.continent_of[t]
        mine = sum(1 for x in BOARD.members[continent] if state.owner[x] == player)
        return (mine, -len(BOARD.members[continent]))

    return max(free, key=score)


def _best_attack(state: GameState, player: str) -> tuple[str, str] | None:
    """The neighbour to blitz: one it outnumbers, preferring the weakest opponent (whose
    elimination hands over their cards)."""
    rivals = [p for p in state.active_players() if p != player]
    weakest = min(rivals, key=state.territory_count) if rivals else None
    best: tuple[float, str, str] | None = None
    for source in state.territories_of(player):
        armies = state.armies[source]
        if armies < 3:
            continue
        for target in _enemy_neighbours(state, source):
            ratio = (armies - 1) / state.armies[target]
            if ratio < 1.0:
                continue
            score = ratio * (3.0 if state.owner[target] == weakest else 1.0)
            if best is None or score > best[0]:
                best = (score, source, target)
    return (best[1], best[2]) if best else None


def _fortify_move(state: GameState, player: str) -> tuple[str, str] | None:
    for source in state.territories_of(player):
        if state.armies[source] < 2 or _enemy_neighbours(state, source):
            continue
        targets = [t for t in fortify_destinations(state, source) if _enemy_neighbours(state, t)]
        if targets:
            return source, max(targets, key=lambda t: state.armies[t])
    return None


def next_gestures(state: GameState, selection: Selection, single_roll: bool = False
                  ) -> list[Gesture]:
    """The gestures that make the bot's next move (pure). `single_roll` attacks with one
    roll (the defender then chooses dice) instead of a blitz."""
    player = waiting_for(state)
    assert player is not None
    pending = state.pending
    if pending is not None:
        kind = pending["kind"]
        if kind == "defend":
            return [Press(ROLL)]
        if kind == "move_in":
            return [Press(CONFIRM)]  # everything that may move goes in
        if len(state.hands[player]) > 4:
            return [Press(CARDS)]
        return _place_all(state, player, selection)
    phase = state.phase
    if phase == "claim":
        return [Touch(_claim_choice(state, player))]
    if phase == "setup_place":
        return [Touch(_best_border(state, player))]
    if phase == "reinforce":
        if card_sets(state, player):
            return [Press(CARDS)]
        return _place_all(state, player, selection)
    if phase == "attack":
        attack = _best_attack(state, player)
        if attack is None:
            return [Press(END_PHASE)]
        source, target = attack
        steps: list[Gesture] = []
        if selection.source != source:
            steps.append(Touch(source))
        if selection.target != target or selection.source != source:
            steps.append(Touch(target))
        steps.append(Press(ROLL) if single_roll else Press(BLITZ))
        return steps
    if phase == "fortify":
        move = _fortify_move(state, player)
        if move is None:
            return [Press(END_PHASE)]
        steps = []
        if selection.source != move[0]:
            if not selection.empty:
                steps.append(Press(UNDO))  # with a selection, Undo only drops it
            steps.append(Touch(move[0]))
        if selection.target != move[1]:
            steps.append(Touch(move[1]))
        steps.append(Press(CONFIRM, long=True))
        return steps
    return []


def _place_all(state: GameState, player: str, selection: Selection) -> list[Gesture]:
    target = _best_border(state, player)
    if state.reserves[player] == 1 or selection.source == target:
        return [Touch(target)] if state.reserves[player] == 1 else [Press(CONFIRM)]
    return [Touch(target), Press(CONFIRM)]


def _select_pair(selection: Selection, source: str, target: str, player: str) -> list[Gesture]:
    steps: list[Gesture] = []
    if selection.source != source:
        if not selection.empty:
            steps.append(Press(UNDO))  # with a selection, Undo only drops it
        steps.append(Touch(source, player))
    if selection.target != target or selection.source != source:
        steps.append(Touch(target, player))
    return steps


def board_moves(state: GameState, selection: Selection, bot: SimpleBot, nfc: bool = False
                ) -> list[Move]:
    """The variant bot's next command as gestures (a board variant; pure but for the bot).
    `nfc`: touches carry the player's token (an HQ pick is then a touch alone)."""
    awaited = awaiting_players(state)
    player = awaited[0]
    cmd = bot.choose(state, player)
    if isinstance(cmd, Claim | PlaceNeutral):
        return [Touch(cmd.territory, player)]
    if isinstance(cmd, PickHQ):
        if nfc:
            return [Touch(cmd.territory, player)]
        return [Touch(cmd.territory, player), Press(CONFIRM, long=True)]
    if isinstance(cmd, Place):
        if state.phase == "setup_place":
            return [Touch(cmd.territory, player)]
        reserve = (int(state.variant_data.get("reserve") or 0) if state.phase == "allied"
                   and state.pending is None else state.reserves[player])
        if cmd.count < reserve or reserve <= 1:
            return [Touch(cmd.territory, player)]
        if selection.source == cmd.territory:
            return [Press(CONFIRM)]
        return [Touch(cmd.territory, player), Press(CONFIRM)]
    if isinstance(cmd, TradeCards):
        return [Press(CARDS)]
    if isinstance(cmd, Attack | Blitz):
        steps = _select_pair(selection, cmd.source, cmd.target, player)
        return [*steps, Press(BLITZ if isinstance(cmd, Blitz) else ROLL)]
    if isinstance(cmd, ChooseDefence):
        return [Press(ROLL)]
    if isinstance(cmd, MoveIn):
        pending = state.pending or {}
        return [Press(CONFIRM, long=cmd.count == pending.get("min")
                      and cmd.count != pending.get("max"))]
    if isinstance(cmd, EndAttack):
        return [Press(END_PHASE)]
    if isinstance(cmd, EndTurn):
        return [Press(END_PHASE, long=state.phase != "fortify")]
    if isinstance(cmd, Fortify):
        if state.phase != "fortify":
            return [Press(END_PHASE)]  # on the board the attack ends first
        return [*_select_pair(selection, cmd.source, cmd.target, player),
                Press(CONFIRM, long=True)]
    return [PhoneCommand(player, cmd.to_dict())]


def strike_moves(state: Any, selection: Selection, bot: Any) -> list[Move]:
    """The Strike bot's next command as gestures where the board has them."""
    awaited = strike_rules.waiting_for(state)
    player = awaited[0]
    cmd: Command = bot.choose(state, player)
    if state.window is not None:
        return [PhoneCommand(player, cmd.to_dict())]
    members = {c: sorted(ts) for c, ts in BOARD.members.items()}
    if isinstance(cmd, strike_rules.Draw):
        mix = (cmd.continents, cmd.tactics)
        press = {(1, 1): Press(CONFIRM), (2, 0): Press(CONFIRM, long=True),
                 (0, 2): Press(ROLL)}.get(mix)
        return [press] if press else [PhoneCommand(player, cmd.to_dict())]
    if isinstance(cmd, strike_rules.DeclareAttack):
        steps: list[Move] = [Press(UNDO)] if not selection.empty else []
        order = defenders_for(state, player, cmd.defence_continent)
        steps.append(Touch(members[cmd.attack_continent][0], player))
        steps.extend([Touch(members[cmd.defence_continent][1], player)]
                     * (order.index(cmd.defender) + 1))
        return [*steps, Press(ROLL)]
    if isinstance(cmd, strike_rules.PassTurn | strike_rules.EndAttack):
        return [Press(END_PHASE)]
    if isinstance(cmd, strike_rules.Roll):
        return [Press(ROLL)]
    if isinstance(cmd, strike_rules.Deploy) and cmd.side is None:
        battle = state.battle
        own = battle["attack_continent"] if player == battle["attacker"] \
            else battle["defence_continent"]
        return [*[Touch(members[own][0], player)] * cmd.count, Press(CONFIRM)]
    return [PhoneCommand(player, cmd.to_dict())]


@dataclass
class PlayReport:
    """How a bot game went: moves made, gestures used, winner, seconds taken."""

    moves: int = 0
    gestures: int = 0
    winner: str | None = None
    seconds: float = 0.0


def play(hands: Hands, max_moves: int = 5000, single_roll_every: int = 0,
         on_move: Callable[[GameState, list[Gesture]], None] | None = None,
         stop: Callable[[Any], bool] | None = None, leave_windows: int = 0,
         by_phone: Callable[[Any], bool] | None = None) -> PlayReport:
    """Play the running game to its end (or until `stop(state)`) through `hands`; raise if
    it stalls. While `by_phone(state)` holds, a variant game's moves go in through the
    phones' door instead of touches and presses (a fast middle game for long tests)."""
    report = PlayReport()
    started = time.monotonic()
    stuck = 0
    attacks = 0
    board_bot = SimpleBot()
    strike_bot = StrikeBot()
    left_windows: set[int] = set()
    while report.moves < max_moves:
        state, selection, revision = hands.look()
        if state is None:
            raise RuntimeError("no game is running")
        if state.winner is not None:
            report.winner = state.winner
            break
        if stop is not None and stop(state):
            break
        moves: list[Move]
        kind = kind_of(state)
        strike = kind is STRIKE_KIND
        own_rules = game_info(state.variant).own_rules  # beyond this bot's Classic
        if by_phone is not None and own_rules and by_phone(state):
            player = kind.awaited(state)[0]
            bot: Any = strike_bot if strike else board_bot
            moves = [PhoneCommand(player, bot.choose(state, player).to_dict())]
        elif strike:
            strike_state = cast(strike_rules.StrikeState, state)  # the seam said Strike
            moves = strike_moves(strike_state, selection, strike_bot)
            window = strike_state.window
            if (window is not None and window["id"] not in left_windows
                    and len(left_windows) < leave_windows
                    and all(isinstance(m, PhoneCommand) and m.command["type"] == "strike_pass"
                            for m in moves)):
                left_windows.add(window["id"])  # the table's timer closes this one
                hands.wait(revision, strike_state.house_rules.reaction_seconds + 5.0)
                report.moves += 1
                continue
        elif own_rules:
            board_state = cast(GameState, state)  # the seam said a board game
            moves = board_moves(board_state, selection, board_bot, getattr(hands, "nfc", False))
        else:
            board_state = cast(GameState, state)
            single = False
            if board_state.phase == "attack" and board_state.pending is None \
                    and single_roll_every:
                attacks += 1
                single = attacks % single_roll_every == 1
            moves = list(next_gestures(board_state, selection, single_roll=single))
        if on_move is not None:
            on_move(state, moves)  # type: ignore[arg-type]
        for move in moves:
            if isinstance(move, PhoneCommand):
                hands.submit(move.player, move.command)
            else:
                hands.do(move)
            report.gestures += 1
        after, _sel, _rev = hands.look()
        stuck = stuck + 1 if after is not None and after == state else 0
        if stuck > 20:
            pending = "" if strike else f" (pending {getattr(state, 'pending', None)})"
            raise RuntimeError(f"the bot is stuck in {state.phase}{pending}")
        report.moves += 1
    report.seconds = time.monotonic() - started
    return report


QUICK_PRESS_S = 0.06  # a quick press on a PressClock: past the 0.03 s debounce, under 0.1 s


class PressClock:
    """The control buttons' clock on a sim rig whose quick presses `SimHands` times itself.

    It reads `time.monotonic()`, except while SimHands makes a quick press: then the press's
    two edges read the times SimHands pins (down at t, up at t + QUICK_PRESS_S), so a test
    process stalled between them cannot stretch a quick press into a long one. Long presses
    run on the real clock (a stall only makes them longer). Pass `open_buttons` to
    `build_rig` and the clock to `SimHands`."""

    def __init__(self) -> None:
        self._pinned: float | None = None

    def __call__(self) -> float:
        pinned = self._pinned
        return time.monotonic() if pinned is None else pinned

    def pin(self, t: float | None) -> None:
        """Read `t` from now on (None: the real clock again)."""
        self._pinned = t

    def open_buttons(self, *args: Any, **kwargs: Any) -> Any:
        """`hardware.controls.ControlButtons` on this clock (for `build_rig(open_buttons=)`)."""
        from hardware.controls import ControlButtons

        return ControlButtons(*args, clock=self, **kwargs)


class SimHands:
    """Touches through the emulated Pico and MockFactory button presses on a sim rig.

    `timeout`: how long `do` waits for the table's answer (generous: a loaded machine is
    slow). `clock`: the PressClock the rig's buttons were opened on, if any, so quick presses
    stay quick whatever the machine's load."""

    def __init__(self, rig: Any, timeout: float = 30.0, clock: PressClock | None = None) -> None:
        self.rig = rig
        self.timeout = timeout
        self.clock = clock
        self.hold_time = rig.config.buttons.hold_time
        from pi_app.table.rig import button_pins

        self.pins = button_pins(rig.config, rig.profile)
        self.nfc = rig.loop.wiring.nfc
        self._released: dict[str, float] = {}

    def look(self) -> tuple[GameState | strike_rules.StrikeState | None, Selection, int]:
        """The loop's latest snapshot: state copy, selection, revision."""
        snap = self.rig.loop.publisher.snapshot
        return snap.state, snap.selection, snap.revision

    def do(self, gesture: Gesture) -> None:
        """Touch or press, then wait until the loop has published its answer."""
        publisher = self.rig.loop.publisher
        before = publisher.snapshot.revision
        if isinstance(gesture, Touch):
            self.rig.service.virtual_touch(gesture.territory, gesture.player)
        else:
            self.press(gesture.button, gesture.long)
        deadline = time.monotonic() + self.timeout
        while publisher.snapshot.revision == before:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the table did not answer {gesture}")
            publisher.wait_for(before, left)

    def submit(self, player: str, command: dict[str, Any]) -> None:
        """Send `command` as `player`'s phone (through the web's TableService)."""
        from pi_app.table_api import Viewer

        self.rig.service.submit(command, Viewer("player", player))

    def wait(self, revision: int, timeout: float) -> None:
        """Wait until the published revision moves past `revision`."""
        self.rig.loop.publisher.wait_for(revision, timeout)

    def press(self, button: str, long: bool = False) -> None:
        """Drive the button's mock pin low, hold (past hold_time if long), release."""
        pin = self.rig.button_factory.pin(self.pins[button])
        # a press right after this button's last release would look like contact bounce
        wait = self._released.get(button, 0.0) + BOUNCE_GAP_S - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if long or self.clock is None:
            pin.drive_low()
            time.sleep(self.hold_time + 0.03 if long else BOUNCE_GAP_S)
            pin.drive_high()
        else:
            down_at = time.monotonic()
            try:
                self.clock.pin(down_at)
                pin.drive_low()
                time.sleep(QUICK_PRESS_S)
                self.clock.pin(down_at + QUICK_PRESS_S)
                pin.drive_high()
            finally:
                self.clock.pin(None)
        self._released[button] = time.monotonic()
        clear = getattr(pin, "clear_states", None)  # a MockPin logs every edge: forget them
        if clear is not None:
            clear()
