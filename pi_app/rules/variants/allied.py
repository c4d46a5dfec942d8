"""Two-player RISK with the Allied Army (docs/RULES.md §6, seed `003_…`).

Setup: first-player dice; the two seats alternately `Claim` an empty territory until each
owns 14; the other 14 go to the Allied Army ("allied") with 2 armies each
(`house_rules.allied_initial = "even"`), or 1 each with the other 14 in its reserve
(`"free"`: every setup placing turn is then 1 own army plus 1 Allied army with
`PlaceNeutral`). Each seat has 40 armies and places the rest one at a time, alternately.
`house_rules.setup` does not apply (this game is always claimed).

A turn of player A: A reinforces (the Allied Army gets floor(N / 2) of A's territory and
continent reinforcements N, before cards: event `allied_reinforced`) and attacks. When A
ends the attack (`EndAttack`, or `EndTurn` to skip fortifying), the phase becomes `allied`
and `current_player` is the opponent B, who commands the Allied Army: B must `Place` its
whole reserve on Allied territories, may `Attack`/`Blitz` A's territories from Allied
ones (A chooses A's defence dice; B answers an Allied `move_in`), and ends with
`EndAttack` (or `EndTurn`). Then A fortifies (or the turn ends, after `EndTurn`). A's card
draw depends only on A's own conquests. Fortify straight from the attack phase is refused
(`allied_phase_first`). The allied phase is skipped when the Allied Army has no reserve
and no territory that could attack A.

Attacking an Allied territory, the opponent (B during A's turn) chooses its defence dice.
The Allied Army draws no cards and never fortifies. Once it has lost every territory it
gets no more armies and the game is a normal two-player game. Victory: the other seat has
no territory left.

Decision (Allied reinforcements): N counts only A's territories and continents at the
start of A's turn, before any card trade: armies A gets from trading cards (and the +2
territory bonus) do not raise the Allied Army's half. The Allied Army therefore gets
floor(N / 2) as soon as A's turn starts, whatever A trades later in that turn.

variant_data (see `third_army`) adds `allied_turn`: None, or during the allied phase
{"commander": B, "turn_of": A, "end_turn": bool, "conquered": A's conquered flag}.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_app.rules.battle import attack_dice_limit
from pi_app.rules.board import load_map
from pi_app.rules.cards import shuffle
from pi_app.rules.commands import (
    Attack,
    Blitz,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    Place,
    PlaceNeutral,
)
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event
from pi_app.rules.queries import classic_legal_commands
from pi_app.rules.setup import roll_for_first
from pi_app.rules.state import ALLIED, ATTACK, CLAIM, FORTIFY, SETUP_PLACE
from pi_app.rules.steps import (
    attack_classic,
    blitz,
    blitz_classic,
    check_attack_dice,
    check_attack_route,
    check_blitz,
    check_count,
    check_territory,
    claim_classic,
    declare_attack,
    end_attack_classic,
    end_turn_classic,
    end_turn_now,
    fortify_classic,
    place_classic,
)
from pi_app.rules.variants.base import Variant
from pi_app.rules.variants.third_army import (
    STARTING_ARMIES,
    TERRITORIES_EACH,
    defence_chooser,
    new_army_data,
    note_conquest,
    opponent,
    place_setup,
    place_third,
    setup_place_commands,
    start_placing_turn,
)

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.board import Board, Deck, Roster
    from pi_app.rules.commands import Command
    from pi_app.rules.state import GameState

ALLIED_ARMY = "allied"
ALLIED_ARMIES = 28  # 2 per territory it starts with
BOARD = load_map()
ADJ = BOARD.adjacency


# --- setup -------------------------------------------------------------------------------
def _claim(variant: Variant, state: GameState, cmd: Claim, rng: RandomSource,
           events: list[Event]) -> None:
    claim_classic(variant, state, cmd, rng, events)
    if any(state.territory_count(p) < TERRITORIES_EACH for p in state.players):
        return
    data = state.variant_data
    initial = 2 if state.house_rules.allied_initial == "even" else 1
    rest = [t for t, o in state.owner.items() if o is None]
    for t in rest:
        state.owner[t] = ALLIED_ARMY
        state.armies[t] = initial
    data["reserve"] -= initial * len(rest)
    if data["reserve"]:
        data["quota"] = [1, 1]
    events.append(Event("allied_deployed", army=ALLIED_ARMY, territories=rest,
                        armies_each=initial, reserve=data["reserve"]))
    state.phase = SETUP_PLACE
    start_placing_turn(state, state.current_player)


# --- the allied phase --------------------------------------------------------------------
def can_attack_from(state: GameState, source: str, enemy: str) -> bool:
    """Whether Allied `source` has 2+ armies next to a territory of `enemy`."""
    owner = state.owner
    return state.armies[source] >= 2 and any(owner[n] == enemy for n in ADJ[source])


def _begin_allied_phase(state: GameState, turn_of: str, end_turn: bool,
                        events: list[Event]) -> bool:
    """Hand the Allied Army to the opponent; False if it has nothing it could do."""
    data = state.variant_data
    if data["destroyed"]:
        return False
    if data["reserve"] == 0 and not any(
            can_attack_from(state, t, turn_of) for t in state.territories_of(ALLIED_ARMY)):
        events.append(Event("allied_skipped", army=ALLIED_ARMY, turn_of=turn_of))
        return False
    commander = opponent(state, turn_of)
    data["allied_turn"] = {"commander": commander, "turn_of": turn_of, "end_turn": end_turn,
                           "conquered": state.conquered_this_turn}
    state.current_player = commander
    state.phase = ALLIED
    events.append(Event("phase", player=commander, phase=ALLIED, army=ALLIED_ARMY,
                        turn_of=turn_of, reserve=data["reserve"]))
    return True


def _end_allied_phase(variant: Variant, state: GameState, rng: RandomSource,
                      events: list[Event]) -> None:
    data = state.variant_data
    if data["reserve"]:
        raise RuleError("armies_to_place", f"Place the Allied Army's {data['reserve']} "
                        "armies on its territories first.")
    turn = data["allied_turn"]
    data["allied_turn"] = None
    turn_of = turn["turn_of"]
    state.current_player = turn_of
    state.conquered_this_turn = turn["conquered"]
    state.phase = FORTIFY
    events.append(Event("phase", player=turn_of, phase=FORTIFY))
    if turn["end_turn"]:
        end_turn_now(variant, state, turn_of, rng, events)


def _check_allied_attack(state: GameState, source: str, target: str) -> int:
    """Validate an Allied attack (Classic's route checks included); return the source's
    armies."""
    data = state.variant_data
    if data["reserve"]:
        raise RuleError("armies_to_place", f"Place the Allied Army's {data['reserve']} "
                        "armies before attacking with it.")
    check_territory(source)
    check_territory(target)
    if state.owner[source] != ALLIED_ARMY:
        raise RuleError("not_allied_territory", f"{BOARD.names[source]} is not an Allied "
                        "territory; attack from one of the Allied Army's.")
    turn_of = data["allied_turn"]["turn_of"]
    if state.owner[target] != turn_of:
        raise RuleError("allied_attacks_only_turn_player",
                        f"The Allied Army may attack only {turn_of}'s territories.")
    return check_attack_route(state, source, target)


# --- command handlers (Allied phase, setup, or Classic) -----------------------------------
def _place(variant: Variant, state: GameState, cmd: Place, rng: RandomSource,
           events: list[Event]) -> None:
    phase = state.phase
    if phase == SETUP_PLACE:
        place_setup(variant, state, cmd, rng, events)
        return
    if phase != ALLIED or state.pending is not None:
        place_classic(variant, state, cmd, rng, events)
        return
    tid = cmd.territory
    check_territory(tid)
    if state.owner[tid] != ALLIED_ARMY:
        raise RuleError("not_allied_territory", f"{BOARD.names[tid]} is not an Allied "
                        "territory; Allied reinforcements go on the Allied Army's.")
    data = state.variant_data
    check_count(cmd.count, 1, data["reserve"], "place")
    state.armies[tid] += cmd.count
    data["reserve"] -= cmd.count
    events.append(Event("placed", player=ALLIED_ARMY, territory=tid, count=cmd.count,
                        by=cmd.player))


def _attack(variant: Variant, state: GameState, cmd: Attack, rng: RandomSource,
            events: list[Event]) -> None:
    if state.phase != ALLIED:
        attack_classic(variant, state, cmd, rng, events)
        return
    armies = _check_allied_attack(state, cmd.source, cmd.target)
    check_attack_dice(cmd.source, armies, cmd.dice, "the Allied Army")
    declare_attack(variant, state, ALLIED_ARMY, cmd.source, cmd.target, cmd.dice, rng, events)


def _blitz(variant: Variant, state: GameState, cmd: Blitz, rng: RandomSource,
           events: list[Event]) -> None:
    if state.phase != ALLIED:
        blitz_classic(variant, state, cmd, rng, events)
        return
    check_blitz(state, cmd.source, _check_allied_attack(state, cmd.source, cmd.target),
                cmd.stop_at)
    blitz(variant, state, ALLIED_ARMY, cmd.source, cmd.target, cmd.stop_at, rng, events)


def _allied_step(variant: Variant, state: GameState, player: str, end_turn: bool,
                 rng: RandomSource, events: list[Event]) -> bool:
    """End the allied phase, or begin it after the attack phase; False if neither applies."""
    if state.phase == ALLIED:
        _end_allied_phase(variant, state, rng, events)
        return True
    return state.phase == ATTACK and _begin_allied_phase(state, player, end_turn, events)


def _end_attack(variant: Variant, state: GameState, cmd: EndAttack, rng: RandomSource,
                events: list[Event]) -> None:
    if not _allied_step(variant, state, cmd.player, False, rng, events):
        end_attack_classic(variant, state, cmd, rng, events)


def _end_turn(variant: Variant, state: GameState, cmd: EndTurn, rng: RandomSource,
              events: list[Event]) -> None:
    if not _allied_step(variant, state, cmd.player, True, rng, events):
        end_turn_classic(variant, state, cmd, rng, events)


def _fortify(variant: Variant, state: GameState, cmd: Fortify, rng: RandomSource,
             events: list[Event]) -> None:
    if state.phase == ATTACK and not state.variant_data["destroyed"]:
        raise RuleError("allied_phase_first", "The Allied Army acts before you fortify: "
                        "end your attack first.")
    fortify_classic(variant, state, cmd, rng, events)


class AlliedArmy(Variant):
    """Two seats; each commands the Allied Army against the other between phases."""

    name = "allied"
    player_limits = (2, 2)
    default_setup = "claim"
    handlers = {Claim: _claim, Place: _place, PlaceNeutral: place_third, Attack: _attack,
                Blitz: _blitz, EndAttack: _end_attack, EndTurn: _end_turn, Fortify: _fortify}

    def setup(self, state: GameState, board: Board, deck: Deck, roster: Roster,
              rng: RandomSource, events: list[Event]) -> None:
        """First-player dice, 40 armies each, the claim phase, the deck shuffle."""
        first = roll_for_first(state.players, rng, events)
        state.first_player = state.current_player = first
        for p in state.players:
            state.reserves[p] = STARTING_ARMIES
        state.variant_data = new_army_data(ALLIED_ARMY, (1, 0), ALLIED_ARMIES)
        state.variant_data["allied_turn"] = None
        state.phase = CLAIM
        state.deck = list(deck.all_cards)
        shuffle(state.deck, rng)
        events.append(Event("deck_shuffled", cards=len(state.deck)))
        events.append(Event("setup_started", method="claim", first_player=first,
                            starting_armies=STARTING_ARMIES, allied=ALLIED_ARMY,
                            allied_initial=state.house_rules.allied_initial))

    def turn_started(self, state: GameState, player: str, reinforcements: int,
                     events: list[Event]) -> None:
        """The Allied Army gets half the turn player's reinforcements (rounded down)."""
        data = state.variant_data
        if data["destroyed"]:
            return
        gained = reinforcements // 2
        data["reserve"] += gained
        events.append(Event("allied_reinforced", army=ALLIED_ARMY, armies=gained,
                            reserve=data["reserve"], turn_of=player))

    def defence_chooser(self, state: GameState, target: str) -> str:
        """Allied territories are defended by the seat not attacking."""
        return defence_chooser(state, target)

    def after_conquest(self, state: GameState, target: str, previous_owner: str,
                       events: list[Event]) -> None:
        """Note when the Allied Army loses its last territory (normal game from then)."""
        note_conquest(state, previous_owner, events)

    def after_command(self, state: GameState, command: Command, events: list[Event]) -> None:
        """An Allied conquest's move-in is decided by the seat commanding the army."""
        pending = state.pending
        if pending is not None and pending["player"] == ALLIED_ARMY:
            pending["player"] = state.variant_data["allied_turn"]["commander"]
            pending["army"] = ALLIED_ARMY

    def fortify_in_attack_phase(self, state: GameState) -> bool:
        """Not while the Allied Army lives: its phase comes between attack and fortify."""
        return bool(state.variant_data["destroyed"])

    def legal_commands(self, state: GameState, player: str) -> list[Command] | None:
        """Setup placing turns, the allied phase, and no fortify before the allied phase."""
        if state.winner is not None or state.pending is not None:
            return None
        if player != state.current_player:
            return None
        if state.phase == SETUP_PLACE:
            return setup_place_commands(state, player)
        if state.phase == ALLIED:
            return allied_phase_commands(state, player)
        if state.phase == ATTACK and not state.variant_data["destroyed"]:
            return [c for c in classic_legal_commands(self, state, player)
                    if not isinstance(c, Fortify)]
        return None


def allied_phase_commands(state: GameState, player: str) -> list[Command]:
    """What the Allied Army's commander may do now: place its reserve, attack, finish."""
    data = state.variant_data
    allied = state.territories_of(ALLIED_ARMY)
    if data["reserve"]:
        return [Place(player, t, n) for t in allied for n in sorted({1, data["reserve"]})]
    turn_of = data["allied_turn"]["turn_of"]
    out: list[Command] = []
    for source in allied:
        if state.armies[source] < 2:
            continue
        top = attack_dice_limit(state.armies[source])
        for target in BOARD.neighbours[source]:
            if state.owner[target] == turn_of:
                out.extend(Attack(player, source, target, n) for n in range(1, top + 1))
                if not state.house_rules.physical_dice:
                    out.append(Blitz(player, source, target, 1))
    out.append(EndAttack(player))
    return out


ALLIED_VARIANT = AlliedArmy()
