"""The rules engine: `new_game(...)` and `apply(state, command, rng)`.

Every handler validates the command completely before touching the state, then mutates
the state in place (no copies) and returns the events. An illegal command raises
`RuleError(code, message)` and changes nothing.

Decisions documented here (see also RULES.md):
- Decision (blitz defence): a Blitz always rolls the maximum defence dice (2, or 1 when the
  territory holds a single army), even with `house_rules.defender_chooses_dice`; the
  defender is not asked between rolls. An attacker who wants to let the defender choose
  attacks roll by roll with `Attack` (the Blitz button is a shortcut both players accept).
- When the defender has a single army (one possible defence die), an Attack resolves at
  once without waiting for ChooseDefence: there is nothing to choose.
- When the conquest move-in has only one legal count (min == max), it happens at once.
  Otherwise the minimum (the dice last rolled) moves in at once, so no territory is ever
  empty, and `pending = {"kind": "move_in", "min", "max"}` waits for MoveIn(count), where
  count is the total that ends up in the conquered territory (min..max).
- The +2 pictured-territory bonus goes straight onto that territory (the first owned
  pictured territory in the order the cards are given). With
  `territory_bonus_once_per_turn = false` it is given at most once per traded set.
- Reinforcements, including armies from card trades, must all be placed before attacking.
  After an elimination that leaves 6+ cards, `pending = {"kind": "trade_down"}`: trade until
  4 or fewer cards remain, place those armies, then continue attacking.
- Fortify may be given straight from the attack phase (it ends the attack and the turn),
  except in the Allied Army game while that army lives (its phase comes first).
- After a conquest the minimum moves in before the victory check, so a mission counting
  occupied territories sees the conquered one.

Variants plug in through `pi_app.rules.variants.Variant`: `apply` looks up the variant's
handler table (Classic's handlers, some overridden) and its after-command hook once per
command; Classic's table has no hook, so its hot path is unchanged. The public names at
the bottom (`start_turn`, `declare_attack`, `blitz`, `declare_winner`, `*_classic`, ...)
are the steps variant modules reuse instead of copying them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_app.rules.battle import LOSSES, losses
from pi_app.rules.board import load_cards, load_map, load_roster
from pi_app.rules.cards import is_set, shuffle
from pi_app.rules.commands import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    Command,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    TradeCards,
)
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event, Outcome
from pi_app.rules.house_rules import HouseRules
from pi_app.rules.state import (
    ALLIED,
    ATTACK,
    CLAIM,
    FORTIFY,
    GAME_OVER,
    REINFORCE,
    SETUP_PLACE,
    GameState,
)
from pi_app.rules.variants import get_variant

if TYPE_CHECKING:
    from pi_app.dice import RandomSource

BOARD = load_map()
DECK = load_cards()
ADJ = BOARD.adjacency
Handler = Any  # (state, command, rng, events) -> None
CARD_LIMIT_AFTER_TAKEOVER = 4
TAKEOVER_TRADE_AT = 6
FORCED_TRADE_AT = 5


def new_game(variant: str, players: list[str], house_rules: HouseRules | None,
             rng: RandomSource) -> Outcome:
    """Start a game: validate players, then run the variant's setup with `rng`."""
    rules = house_rules if house_rules is not None else HouseRules()
    if not isinstance(rules, HouseRules):
        raise RuleError("bad_house_rules", "house_rules must be a HouseRules object")
    var = get_variant(variant)
    roster = load_roster()
    low, high = var.player_limits
    if not isinstance(players, list | tuple) or not low <= len(players) <= high:
        raise RuleError("bad_players",
                        f"{var.name} needs {low} to {high} players, got "
                        f"{len(players) if isinstance(players, list | tuple) else players!r}.")
    for p in players:
        if p not in roster.colours:
            raise RuleError("bad_players", f"{p!r} is not a colour; use one of "
                            + ", ".join(roster.colours) + ".")
    if len(set(players)) != len(players):
        raise RuleError("bad_players", "Every player needs a different colour.")
    state = GameState(var.name, list(players), rules, BOARD.territories)
    events: list[Event] = [Event("game_started", variant=var.name, players=list(players))]
    var.setup(state, BOARD, DECK, roster, rng, events)
    return Outcome(state, events)


def apply(state: GameState, command: Command, rng: RandomSource) -> Outcome:
    """Apply `command` to `state` (in place) and return the new state and its events."""
    rules = _RULES.get(state.variant)
    if rules is None:
        rules = _rules_for(state.variant)
    table, after = rules
    handler = table.get(type(command))
    if handler is None:
        raise RuleError("bad_command", f"{type(command).__name__} is not a command of this game.")
    if state.phase == GAME_OVER:
        raise RuleError("game_over", f"The game is over; {state.winner} won.")
    player = command.player
    if player not in state.reserves:
        raise RuleError("unknown_player", f"{player!r} is not playing in this game.")
    pending = state.pending
    if pending is None and type(command) in _NEED_PENDING:
        raise RuleError("nothing_pending", "Nothing is waiting for that answer now.")
    if pending is not None:
        if player != pending["player"]:
            raise RuleError("not_your_turn", _waiting_sentence(pending))
        if type(command) not in _ANSWERS[pending["kind"]]:
            raise RuleError("awaiting_decision", _waiting_sentence(pending))
    elif (player != state.current_player
          and type(command) not in get_variant(state.variant).any_seat_commands):
        raise RuleError("not_your_turn", _turn_sentence(state, player))
    events: list[Event] = []
    handler(state, command, rng, events)
    if after is not None:
        after(state, command, events)
    return Outcome(state, events)


def _rules_for(name: str) -> tuple[dict[type, Handler], Handler | None]:
    """Variant `name`'s command handlers (Classic's, overridden by its own) and its
    after-command hook, built once."""
    variant = get_variant(name)
    table = dict(_HANDLERS)
    table.update(variant.handlers)
    rules = _RULES[name] = (table, variant.after_command)
    return rules


def _turn_sentence(state: GameState, player: str) -> str:
    if state.phase == ALLIED:
        return (f"{state.current_player} commands the Allied Army now; {player} continues "
                "when that phase ends.")
    return f"It is {state.current_player}'s turn, not {player}'s."


def _waiting_sentence(pending: dict[str, Any]) -> str:
    kind = pending["kind"]
    who = pending["player"]
    if kind == "defend":
        return f"Waiting for {who} to choose how many dice defend {pending['to']}."
    if kind == "move_in":
        return f"Waiting for {who} to move armies into {pending['to']}."
    return f"Waiting for {who} to trade cards down to {CARD_LIMIT_AFTER_TAKEOVER} and place them."


# --- validation helpers (raise, never mutate) --------------------------------------------
def _territory(tid: str) -> None:
    if tid not in ADJ:
        raise RuleError("unknown_territory", f"There is no territory called {tid!r}.")


def _own(state: GameState, player: str, tid: str) -> None:
    _territory(tid)
    if state.owner[tid] != player:
        raise RuleError("not_your_territory", f"{BOARD.names[tid]} is not yours.")


def _phase(state: GameState, *phases: str, doing: str) -> None:
    if state.phase not in phases:
        raise RuleError("wrong_phase", f"You cannot {doing} during the {state.phase} phase.")


def _count(count: int, low: int, high: int, what: str, kind: str = "") -> None:
    """Refuse (`bad_count`) a count outside [low, high]: `what` is the verb ("place",
    "move", "move in"), `kind` an optional adjective for the armies ("neutral")."""
    if type(count) is not int or not low <= count <= high:
        armies = f"{kind} armies".strip()
        if low > high:
            raise RuleError("bad_count", f"There are no {armies} to {what} now.")
        if low == high:
            one = f"{kind} army".strip() if low == 1 else armies
            raise RuleError("bad_count", f"You can {what} exactly {low} {one}, not {count!r}.")
        raise RuleError("bad_count", f"You can {what} {low} to {high} {armies}, not {count!r}.")


# --- setup -------------------------------------------------------------------------------
def _next_seat(state: GameState, player: str) -> str:
    players = state.players
    return players[(players.index(player) + 1) % len(players)]


def _claim(state: GameState, cmd: Claim, rng: RandomSource, events: list[Event]) -> None:
    _phase(state, CLAIM, doing="claim a territory")
    tid = cmd.territory
    _territory(tid)
    if state.owner[tid] is not None:
        raise RuleError("territory_taken", f"{BOARD.names[tid]} already belongs to "
                        f"{state.owner[tid]}.")
    player = cmd.player
    state.owner[tid] = player
    state.armies[tid] = 1
    state.reserves[player] -= 1
    events.append(Event("claimed", player=player, territory=tid))
    state.current_player = _next_seat(state, player)
    if None not in state.owner.values():
        state.phase = SETUP_PLACE
        _advance_setup_placement(state, player, events)


def _advance_setup_placement(state: GameState, last: str, events: list[Event]) -> None:
    """Hand the next setup placement to the next player (to the left) with armies left."""
    nxt = last
    for _ in state.players:
        nxt = _next_seat(state, nxt)
        if state.reserves[nxt] > 0:
            state.current_player = nxt
            return
    get_variant(state.variant).setup_done(state, events)


def _place(state: GameState, cmd: Place, rng: RandomSource, events: list[Event]) -> None:
    player, tid, count = cmd.player, cmd.territory, cmd.count
    phase = state.phase
    pending = state.pending
    if phase == SETUP_PLACE:
        _own(state, player, tid)
        if count != 1:
            raise RuleError("one_at_a_time", "During setup armies are placed one at a time.")
        state.armies[tid] += 1
        state.reserves[player] -= 1
        events.append(Event("placed", player=player, territory=tid, count=1))
        _advance_setup_placement(state, player, events)
        return
    if phase != REINFORCE and pending is None:
        _phase(state, REINFORCE, doing="place armies")
    _own(state, player, tid)
    limit = FORCED_TRADE_AT if pending is None else CARD_LIMIT_AFTER_TAKEOVER + 1
    if len(state.hands[player]) >= limit:
        raise RuleError("must_trade_cards", f"With {len(state.hands[player])} cards you must "
                        "trade a set before placing armies.")
    _count(count, 1, state.reserves[player], "place")
    state.armies[tid] += count
    left = state.reserves[player] = state.reserves[player] - count
    events.append(Event("placed", player=player, territory=tid, count=count))
    if left == 0:
        if pending is None:
            state.phase = ATTACK
            events.append(Event("phase", player=player, phase=ATTACK))
        else:
            state.pending = None


# --- turns -------------------------------------------------------------------------------
def start_turn(state: GameState, player: str, events: list[Event], first: bool = False) -> None:
    """Begin `player`'s turn: reinforce phase with their reinforcements in reserve."""
    variant = get_variant(state.variant)
    state.current_player = player
    state.turn = 1 if first else state.turn + 1
    state.phase = REINFORCE
    state.conquered_this_turn = False
    state.territory_bonus_used = False
    state.pending = None
    count = variant.reinforcements(state, BOARD, player)
    state.reserves[player] += count
    events.append(Event("turn_started", player=player, turn=state.turn, reinforcements=count,
                        must_trade=len(state.hands[player]) >= FORCED_TRADE_AT))
    variant.turn_started(state, player, count, events)


def end_turn_now(state: GameState, player: str, rng: RandomSource, events: list[Event]) -> None:
    """Draw the turn's card if `player` conquered, then start the next player's turn."""
    if state.conquered_this_turn:
        if not state.deck and state.discard:
            state.deck = state.discard
            state.discard = []
            shuffle(state.deck, rng)
            events.append(Event("deck_reshuffled", cards=len(state.deck)))
        if state.deck:
            card = state.deck.pop()
            state.hands[player].append(card)
            events.append(Event("card_drawn", player=player, card=card))
    events.append(Event("turn_ended", player=player))
    start_turn(state, get_variant(state.variant).next_player(state, player), events)


def _end_attack(state: GameState, cmd: EndAttack, rng: RandomSource, events: list[Event]) -> None:
    _ready_to_attack(state, "end the attack")
    state.phase = FORTIFY
    events.append(Event("phase", player=cmd.player, phase=FORTIFY))


def _end_turn(state: GameState, cmd: EndTurn, rng: RandomSource, events: list[Event]) -> None:
    if state.phase != FORTIFY:
        _ready_to_attack(state, "end your turn")
    end_turn_now(state, cmd.player, rng, events)


def _ready_to_attack(state: GameState, doing: str) -> None:
    if state.phase == REINFORCE:
        left = state.reserves[state.current_player]
        raise RuleError("armies_to_place", f"Place your {left} remaining armies first.")
    _phase(state, ATTACK, doing=doing)


# --- cards -------------------------------------------------------------------------------
def _trade(state: GameState, cmd: TradeCards, rng: RandomSource, events: list[Event]) -> None:
    player, cards = cmd.player, cmd.cards
    pending = state.pending
    if pending is None:
        _phase(state, REINFORCE, doing="trade cards")
    hand = state.hands[player]
    if pending is not None and len(hand) <= CARD_LIMIT_AFTER_TAKEOVER:
        raise RuleError("trade_not_needed", f"You hold {len(hand)} cards; place your armies.")
    if len(cards) != 3:
        raise RuleError("not_a_set", "A set is exactly 3 cards.")
    if len(set(cards)) != 3:
        raise RuleError("duplicate_cards", "A set needs 3 different cards.")
    for card in cards:
        if card not in hand:
            raise RuleError("card_not_in_hand", f"You do not hold the card {card!r}.")
    if not is_set(cards, DECK):
        raise RuleError("not_a_set", "Those cards are not a set: three of one symbol, one of "
                        "each, or any two with a wild.")
    value = DECK.trade_value(state.trade_count)
    state.trade_count += 1
    for card in cards:
        hand.remove(card)
    state.discard.extend(cards)
    state.reserves[player] += value
    events.append(Event("cards_traded", player=player, cards=list(cards), armies=value,
                        trade_count=state.trade_count))
    once = state.house_rules.territory_bonus_once_per_turn
    if not (once and state.territory_bonus_used):
        for card in cards:
            if state.owner.get(card) == player:
                state.armies[card] += DECK.territory_bonus
                state.territory_bonus_used = True
                events.append(Event("territory_bonus", player=player, territory=card,
                                    armies=DECK.territory_bonus))
                break


# --- battle ------------------------------------------------------------------------------
def _check_attack(state: GameState, player: str, source: str, target: str) -> int:
    """Validate an attack from `source` to `target`; return the source's army count."""
    _ready_to_attack(state, "attack")
    _own(state, player, source)
    _territory(target)
    if state.owner[target] == player:
        raise RuleError("own_territory", f"{BOARD.names[target]} is already yours.")
    if target not in ADJ[source]:
        raise RuleError("not_adjacent", f"{BOARD.names[source]} does not border "
                        f"{BOARD.names[target]}.")
    armies = state.armies[source]
    if armies < 2:
        raise RuleError("too_few_armies", f"Attacking needs at least 2 armies in "
                        f"{BOARD.names[source]}.")
    return armies


def _attack(state: GameState, cmd: Attack, rng: RandomSource, events: list[Event]) -> None:
    source, target, dice = cmd.source, cmd.target, cmd.dice
    armies = _check_attack(state, cmd.player, source, target)
    top = min(3, armies - 1)
    if type(dice) is not int or not 1 <= dice <= top:
        raise RuleError("bad_dice", f"From {BOARD.names[source]} you may roll 1 to {top} "
                        "attack dice.")
    declare_attack(state, cmd.player, source, target, dice, rng, events)


def declare_attack(state: GameState, attacker: str, source: str, target: str, dice: int,
                   rng: RandomSource, events: list[Event]) -> None:
    """A validated attack by army `attacker`: wait for the defence dice, or roll at once."""
    defence_max = min(2, state.armies[target])
    if state.house_rules.defender_chooses_dice and defence_max > 1:
        chooser = get_variant(state.variant).defence_chooser(state, target)
        state.pending = {"kind": "defend", "player": chooser, "attacker": attacker,
                         "from": source, "to": target, "attack_dice": dice,
                         "max_dice": defence_max}
        events.append(Event("attack_declared", {"attacker": attacker, "defender": chooser,
                                                "from": source, "to": target,
                                                "attack_dice": dice}))
        return
    _roll(state, attacker, source, target, dice, defence_max, rng, events)


def _choose_defence(state: GameState, cmd: ChooseDefence, rng: RandomSource,
                    events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    top = pending["max_dice"]
    if type(cmd.dice) is not int or not 1 <= cmd.dice <= top:
        raise RuleError("bad_dice", f"You may defend with 1 to {top} dice.")
    state.pending = None
    _roll(state, pending["attacker"], pending["from"], pending["to"], pending["attack_dice"],
          cmd.dice, rng, events)


def _blitz(state: GameState, cmd: Blitz, rng: RandomSource, events: list[Event]) -> None:
    player, source, target, stop_at = cmd.player, cmd.source, cmd.target, cmd.stop_at
    armies = _check_attack(state, player, source, target)
    if state.house_rules.physical_dice:
        # a blitz rolls an unknown number of times: typed dice cannot be asked for up front
        raise RuleError("blitz_needs_electronic_dice", "Blitz needs electronic dice; with "
                        "dice typed in from the table, attack roll by roll.")
    if type(stop_at) is not int or stop_at < 1:
        raise RuleError("bad_stop_at", "The blitz stop level must be at least 1 army.")
    if armies <= stop_at:
        raise RuleError("too_few_armies", f"{BOARD.names[source]} already has only {armies} "
                        f"armies, at or below the stop level {stop_at}.")
    blitz(state, player, source, target, stop_at, rng, events)


def blitz(state: GameState, player: str, source: str, target: str, stop_at: int,
          rng: RandomSource, events: list[Event]) -> None:
    """A validated blitz by army `player`: maximum-dice rolls until a side stops."""
    army = state.armies
    armies = army[source]
    roll = rng.roll
    defender = state.owner[target]
    table = LOSSES
    append = events.append
    a = armies
    t = army[target]
    # Armies are tracked locally and written back once, so a failing dice source (e.g. a
    # replay mismatch) leaves the state untouched.
    battles: list[Event] = []
    add = battles.append
    while True:
        adice = 3 if a > 3 else a - 1
        af = roll(adice)
        df = roll(2 if t > 1 else 1)
        try:
            lost_a, lost_d = table[af, df]
        except (KeyError, TypeError):
            lost_a, lost_d = losses(af, df)
        a -= lost_a
        t -= lost_d
        add(Event("battle", {"attacker": player, "defender": defender, "from": source,
                             "to": target, "attack_dice": af, "defence_dice": df,
                             "attacker_losses": lost_a, "defender_losses": lost_d}))
        if t == 0 or a <= stop_at:
            break
    army[source] = a
    army[target] = t
    events.extend(battles)
    if t == 0:
        _conquer(state, player, source, target, adice, events)
    else:
        append(Event("blitz_stopped", {"attacker": player, "from": source, "to": target,
                                       "armies": a}))


def _roll(state: GameState, player: str, source: str, target: str, adice: int, ddice: int,
          rng: RandomSource, events: list[Event]) -> None:
    af = rng.roll(adice)
    df = rng.roll(ddice)
    lost_a, lost_d = losses(af, df)
    army = state.armies
    army[source] -= lost_a
    army[target] -= lost_d
    events.append(Event("battle", {"attacker": player, "defender": state.owner[target],
                                   "from": source, "to": target, "attack_dice": af,
                                   "defence_dice": df, "attacker_losses": lost_a,
                                   "defender_losses": lost_d}))
    if army[target] == 0:
        _conquer(state, player, source, target, adice, events)


def _conquer(state: GameState, player: str, source: str, target: str, dice: int,
             events: list[Event]) -> None:
    previous = state.owner[target]
    assert previous is not None
    state.owner[target] = player
    state.conquered_this_turn = True
    events.append(Event("conquered", {"player": player, "defender": previous,
                                      "from": source, "to": target}))
    variant = get_variant(state.variant)
    hands = state.hands
    # Only seats are eliminated; a neutral or allied army losing its last territory is the
    # variant's business (after_conquest).
    eliminated = previous in hands and previous not in state.owner.values()
    if eliminated:
        state.eliminated.append(previous)
        taken = hands[previous]
        hands[previous] = []
        receiver = hands.get(player)
        if receiver is not None:
            receiver.extend(taken)
        else:  # a neutral or allied army takes no cards: they are discarded
            state.discard.extend(taken)
        events.append(Event("eliminated", player=previous, by=player, cards_taken=len(taken)))
        if taken and receiver is not None:
            events.append(Event("cards_taken", player=player, source=previous,
                                cards=list(taken)))
    variant.after_conquest(state, target, previous, events)
    army = state.armies
    low = dice
    high = army[source] - 1
    # The minimum moves at once so no territory is ever empty (and a victory check sees
    # the conquered territory occupied); MoveIn sets the final total.
    army[source] -= low
    army[target] += low
    winner = variant.check_victory(state)
    if winner is not None:
        events.append(Event("moved_in", {"player": player, "from": source, "to": target,
                                         "count": low}))
        declare_winner(state, winner, events)
        return
    if low >= high:
        _move(state, player, source, target, high - low, events)
        events[-1].data["count"] = high
        _after_move(state, player, eliminated)
        return
    state.pending = {"kind": "move_in", "player": player, "from": source, "to": target,
                     "min": low, "max": high, "eliminated": eliminated}


def declare_winner(state: GameState, winner: str, events: list[Event]) -> None:
    """End the game: `winner` won (the variant may add events, e.g. reveal a mission)."""
    state.winner = winner
    state.phase = GAME_OVER
    state.pending = None
    events.append(Event("game_won", winner=winner))
    get_variant(state.variant).on_victory(state, winner, events)


def _move(state: GameState, player: str, source: str, target: str, count: int,
          events: list[Event]) -> None:
    state.armies[source] -= count
    state.armies[target] += count
    events.append(Event("moved_in", {"player": player, "from": source, "to": target,
                                     "count": count}))


def _after_move(state: GameState, player: str, eliminated: bool) -> None:
    if eliminated and len(state.hands[player]) >= TAKEOVER_TRADE_AT:
        state.pending = {"kind": "trade_down", "player": player,
                         "limit": CARD_LIMIT_AFTER_TAKEOVER}
    else:
        state.pending = None


def _move_in(state: GameState, cmd: MoveIn, rng: RandomSource, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None
    low = pending["min"]
    _count(cmd.count, low, pending["max"], "move in")
    _move(state, pending.get("army", cmd.player), pending["from"], pending["to"],
          cmd.count - low, events)
    events[-1].data["count"] = cmd.count
    _after_move(state, cmd.player, pending["eliminated"])


# --- fortify -----------------------------------------------------------------------------
def connected_through_own(state: GameState, player: str, source: str) -> set[str]:
    """Territories reachable from `source` through a chain of `player`'s territories."""
    owner = state.owner
    seen = {source}
    frontier = [source]
    while frontier:
        for nxt in ADJ[frontier.pop()]:
            if nxt not in seen and owner[nxt] == player:
                seen.add(nxt)
                frontier.append(nxt)
    seen.discard(source)
    return seen


def _fortify(state: GameState, cmd: Fortify, rng: RandomSource, events: list[Event]) -> None:
    player, source, target, count = cmd.player, cmd.source, cmd.target, cmd.count
    if state.phase != FORTIFY:
        _ready_to_attack(state, "fortify")
    _own(state, player, source)
    _own(state, player, target)
    if source == target:
        raise RuleError("same_territory", "Choose two different territories.")
    if state.house_rules.fortify == "adjacent":
        if target not in ADJ[source]:
            raise RuleError("not_adjacent", f"{BOARD.names[source]} does not border "
                            f"{BOARD.names[target]}; this table fortifies to adjacent "
                            "territories only.")
    elif target not in connected_through_own(state, player, source):
        raise RuleError("not_connected", f"No chain of your territories links "
                        f"{BOARD.names[source]} to {BOARD.names[target]}.")
    _count(count, 1, state.armies[source] - 1, "move")
    state.armies[source] -= count
    state.armies[target] += count
    events.append(Event("fortified", {"player": player, "from": source, "to": target,
                                      "count": count}))
    end_turn_now(state, player, rng, events)


_HANDLERS: dict[type, Handler] = {
    Claim: _claim, Place: _place, TradeCards: _trade, Attack: _attack,
    ChooseDefence: _choose_defence, Blitz: _blitz, MoveIn: _move_in, EndAttack: _end_attack,
    EndTurn: _end_turn, Fortify: _fortify,
}
_ANSWERS: dict[str, tuple[type, ...]] = {
    "defend": (ChooseDefence,),
    "move_in": (MoveIn,),
    "trade_down": (TradeCards, Place),
}
_NEED_PENDING = (ChooseDefence, MoveIn)
# Per variant: the handler table (Classic's plus overrides) and the after-command hook.
_RULES: dict[str, tuple[dict[type, Handler], Handler | None]] = {"classic": (_HANDLERS, None)}

# Names variant modules use to reuse Classic's steps (they override, never copy, them).
place_classic = _place
claim_classic = _claim
attack_classic = _attack
trade_classic = _trade
blitz_classic = _blitz
end_attack_classic = _end_attack
end_turn_classic = _end_turn
fortify_classic = _fortify
own_territory = _own
check_count = _count
require_phase = _phase
next_seat = _next_seat
advance_setup_placement = _advance_setup_placement
