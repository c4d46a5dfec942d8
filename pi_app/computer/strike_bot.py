"""A sensible RISK Strike bot for simulations and empty seats (it plays only legal commands).

It draws continent cards while its hand is full of tactics, plays Spy and Expand for the
extra cards, attacks the continent that brings it closest to a coin (from the continent
where it rolls the most dice), deploys troops up to the dice cap plus one to absorb a loss,
and reacts in windows: Sabotage against a strong attack on it, Artillery on the enemy
side's troops, Rally or Bombard when they turn a lost pair, Cancel Orders against cards that
hurt it. It sees only what its own phone would show (its hand and the public table).
"""

from __future__ import annotations

from typing import Any

from pi_app.rules.commands import Command
from pi_app.rules.strike import piles
from pi_app.rules.strike.commands import (
    TABLE,
    CloseWindow,
    DeclareAttack,
    Deploy,
    Draw,
    EndAttack,
    Pass,
    PassTurn,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrders,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    Roll,
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
    load_strike_deck,
)
from pi_app.rules.strike.engine import apply
from pi_app.rules.strike.queries import ATTACK_DICE_MAX, DEFENCE_DICE_MAX, dice_counts, side_troops
from pi_app.rules.strike.state import (
    ATTACKER,
    ATTACKER_DEPLOY,
    CHOOSE,
    DEFENDER,
    DEFENDER_DEPLOY,
    DEPLOYED,
    DRAW,
    READY,
    ROLLED,
    StrikeState,
)
from pi_app.rules.strike.tactics import cancelled_plays

DECK = load_strike_deck()
HARMFUL_TO_TARGET = (SPY, ARTILLERY)


def _holds(state: StrikeState, player: str, kind: str) -> int:
    return sum(1 for card in state.hands[player] if kind_of(card) == kind)


def _lost_pairs(mine: list[int], theirs: list[int], side: str) -> int:
    """How many die pairs `side` loses with these dice (ties go to the defender)."""
    a, d = (mine, theirs) if side == ATTACKER else (theirs, mine)
    a, d = sorted(a, reverse=True), sorted(d, reverse=True)
    losers = [DEFENDER if x > y else ATTACKER for x, y in zip(a, d, strict=False)]
    return losers.count(side)


REACTIONS = frozenset({SABOTAGE, ARTILLERY, BOMBARD, RALLY, CANCEL})


class _NoDice:
    """Chance for a look-ahead that must use none (a window closed with no card to resolve)."""

    def roll(self, count: int) -> tuple[int, ...]:
        raise AssertionError("a look-ahead used a die")

    def below(self, n: int) -> int:
        raise AssertionError("a look-ahead shuffled")


class StrikeBot:
    """Chooses one legal command for a player the Strike game waits for.

    `reactions` are the tactics cards it plays in reaction windows (all of them by
    default); one it leaves out stays in its hand there. With `deploys=False` it fights
    with its continent cards alone and keeps its troop cards (the computer's levels). With
    `waivers=False` it never passes for longer than one window (tests that need windows
    asking several players at once)."""

    def __init__(self, reactions: frozenset[str] = REACTIONS, deploys: bool = True,
                 attack_at: float = 1.0, spare_troops: int = 1,
                 continents_from: int = 4, coin_sense: bool = False,
                 waivers: bool = True) -> None:
        self.reactions = reactions
        self.deploys = deploys
        self.attack_at = attack_at  # the lowest attack score it declares an attack for
        self.spare_troops = spare_troops  # troops beyond the dice cap, to absorb a loss
        self.continents_from = continents_from  # hand size from which it draws 2 continents
        self.coin_sense = coin_sense  # weigh a coin won, and a winner stopped, in an attack
        self.waivers = waivers  # pass (and deploy) for longer than one window

    def _may(self, state: StrikeState, player: str, kind: str) -> bool:
        """Whether it would play a `kind` card in a window now: it plays that kind, holds one."""
        return kind in self.reactions and _holds(state, player, kind) > 0

    def choose(self, state: StrikeState, player: str) -> Command:
        """The command this bot plays now as `player` (who must be awaited)."""
        window = state.window
        if window is not None:
            battle = state.battle
            if (window["kind"] == DEPLOYED and battle is not None
                    and piles.combatant_side(state, player) is None):
                support = self._support(state, player)
                if not isinstance(support, Pass):
                    return support
            return self._pass_or(state, player, self._react(state, player))
        if state.phase == DRAW:
            if _holds(state, player, SPY):
                return PlaySpy(player, self._spy_target(state, player))
            return self._draw(state, player)
        if state.phase == CHOOSE:
            if _holds(state, player, EXPAND):
                return PlayExpand(player, "continents")
            return self._attack_or_pass(state, player)
        battle = state.battle
        assert battle is not None
        step = battle["step"]
        if step in (ATTACKER_DEPLOY, DEFENDER_DEPLOY) and not self.deploys:
            return Deploy(player, 0)
        if step == ATTACKER_DEPLOY:
            a_cards = state.cards_of(player, battle["attack_continent"])
            want = max(0, ATTACK_DICE_MAX - a_cards) + self.spare_troops
            if self.coin_sense and self._coin_at_stake(state, player, battle):
                want = ATTACK_DICE_MAX + 2  # everything it needs to take the coin
            return Deploy(player, min(want, _holds(state, player, TROOPS)))
        if step == DEFENDER_DEPLOY:
            answer = self._answer_deployment(state, player)
            if answer is not None:
                return answer
            d_cont = battle["defence_continent"]
            d_cards = state.cards_of(player, d_cont)
            want = max(0, DEFENCE_DICE_MAX - d_cards)
            if state.coins[d_cont] == player or d_cards >= 2:
                want += 1
            if self.coin_sense and self._coin_at_stake(state, battle["attacker"], battle):
                want = DEFENCE_DICE_MAX + 2  # the attacker would take a coin: stop it
            until = self._defender_until(state, player) if self.waivers else "window"
            return Deploy(player, min(want, _holds(state, player, TROOPS)), until=until)
        assert step == READY
        a_dice, d_dice = dice_counts(state)
        if a_dice > 1 or d_dice == 1:
            return Roll(player)
        return EndAttack(player)

    @staticmethod
    def _coin_at_stake(state: StrikeState, attacker: str, battle: dict[str, Any]) -> bool:
        """Whether one more card of the defending continent gives `attacker` its coin."""
        d_cont = battle["defence_continent"]
        return (state.coins[d_cont] != attacker
                and state.cards_of(attacker, d_cont) + 1 >= DECK.domination[d_cont])

    def _answer_deployment(self, state: StrikeState, player: str) -> Command | None:
        """As the defender at its deploy step (its deploy is its pass in the window after
        deployment, RULES §7): Sabotage a strong attack, or Artillery on the attacker's
        troops, as it would in that window."""
        battle = state.battle
        assert battle is not None
        attackers = side_troops(state, ATTACKER)
        if attackers >= 2 and self._may(state, player, SABOTAGE):
            return PlaySabotage(player)
        if attackers >= 2 and self._may(state, player, ARTILLERY):
            return PlayArtillery(player, battle["attacker"])
        return None

    def _defender_until(self, state: StrikeState, player: str) -> str:
        """How long its deploy is its pass (RULES §7): every window while it holds a card
        for its own dice (Rally, Bombard); until a card is played when what it holds
        answers only plays: Cancel Orders, and Artillery or Sabotage against troops a
        supporter may still add (added troops ask it again); else for the whole battle."""
        if any(self._may(state, player, kind) for kind in (RALLY, BOMBARD)):
            return "window"
        answers = {CANCEL} | ({ARTILLERY, SABOTAGE} if len(state.players) > 2 else set())
        if any(self._may(state, player, kind) for kind in answers):
            return "card"
        return "battle"

    # --- own turn -----------------------------------------------------------------------
    def _spy_target(self, state: StrikeState, player: str) -> str:
        others = [p for p in state.players if p != player]
        return max(others, key=lambda p: len(state.hands[p]))

    def _draw(self, state: StrikeState, player: str) -> Draw:
        have_c = piles.continents_available(state)
        have_t = piles.tactics_available(state)
        need = min(2, have_c + have_t)
        want_c = 2 if len(state.hands[player]) >= self.continents_from else 1
        c = min(want_c, have_c, need)
        t = need - c
        if t > have_t:
            t = have_t
            c = need - t
        return Draw(player, c, t)

    def _attack_or_pass(self, state: StrikeState, player: str) -> Command:
        troops = _holds(state, player, TROOPS)
        best: tuple[float, DeclareAttack] | None = None
        for a_cont in DECK.continents:
            mine = state.cards_of(player, a_cont)
            if mine == 0:
                continue
            a_dice = min(ATTACK_DICE_MAX, mine + troops)
            for d_cont in DECK.continents:
                if not DECK.may_attack(a_cont, d_cont):
                    continue
                need = DECK.domination[d_cont]
                have = state.cards_of(player, d_cont)
                for enemy in state.players:
                    theirs = state.cards_of(enemy, d_cont) if enemy != player else 0
                    if theirs == 0:
                        continue
                    score = (3.0 * (have + 1) / need + 1.5 * theirs / need
                             + 0.8 * (a_dice - min(DEFENCE_DICE_MAX, theirs))
                             - 0.3 * mine / DECK.domination[a_cont])
                    if state.coins[d_cont] == enemy:
                        score += 0.5
                    if self.coin_sense:
                        if have + 1 >= need and state.coins[d_cont] != player:
                            score += 2.0 + 2.0 * len(state.coins_of(player))  # a coin; a win
                        if len(state.coins_of(enemy)) == 1 and state.coins[d_cont] == enemy:
                            score += 1.5  # one coin from winning: take cards of its coin
                    if best is None or score > best[0]:
                        best = (score, DeclareAttack(player, enemy, a_cont, d_cont))
        if best is not None and best[0] > self.attack_at:
            return best[1]
        return PassTurn(player)

    # --- reactions ----------------------------------------------------------------------
    def _next_decision(self, state: StrikeState, player: str) -> Command | None:
        """As the attacker in the window after deployment or after a roll with no card
        played: the Roll or EndAttack it would choose once the window closes, which it says
        now (RULES §7: the game takes it as its pass). The window's end is looked at on a
        copy; closing it resolves no card, so no die is used."""
        window, battle = state.window, state.battle
        if (window is None or battle is None or window["plays"] or player != battle["attacker"]
                or window["kind"] not in (DEPLOYED, ROLLED) or battle.get("roll_next")
                or battle.get("stop_next")):
            return None
        ahead = state.copy()
        apply(ahead, CloseWindow(TABLE, window["id"]), _NoDice())
        after = ahead.battle
        if ahead.winner is not None or after is None or ahead.window is not None:
            return None
        if after["step"] != READY:
            return None
        chosen = self.choose(ahead, player)
        return chosen if chosen.type in (Roll.type, EndAttack.type) else None

    def _pass_or(self, state: StrikeState, player: str, chosen: Command | None) -> Command:
        """`chosen`, or a pass: for the rest of the battle when it holds no card it could
        play in any later window of this battle (its hand only grows on its own turn, so
        the waiver changes none of its choices; it only spares the table the asking), or
        until a card is played when all it could play is a Cancel Orders; until its next
        turn as an onlooker holding neither troops nor Cancel Orders."""
        if chosen is not None and not isinstance(chosen, Pass):
            return chosen
        if not self.waivers:
            return Pass(player)
        battle = state.battle
        if (player != state.current_player
                and not (battle is not None and (piles.combatant_side(state, player)
                                                 or player in battle["supporters"]))
                and not self._may(state, player, CANCEL)
                and (not _holds(state, player, TROOPS) or not any(
                    state.coins_of(p) for p in state.players if p != player))):
            # an onlooker with no Cancel Orders, and no troops to lend or nobody else holding
            # a coin (it lends troops only against a coin holder), plays nothing before its
            # own turn unless attacked: it sits out until then (RULES §7)
            return Pass(player, until="turn")
        if battle is None:
            return Pass(player)
        decision = self._next_decision(state, player)
        if decision is not None:
            return decision  # its pass, and its next roll (or its stop) once the window closes
        side = piles.combatant_side(state, player)
        useful = {CANCEL}
        deployed = state.window is not None and state.window["kind"] == DEPLOYED
        # what it could still play later in this battle: Sabotage only right after
        # deployment; Artillery while an enemy's troops are active (none join after it)
        enemies = any(t["player"] != player and t["side"] != (side or battle["supporters"].get(
            player)) for t in battle["troops"])
        if side is not None:
            useful |= {RALLY, BOMBARD}
            if side == DEFENDER and deployed:
                useful.add(SABOTAGE)
        if (side is not None or player in battle["supporters"]) and (enemies or deployed):
            useful.add(ARTILLERY)  # an outsider who did not join reacts to nothing but cards
        if any(self._may(state, player, kind) or (kind == TROOPS and _holds(state, player, kind))
               for kind in useful - {CANCEL}):
            return Pass(player)
        if self._may(state, player, CANCEL):
            return Pass(player, until="card")  # it only answers cards: ask it then
        return Pass(player, until="battle")

    def _support(self, state: StrikeState, player: str) -> Command:
        battle = state.battle
        assert battle is not None
        if player in state.window.get("passed", []):  # type: ignore[union-attr]
            return Pass(player)
        troops = _holds(state, player, TROOPS)
        if player in battle["supporters"] or troops == 0:
            return Pass(player)
        attacker = battle["attacker"]
        d_cont = battle["defence_continent"]
        close = state.cards_of(attacker, d_cont) + 1 >= DECK.domination[d_cont]
        if state.coins_of(attacker) and close:
            return Deploy(player, 1, DEFENDER)
        return Pass(player)

    def _react(self, state: StrikeState, player: str) -> Command | None:
        window = state.window
        battle = state.battle
        assert window is not None
        kind = window["kind"]
        mine = {p["kind"] for p in window["plays"] if p["player"] == player}
        cancel = self._cancel(state, player)
        if cancel is not None:
            return cancel
        side = piles.combatant_side(state, player)
        if side is None and battle is not None:
            side = battle["supporters"].get(player)
        if battle is None or side is None:
            return None
        enemy_side = DEFENDER if side == ATTACKER else ATTACKER
        if (kind == DEPLOYED and side == DEFENDER and SABOTAGE not in mine
                and self._may(state, player, SABOTAGE)
                and side_troops(state, ATTACKER) >= 2 + side_troops(state, DEFENDER)):
            return PlaySabotage(player)
        if kind in (DEPLOYED, ROLLED) and ARTILLERY not in mine and self._may(state, player,
                                                                              ARTILLERY):
            enemies = [t["player"] for t in battle["troops"] if t["side"] == enemy_side]
            if len(enemies) >= 2:
                # the first in troop order on a tie (a set's order would follow the hash
                # seed, and a seeded game would differ from one process to the next)
                target = max(dict.fromkeys(enemies), key=enemies.count)
                return PlayArtillery(player, target)
        if kind == ROLLED and piles.combatant_side(state, player) is not None:
            return self._dice_card(state, player, side, enemy_side, mine)
        return None

    def _dice_card(self, state: StrikeState, player: str, side: str, enemy_side: str,
                   mine: set[str]) -> Command | None:
        battle = state.battle
        assert battle is not None and battle["dice"] is not None
        own = list(battle["dice"][side])
        theirs = list(battle["dice"][enemy_side])
        now = _lost_pairs(own, theirs, side)
        if now == 0:
            return None
        if BOMBARD not in mine and self._may(state, player, BOMBARD):
            lowest = len(own) - 1
            if own[lowest] < 6:
                better = [*own[:lowest], 6]
                if _lost_pairs(better, theirs, side) < now:
                    return PlayBombard(player, lowest)
        rallied = [face + 2 for face in own]
        if (RALLY not in mine and self._may(state, player, RALLY)
                and _lost_pairs(rallied, theirs, side) < now):
            return PlayRally(player)
        return None

    def _cancel(self, state: StrikeState, player: str) -> Command | None:
        window = state.window
        assert window is not None
        if not self._may(state, player, CANCEL):
            return None
        plays = window["plays"]
        cancelled = cancelled_plays(plays)
        for play in reversed(plays):
            if play["player"] == player or play["id"] in cancelled:
                continue
            if self._hurts(state, player, play):
                return PlayCancelOrders(player, play["id"])
        return None

    def _hurts(self, state: StrikeState, player: str, play: dict[str, Any]) -> bool:
        kind = play["kind"]
        if kind in HARMFUL_TO_TARGET:
            return bool(play.get("target") == player)
        if kind in (RALLY, BOMBARD, SABOTAGE):
            return piles.combatant_side(state, player) is not None
        if kind == CANCEL:
            target = next((p for p in state.window["plays"]  # type: ignore[index]
                           if p["id"] == play["target"]), None)
            return target is not None and target["player"] == player
        if kind == EXPAND:
            return bool(state.coins_of(play["player"]))
        return False
