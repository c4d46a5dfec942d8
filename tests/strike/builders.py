"""Small fixtures for Strike tests: hand-made states and dice that roll what a test says.

`make_state` starts from a real new game and then lays out exactly the continent cards,
tactics cards and coins a test names; every other card goes back into the decks, so all
82 cards stay accounted for.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from pi_app.dice import SeededSource
from pi_app.rules.strike import Pass, StrikeState, apply, load_strike_deck, new_game
from pi_app.rules.strike.deck import kind_of
from pi_app.rules.strike.state import CHOOSE, DRAW, EVERY

DECK = load_strike_deck()
ALL_CARDS = Counter(DECK.all_cards)


class ScriptedDice:
    """A RandomSource that rolls the faces a test scripted, in order; `below` returns 0."""

    def __init__(self, *rolls: Iterable[int]) -> None:
        self.rolls = [tuple(r) for r in rolls]

    def roll(self, count: int) -> tuple[int, ...]:
        """The next scripted roll, which must have `count` dice."""
        faces = self.rolls.pop(0)
        assert len(faces) == count, (faces, count)
        return faces

    def below(self, n: int) -> int:
        """Always 0 (a fixed, valid shuffle)."""
        return 0


def _take(pool: list[str], kind: str) -> str:
    card = next(c for c in pool if kind_of(c) == kind)
    pool.remove(card)
    return card


def make_state(players: list[str], tables: dict[str, list[str]] | None = None,
               hands: dict[str, list[str]] | None = None,
               coins: dict[str, str] | None = None, current: str | None = None,
               phase: str = CHOOSE, continent_top: list[str] | None = None,
               tactics_top: list[str] | None = None,
               passing: str | None = EVERY) -> StrikeState:
    """A state at `phase` of turn 1 with exactly these continent cards (by continent id),
    hands (by tactic kind) and coins. `*_top` lists the kinds on top of each deck, first
    drawn first. `passing`: every seat's passing choice (RULES §7, "Passing"); "every"
    unless a test says otherwise, so that a window asks from public facts alone and the
    tests of its mechanics see every player it may ask; None: nobody chose (the game's
    default, "result")."""
    state = new_game(players, None, SeededSource(0)).state
    continents = list(DECK.continent_cards)
    tactics = list(DECK.tactics_cards)
    state.tables = {p: [_take(continents, k) for k in (tables or {}).get(p, [])]
                    for p in players}
    state.hands = {p: [_take(tactics, k) for k in (hands or {}).get(p, [])] for p in players}
    top_c = [_take(continents, k) for k in continent_top or []]
    top_t = [_take(tactics, k) for k in tactics_top or []]
    state.continent_deck = continents + top_c[::-1]
    state.tactics_deck = tactics + top_t[::-1]
    state.discard = []
    state.surrendered = []
    state.coins = dict.fromkeys(DECK.continents)
    state.coins.update(coins or {})
    state.current_player = state.first_player = current or players[0]
    state.phase = phase if phase in (DRAW, CHOOSE) else CHOOSE
    state.turn = 1
    state.battle = None
    state.window = None
    state.spied = {}
    state.passing = dict.fromkeys(players, passing) if passing is not None else {}
    return state


def all_cards(state: StrikeState) -> Counter[str]:
    """Every card id wherever it is: decks, hands, tables, battle, window, piles."""
    cards = Counter(state.continent_deck) + Counter(state.tactics_deck)
    cards += Counter(state.discard) + Counter(state.surrendered)
    for p in state.players:
        cards += Counter(state.hands[p]) + Counter(state.tables[p])
    if state.battle is not None:
        cards += Counter(t["card"] for t in state.battle["troops"])
    if state.window is not None:
        cards += Counter(p["card"] for p in state.window["plays"])
    return cards


def pass_all(state: StrikeState, rng: object = None) -> list:
    """Every awaited player passes in the open window (seat order) until that window
    closes; returns the events."""
    from pi_app.rules.strike import waiting_for
    events = []
    source = rng or SeededSource(0)
    window = state.window
    if window is None:
        return events  # nobody could answer: it closed as it opened
    while state.window is window:
        who = waiting_for(state)[0]
        events += apply(state, Pass(who), source).events  # type: ignore[arg-type]
    return events


def refused(state: StrikeState, command: object, code: str) -> None:
    """Assert `command` is refused with `code` and leaves the state exactly unchanged."""
    import pytest

    from pi_app.rules.strike import RuleError
    before = state.to_dict()
    with pytest.raises(RuleError) as err:
        apply(state, command, SeededSource(0))  # type: ignore[arg-type]
    assert err.value.code == code, err.value.message
    assert state.to_dict() == before


def kinds(cards: list[str]) -> list[str]:
    """The kinds (continent id or tactic kind) of these card ids, sorted."""
    return sorted(kind_of(c) for c in cards)


def at_battle(state: StrikeState, defender: str, attack_continent: str,
              defence_continent: str, attacker_troops: int = 0, defender_troops: int = 0,
              until: str = "ready") -> StrikeState:
    """Declare an attack by the current player and deploy; stop at battle step `until`
    ("deployed" or "ready": the window after deployment passed; since Strike 3 the players
    outside the battle add troops in that window, there is no separate "support" step)."""
    from pi_app.rules.strike import DeclareAttack, Deploy
    rng = SeededSource(0)
    attacker = state.current_player
    apply(state, DeclareAttack(attacker, defender, attack_continent, defence_continent), rng)
    # a player holding no tactics card deploys 0 by itself (docs/RULES.md §7, windows)
    if state.battle is not None and state.battle["step"] == "attacker_deploy":
        apply(state, Deploy(attacker, attacker_troops), rng)
    else:
        assert attacker_troops == 0
    if state.battle is not None and state.battle["step"] == "defender_deploy":
        apply(state, Deploy(defender, defender_troops), rng)
    else:
        assert defender_troops == 0
    assert state.battle is not None
    if state.battle["step"] == until:
        return state
    if state.battle["step"] == "deployed":
        pass_all(state)
    assert state.battle is not None and state.battle["step"] == until
    return state
