"""Classic RISK's steps: every command handler and turn step of the board game, each given
the variant whose hooks it calls (`variant.setup_done`, `reinforcements`, `turn_started`,
`next_player`, `defence_chooser`, `after_conquest`, `check_victory`, `on_victory`).

This is the layer between the data (state, board, cards, battle) and the variants: it never
imports a variant or the registry, so the variants build on it and `engine.apply` on them.
A handler is `handler(variant, state, command, rng, events)`: it validates the command
completely before touching the state, then mutates the state in place (no copies) and
appends the events. An illegal command raises `RuleError(code, message)` and changes
nothing. Variant modules reuse these steps (`*_classic`, `start_turn`, `declare_attack`,
`blitz`, `declare_winner`, the `check_*` validations) instead of copying them.

Decisions documented here (see also docs/RULES.md):
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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_app.rules.battle import LOSSES, attack_dice_limit, losses
from pi_app.rules.board import load_cards, load_map
from pi_app.rules.cards import is_set, shuffle
from pi_app.rules.commands import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    TradeCards,
)
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event
from pi_app.rules.queries import connected_through_own
from pi_app.rules.state import (
    ATTACK,
    CLAIM,
    FORTIFY,
    GAME_OVER,
    REINFORCE,
    SETUP_PLACE,
    GameState,
)

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.variants.base import Variant

BOARD = load_map()
DECK = load_cards()
ADJ = dict(BOARD.adjacency)  # a plain dict: looked up in every validation
Handler = Any  # (variant, state, command, rng, events) -> None
CARD_LIMIT_AFTER_TAKEOVER = 4
TAKEOVER_TRADE_AT = 6
FORCED_TRADE_AT = 5


# --- validation helpers (raise, never mutate) --------------------------------------------
def check_territory(tid: str) -> None:
    """Refuse (`unknown_territory`) an id that is no territory."""
    if tid not in ADJ:
        raise RuleError("unknown_territory", f"There is no territory called {tid!r}.")


def own_territory(state: GameState, player: str, tid: str) -> None:
    """Refuse a territory that does not exist or is not `player`'s."""
    check_territory(tid)
    if state.owner[tid] != player:
        raise RuleError("not_your_territory", f"{BOARD.names[tid]} is not yours.")


def require_phase(state: GameState, *phases: str, doing: str) -> None:
    """Refuse (`wrong_phase`) `doing` outside `phases`."""
    if state.phase not in phases:
        raise RuleError("wrong_phase", f"You cannot {doing} during the {state.phase} phase.")


def check_count(count: int, low: int, high: int, what: str, kind: str = "") -> None:
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
def next_seat(state: GameState, player: str) -> str:
    """The seat to the left of `player` (eliminated or not)."""
    players = state.players
    return players[(players.index(player) + 1) % len(players)]


def claim_classic(variant: Variant, state: GameState, cmd: Claim, rng: RandomSource,
                  events: list[Event]) -> None:
    """Claim: take an empty territory with one army (setup by claiming)."""
    require_phase(state, CLAIM, doing="claim a territory")
    tid = cmd.territory
    check_territory(tid)
    if state.owner[tid] is not None:
        raise RuleError("territory_taken", f"{BOARD.names[tid]} already belongs to "
                        f"{state.owner[tid]}.")
    player = cmd.player
    state.owner[tid] = player
    state.armies[tid] = 1
    state.reserves[player] -= 1
    events.append(Event("claimed", player=player, territory=tid))
    state.current_player = next_seat(state, player)
    if None not in state.owner.values():
        state.phase = SETUP_PLACE
        advance_setup_placement(variant, state, player, events)


def advance_setup_placement(variant: Variant, state: GameState, last: str,
                            events: list[Event]) -> None:
    """Hand the next setup placement to the next player (to the left) with armies left."""
    nxt = last
    for _ in state.players:
        nxt = next_seat(state, nxt)
        if state.reserves[nxt] > 0:
            state.current_player = nxt
            return
    variant.setup_done(state, events)


def setup_allowance(state: GameState, player: str) -> int:
    """Armies `player` may still place in this setup turn: `setup_armies_per_turn` minus
    those placed since the turn came round (every territory starts setup with one army, so
    the placed ones are the armies above one per territory), never more than the reserve."""
    per_turn = state.house_rules.setup_armies_per_turn
    own = [t for t, o in state.owner.items() if o == player]
    placed = sum(state.armies[t] for t in own) - len(own)
    return min(per_turn - placed % per_turn, state.reserves[player])


def place_classic(variant: Variant, state: GameState, cmd: Place, rng: RandomSource,
                  events: list[Event]) -> None:
    """Place: one setup army, reinforcements, or the armies of a trade-down."""
    player, tid, count = cmd.player, cmd.territory, cmd.count
    phase = state.phase
    pending = state.pending
    if phase == SETUP_PLACE:
        own_territory(state, player, tid)
        left = setup_allowance(state, player)
        if count != 1 and left == 1:
            raise RuleError("one_at_a_time", "During setup armies are placed one at a time.")
        check_count(count, 1, left, "place this setup turn")
        state.armies[tid] += count
        state.reserves[player] -= count
        events.append(Event("placed", player=player, territory=tid, count=count))
        if count == left:
            advance_setup_placement(variant, state, player, events)
        return
    if phase != REINFORCE and pending is None:
        require_phase(state, REINFORCE, doing="place armies")
    own_territory(state, player, tid)
    limit = FORCED_TRADE_AT if pending is None else CARD_LIMIT_AFTER_TAKEOVER + 1
    if len(state.hands[player]) >= limit:
        raise RuleError("must_trade_cards", f"With {len(state.hands[player])} cards you must "
                        "trade a set before placing armies.")
    check_count(count, 1, state.reserves[player], "place")
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
def start_turn(variant: Variant, state: GameState, player: str, events: list[Event],
               first: bool = False) -> None:
    """Begin `player`'s turn: reinforce phase with their reinforcements in reserve."""
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


def end_turn_now(variant: Variant, state: GameState, player: str, rng: RandomSource,
                 events: list[Event]) -> None:
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
    start_turn(variant, state, variant.next_player(state, player), events)


def end_attack_classic(variant: Variant, state: GameState, cmd: EndAttack, rng: RandomSource,
                       events: list[Event]) -> None:
    """EndAttack: from attack to fortify."""
    ready_to_attack(state, "end the attack")
    state.phase = FORTIFY
    events.append(Event("phase", player=cmd.player, phase=FORTIFY))


def end_turn_classic(variant: Variant, state: GameState, cmd: EndTurn, rng: RandomSource,
                     events: list[Event]) -> None:
    """EndTurn: end the turn (from attack or fortify), drawing a card if earned."""
    if state.phase != FORTIFY:
        ready_to_attack(state, "end your turn")
    end_turn_now(variant, state, cmd.player, rng, events)


def ready_to_attack(state: GameState, doing: str) -> None:
    """Refuse `doing` unless the turn is in its attack phase with every army placed."""
    if state.phase == REINFORCE:
        left = state.reserves[state.current_player]
        raise RuleError("armies_to_place", f"Place your {left} remaining armies first.")
    require_phase(state, ATTACK, doing=doing)


# --- cards -------------------------------------------------------------------------------
def trade_classic(variant: Variant, state: GameState, cmd: TradeCards, rng: RandomSource,
                  events: list[Event]) -> None:
    """TradeCards: a set for armies (and the pictured-territory bonus)."""
    player, cards = cmd.player, cmd.cards
    pending = state.pending
    if pending is None:
        require_phase(state, REINFORCE, doing="trade cards")
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
def check_attack(state: GameState, player: str, source: str, target: str) -> int:
    """Validate `player`'s attack from `source` to `target`; return the source's armies."""
    ready_to_attack(state, "attack")
    own_territory(state, player, source)
    check_territory(target)
    if state.owner[target] == player:
        raise RuleError("own_territory", f"{BOARD.names[target]} is already yours.")
    return check_attack_route(state, source, target)


def check_attack_route(state: GameState, source: str, target: str) -> int:
    """Refuse an attack across no border (`not_adjacent`) or from fewer than 2 armies
    (`too_few_armies`); return the source's army count. Every army's attacks pass here."""
    if target not in ADJ[source]:
        raise RuleError("not_adjacent", f"{BOARD.names[source]} does not border "
                        f"{BOARD.names[target]}.")
    armies = state.armies[source]
    if armies < 2:
        raise RuleError("too_few_armies", f"Attacking needs at least 2 armies in "
                        f"{BOARD.names[source]}.")
    return armies


def check_attack_dice(source: str, armies: int, dice: Any, who: str = "you") -> None:
    """Refuse (`bad_dice`) attack dice outside 1..min(3, armies - 1) for a source with
    `armies`; `who` names the army in the sentence ("you", "the Allied Army")."""
    top = attack_dice_limit(armies)
    if type(dice) is not int or not 1 <= dice <= top:
        raise RuleError("bad_dice", f"From {BOARD.names[source]} {who} may roll 1 to {top} "
                        "attack dice.")


def check_blitz(state: GameState, source: str, armies: int, stop_at: Any) -> None:
    """Refuse a blitz that cannot run: typed physical dice, a stop level below 1
    (`bad_stop_at`), or a source already at or below its stop level."""
    if state.house_rules.physical_dice:
        # a blitz rolls an unknown number of times: typed dice cannot be asked for up front
        raise RuleError("blitz_needs_electronic_dice", "Blitz needs electronic dice; with "
                        "dice typed in from the table, attack roll by roll.")
    if type(stop_at) is not int or stop_at < 1:
        raise RuleError("bad_stop_at", "The blitz stop level must be at least 1 army.")
    if armies <= stop_at:
        raise RuleError("too_few_armies", f"{BOARD.names[source]} already has only {armies} "
                        f"armies, at or below the stop level {stop_at}.")


def attack_classic(variant: Variant, state: GameState, cmd: Attack, rng: RandomSource,
                   events: list[Event]) -> None:
    """Attack: validate, then wait for the defence dice or roll at once."""
    source, target, dice = cmd.source, cmd.target, cmd.dice
    check_attack_dice(source, check_attack(state, cmd.player, source, target), dice)
    declare_attack(variant, state, cmd.player, source, target, dice, rng, events)


def declare_attack(variant: Variant, state: GameState, attacker: str, source: str,
                   target: str, dice: int, rng: RandomSource, events: list[Event]) -> None:
    """A validated attack by army `attacker`: wait for the defence dice, or roll at once."""
    defence_max = min(2, state.armies[target])
    if state.house_rules.defender_chooses_dice and defence_max > 1:
        chooser = variant.defence_chooser(state, target)
        state.pending = {"kind": "defend", "player": chooser, "attacker": attacker,
                         "from": source, "to": target, "attack_dice": dice,
                         "max_dice": defence_max}
        events.append(Event("attack_declared", {"attacker": attacker, "defender": chooser,
                                                "from": source, "to": target,
                                                "attack_dice": dice}))
        return
    roll(variant, state, attacker, source, target, dice, defence_max, rng, events)


def choose_defence_classic(variant: Variant, state: GameState, cmd: ChooseDefence,
                           rng: RandomSource, events: list[Event]) -> None:
    """ChooseDefence: the awaited defence dice, then the roll."""
    pending = state.pending
    assert pending is not None
    top = pending["max_dice"]
    if type(cmd.dice) is not int or not 1 <= cmd.dice <= top:
        raise RuleError("bad_dice", f"You may defend with 1 to {top} dice.")
    state.pending = None
    roll(variant, state, pending["attacker"], pending["from"], pending["to"],
         pending["attack_dice"], cmd.dice, rng, events)


def blitz_classic(variant: Variant, state: GameState, cmd: Blitz, rng: RandomSource,
                  events: list[Event]) -> None:
    """Blitz: validate, then roll with the most dice until a side stops."""
    player, source, target, stop_at = cmd.player, cmd.source, cmd.target, cmd.stop_at
    check_blitz(state, source, check_attack(state, player, source, target), stop_at)
    blitz(variant, state, player, source, target, stop_at, rng, events)


def blitz(variant: Variant, state: GameState, player: str, source: str, target: str, stop_at: int,
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
        conquer(variant, state, player, source, target, adice, events)
    else:
        append(Event("blitz_stopped", {"attacker": player, "from": source, "to": target,
                                       "armies": a}))


def roll(variant: Variant, state: GameState, player: str, source: str, target: str,
         adice: int, ddice: int, rng: RandomSource, events: list[Event]) -> None:
    """One roll of `adice` against `ddice`; a conquest if the target is emptied."""
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
        conquer(variant, state, player, source, target, adice, events)


def conquer(variant: Variant, state: GameState, player: str, source: str, target: str,
            dice: int, events: list[Event]) -> None:
    """`player` took `target`: elimination and cards, the variant's reaction, the minimum
    move-in, the victory check, then the move-in decision (or none if only one count)."""
    previous = state.owner[target]
    assert previous is not None
    state.owner[target] = player
    state.conquered_this_turn = True
    events.append(Event("conquered", {"player": player, "defender": previous,
                                      "from": source, "to": target}))
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
        declare_winner(variant, state, winner, events)
        return
    if low >= high:
        move_armies(state, player, source, target, high - low, events)
        events[-1].data["count"] = high
        after_move(state, player, eliminated)
        return
    state.pending = {"kind": "move_in", "player": player, "from": source, "to": target,
                     "min": low, "max": high, "eliminated": eliminated}


def declare_winner(variant: Variant, state: GameState, winner: str, events: list[Event]) -> None:
    """End the game: `winner` won (the variant may add events, e.g. reveal a mission)."""
    state.winner = winner
    state.phase = GAME_OVER
    state.pending = None
    events.append(Event("game_won", winner=winner))
    variant.on_victory(state, winner, events)


def move_armies(state: GameState, player: str, source: str, target: str, count: int,
                events: list[Event]) -> None:
    """Move `count` more armies into a conquered `target` (event `moved_in`)."""
    state.armies[source] -= count
    state.armies[target] += count
    events.append(Event("moved_in", {"player": player, "from": source, "to": target,
                                     "count": count}))


def after_move(state: GameState, player: str, eliminated: bool) -> None:
    """After a move-in: a trade-down if an elimination left `player` with too many cards."""
    if eliminated and len(state.hands[player]) >= TAKEOVER_TRADE_AT:
        state.pending = {"kind": "trade_down", "player": player,
                         "limit": CARD_LIMIT_AFTER_TAKEOVER}
    else:
        state.pending = None


def move_in_classic(variant: Variant, state: GameState, cmd: MoveIn, rng: RandomSource,
                    events: list[Event]) -> None:
    """MoveIn: the total that ends up in the conquered territory."""
    pending = state.pending
    assert pending is not None
    low = pending["min"]
    check_count(cmd.count, low, pending["max"], "move in")
    move_armies(state, pending.get("army", cmd.player), pending["from"], pending["to"],
                cmd.count - low, events)
    events[-1].data["count"] = cmd.count
    after_move(state, cmd.player, pending["eliminated"])


# --- fortify -----------------------------------------------------------------------------
def fortify_classic(variant: Variant, state: GameState, cmd: Fortify, rng: RandomSource,
                    events: list[Event]) -> None:
    """Fortify: one move between own territories; it ends the turn."""
    player, source, target, count = cmd.player, cmd.source, cmd.target, cmd.count
    if state.phase != FORTIFY:
        ready_to_attack(state, "fortify")
    own_territory(state, player, source)
    own_territory(state, player, target)
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
    check_count(count, 1, state.armies[source] - 1, "move")
    state.armies[source] -= count
    state.armies[target] += count
    events.append(Event("fortified", {"player": player, "from": source, "to": target,
                                      "count": count}))
    end_turn_now(variant, state, player, rng, events)


CLASSIC_HANDLERS: dict[type, Handler] = {
    Claim: claim_classic, Place: place_classic, TradeCards: trade_classic,
    Attack: attack_classic, ChooseDefence: choose_defence_classic, Blitz: blitz_classic,
    MoveIn: move_in_classic, EndAttack: end_attack_classic, EndTurn: end_turn_classic,
    Fortify: fortify_classic,
}
