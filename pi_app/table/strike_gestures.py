"""RISK Strike's gesture language on the board: (Strike state, selection, input) -> Decision.

Pure, like `gestures.py` (same `Touch`, `Press`, `Selection`, `Decision` types). The map
has no armies in Strike: a territory touch stands for its continent
(`pi_app.rules.strike.continent_of_territory`). Written for players in GESTURES.md.

- Draw: **Confirm** = 1 continent + 1 tactics card, hold **Confirm** = 2 continent cards,
  **Roll** = 2 tactics cards.
- Declare an attack: touch a territory of your attacking continent (it shines in your
  colour), then one of the defending continent (the same or a connected one; it flickers
  between your colour and the defender's). The defender is the next player (in seat order
  after you) holding cards of that continent; touch the defending continent again for the
  next such player. **Roll** (or **Confirm**) declares; touching your continent again drops
  the choice. **End phase** passes the turn (draws the pass card).
- Deploy (attacker, then defender): each touch on your own side's continent adds one troop
  card (`Selection.count`), **Confirm** deploys that many (none without touches).
- Ready: **Roll** rolls (again), **End phase** ends the attack.
- Reaction windows: on NFC boards a token touch anywhere is that player's `Pass`; on any
  board, holding **End phase** says "nobody at the table plays more": the table closes the
  window itself, as its timer would (`CloseWindow`), so a button board never has to sit
  out the whole timer. Tactics cards are played, and single players pass, on the phones.

Supporters' troops, tactics cards and Spy/Expand are phone decisions (hidden hands).
"""

from __future__ import annotations

from pi_app.rules import Command
from pi_app.rules.strike import (
    CloseWindow,
    DeclareAttack,
    Deploy,
    Draw,
    EndAttack,
    Pass,
    PassTurn,
    Roll,
    StrikeState,
    continent_of_territory,
    load_strike_deck,
    waiting_for,
)
from pi_app.rules.strike.queries import decider
from pi_app.table.gestures import (
    BOARD,
    CONFIRM,
    EMPTY,
    END_PHASE,
    ROLL,
    UNDO,
    UNKNOWN_TOKEN,
    Decision,
    InputEvent,
    Press,
    Refusal,
    Selection,
    Touch,
)
from pi_app.table.lights import Highlight

DECK = load_strike_deck()


def _refuse(sel: Selection, code: str, message: str, territory: str | None = None) -> Decision:
    return Decision(sel, refusal=Refusal(code, message, territory))


def continent_area(continent: str) -> tuple[str, ...]:
    """The territories lit for `continent`."""
    return tuple(sorted(BOARD.members[continent]))


def defenders_for(state: StrikeState, attacker: str, continent: str) -> list[str]:
    """Players who may be attacked on `continent`: holders of its cards, seat order after
    the attacker."""
    seats = state.players
    start = seats.index(attacker)
    order = seats[start + 1:] + seats[:start]
    return [p for p in order if state.cards_of(p, continent) > 0]


def settle(state: StrikeState, sel: Selection) -> Selection:
    """Drop what the game no longer allows (after any change)."""
    if sel.empty:
        return sel
    if state.window is not None or state.winner is not None:
        return EMPTY
    if state.phase == "choose":
        return sel if sel.source is not None else EMPTY
    battle = state.battle
    if battle is not None and battle["step"] in ("attacker_deploy", "defender_deploy"):
        return Selection(count=sel.count) if sel.count else EMPTY
    return EMPTY


def interpret(state: StrikeState, selection: Selection, event: InputEvent) -> Decision:
    """Turn one touch or button press into a Decision for a Strike game."""
    sel = settle(state, selection)
    where = event.territory if isinstance(event, Touch) else None
    if state.winner is not None:
        return _refuse(sel, "game_over", f"The game is over; {state.winner} won.", where)
    awaited = waiting_for(state)
    if isinstance(event, Touch):
        if event.territory not in BOARD.adjacency:
            return _refuse(sel, "unknown_territory",
                           f"This board has no territory called {event.territory!r}.")
        if event.player == UNKNOWN_TOKEN:
            return _refuse(sel, "unknown_token",
                           "That tag belongs to no player; touch with your own token.", where)
        if event.player is not None and event.player not in awaited:
            who = ", ".join(awaited) or "nobody"
            return _refuse(sel, "not_your_turn", f"The game waits for {who}, not "
                           f"{event.player}.", where)
    elif event.button == UNDO:
        return Decision(EMPTY) if not sel.empty else Decision(EMPTY, undo=True)
    if state.window is not None:
        if isinstance(event, Touch) and event.player is not None:
            return Decision(EMPTY, Pass(event.player))
        if isinstance(event, Press) and event.button == END_PHASE and event.long:
            return Decision(EMPTY, CloseWindow(window=state.window["id"]))
        return _refuse(sel, "window_open", "Reactions are being collected on the phones; "
                       "pass there (or with your token), hold End phase when nobody plays "
                       "more, or wait for the timer.", where)
    actor = decider(state)
    if actor is None:
        return _refuse(sel, "wrong_phase", "Nothing to do on the board now.", where)
    if state.phase == "draw":
        return _draw(sel, event, actor)
    if state.phase == "choose":
        return _choose(state, sel, event, actor)
    return _battle(state, sel, event, actor)


def _draw(sel: Selection, event: InputEvent, actor: str) -> Decision:
    if isinstance(event, Press):
        if event.button == CONFIRM:
            return Decision(EMPTY, Draw(actor, 2, 0) if event.long else Draw(actor, 1, 1))
        if event.button == ROLL:
            return Decision(EMPTY, Draw(actor, 0, 2))
    return _refuse(sel, "draw_first", "Draw first: Confirm = 1 continent + 1 tactics card, "
                   "hold Confirm = 2 continent cards, Roll = 2 tactics cards.",
                   event.territory if isinstance(event, Touch) else None)


def _choose(state: StrikeState, sel: Selection, event: InputEvent, actor: str) -> Decision:
    if isinstance(event, Press):
        if event.button == END_PHASE:
            return Decision(EMPTY, PassTurn(actor))
        if event.button in (ROLL, CONFIRM):
            if sel.source is None or sel.target is None or sel.defender is None:
                return _refuse(sel, "choose_attack", "Touch your attacking continent, then "
                               "the defending one, then Roll (End phase passes).")
            command: Command = DeclareAttack(actor, sel.defender,
                                             continent_of_territory(sel.source),
                                             continent_of_territory(sel.target))
            return Decision(EMPTY, command)
        return _refuse(sel, "unknown_button", f"The {event.button} button does nothing now.")
    t = event.territory
    touched = continent_of_territory(t)
    name = DECK.continent_names[touched]
    if sel.source is None:
        if state.cards_of(actor, touched) == 0:
            return _refuse(sel, "no_continent_cards",
                           f"You have no {name} card to attack from.", t)
        return Decision(Selection(source=t))
    attack = continent_of_territory(sel.source)
    if sel.target is not None and touched == continent_of_territory(sel.target):
        order = defenders_for(state, actor, touched)
        nxt = order[(order.index(sel.defender) + 1) % len(order)] if sel.defender in order \
            else order[0]
        return Decision(Selection(source=sel.source, target=sel.target, defender=nxt))
    if touched == attack and (t == sel.source or sel.target is not None):
        return Decision(EMPTY if sel.target is None else Selection(source=sel.source))
    if not DECK.may_attack(attack, touched):
        return _refuse(sel, "not_connected", f"{DECK.continent_names[attack]} is not "
                       f"connected to {name}.", t)
    order = defenders_for(state, actor, touched)
    if not order:
        return _refuse(sel, "no_continent_cards", f"Nobody else holds a {name} card.", t)
    return Decision(Selection(source=sel.source, target=t, defender=order[0]))


def _battle(state: StrikeState, sel: Selection, event: InputEvent, actor: str) -> Decision:
    battle = state.battle
    assert battle is not None
    step = battle["step"]
    where = event.territory if isinstance(event, Touch) else None
    if step in ("attacker_deploy", "defender_deploy"):
        own = battle["attack_continent"] if step == "attacker_deploy" \
            else battle["defence_continent"]
        if isinstance(event, Touch):
            if continent_of_territory(event.territory) != own:
                return _refuse(sel, "touch_your_side", f"{actor}: touch "
                               f"{DECK.continent_names[own]} once per troop card, then "
                               "Confirm.", where)
            return Decision(Selection(count=(sel.count or 0) + 1))
        if event.button == CONFIRM:
            return Decision(EMPTY, Deploy(actor, sel.count or 0))
        return _refuse(sel, "deploy_first", f"{actor}: deploy troop cards first (touch your "
                       "continent once per card, then Confirm).")
    if isinstance(event, Press) and event.button == ROLL:
        return Decision(EMPTY, Roll(actor))
    if isinstance(event, Press) and event.button == END_PHASE:
        return Decision(EMPTY, EndAttack(actor))
    return _refuse(sel, "roll_or_stop", "Roll to fight on, or End phase to stop the attack.",
                   where)


def highlight(state: StrikeState, sel: Selection) -> Highlight:
    """The battle (or the attack being chosen) as continents lit on the board."""
    battle = state.battle
    if battle is not None and state.winner is None:
        return Highlight(source_area=continent_area(battle["attack_continent"]),
                         target_area=continent_area(battle["defence_continent"]),
                         mover=battle["attacker"], defender=battle["defender"])
    if state.phase == "choose" and sel.source is not None:
        target = continent_area(continent_of_territory(sel.target)) if sel.target else ()
        return Highlight(source_area=continent_area(continent_of_territory(sel.source)),
                         target_area=target, mover=state.current_player,
                         defender=sel.defender)
    return Highlight()
