"""What the table waits for now, said once for every page and the board (issue 32).

`board_awaiting(state, facts)` and `strike_awaiting(state, facts)` (the game-kind seam,
`pi_app.table.kinds`, picks one) are the one answer to "what is the table waiting for?":
whose hand (a seat's phone or touch, the people at the board copying a computer's step, a
computer deciding at once, the host of a paused game), for which step (the engine's pending
decision, a card duty, a reaction window, a computer's held step, the game's end), what
each answer is, and what the board must show. `Awaiting.view(viewer, hand)` is that answer
for one viewer: the public part, plus a seated player's own part (its sentences, whether
the step is its own: `you`, what a tap on its phone means: `tap`, whether it holds a set to
trade: `can_trade`, the set its phone's one button trades, as the board's long Confirm
would: `best_trade`, why it cannot attack now: `no_attack`, what two territories it taps
may be: `aims`, `pi_app.table.aims`), built from that seat's redacted
view only (its hand), so nothing another seat may not see gets in.

It carries keys and parameters, never words. A sentence is `{"key": <catalogue key>,
"params": {...}}`; a parameter is a number or plain text, or a typed value the page words
in its language: `{"colour": "red"}`, `{"colours": [...]}` (joined, "–" when empty),
`{"territory": id}`, `{"continent": id}`, `{"word": prefix, "of": k}` (the catalogue's
`prefix.k`, else `k`), a nested sentence, or `{"list": [sentences], "join": "items" |
"steps" | "comma"}`. common.js `RB.say` renders one; the pages render `says` and decide
nothing of what the table awaits (tests/web/test_pages_render_the_awaited.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pi_app.rules import load_cards
from pi_app.rules.cards import find_sets
from pi_app.table.aims import AIMED_STEPS, aims
from pi_app.table.decisions import decision, turn_mark
from pi_app.table.gestures import best_of

Sentence = dict[str, Any]
DECK = load_cards()
DICE_PAGE = "/dice"


def say(key: str, **params: Any) -> Sentence:
    """A sentence: a catalogue key and its parameters."""
    return {"key": key, "params": params}


def colour(p: str | None) -> dict[str, Any]:
    """A colour (or army) parameter, worded as the page's language names it."""
    return {"colour": p}


def colours(ps: list[str]) -> dict[str, Any]:
    """Several colours, joined as the page's language lists them ("–" for none)."""
    return {"colours": list(ps)}


def territory(t: str | None) -> dict[str, Any]:
    """A territory parameter."""
    return {"territory": t}


def continent(c: str | None) -> dict[str, Any]:
    """A continent parameter (RISK Strike)."""
    return {"continent": c}


def word(prefix: str, k: str) -> dict[str, Any]:
    """The catalogue's word `prefix.k` (a phase, a pending decision, a window's kind)."""
    return {"word": prefix, "of": k}


def joined(sentences: list[Sentence], join: str = "items") -> dict[str, Any]:
    """Sentences said one after another ("steps": a computer's moves; "items": a list)."""
    return {"list": sentences, "join": join}


@dataclass(frozen=True)
class Held:
    """A computer's step the people at the board copy, then press Confirm (a whole phase:
    issue 32.2): its seat, its pieces (`territories`, the armies it placed: `count`), its
    moves as public commands, its placements per seat and territory (`placed`: [{player,
    territory, n}]) and what the lights show of it (`copy`: each territory with the pieces
    to put there), and the phase its moves were played in (`phase`: "claim", "setup_place",
    "reinforce", "attack", "fortify"; None: a whole turn, or not known)."""

    player: str
    territories: tuple[str, ...]
    count: int | None
    moves: tuple[Mapping[str, Any], ...]
    placed: tuple[Mapping[str, Any], ...] = ()
    copy: tuple[tuple[str, int], ...] = ()
    phase: str | None = None


def held_from(hold: Any, holding: Mapping[str, Any] | None, state: Any) -> Held | None:
    """The held step from the computer seats' hold (`ComputerPlay.hold()`) and its public
    form (`ComputerSeats.public()["holding"]`: moves, count, placed), with what `state`
    asks of the board (`Hold.changes`); None: nothing held."""
    if hold is None:
        return None
    public = holding or {}
    copy = tuple(hold.changes(state)) if state is not None else ()
    moves = tuple(public.get("moves") or hold.moves)
    return Held(hold.player, tuple(hold.territories), public.get("count", hold.count), moves,
                tuple(public.get("placed") or ()), copy,
                held_phase(getattr(hold, "stage", None), moves))


_MOVING_ONLY = ("fortify", "end_turn")


def held_phase(stage: str | None, moves: tuple[Mapping[str, Any], ...]) -> str | None:
    """The phase a held step's moves were played in, from its hold's stage (a turn's attacks
    and its fortify are one stage: "fortify" when it only fortified); None for a whole turn
    (the host trusts the lights) or an unknown stage."""
    if stage == "attack":
        return "fortify" if moves and all(m.get("type") in _MOVING_ONLY for m in moves) \
            else "attack"
    return None if stage in (None, "turn") else stage


@dataclass(frozen=True)
class TableFacts:
    """What the table knows beside the game's state: the session's status ("running",
    "finished", "abandoned"; None: no game), the host's pause, the dice seed once revealed,
    the computer seats (colour -> level) and whether the computer is paused, its held step,
    and who eliminated whom (from the game's events)."""

    status: str | None = "running"
    paused: bool = False
    seed: str | None = None
    computers: Mapping[str, str] = field(default_factory=dict)
    computers_paused: bool = False
    held: Held | None = None
    eliminated_by: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Awaiting:
    """What the table waits for (see the module docstring). `status`: "none" (no game),
    "playing", "paused" or "over"; `seats`: the colours whose step it is (the held step's
    seat while the board copies a computer's step); `hand`: who acts ("seat", "table",
    "computer", "host", None once over); `step`: a stable name of the step; `answers`: how
    it may be answered; `board`: what the LEDs show for it; `over`: the game's end."""

    status: str
    seats: tuple[str, ...] = ()
    hand: str | None = None
    step: str = "none"
    answers: tuple[Mapping[str, Any], ...] = ()
    computer: Mapping[str, Any] | None = None
    board: Mapping[str, Any] | None = None
    over: Mapping[str, Any] | None = None
    banner: tuple[Sentence, ...] = ()
    line: tuple[Sentence, ...] = ()
    colour: str | None = None
    held: Held | None = None
    state: Any = field(default=None, repr=False, compare=False)
    facts: TableFacts = field(default_factory=TableFacts, repr=False, compare=False)
    # a seat's own part of the view (its kind's sentences and taps), None: nothing of its own
    seat_part: Callable[[Any, Awaiting, str, list[str]], dict[str, Any]] | None = field(
        default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The public object every viewer gets (`view` adds a seat's own part)."""
        return {"status": self.status, "seats": list(self.seats), "hand": self.hand,
                "step": self.step, "answers": [dict(a) for a in self.answers],
                "computer": dict(self.computer) if self.computer else None,
                "board": dict(self.board) if self.board else None,
                "over": dict(self.over) if self.over else None,
                "says": {"banner": list(self.banner), "line": list(self.line),
                         "colour": self.colour, "seat": None,
                         "computer": _held_sentence(self.state, self.held)
                         if self.held is not None else None},
                "you": False, "tap": None, "can_trade": False, "best_trade": None,
                "no_attack": None, "aims": None,
                "decide": None, "mark": turn_mark(self.state)}

    def view(self, viewer: str | None, my_hand: list[str] | None = None) -> dict[str, Any]:
        """The object as `viewer` (a seat's colour, or None: the public, the host, the board)
        reads it; `my_hand` is that seat's hand from its own redacted view (the only private
        thing used: whether it holds a set to trade)."""
        out = self.to_dict()
        state = self.state
        if viewer is None or state is None or viewer not in getattr(state, "players", ()):
            return out
        out["you"] = viewer in self.seats and self.hand == "seat"
        if self.status == "over":
            out["says"]["seat"] = _over_seat(self, viewer)
        elif self.seat_part is not None:
            part = self.seat_part(state, self, viewer, my_hand or [])
            out["says"].update(part.get("says", {}))
            out["tap"] = part.get("tap")
            out["can_trade"] = bool(part.get("can_trade"))
            out["best_trade"] = part.get("best_trade")
            out["no_attack"] = part.get("no_attack")
            out["aims"] = part.get("aims")
            out["decide"] = part.get("decide")
        return out


# ----- the decision ------------------------------------------------------------------------
def card_duty(state: Any, p: str) -> tuple[str, int] | None:
    """The card duty the engine puts on `p` now: ("forced_trade", cards) — 5 or more cards
    at the start of the turn, a trade comes first —, ("trade_down", cards) — an elimination
    left more than 4 —, ("trade_down_place", armies) — traded down: place them —, or None.
    Hand sizes are public. (The board game's.)"""
    if state.winner is not None:
        return None
    pend = state.pending
    cards = len(state.hands.get(p, []))
    if pend is not None and pend["kind"] == "trade_down" and pend["player"] == p:
        return ("trade_down", cards) if cards > 4 else \
            ("trade_down_place", int(state.reserves.get(p, 0)))
    if pend is None and state.phase == "reinforce" and state.current_player == p and cards >= 5:
        return ("forced_trade", cards)
    return None


def board_step(state: Any) -> str:
    """The name of the board game's pending decision (one per distinct sentence)."""
    pend, d = state.pending, state.variant_data or {}
    deciding = pend["player"] if pend else state.current_player
    duty = card_duty(state, deciding)
    if duty is not None:
        return duty[0]
    if pend:
        return str(pend["kind"])
    if state.phase == "allied" and d.get("allied_turn"):
        return "allied_place" if d.get("reserve") else "allied_attack"
    if state.phase == "setup_place" and d.get("placing") and not d["placing"].get("own"):
        return "place_third"
    return str(state.phase)


def strike_step(state: Any) -> str:
    """The name of RISK Strike's pending decision: its window, its battle's step, its phase."""
    if state.window:
        return f"window:{state.window['kind']}"
    if state.battle:
        return str(state.battle["step"])
    return str(state.phase)


_COMMANDS = {"claim": ("claim",), "setup_place": ("place",), "place_third": ("place_neutral",),
             "reinforce": ("place", "trade_cards"), "forced_trade": ("trade_cards",),
             "trade_down": ("trade_cards",), "trade_down_place": ("place",),
             "attack": ("attack", "blitz", "end_attack"), "fortify": ("fortify", "end_turn"),
             "defend": ("choose_defence",), "move_in": ("move_in",), "hq_pick": ("pick_hq",),
             "allied_place": ("place",), "allied_attack": ("attack", "end_attack")}
# the board's gestures for each step (pi_app/table/GESTURES.md)
_BUTTONS = {"claim": ("touch",), "setup_place": ("touch",), "place_third": ("touch",),
            "reinforce": ("touch", "confirm_long"), "forced_trade": ("confirm_long",),
            "trade_down": ("confirm_long",), "trade_down_place": ("touch",),
            "attack": ("touch", "roll", "roll_long", "end_phase"),
            "fortify": ("touch", "confirm", "end_phase_long"), "defend": ("roll", "touch"),
            "move_in": ("touch", "confirm"), "hq_pick": (),
            "allied_place": ("touch",), "allied_attack": ("touch", "roll", "end_phase")}


def _answers(step: str) -> tuple[Mapping[str, Any], ...]:
    return (*({"by": "command", "type": c} for c in _COMMANDS.get(step, ())),
            *({"by": "gesture", "gesture": g} for g in _BUTTONS.get(step, ())))


def no_game(facts: TableFacts) -> Awaiting:
    """No game at the table."""
    return Awaiting("none", step="none", banner=(say("state.no_game"),),
                    line=(say("vboard.no_game"),), facts=facts)


def board_awaiting(state: Any, facts: TableFacts) -> Awaiting:
    """What the table waits for in a game of the board engine (every variant)."""
    if (done := _not_played(state, facts, "banner.won", "vboard.won")) is not None:
        return done
    aw = _playing(state, facts, _board_waiting(state), board_step(state),
                  deciding=state.pending is not None)
    return _with(aw, banner=tuple(_board_banner(state, aw, None)),
                 line=tuple(_board_line(state, aw)), colour=_board_heading(state, aw),
                 seat_part=_board_seat_part)


def strike_awaiting(state: Any, facts: TableFacts) -> Awaiting:
    """What the table waits for in a game of RISK Strike."""
    if (done := _not_played(state, facts, "strike.won", "strike.won")) is not None:
        return done
    aw = _playing(state, facts, _strike_waiting(state), strike_step(state))
    banner = (_strike_banner(state), *((say("banner.paused"),) if aw.status == "paused" else ()))
    return _with(aw, banner=banner, line=banner,
                 colour=aw.seats[0] if aw.seats else state.current_player,
                 seat_part=_strike_seat_part)


def _not_played(state: Any, facts: TableFacts, won: str, won_line: str) -> Awaiting | None:
    """No game, or a game over (won: `won` and `won_line` say it); None while it is played."""
    if state is None or facts.status is None:
        return no_game(facts)
    if state.winner is not None or facts.status != "running":
        return _over(state, facts, won, won_line)
    return None


def _with(aw: Awaiting, **changes: Any) -> Awaiting:
    return replace(aw, **changes)


def _playing(state: Any, facts: TableFacts, seats: list[str], step: str,
             deciding: bool = False) -> Awaiting:
    """Whose hand and which answers, for a game in play (the kind gave its seats and step;
    `deciding`: a decision the game needs now, a defence, which goes before a held step)."""
    held = facts.held
    computer = board = None
    if held is not None:
        computer = {"player": held.player, "territories": list(held.territories),
                    "moves": [dict(m) for m in held.moves], "count": held.count}
        board = {"move": list(held.territories), "colour": held.player, "count": held.count}
    answers: tuple[Mapping[str, Any], ...]
    if facts.paused:
        status, hand, answers = "paused", "host", ({"by": "host", "action": "resume"},)
    elif held is not None and not (deciding and any(p not in facts.computers for p in seats)):
        # the table holds the computer's step until Confirm, also into a human's turn
        status, hand, step = "playing", "table", "computer_step"
        seats = [held.player]
        answers = ({"by": "button", "button": "confirm"},)
    elif seats and all(p in facts.computers for p in seats):
        if facts.computers_paused:  # the host lets the computer go on, or gives the seat back
            status, hand, answers = "playing", "host", ({"by": "host", "action": "computer"},)
        else:
            status, hand, answers = "playing", "computer", ()
    else:
        status, hand, answers = "playing", "seat", _answers(step)
    return Awaiting(status, tuple(seats), hand, step, answers, computer, board, None,
                    held=held, state=state, facts=facts)


def _board_waiting(state: Any) -> list[str]:
    if state.phase == "hq_pick":
        return [p for p in state.players if p not in state.hq]
    return [state.pending["player"] if state.pending else state.current_player]


def _strike_waiting(state: Any) -> list[str]:
    from pi_app.rules.strike import waiting_for

    return list(waiting_for(state))


def _over(state: Any, facts: TableFacts, won: str, won_line: str) -> Awaiting:
    """A won game, or one the host ended: who won (or "ended by the host"), the revealed
    seed and where to check the dice; no step and no answer."""
    winner = state.winner
    seed = facts.seed
    over = {"winner": winner, "by": "won" if winner is not None else "host", "seed": seed,
            "dice": DICE_PAGE}
    if winner is not None:
        head = say(won, player=colour(winner))
        line_head = say(won_line, player=colour(winner))
    else:
        head = line_head = say("over.ended_by_host")
    tail = [say("over.seed", seed=seed)] if seed else []
    return Awaiting("over", (), None, "won" if winner is not None else "ended", (), None,
                    {"winner": winner}, over, (head, *tail), (line_head, *tail), winner,
                    None, state, facts)


def _over_seat(aw: Awaiting, me: str) -> list[Sentence]:
    """A seat's phone once the game is over: won, someone else won, or the host ended it;
    then the revealed seed."""
    over = aw.over or {}
    winner = over.get("winner")
    head = say("over.ended_by_host") if winner is None else \
        say("state.won") if winner == me else say("state.other_won", player=colour(winner))
    return [head, *([say("over.seed", seed=over["seed"])] if over.get("seed") else [])]


# ----- the board game's sentences ------------------------------------------------------------
def _board_seat_part(state: Any, aw: Awaiting, me: str, hand: list[str]) -> dict[str, Any]:
    """A seat's own part in the board game: its banner (never "waiting for" itself), its
    sentences, its taps, and trading a set it holds (from its own hand)."""
    mine = me in aw.seats and aw.hand == "seat"
    sets = find_sets(hand, DECK) if mine else []
    can_trade = aw.step == "reinforce" and bool(sets)
    trades = any(a.get("type") == "trade_cards" for a in aw.answers)
    best = best_of(state, me, sets) if trades else None
    return {"says": {"banner": _board_banner(state, aw, me),
                     "seat": _board_seat(state, aw, me, hand)},
            "tap": _tap(state, aw, me), "can_trade": can_trade,
            "best_trade": list(best) if best else None,
            "no_attack": no_attack(state, aw, me),
            "aims": aims(state, me) if mine and aw.status == "playing"
            and aw.step in AIMED_STEPS else None,
            "decide": decision(state, me) if mine else None}


_ATTACK_STEPS = ("attack", "allied_attack")


def no_attack(state: Any, aw: Awaiting, me: str) -> dict[str, Any] | None:
    """Why `me` cannot attack now, whichever two territories its phone taps (a refusal:
    a stable `code` and its sentence, `says`): the game is paused, it is not `me`'s turn
    (the table waits for another seat, or for the board to copy a computer's step), or not
    its attack phase; None when it may attack, or fortifies (two of its own territories
    are then a move, not an attack)."""
    if aw.status == "paused":
        return {"code": "paused", "says": say("error.paused")}
    if aw.status != "playing":
        return None
    if me not in aw.seats or aw.hand != "seat":
        awaited = aw.seats[0] if aw.seats else state.current_player
        return {"code": "not_your_turn", "says": say("odds.not_your_turn",
                                                     player=colour(awaited))}
    if aw.step in (*_ATTACK_STEPS, "fortify"):
        return None
    pend = state.pending
    now = word("pending", pend["kind"]) if pend else word("phase", state.phase)
    return {"code": "wrong_phase", "says": say("odds.not_attack_phase", phase=now)}

def _held_sentence(state: Any, held: Held) -> Sentence:
    """The one sentence for a held computer step: what it did, what the board must show,
    and what to press."""
    did: Any = joined(_held_did(held), "steps")
    parts = [say("computer.board_part", territory=territory(t), n=state.armies.get(t),
                 owner=colour(state.owner.get(t))) for t in dict.fromkeys(held.territories)]
    return say("computer.hold", did=did, board=joined(parts, "items"))


_PLACING = ("place", "place_neutral")
_ATTACKING = ("attack", "blitz", "move_in")


def _who(player: str) -> Sentence:
    return say("log.computer.who", player=colour(player))


def _held_did(held: Held) -> list[Sentence]:
    """What a held step did, per seat: its placements added up ("Blue (computer) placed 5
    (Yakutsk 3, Irkutsk 2)"), its claims, that it attacked, each other move as the log says
    it; a whole turn (the host trusts the lights) as "played its turn"."""
    moves = list(held.moves)
    if not moves:
        return [say("computer.played", player=_who(held.player))]
    kinds = {str(m.get("type")) for m in moves}
    if kinds & set(_PLACING) and kinds & {*_ATTACKING, "fortify"}:
        return [say("computer.turn", player=_who(p))
                for p in dict.fromkeys(str(m["player"]) for m in moves)]
    out: list[Sentence] = []
    said: set[tuple[str, str]] = set()
    for move in moves:
        player, kind = str(move["player"]), str(move.get("type"))
        if kind in _PLACING and (player, "placed") not in said:
            said.add((player, "placed"))
            parts = [p for p in held.placed if p["player"] == player] or [
                {"territory": m["territory"], "n": int(m.get("count", 1))}
                for m in moves if m["player"] == player and m.get("type") in _PLACING]
            out.append(say("computer.placed", player=_who(player),
                           n=sum(int(p["n"]) for p in parts),
                           parts=joined([say("computer.placed_part",
                                             territory=territory(p["territory"]), n=p["n"])
                                         for p in parts])))
        elif kind == "claim" and (player, "claimed") not in said:
            said.add((player, "claimed"))
            out.append(say("computer.claimed", player=_who(player), parts=joined(
                [territory(m["territory"]) for m in moves
                 if m["player"] == player and m.get("type") == "claim"])))
        elif kind in _ATTACKING and (player, "attacked") not in said:
            said.add((player, "attacked"))
            out.append(say("computer.attacked", player=_who(player)))
        elif kind not in (*_PLACING, *_ATTACKING, "claim"):
            out.append(_computer_line(player, move))
    return out


def _computer_line(player: str, c: Mapping[str, Any]) -> Sentence:
    """A computer's move as the log says it (`log.computer.<type>`)."""
    n = c.get("count") if c.get("count") is not None else c.get("dice")
    return say(f"log.computer.{c.get('type')}",
               player=say("log.computer.who", player=colour(player)),
               **{"from": territory(c.get("source") or "")},
               to=territory(c.get("target") or c.get("territory") or ""),
               territory=territory(c.get("territory") or ""), n=n)


def _duty_words(prefix: str, duty: tuple[str, int]) -> Sentence:
    return say(f"{prefix}.{duty[0]}", n=duty[1])


def _turn_phase(state: Any, held: Held | None) -> str:
    """The phase the turn's owner is seen in: the game's, but while the board still copies
    that seat's own held step, the step's (its placement is not "attack" though the game
    already moved on)."""
    if held is not None and held.phase and held.player == state.current_player:
        return held.phase
    return str(state.phase)


def _board_head(state: Any, held: Held | None = None) -> list[Sentence]:
    """The public head of the board's status line (variants' own, the turn and its duty)."""
    d = state.variant_data or {}
    if state.phase == "hq_pick":
        return [say("banner.hq_pick", waiting=colours(
            [p for p in state.players if p not in state.hq]))]
    if state.phase == "allied" and d.get("allied_turn"):
        turn = d["allied_turn"]
        out = [say("banner.allied", player=colour(turn["turn_of"]),
                   commander=colour(turn["commander"]))]
        if d.get("reserve"):
            out.append(say("banner.allied_reserve", n=d["reserve"]))
        return out
    out = [say("banner.turn", player=colour(state.current_player),
               phase=word("phase", _turn_phase(state, held)))]
    if state.phase == "setup_place" and d.get("placing"):
        placing = d["placing"]
        out.append(say("banner.placing", own=placing.get("own"), third=placing.get("third") or 0,
                        army=colour(d.get("army") or "neutral")))
        return out
    pend = state.pending
    duty = card_duty(state, state.current_player) or (
        card_duty(state, pend["player"]) if pend and pend["kind"] == "trade_down" else None)
    left = state.reserves.get(state.current_player)
    if duty:
        out.append(_duty_words("duty", duty))
    elif left:
        out.append(say("banner.to_place", n=left))
    return out


def _board_banner(state: Any, aw: Awaiting, me: str | None) -> list[Sentence]:
    """Everyone's status line (the table view's banner; a seat's never says it waits for
    that very seat)."""
    out = _board_head(state, aw.held)
    if aw.held is not None:
        out.append(_held_sentence(state, aw.held))
    if aw.hand != "table":
        pend = state.pending
        if pend and pend["kind"] != "trade_down" and pend["player"] != me:
            out.append(say("banner.waiting_for", player=colour(pend["player"]),
                           what=word("pending", pend["kind"])))
    if aw.status == "paused":
        out.append(say("banner.paused"))
    return out


def _board_deciding(state: Any, aw: Awaiting) -> str:
    """The seat a decision awaits (the held step's while the board copies it)."""
    if aw.hand == "table" and aw.held is not None:
        return aw.held.player
    return state.pending["player"] if state.pending else state.current_player


def _board_heading(state: Any, aw: Awaiting) -> str:
    """The seat the status line is headed with (`Awaiting.colour`): the held step's while the
    board copies it, else the turn's owner; a defender is then named in the sentence ("Blue
    · attack · Blue attacks Kamchatka: Red defends"), never as the heading of the attack."""
    if aw.hand == "table" and aw.held is not None:
        return aw.held.player
    pend = state.pending
    if pend and pend["kind"] == "defend":
        return str(state.current_player)
    return _board_deciding(state, aw)


def _board_line(state: Any, aw: Awaiting) -> list[Sentence]:
    """The board's own status line (/virtual), after its heading (`_board_heading`): the
    phase the heading's seat is in, what to do with the board's gestures."""
    deciding = _board_deciding(state, aw)
    held = aw.held if aw.hand == "table" else None
    phase = held.phase if held is not None else state.phase
    out: list[Any] = [word("phase", phase)] if phase else []
    duty = card_duty(state, deciding)
    pend = state.pending
    reserve = state.reserves.get(state.current_player)
    if aw.held is not None:
        out.append(_held_sentence(state, aw.held))
    elif duty:
        out.append(_duty_words("vboard", duty))
    elif pend and pend["kind"] == "defend":
        attacker = pend.get("attacker") or state.current_player
        out.append(say("vboard.defend", attacker=colour(attacker),
                       player=colour(deciding), territory=territory(pend["to"]),
                       **{"from": territory(pend.get("from"))}))
    elif pend and pend["kind"] == "move_in":
        out.append(say("vboard.move_in", territory=territory(pend["to"])))
    elif state.phase == "claim":
        out.append(say("vboard.claim"))
    elif state.phase in ("setup_place", "reinforce") and reserve:
        out.append(say("vboard.to_place", n=reserve))
    if aw.status == "paused":
        out.append(say("vboard.paused"))
    return out


def _board_seat(state: Any, aw: Awaiting, me: str, hand: list[str]) -> list[Sentence]:
    """The sentences of `me`'s phone: what this seat does now, or whom it waits for; a
    computer's held step first while the board still has to show it."""
    own = _board_seat_own(state, aw, me, hand)
    if aw.held is None or aw.status == "paused" or own[0]["key"].startswith("state.elim"):
        return own
    held = _held_sentence(state, aw.held)
    return [held] if aw.hand == "table" else [held, *own]


def _board_seat_own(state: Any, aw: Awaiting, me: str, hand: list[str]) -> list[Sentence]:
    if me in getattr(state, "eliminated", []):
        by = aw.facts.eliminated_by.get(me)
        return [say("state.eliminated_by", player=colour(by)) if by else say("state.eliminated")]
    if aw.status == "paused":
        return [say("state.paused")]
    if me in aw.facts.computers:
        return [say("state.computer_seat", colour=colour(me))]
    duty = card_duty(state, me)
    if duty:
        return [_duty_words("state", duty)]
    pend, d = state.pending, state.variant_data or {}
    if pend:
        if pend["player"] != me:
            theirs = card_duty(state, pend["player"])
            return [say("state.waiting", player=colour(pend["player"]),
                        what=_duty_words("duty", theirs) if theirs
                        else word("pending", pend["kind"]))]
        if pend["kind"] == "defend":
            return [say("state.defend", n=pend.get("max_dice") or 2)]
        if pend["kind"] == "move_in":
            return [say("state.move_in", to=territory(pend["to"]))]
        if pend["kind"] == "trade_down":
            return [say("state.trade_down")]
        return [say("ask.other", kind=word("pending", pend["kind"]))]
    if state.phase == "hq_pick":
        if me not in state.hq:
            return [say("state.hq_pick")]
        return [say("state.hq_waiting", players=colours(
            [p for p in state.players if p not in state.hq]))]
    if state.phase == "allied" and d.get("allied_turn"):
        commander = d["allied_turn"]["commander"]
        if commander == me:
            return [say("state.allied_place", n=d["reserve"]) if d.get("reserve")
                    else say("state.allied_attack")]
        return [say("state.waiting", player=colour(commander), what=word("phase", "allied"))]
    if state.current_player != me:
        them = state.current_player
        theirs = card_duty(state, them)
        return [say("state.waiting", player=colour(them),
                    what=_duty_words("duty", theirs) if theirs else word("phase", state.phase))]
    left = state.reserves.get(me, 0)
    if state.phase == "claim":
        return [say("state.claim")]
    if state.phase == "setup_place":
        if d.get("placing") and not d["placing"].get("own"):
            return [say("state.place_third", army=colour(d.get("army")))]
        return [say("state.setup_place", n=left)]
    if state.phase == "reinforce":
        can_trade = [say("state.can_trade")] if find_sets(hand, DECK) else []
        return [say("state.reinforce", n=left), *can_trade]
    if state.phase in ("attack", "fortify"):
        return [say(f"state.{state.phase}")]
    return [say("state.your_turn", what=word("phase", state.phase))]


def _tap(state: Any, aw: Awaiting, me: str) -> dict[str, Any] | None:
    """What a tap on a territory means on `me`'s phone now: a command for a territory of
    its own (`own`), of the third army (`third`) or any (`any`), else a hint; None: a tap
    selects (a source and target to attack or fortify). While placing more than one army,
    `all` is the command that places them all (on the territory tapped last)."""
    if aw.status != "playing":
        return None
    d = state.variant_data or {}
    army = d.get("army")
    if state.phase == "hq_pick":
        return {"own": {"type": "pick_hq"}, "hint": say("hint.hq_own")}
    duty = card_duty(state, me)
    if duty and duty[0] != "trade_down_place":
        return {"hint": say("hint.trade_first", n=duty[1])}
    pend = state.pending
    one = {"type": "place", "count": 1}
    left = (getattr(state, "reserves", None) or {}).get(me) or 0
    # "all here": the rest of the armies on the territory tapped last (issue 32.4)
    rest = {"all": {"type": "place", "count": left}} if left > 1 else {}
    if pend and pend["kind"] == "trade_down" and pend["player"] == me:
        return {"own": one, **rest}
    if pend or state.current_player != me or aw.hand != "seat":
        return None
    if state.phase == "claim":
        return {"any": {"type": "claim"}}
    if state.phase == "setup_place" and d.get("placing"):
        placing = d["placing"]
        return {"own": one if placing.get("own") else None,
                "third": {"type": "place_neutral", "count": 1} if placing.get("third") else None,
                "army": army,
                "hint": say("hint.place_own") if placing.get("own")
                else say("hint.place_third", army=colour(army))}
    if state.phase == "reinforce":
        return {"own": one, **rest}
    if state.phase == "setup_place":
        return {"own": one}
    if state.phase == "allied" and d.get("reserve"):
        return {"third": one, "army": army, "hint": say("hint.allied_reserve")}
    return None


# ----- RISK Strike's sentences ----------------------------------------------------------------
def _kind_of(card: str) -> str:
    head, _, tail = str(card).rpartition(".")
    return head if head and tail.isdigit() else str(card)


def _tactic(card: str) -> dict[str, Any]:
    return word("tactic", _kind_of(card))


def _battle_words(b: Mapping[str, Any]) -> dict[str, Any]:
    return {"attacker": colour(b["attacker"]), "defender": colour(b["defender"]),
            "from": continent(b["attack_continent"]), "to": continent(b["defence_continent"])}


def _play_line(state: Any, play: Mapping[str, Any]) -> Sentence:
    """"Red played Spy on Blue", "Blue played Cancel Orders on Red's Rally"."""
    base = {"player": colour(play["player"]), "card": _tactic(play["card"])}
    if _kind_of(play["card"]) == "cancel-orders":
        plays = (state.window or {}).get("plays") or []
        target = next((p for p in plays if p.get("id") == play.get("target")), None)
        if target is not None:
            return say("strike.play_cancel", **base, target=colour(target["player"]),
                       target_card=_tactic(target["card"]))
        return say("strike.play", **base)
    if play.get("target"):
        return say("strike.play_on", **base, target=colour(play["target"]))
    return say("strike.play", **base)


def _strike_banner(state: Any) -> Sentence:
    w, b = state.window, state.battle
    what: Any = say("strike.window", kind=word("strike.window_kind", w["kind"])) if w \
        else word("strike.phase", state.phase)
    if b:
        what = joined([say("strike.battle_short", **_battle_words(b)), what], "comma")
    return say("strike.banner", turn=state.turn, player=colour(state.current_player), what=what,
               waiting=colours(_strike_waiting(state)))


def _side_troops(b: Mapping[str, Any], side: str) -> int:
    return sum(1 for x in b.get("troops") or [] if x["side"] == side)


def _faces(xs: Any) -> str:
    return " ".join(str(x) for x in xs or [])


def _strike_seat_part(state: Any, aw: Awaiting, me: str, hand: list[str]) -> dict[str, Any]:
    """A seat's own part in RISK Strike: its sentence (its commands are its view's
    `available_commands`)."""
    return {"says": {"seat": [_strike_seat(state, aw, me)]}}


def _strike_seat(state: Any, aw: Awaiting, me: str) -> Sentence:
    """The sentence on a Strike player's own phone."""
    w, b = state.window, state.battle
    waiting = _strike_waiting(state)
    if aw.status == "paused":
        return say("state.paused")
    if me in waiting:
        bw = _battle_words(b) if b else {}
        if w and b and w["kind"] == "support":
            return say("strike.you_support", **bw)
        plays = (w or {}).get("plays") or []
        theirs = [p for p in plays if p["player"] != me]
        if theirs:
            play = _play_line(state, theirs[-1])
            return say("strike.you_answer_battle", play=play, **bw) if b \
                else say("strike.you_answer", play=play)
        if plays:
            return say("strike.you_played", play=_play_line(state, plays[-1]))
        if w and b and w["kind"] == "rolled" and b.get("dice"):
            return say("strike.you_rolled", **bw, a=_faces(b["dice"].get("attacker")),
                       d=_faces(b["dice"].get("defender")))
        if w and b and w["kind"] == "deployed" and me not in (b["attacker"], b["defender"]):
            return say("strike.you_support", **bw)
        if w and b and w["kind"] == "deployed":
            return say("strike.you_deployed", **bw, a=_side_troops(b, "attacker"),
                       d=_side_troops(b, "defender"))
        if w:
            return say("strike.you_window", kind=word("strike.window_kind", w["kind"]))
        if b and b["step"] == "attacker_deploy":
            return say("strike.you_attack_deploy", **bw)
        if b and b["step"] == "defender_deploy":
            return say("strike.you_defend_deploy", **bw)
        if b and b["step"] == "ready":
            from pi_app.rules.strike.queries import dice_counts

            a, d = dice_counts(state)
            return say("strike.you_ready", **bw, a=a, d=d)
        return say("strike.your_turn", what=word("strike.phase", state.phase))
    played = (w or {}).get("plays") or []
    if played:
        return say("strike.waiting_answer", player=colours(waiting),
                   play=_play_line(state, played[-1]))
    return say("state.waiting", player=colours(waiting), what=word("strike.phase", state.phase))
