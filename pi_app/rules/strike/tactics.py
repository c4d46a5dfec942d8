"""The eight RISK Strike tactics cards, one small class each, readable against docs/RULES.md §7.

A card has these hooks: `timing(state, player)` raises RuleError if the card may not be
played now, `could_change(state, player)` says whether playing it now (its timing allows
it) could change anything (a seat whose passing choice is "result" is asked only then),
`check_choice(state, cmd)` raises if the play's choices (target, die, ...) are bad (the
engine has already checked that the player holds one and may act at all), `params` gives
what the play records, and `resolve(state, play, rng, events)` applies the effect when its
reaction window closes. Plays resolve in the order played; a card whose situation is gone
by then (e.g. Artillery after a Sabotage) fizzles. `dice_after_plays` and `lost_pairs` read
the roll waiting for reactions as the cards played so far will leave it.

Troops are not played through this table: they are deployed with `Deploy` during attack
step 2, open no window and so can never be the target of Cancel Orders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_app.rules.commands import Command
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event
from pi_app.rules.strike import piles
from pi_app.rules.strike.commands import (
    PlayArtillery,
    PlayBombard,
    PlayCancelOrders,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
)
from pi_app.rules.strike.deck import (
    ARTILLERY,
    BOMBARD,
    CANCEL,
    EXPAND,
    RALLY,
    SABOTAGE,
    SPY,
    TROOPS,
    kind_of,
)
from pi_app.rules.strike.queries import ATTACK_DICE_MAX, DEFENCE_DICE_MAX
from pi_app.rules.strike.state import (
    ATTACKER,
    DEFENDER,
    DEFENDER_DEPLOY,
    DEPLOYED,
    READY,
    ROLLED,
    StrikeState,
)

if TYPE_CHECKING:
    from pi_app.dice import RandomSource

ARTILLERY_HITS = 2
RALLY_BONUS = 2
BOMBARD_FACE = 6
EXPAND_CONTINENTS = 2
EXPAND_TACTICS = 1


def _own_turn(state: StrikeState, player: str, name: str) -> None:
    if player != state.current_player:
        raise RuleError("not_your_turn", f"{name} can only be played on your own turn.")


def _other_player(state: StrikeState, player: str, target: str) -> None:
    if target not in state.players or target == player:
        raise RuleError("bad_target", f"Choose another player at the table, not {target!r}.")


def _after_roll(state: StrikeState, player: str, name: str) -> str:
    """The side whose dice `player` rolled, if a roll is waiting for reactions."""
    window = state.window
    if window is None or window["kind"] != ROLLED:
        raise RuleError("wrong_time", f"{name} is played right after the dice are rolled.")
    side = piles.combatant_side(state, player)
    if side is None:
        raise RuleError("not_in_battle", f"{name} changes your own dice; you are not rolling "
                        "in this battle.")
    return side


class Tactic:
    """One kind of tactics card: when it may be played and what it does."""

    kind = ""
    command: type[Command] = Command
    name = ""
    # "Any time on your turn" (RULES §7): playable on your own turn even while the game
    # waits for another player's decision (the engine opens a tactics window for it).
    any_time_on_own_turn = False

    def check(self, state: StrikeState, cmd: Any) -> None:
        """Raise RuleError if `cmd` may not be played now (never mutates)."""
        self.timing(state, cmd.player)
        self.check_choice(state, cmd)

    def timing(self, state: StrikeState, player: str) -> None:
        """Raise RuleError if `player` may not play this card at this moment."""

    def check_choice(self, state: StrikeState, cmd: Any) -> None:
        """Raise RuleError if the choices the play names (target, die, ...) are bad."""

    def could_change(self, state: StrikeState, player: str) -> bool:
        """Whether playing it now (its timing allows it) could change anything: a window
        asks a seat whose passing choice is "result" only for such a card (RULES §7)."""
        return True

    def params(self, state: StrikeState, cmd: Any) -> dict[str, Any]:
        """What the play records besides who played which card."""
        return {}

    def resolve(self, state: StrikeState, play: dict[str, Any], rng: RandomSource,
                events: list[Event]) -> None:
        """Apply the effect (the window has closed and the play was not cancelled)."""

    def fizzle(self, play: dict[str, Any], events: list[Event], why: str) -> None:
        """Record that the card had no effect because its situation is gone."""
        events.append(Event("tactic_fizzled", player=play["player"], card=self.kind,
                            play=play["id"], reason=why))


class Spy(Tactic):
    """Any time on your turn: look at one player's hand and draw 1 tactics card.

    The spied hand is kept as of the moment the Spy resolves, privately for the spy
    (`state.spied[spy]`), until the spy's next turn starts.
    """

    kind, command, name = SPY, PlaySpy, "Spy"
    any_time_on_own_turn = True

    def timing(self, state: StrikeState, player: str) -> None:
        """Only on the player's own turn (`not_your_turn` otherwise), at any step of it."""
        _own_turn(state, player, self.name)

    def could_change(self, state: StrikeState, player: str) -> bool:
        """Never a reason to ask in a window: it waits for the player's next decision."""
        return False

    def check_choice(self, state: StrikeState, cmd: PlaySpy) -> None:
        """The target is another player at the table (`bad_target`)."""
        _other_player(state, cmd.player, cmd.target)

    def params(self, state: StrikeState, cmd: PlaySpy) -> dict[str, Any]:
        """The play records whose hand is spied."""
        return {"target": cmd.target}

    def resolve(self, state: StrikeState, play: dict[str, Any], rng: RandomSource,
                events: list[Event]) -> None:
        """Keep the target's hand as of now for the spy only, then draw 1 tactics card."""
        spy, target = play["player"], play["target"]
        hand = list(state.hands[target])
        state.spied[spy] = {"target": target, "hand": hand, "turn": state.turn}
        events.append(Event("spied", player=spy, target=target, hand=hand))
        piles.draw_tactics(state, spy, 1, rng, events)


class Expand(Tactic):
    """Any time on your turn: draw 2 continent cards or 1 tactics card."""

    kind, command, name = EXPAND, PlayExpand, "Expand"
    any_time_on_own_turn = True

    def timing(self, state: StrikeState, player: str) -> None:
        """Only on the player's own turn (`not_your_turn` otherwise), at any step of it."""
        _own_turn(state, player, self.name)

    def could_change(self, state: StrikeState, player: str) -> bool:
        """Never a reason to ask in a window: it waits for the player's next decision."""
        return False

    def check_choice(self, state: StrikeState, cmd: PlayExpand) -> None:
        """`take` is "continents" or "tactics" (`bad_choice`)."""
        if cmd.take not in ("continents", "tactics"):
            raise RuleError("bad_choice", "Expand draws \"continents\" (2 continent cards) or "
                            f"\"tactics\" (1 tactics card), not {cmd.take!r}.")

    def params(self, state: StrikeState, cmd: PlayExpand) -> dict[str, Any]:
        """The play records which kind of cards it draws."""
        return {"take": cmd.take}

    def resolve(self, state: StrikeState, play: dict[str, Any], rng: RandomSource,
                events: list[Event]) -> None:
        """Draw 2 continent cards or 1 tactics card (as many as the piles still hold)."""
        if play["take"] == "continents":
            piles.draw_continents(state, play["player"], EXPAND_CONTINENTS, rng, events)
        else:
            piles.draw_tactics(state, play["player"], EXPAND_TACTICS, rng, events)


class CancelOrders(Tactic):
    """Cancel a tactics card an opponent plays (not Troops: those are never plays).

    Played in the reaction window of the card it cancels. A Cancel Orders is itself a
    tactics card, so it can be cancelled in turn; see `cancelled_plays`.
    """

    kind, command, name = CANCEL, PlayCancelOrders, "Cancel Orders"

    def timing(self, state: StrikeState, player: str) -> None:
        """In a window holding a play by an opponent (`no_such_play`, `own_card`)."""
        window = state.window
        plays = window["plays"] if window is not None else []
        if not plays:
            raise RuleError("no_such_play", "No tactics card waits to resolve; Cancel Orders "
                            "answers a card just played.")
        if all(p["player"] == player for p in plays):
            raise RuleError("own_card", "Cancel Orders cancels an opponent's card, not yours.")

    def could_change(self, state: StrikeState, player: str) -> bool:
        """An opponent's play in the window still stands (not cancelled)."""
        window = state.window
        assert window is not None
        cancelled = cancelled_plays(window["plays"])
        return any(p["player"] != player and p["id"] not in cancelled for p in window["plays"])

    def check_choice(self, state: StrikeState, cmd: PlayCancelOrders) -> None:
        """The named play waits in this window and is an opponent's (`no_such_play`,
        `own_card`)."""
        window = state.window
        plays = window["plays"] if window is not None else []
        target = next((p for p in plays if p["id"] == cmd.play), None)
        if target is None:
            raise RuleError("no_such_play", f"No tactics card waits to resolve as play "
                            f"{cmd.play!r}; Cancel Orders answers a card just played.")
        if target["player"] == cmd.player:
            raise RuleError("own_card", "Cancel Orders cancels an opponent's card, not yours.")

    def params(self, state: StrikeState, cmd: PlayCancelOrders) -> dict[str, Any]:
        """The play records the id of the play it cancels."""
        return {"target": cmd.play}

    def resolve(self, state: StrikeState, play: dict[str, Any], rng: RandomSource,
                events: list[Event]) -> None:
        """Nothing more: `cancelled_plays` already decided what it cancelled."""
        pass  # its whole effect is the cancellation, decided before anything resolves


class DiceCard(Tactic):
    """A card played right after a roll that changes the player's own dice."""

    def timing(self, state: StrikeState, player: str) -> None:
        """Right after a roll, by a player rolling in it (`wrong_time`, `not_in_battle`)."""
        _after_roll(state, player, self.name)

    def could_change(self, state: StrikeState, player: str) -> bool:
        """Playing it, alone or followed by the player's other Rally and Bombard cards, makes
        their dice lose fewer pairs than the cards played in the window so far leave them
        losing (`dice_after_plays`): otherwise changing their own dice changes nothing."""
        side = piles.combatant_side(state, player)
        dice = dice_after_plays(state)
        if side is None or dice is None:
            return False
        held = [kind_of(c) for c in state.hands[player] if kind_of(c) in (RALLY, BOMBARD)]
        held.remove(self.kind)
        others = tuple(k for kind in (RALLY, BOMBARD) for k in [kind] * min(2, held.count(kind)))
        now = lost_pairs(dice, side)
        return any(_fewest_losses({**dice, side: changed}, side, others) < now
                   for changed in DICE_CHANGES[self.kind](dice[side]))

    def params(self, state: StrikeState, cmd: Any) -> dict[str, Any]:
        """The play records which side's dice it changes (the player's own)."""
        return {"side": piles.combatant_side(state, cmd.player)}

    def change(self, dice: list[int], play: dict[str, Any]) -> None:
        """Change `dice` (the player's, in rolled order, highest first) in place."""

    def resolve(self, state: StrikeState, play: dict[str, Any], rng: RandomSource,
                events: list[Event]) -> None:
        """Change the player's dice (`change`), or fizzle if the dice are gone."""
        battle = state.battle
        if battle is None or battle["dice"] is None:
            self.fizzle(play, events, "no dice to change")
            return
        dice = battle["dice"][play["side"]]
        self.change(dice, play)
        events.append(Event("dice_changed", player=play["player"], card=self.kind,
                            side=play["side"], dice=list(dice)))


class Rally(DiceCard):
    """After the dice are rolled: +2 to each of your dice."""

    kind, command, name = RALLY, PlayRally, "Rally"

    def change(self, dice: list[int], play: dict[str, Any]) -> None:
        """Add 2 to every die (a face may exceed 6)."""
        dice[:] = [face + RALLY_BONUS for face in dice]


class Bombard(DiceCard):
    """After the dice are rolled: change one of your dice to 6 (then re-sort and re-pair).

    The die is named by its place in the roll as rolled (0 = highest, -1 = lowest); the
    engine sorts again before pairing.
    """

    kind, command, name = BOMBARD, PlayBombard, "Bombard"

    def check_choice(self, state: StrikeState, cmd: PlayBombard) -> None:
        """The die is one the player rolled: 0..count-1 or -1 (`bad_die`)."""
        side = piles.combatant_side(state, cmd.player)
        assert state.battle is not None and side is not None
        count = len(state.battle["dice"][side])
        if type(cmd.die) is not int or not (cmd.die == -1 or 0 <= cmd.die < count):
            raise RuleError("bad_die", f"Choose one of your {count} dice (0 = the highest) "
                            "or -1 for the lowest.")

    def params(self, state: StrikeState, cmd: PlayBombard) -> dict[str, Any]:
        """The play records the side and which die becomes a 6."""
        return {"side": piles.combatant_side(state, cmd.player), "die": cmd.die}

    def change(self, dice: list[int], play: dict[str, Any]) -> None:
        """Turn the chosen die into a 6."""
        dice[play["die"]] = BOMBARD_FACE


class Artillery(Tactic):
    """Any time after troops are deployed: one chosen player discards up to 2 active troops."""

    kind, command, name = ARTILLERY, PlayArtillery, "Artillery"

    def timing(self, state: StrikeState, player: str) -> None:
        """Once troops are deployed (the attacker's count from the defender's deploy step
        on), while another player has an active troop card (`wrong_time`, `no_troops`)."""
        battle = state.battle
        if battle is None or battle["step"] not in (DEFENDER_DEPLOY, DEPLOYED, READY, ROLLED):
            raise RuleError("wrong_time", "Artillery is played after the troops are deployed.")
        if not any(t["player"] != player for t in battle["troops"]):
            raise RuleError("no_troops", "No other player has active troop cards to hit.")

    def could_change(self, state: StrikeState, player: str) -> bool:
        """Hitting some player's troops now changes something: a Sabotage played in the
        window would send them back to a hand; a loss of the roll waiting for reactions
        would fall on a continent card instead of a troop card; or their side would roll
        fewer dice next (its continent cards alone are under the cap). Troops that do none
        of these can still be hit in a later window, where hitting them would (RULES §7)."""
        battle, window = state.battle, state.window
        assert battle is not None
        plays = window["plays"] if window is not None else []
        cancelled = cancelled_plays(plays)
        if any(p["kind"] == SABOTAGE and p["id"] not in cancelled for p in plays):
            return True
        dice = dice_after_plays(state)
        troops = battle["troops"]
        for target in {t["player"] for t in troops if t["player"] != player}:
            for side in {t["side"] for t in troops if t["player"] == target}:
                leader, continent, cap = (
                    (battle["attacker"], battle["attack_continent"], ATTACK_DICE_MAX)
                    if side == ATTACKER else
                    (battle["defender"], battle["defence_continent"], DEFENCE_DICE_MAX))
                on_side = sum(1 for t in troops if t["side"] == side)
                hit = min(ARTILLERY_HITS,
                          sum(1 for t in troops if t["side"] == side and t["player"] == target))
                lost = lost_pairs(dice, side) if dice is not None else 0
                if on_side - hit < lost:
                    return True  # a loss would fall on a continent card
                cards = state.cards_of(leader, continent)
                if (_rolls_again(state, dice) and min(cap, cards + on_side - hit - lost)
                        < min(cap, cards + on_side - lost)):
                    return True  # one die fewer next roll
        return False

    def check_choice(self, state: StrikeState, cmd: PlayArtillery) -> None:
        """The target is another player with active troops (`bad_target`, `no_troops`)."""
        _other_player(state, cmd.player, cmd.target)
        if piles.active_troops(state, cmd.target) == 0:
            raise RuleError("no_troops", f"{cmd.target} has no active troop cards to hit.")

    def params(self, state: StrikeState, cmd: PlayArtillery) -> dict[str, Any]:
        """The play records whose troops are hit."""
        return {"target": cmd.target}

    def resolve(self, state: StrikeState, play: dict[str, Any], rng: RandomSource,
                events: list[Event]) -> None:
        """The target discards up to 2 active troops, or the card fizzles if none are left."""
        if state.battle is None or piles.active_troops(state, play["target"]) == 0:
            self.fizzle(play, events, "no active troops left")
            return
        hit = piles.discard_troops(state, player=play["target"], limit=ARTILLERY_HITS)
        events.append(Event("troops_discarded", player=play["target"], card=self.kind,
                            count=len(hit)))


class Sabotage(Tactic):
    """Right after troops are deployed, before battle: all troop cards go back to their
    owners' hands and the turn ends (the engine ends it once the window has resolved)."""

    kind, command, name = SABOTAGE, PlaySabotage, "Sabotage"

    def timing(self, state: StrikeState, player: str) -> None:
        """In the window right after troops are deployed, or by the defender at their deploy
        step (the attacker's troops are down; their deploy is their pass in that window,
        RULES §7) (`wrong_time`)."""
        window, battle = state.window, state.battle
        if window is not None and window["kind"] == DEPLOYED:
            return
        if (battle is not None and battle["step"] == DEFENDER_DEPLOY
                and player == battle["defender"]):
            return
        raise RuleError("wrong_time", "Sabotage is played right after the troops are "
                        "deployed, before any dice are rolled.")

    def could_change(self, state: StrikeState, player: str) -> bool:
        """No Sabotage played before it still stands (a second one would fizzle; it is
        asked for again once the first is cancelled)."""
        window = state.window
        if window is None:
            return True
        cancelled = cancelled_plays(window["plays"])
        return not any(p["kind"] == SABOTAGE and p["id"] not in cancelled
                       for p in window["plays"])

    def resolve(self, state: StrikeState, play: dict[str, Any], rng: RandomSource,
                events: list[Event]) -> None:
        """Return every troop card to its owner's hand and mark the battle sabotaged."""
        battle = state.battle
        if battle is None or battle.get("sabotaged"):
            self.fizzle(play, events, "the battle is already sabotaged")
            return
        for troop in battle["troops"]:
            state.hands[troop["player"]].append(troop["card"])
        returned = len(battle["troops"])
        battle["troops"] = []
        battle["sabotaged"] = True
        events.append(Event("sabotaged", player=play["player"], troops_returned=returned))


TACTICS: dict[str, Tactic] = {t.kind: t for t in (
    Spy(), Expand(), CancelOrders(), Rally(), Bombard(), Artillery(), Sabotage())}
TACTIC_OF_COMMAND: dict[type[Command], Tactic] = {t.command: t for t in TACTICS.values()}
assert TROOPS not in TACTICS


def cancelled_plays(plays: list[dict[str, Any]]) -> set[int]:
    """Ids of the plays that end up cancelled.

    A Cancel Orders only targets an earlier play, so walking from the last play back, each
    Cancel Orders not itself cancelled by a later one cancels its target.
    """
    cancelled: set[int] = set()
    for play in reversed(plays):
        if play["kind"] == CANCEL and play["id"] not in cancelled:
            cancelled.add(play["target"])
    return cancelled


def dice_after_plays(state: StrikeState) -> dict[str, list[int]] | None:
    """The dice of the open roll as the Rally and Bombard cards played in its window so far
    (and not cancelled) will leave them, or None when no roll waits for reactions."""
    battle, window = state.battle, state.window
    if battle is None or battle["dice"] is None:
        return None
    dice = {side: list(faces) for side, faces in battle["dice"].items()}
    plays = window["plays"] if window is not None else []
    cancelled = cancelled_plays(plays)
    for play in plays:
        tactic = TACTICS[play["kind"]]
        if play["id"] not in cancelled and isinstance(tactic, DiceCard):
            tactic.change(dice[play["side"]], play)
    return dice


def lost_pairs(dice: dict[str, list[int]], side: str) -> int:
    """How many die pairs `side` loses with these dice (highest with highest; ties go to the
    defender)."""
    attack = sorted(dice[ATTACKER], reverse=True)
    defence = sorted(dice[DEFENDER], reverse=True)
    return sum(1 for a, d in zip(attack, defence, strict=False)
               if (DEFENDER if a > d else ATTACKER) == side)


def _rallied(faces: list[int]) -> list[list[int]]:
    return [[face + RALLY_BONUS for face in faces]]


def _bombarded(faces: list[int]) -> list[list[int]]:
    return [[BOMBARD_FACE if i == n else face for i, face in enumerate(faces)]
            for n in range(len(faces))]


# What each dice card can make of a side's dice (Bombard: any one die becomes a 6).
DICE_CHANGES: dict[str, Callable[[list[int]], list[list[int]]]] = {
    RALLY: _rallied, BOMBARD: _bombarded}


def _fewest_losses(dice: dict[str, list[int]], side: str, cards: tuple[str, ...]) -> int:
    """The fewest pairs `side` can lose by playing any of `cards` (Rally, Bombard), in any
    order, on these dice."""
    best = lost_pairs(dice, side)
    for kind in dict.fromkeys(cards):
        rest = list(cards)
        rest.remove(kind)
        for changed in DICE_CHANGES[kind](dice[side]):
            best = min(best, _fewest_losses({**dice, side: changed}, side, tuple(rest)))
    return best


def _rolls_again(state: StrikeState, dice: dict[str, list[int]] | None) -> bool:
    """Whether the battle may see another roll after the one waiting for reactions (with no
    roll waiting: the next one): the attacker has not said they stop, and both sides keep
    a card of their continent in play once this roll's losses are taken (troops first)."""
    battle = state.battle
    assert battle is not None
    if battle.get("stop_next"):
        return False
    if dice is None:
        return True
    cards = {ATTACKER: state.cards_of(battle["attacker"], battle["attack_continent"]),
             DEFENDER: state.cards_of(battle["defender"], battle["defence_continent"])}
    for side in (ATTACKER, DEFENDER):
        on_side = sum(1 for t in battle["troops"] if t["side"] == side)
        cards[side] -= max(0, lost_pairs(dice, side) - on_side)
    if battle["attack_continent"] == battle["defence_continent"]:
        on_defence = sum(1 for t in battle["troops"] if t["side"] == DEFENDER)
        cards[ATTACKER] += max(0, lost_pairs(dice, DEFENDER) - on_defence)  # captured
    return cards[ATTACKER] > 0 and cards[DEFENDER] > 0
