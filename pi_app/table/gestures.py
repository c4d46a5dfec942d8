"""The board's gesture language: (game state, selection, input) -> command or new selection.

Pure: no clock, no I/O, no game-state mutation. The table loop feeds every territory touch
and control-button press through `interpret`, applies the command it returns (if any)
through the journaled session, and keeps the returned `Selection` (what the player has
picked so far, never game state). `settle` drops whatever part of a selection the game
no longer allows after any change (a command from a phone, an undo, a resume).

Who acts: on boards with NFC readers a touch names the player (`Touch.player`); a touch
by anyone but the player the game waits for (the current player, or the one a pending
decision asks, such as the defender choosing dice) is refused with `not_your_turn`.
Plain buttons and the control buttons cannot tell who pressed, so they act for the player
the game waits for.

Variants (board engine): in Capital's `hq_pick` any seat may touch with its token (a
`PickHQ` at once; a pick may be changed until the last seat has picked); on button boards
the seat `state.current_player` (the first not to have picked) touches its HQ and holds
Confirm. The selection then stays unlit (the loop never shows it: picks are secret). In
the two-player games' `setup_place` a touch on a neutral / Allied territory is
`PlaceNeutral`; in the `allied` phase the commander (the opponent, `current_player`)
places the Allied reserve and attacks with Allied territories as with their own, and End
phase is `EndAttack`. RISK Strike has its own gestures (`strike_gestures.py`).

The language itself is written for players in GESTURES.md (same folder).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

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
    attack_dice_range,
    awaiting_players,
    card_sets,
    defence_dice_range,
    fortify_destinations,
    legal_attacks_from,
    load_cards,
    load_map,
)
from pi_app.rules.steps import setup_allowance

BOARD = load_map()
DECK = load_cards()

CONFIRM, UNDO, END_PHASE, ROLL = "confirm", "undo", "end_phase", "roll"
# Optional extra buttons some tables fit (hardware.controls.CONTROL_NAMES):
CANCEL, BLITZ, CYCLE_DICE, CARDS = "cancel", "blitz", "cycle_dice", "cards"
BUTTONS = (CONFIRM, UNDO, END_PHASE, ROLL, CANCEL, BLITZ, CYCLE_DICE, CARDS)


@dataclass(frozen=True)
class Touch:
    """A territory's sensor was touched; `player` is the NFC token's colour if known.

    `player == UNKNOWN_TOKEN` means a tag was read that belongs to nobody.
    """

    territory: str
    player: str | None = None


UNKNOWN_TOKEN = "?"


@dataclass(frozen=True)
class Press:
    """A control button was pressed (`long` after holding it)."""

    button: str
    long: bool = False


InputEvent = Touch | Press


@dataclass(frozen=True)
class Selection:
    """What the player has picked on the board so far (none of it is game state).

    `source`/`target`: attack or fortify pair (or the last territory reinforced, as source);
    `dice`: attack or defence dice chosen (None = the most allowed);
    `count`: armies to move in (None = all that may move) / fortify (None = 1) / RISK
    Strike troop cards to deploy; `defender`: the player a RISK Strike attack aims at;
    `defence`: the defender's dice while a defence prompt is open (None = the most).
    The attacker's aim (`source`, `target`, `dice`) stays through a defence prompt, so the
    next roll is one press.
    """

    source: str | None = None
    target: str | None = None
    dice: int | None = None
    count: int | None = None
    defender: str | None = None
    defence: int | None = None

    @property
    def empty(self) -> bool:
        """True when nothing is selected."""
        return self == EMPTY

    def to_dict(self) -> dict[str, object]:
        """JSON form for status pages."""
        return {"source": self.source, "target": self.target, "dice": self.dice,
                "count": self.count, "defender": self.defender, "defence": self.defence}


EMPTY = Selection()


@dataclass(frozen=True)
class Refusal:
    """A gesture that cannot be done: stable code, a sentence, and where to blink the error.

    `territory` None means the error belongs to no single territory (a button press): the
    loop blinks the acting player's selection or territories instead. `toucher` is the
    token's colour on NFC boards (whose touch it was), None when the board cannot tell.
    """

    code: str
    message: str
    territory: str | None = None
    toucher: str | None = None


@dataclass(frozen=True)
class Decision:
    """What an input amounts to: a command to apply, an undo, a refusal, and the selection.

    `selection` is the selection to keep if the command is accepted (or right away when
    there is no command); if the command is refused, the loop keeps the old selection.
    `limit` names the territory whose +1 / -1 was already at its limit (the count stays;
    the loop blinks it so the player sees why nothing changed).
    `drop`: a refusal that also lets the old selection go (a refused source: the next touch
    must not aim from a territory the player meant to leave).
    """

    selection: Selection
    command: Command | None = None
    undo: bool = False
    refusal: Refusal | None = None
    limit: str | None = None
    drop: bool = False


def waiting_for(state: GameState) -> str | None:
    """The player whose decision the game waits for (pending decision first), or None."""
    if state.winner is not None:
        return None
    if state.pending is not None:
        return str(state.pending["player"])
    return state.current_player


def third_army(state: GameState) -> str | None:
    """The id of the army that is no seat (two-player "neutral", "allied"), or None."""
    army = state.variant_data.get("army") if isinstance(state.variant_data, dict) else None
    return army if isinstance(army, str) else None


def commanded_army(state: GameState, actor: str) -> str:
    """The army `actor` moves now: the Allied Army during its phase, else their own."""
    if state.phase == "allied":
        return third_army(state) or actor
    return actor


def may_touch(state: GameState, player: str) -> bool:
    """True if a token touch by `player` may act now (any seat still to pick during the
    HQ pick, since picks may change until the last; else the one seat awaited)."""
    if state.phase == "hq_pick":
        return player in state.players
    return player in awaiting_players(state)


_SECOND_PERSON = (
    (re.compile(r"\bYou do not\b"), "{who} does not"),
    (re.compile(r"\bYou hold\b"), "{who} holds"),
    (re.compile(r"\b[Yy]ou (cannot|can|may|must)\b"), "{who} \\1"),
    (re.compile(r"\byours\b"), "{who}'s"),
    (re.compile(r"\b[Yy]our\b"), "{who}'s"),
)


def addressed(refusal: Refusal, actor: str | None, state: GameState | None = None) -> str:
    """The refusal's sentence as the table says it: to the token's owner on NFC boards
    ("blue: It is red's move, not blue's."); on button boards, where nobody knows whose
    finger it was, to no one ("Brazil is not red's. It is red's turn.")."""
    message = refusal.message
    if refusal.toucher is not None:
        return f"{refusal.toucher}: {message}"
    if actor is None:
        return message
    for pattern, words in _SECOND_PERSON:
        message = pattern.sub(words.replace("{who}", actor), message)
    pending = state.pending if state is not None else None
    if pending is not None and pending.get("kind") == "defend":
        return f"{message} {actor} is choosing the defence dice."
    return f"{message} It is {actor}'s turn."


def _name(territory: str) -> str:
    return BOARD.names.get(territory, territory)


def _refuse(selection: Selection, code: str, message: str, territory: str | None = None
            ) -> Decision:
    return Decision(selection, refusal=Refusal(code, message, territory))


def best_set(state: GameState, player: str) -> tuple[str, str, str] | None:
    """The set the board trades on a long Confirm: one showing an owned territory (its +2
    bonus) first, while this turn may still give that bonus, then the fewest wilds; None if
    the hand holds no set."""
    return best_of(state, player, card_sets(state, player))


def best_of(state: GameState, player: str, sets: list[tuple[str, str, str]]
            ) -> tuple[str, str, str] | None:
    """The best of `player`'s `sets` as `best_set` ranks them (the first of the best, in
    the order given); None if there are none."""
    if not sets:
        return None
    bonus = not (state.house_rules.territory_bonus_once_per_turn and state.territory_bonus_used)

    def score(cards: tuple[str, str, str]) -> tuple[int, int]:
        owned = bonus and any(state.owner.get(c) == player for c in cards)
        wilds = sum(1 for c in cards if DECK.symbols[c] == "wild")
        return (0 if owned else 1, wilds)

    return min(sets, key=score)


def settle(state: GameState, selection: Selection) -> Selection:
    """Drop the parts of `selection` the game no longer allows (after any change)."""
    if selection.empty:
        return selection
    pending = state.pending
    kind = pending["kind"] if pending else None
    phase = state.phase
    if kind == "defend":
        kept = Selection(defence=selection.defence)
        if (selection.source, selection.target) == (pending["from"], pending["to"]):  # type: ignore[index]
            kept = replace(kept, source=selection.source, target=selection.target,
                           dice=selection.dice)
        return kept
    if kind == "move_in":
        count = selection.count
        if count is None or not pending["min"] <= count <= pending["max"]:  # type: ignore[index]
            return EMPTY
        return Selection(count=count)
    if kind == "trade_down" or phase in ("claim", "setup_place", "reinforce", "hq_pick"):
        src = selection.source
        if src is not None and state.owner.get(src) == state.current_player:
            return Selection(source=src)
        if phase == "setup_place" and src is not None and state.owner.get(src) is not None \
                and state.owner.get(src) == third_army(state):
            return Selection(source=src)
        return EMPTY
    if phase == "allied":
        army = third_army(state)
        src, tgt = selection.source, selection.target
        if src is None or state.owner.get(src) != army:
            return EMPTY
        if state.variant_data.get("reserve"):
            return Selection(source=src)
        if not legal_attacks_from(state, src):
            return EMPTY
        if tgt is not None and tgt not in legal_attacks_from(state, src):
            return Selection(source=src)
        top = attack_dice_range(state, src)[1]
        dice = selection.dice if selection.dice is not None and selection.dice <= top else None
        return Selection(source=src, target=tgt, dice=dice if tgt else None)
    if phase == "attack":
        src, tgt = selection.source, selection.target
        if src is None or not legal_attacks_from(state, src):
            return EMPTY
        if tgt is not None and tgt not in legal_attacks_from(state, src):
            return Selection(source=src)
        top = attack_dice_range(state, src)[1]
        dice = selection.dice if selection.dice is not None and selection.dice <= top else None
        return Selection(source=src, target=tgt, dice=dice if tgt else None)
    if phase == "fortify":
        src, tgt = selection.source, selection.target
        if src is None or not fortify_destinations(state, src):
            return EMPTY
        if tgt is None or tgt not in fortify_destinations(state, src):
            return Selection(source=src)
        count = selection.count or 1
        return Selection(source=src, target=tgt, count=min(count, state.armies[src] - 1))
    return EMPTY


def interpret(state: GameState, selection: Selection, event: InputEvent) -> Decision:
    """Turn one touch or button press into a Decision (pure; never mutates `state`).

    A refusal of a token's touch names the token's colour (`Refusal.toucher`)."""
    decision = _interpret(state, selection, event)
    if decision.refusal is not None and isinstance(event, Touch) \
            and event.player not in (None, UNKNOWN_TOKEN):
        decision = replace(decision, refusal=replace(decision.refusal, toucher=event.player))
    return decision


def _interpret(state: GameState, selection: Selection, event: InputEvent) -> Decision:
    selection = settle(state, selection)
    if state.winner is not None:
        where = event.territory if isinstance(event, Touch) else None
        return _refuse(selection, "game_over", f"The game is over; {state.winner} won.", where)
    actor = waiting_for(state)
    assert actor is not None
    if isinstance(event, Touch):
        if event.territory not in BOARD.adjacency:
            return _refuse(selection, "unknown_territory",
                           f"This board has no territory called {event.territory!r}.")
        if event.player == UNKNOWN_TOKEN:
            return _refuse(selection, "unknown_token",
                           "That tag belongs to no player; touch with your own token.",
                           event.territory)
        if event.player is not None and not may_touch(state, event.player):
            return _refuse(selection, "not_your_turn",
                           f"It is {actor}'s move, not {event.player}'s.", event.territory)
        if event.player is not None:
            actor = event.player
    if isinstance(event, Press):
        event = _canonical(event)
        if event.button == UNDO:
            return Decision(EMPTY) if not selection.empty else Decision(EMPTY, undo=True)
        if event.button == CANCEL:
            return Decision(EMPTY)
    pending = state.pending
    if pending is not None:
        kind = pending["kind"]
        if kind == "defend":
            return _defend(state, selection, event, actor)
        if kind == "move_in":
            return _move_in(state, selection, event, actor)
        return _reinforce(state, selection, event, actor)
    phase = state.phase
    if phase == "claim":
        if isinstance(event, Touch):
            return Decision(EMPTY, Claim(actor, event.territory))
        return _refuse(selection, "touch_to_claim", "Touch an empty territory to claim it.")
    if phase == "hq_pick":
        return _hq_pick(state, selection, event, actor)
    if phase == "setup_place":
        if isinstance(event, Touch):
            t = event.territory
            army = third_army(state)
            if army is not None and state.owner.get(t) == army:
                return Decision(Selection(source=t), PlaceNeutral(actor, t, 1))
            return Decision(Selection(source=t), Place(actor, t, 1))
        if event.button == CONFIRM and not event.long:
            return _confirm_setup(state, selection, actor)
        return _refuse(selection, "touch_to_place",
                       "Touch one of your territories to put an army there.")
    if phase == "reinforce":
        return _reinforce(state, selection, event, actor)
    if phase == "attack":
        return _attack(state, selection, event, actor)
    if phase == "allied":
        if state.variant_data.get("reserve"):
            return _place_allied(state, selection, event, actor)
        return _attack(state, selection, event, actor, army=commanded_army(state, actor))
    if phase == "fortify":
        return _fortify(state, selection, event, actor)
    return _refuse(selection, "wrong_phase", f"Nothing to do during the {phase} phase.")


def _confirm_setup(state: GameState, sel: Selection, actor: str) -> Decision:
    """Confirm in setup: the rest of this setup turn's armies on the last territory touched
    (only with the house rule of several armies per setup turn; one at a time, each touch
    already ends the turn)."""
    if state.house_rules.setup_armies_per_turn == 1:
        return _refuse(sel, "touch_to_place", "During setup each touch places one army and "
                       "the turn passes; Confirm places several only with the house rule of "
                       "several armies per setup turn.")
    if sel.source is None or state.owner.get(sel.source) != actor:
        return _refuse(sel, "choose_territory", "Touch one of your territories first; Confirm "
                       "then puts the rest of this setup turn's armies there.")
    return Decision(sel, Place(actor, sel.source, setup_allowance(state, actor)))


def _canonical(press: Press) -> Press:
    """Extra buttons are shortcuts for long presses of the four standard ones."""
    if press.button == BLITZ:
        return Press(ROLL, long=True)
    if press.button == CARDS:
        return Press(CONFIRM, long=True)
    return press


def _reinforce(state: GameState, sel: Selection, event: InputEvent, actor: str) -> Decision:
    if isinstance(event, Touch):
        t = event.territory
        return Decision(Selection(source=t), Place(actor, t, 1))
    if event.button == CONFIRM and event.long:
        cards = best_set(state, actor)
        if cards is None:
            return _refuse(sel, "no_set", "You hold no set of cards to trade.")
        return Decision(sel, TradeCards(actor, cards))
    if event.button == CONFIRM:
        if sel.source is None:
            return _refuse(sel, "choose_territory",
                           "Touch one of your territories first; Confirm then puts all "
                           "your remaining armies there.")
        return Decision(sel, Place(actor, sel.source, max(state.reserves[actor], 1)))
    if event.button == END_PHASE:
        return Decision(sel, EndAttack(actor))  # the rules explain what is left to place
    return _refuse(sel, "place_first", "Place your armies before rolling dice.")


def _hq_pick(state: GameState, sel: Selection, event: InputEvent, actor: str) -> Decision:
    """Capital's secret pick: a token touch picks at once; on button boards the seat
    picking touches (unlit) and holds Confirm."""
    if isinstance(event, Touch):
        t = event.territory
        if state.owner.get(t) != actor:
            return _refuse(EMPTY, "not_your_territory",
                           f"Your headquarters must be one of your own territories, {actor}.", t)
        if event.player is not None:
            return Decision(EMPTY, PickHQ(actor, t))
        return Decision(Selection(source=t))
    if event.button == CONFIRM and event.long:
        if sel.source is None:
            return _refuse(EMPTY, "choose_hq", f"{actor}: touch your headquarters, then hold "
                           "Confirm.")
        return Decision(EMPTY, PickHQ(actor, sel.source))
    return _refuse(EMPTY, "choose_hq", f"{actor}: touch your headquarters (nobody sees it), "
                   "then hold Confirm.")


def _place_allied(state: GameState, sel: Selection, event: InputEvent, actor: str
                  ) -> Decision:
    """The Allied commander places its reserve: touch = +1, Confirm = the rest there."""
    reserve = int(state.variant_data.get("reserve") or 0)
    if isinstance(event, Touch):
        return Decision(Selection(source=event.territory), Place(actor, event.territory, 1))
    if event.button == CONFIRM:
        if sel.source is None:
            return _refuse(sel, "choose_territory", "Touch an Allied territory first; Confirm "
                           "then puts the whole Allied reserve there.")
        return Decision(sel, Place(actor, sel.source, max(reserve, 1)))
    if event.button == END_PHASE:
        return Decision(sel, EndAttack(actor))  # the rules explain what is left to place
    return _refuse(sel, "place_first", "Place the Allied reserve before rolling dice.")


def _attack(state: GameState, sel: Selection, event: InputEvent, actor: str,
            army: str | None = None) -> Decision:
    army = army or actor
    if isinstance(event, Touch):
        t = event.territory
        if state.owner[t] == army:
            if t == sel.source:
                if sel.target is None:
                    return Decision(sel)  # already the source: touching it again is harmless
                top = attack_dice_range(state, t)[1]
                dice = (sel.dice or top) - 1
                return Decision(replace(sel, dice=dice if dice >= 1 else top))
            # a refused source drops the lit one: the next touch never aims from a
            # territory the player did not mean (issue 23.8)
            if state.armies[t] < 2:
                return replace(_refuse(EMPTY, "too_few_armies",
                                       f"{_name(t)} needs at least 2 armies to attack.", t),
                               drop=True)
            if not legal_attacks_from(state, t):
                return replace(_refuse(EMPTY, "no_enemy_neighbour",
                                       f"{_name(t)} has no enemy neighbour to attack.", t),
                               drop=True)
            return Decision(Selection(source=t))
        if sel.source is None:
            return _refuse(sel, "choose_source_first",
                           "First touch one of your territories to attack from.", t)
        if t not in legal_attacks_from(state, sel.source):
            return _refuse(sel, "not_adjacent",
                           f"{_name(sel.source)} does not border {_name(t)}.", t)
        if t == sel.target:
            return _roll(state, sel, actor)
        return Decision(Selection(source=sel.source, target=t))
    if event.button == CYCLE_DICE and sel.source is not None and sel.target is not None:
        top = attack_dice_range(state, sel.source)[1]
        dice = (sel.dice or top) - 1
        return Decision(replace(sel, dice=dice if dice >= 1 else top))
    if event.button in (ROLL, CONFIRM):
        if sel.source is None or sel.target is None:
            return _refuse(sel, "choose_attack",
                           "Touch your territory, then the enemy territory, then Roll.")
        if event.long:
            return Decision(sel, Blitz(actor, sel.source, sel.target, 1))
        return _roll(state, sel, actor)
    if event.button == END_PHASE:
        if event.long:
            return Decision(EMPTY, EndTurn(actor))
        return Decision(EMPTY, EndAttack(actor))
    return _refuse(sel, "unknown_button", f"The {event.button} button does nothing now.")


def _roll(state: GameState, sel: Selection, actor: str) -> Decision:
    assert sel.source is not None and sel.target is not None
    top = attack_dice_range(state, sel.source)[1]
    dice = min(sel.dice or top, top)
    return Decision(sel, Attack(actor, sel.source, sel.target, dice))


def _defend(state: GameState, sel: Selection, event: InputEvent, actor: str) -> Decision:
    pending = state.pending
    assert pending is not None
    top = int(pending["max_dice"])
    if isinstance(event, Touch):
        if event.territory != pending["to"]:
            return _refuse(sel, "awaiting_defence",
                           f"{actor} must first choose the dice defending {_name(pending['to'])}"
                           f": touch {_name(pending['to'])} for one die fewer, then Roll.",
                           event.territory)
        dice = (sel.defence or top) - 1
        return Decision(replace(sel, defence=dice if dice >= 1 else top))
    if event.button == ROLL:
        low, high = defence_dice_range(state, pending["to"])
        dice = min(max(sel.defence or top, low), high)
        return Decision(replace(sel, defence=None), ChooseDefence(actor, dice))
    return _refuse(sel, "awaiting_defence",
                   f"{actor} must first choose the dice defending {_name(pending['to'])}: "
                   "only Roll (or a touch on it) answers.")


def _move_in(state: GameState, sel: Selection, event: InputEvent, actor: str) -> Decision:
    pending = state.pending
    assert pending is not None
    low, high = int(pending["min"]), int(pending["max"])
    count = sel.count if sel.count is not None else high
    if isinstance(event, Touch):
        if event.territory == pending["to"]:
            return Decision(Selection(count=min(count + 1, high)),
                            limit=event.territory if count >= high else None)
        if event.territory == pending["from"]:
            return Decision(Selection(count=max(count - 1, low)),
                            limit=event.territory if count <= low else None)
        return _refuse(sel, "awaiting_move_in",
                       f"First move armies into {_name(pending['to'])}: touch it for more, "
                       f"{_name(pending['from'])} for fewer, then Confirm.", event.territory)
    if event.button == CONFIRM:
        return Decision(EMPTY, MoveIn(actor, low if event.long else count))
    return _refuse(sel, "awaiting_move_in",
                   f"First move armies into {_name(pending['to'])}, then press Confirm.")


def _fortify(state: GameState, sel: Selection, event: InputEvent, actor: str) -> Decision:
    if isinstance(event, Touch):
        t = event.territory
        if state.owner[t] != actor:
            return _refuse(sel, "not_your_territory",
                           f"{_name(t)} is not yours; fortify between your own territories.", t)
        if sel.source is None:
            if not fortify_destinations(state, t):
                return _refuse(sel, "cannot_fortify_from",
                               f"No armies can leave {_name(t)} now.", t)
            return Decision(Selection(source=t))
        if t == sel.source:
            if sel.target is None:
                return Decision(sel)  # already the source: touching it again is harmless
            count = sel.count or 1
            return Decision(replace(sel, count=max(count - 1, 1)),
                            limit=t if count <= 1 else None)
        if t == sel.target:
            top = state.armies[sel.source] - 1
            count = sel.count or 1
            return Decision(replace(sel, count=min(count + 1, top)),
                            limit=t if count >= top else None)
        if t not in fortify_destinations(state, sel.source):
            return _refuse(sel, "not_connected",
                           f"No chain of your territories links {_name(sel.source)} to "
                           f"{_name(t)}.", t)
        return Decision(Selection(source=sel.source, target=t, count=1))
    if event.button == CONFIRM:
        if sel.source is None or sel.target is None:
            return _refuse(sel, "choose_fortify",
                           "Touch the territory to move from, then the one to move to.")
        count = state.armies[sel.source] - 1 if event.long else (sel.count or 1)
        return Decision(EMPTY, Fortify(actor, sel.source, sel.target, count))
    if event.button == END_PHASE:
        return Decision(EMPTY, EndTurn(actor))
    return _refuse(sel, "unknown_button", f"The {event.button} button does nothing now.")


@dataclass(frozen=True)
class Count:
    """A number the player is setting on the board, for the lights and the state line.

    `what`: "attack_dice", "defence_dice", "move_in" or "fortify"; `value` what Roll /
    Confirm would use now; `low`..`high` its range; `on`: the territory that shows it
    (the source for dice, the destination for armies)."""

    what: str
    value: int
    low: int
    high: int
    on: str

    def to_dict(self) -> dict[str, object]:
        """JSON form for status pages."""
        return {"what": self.what, "value": self.value, "low": self.low, "high": self.high,
                "on": self.on}


def current_count(state: GameState, selection: Selection) -> Count | None:
    """The count the board is setting now (what Roll or Confirm would use), or None."""
    if state.winner is not None or state.phase in ("hq_pick",):
        return None
    sel = settle(state, selection)
    pending = state.pending
    if pending is not None and pending["kind"] == "defend":
        top = int(pending["max_dice"])
        value = min(sel.defence or top, top)
        return Count("defence_dice", value, 1, top, str(pending["to"]))
    if pending is not None and pending["kind"] == "move_in":
        low, high = int(pending["min"]), int(pending["max"])
        value = sel.count if sel.count is not None else high
        return Count("move_in", value, low, high, str(pending["to"]))
    if pending is not None:
        return None
    if state.phase in ("attack", "allied") and sel.source and sel.target:
        top = attack_dice_range(state, sel.source)[1]
        return Count("attack_dice", min(sel.dice or top, top), 1, top, sel.source)
    if state.phase == "fortify" and sel.source and sel.target:
        top = state.armies[sel.source] - 1
        return Count("fortify", min(sel.count or 1, top), 1, top, sel.target)
    return None
