"""The RISK Strike engine: `new_game(players, house_rules, rng)` and `apply(state, cmd, rng)`.

Pure like the board engine: every handler validates the command completely before touching
the state, then mutates it in place; an illegal command raises `RuleError(code, message)`
and changes nothing. Chance comes only from the `RandomSource` argument.

Turn: `Draw` 2 cards -> `DeclareAttack` or `PassTurn`. Battle: attacker `Deploy`s, defender
`Deploy`s (or first plays Sabotage or Artillery: the attacker's troops are down), then the
*deployed window*, where the other players `Deploy` to a side or `Pass` and anyone may play
a card (Sabotage, Artillery); then the attacker `Roll`s, which opens a *rolled window*
(Rally, Bombard, Artillery); when it closes the dice are compared, and the attacker may
`Roll` again or `EndAttack` while both sides keep cards of the continents in play. A
tactics card played when no window is open (Spy, Expand, Artillery between rolls, the
defender's Sabotage) opens a *tactics window*.

Reaction windows: every eligible player acts or `Pass`es; a play counts as the player's
own pass and clears everybody else's, so the window closes when all have passed since the
last play, or when the table sends `CloseWindow` (its timer, `house_rules.reaction_seconds`,
fired). Then the window's plays resolve in the order played (cancelled ones skipped, see
`tactics.cancelled_plays`). While a window is open only window commands are accepted.
Each window has an id (in `window_opened`); `CloseWindow(window=id)` closes only that one.
A play (a tactics card, a supporter's troops) gives the open window a new id
(`window_renewed`), so the table's clock starts again and every answer gets the full
`reaction_seconds`; a timer still running for the old id is refused as stale.

Waiting is the exception (RULES §7, Strike rules version 3, and "Passing"). Only players
holding a tactics card are asked (an empty hand is public and can answer nothing); beyond
that each seat's standing passing choice (`ChoosePassing`, public) says when: "result" (the
default) only while the hand holds a card that could change something now (`answers`);
"every" from roles, troops, dice, plays and public hand sizes alone, never from what a hand
holds, so that its pace reveals nothing: after a roll only a player with another player's
troops to hit or whose own dice lose a pair is asked at once, everybody else once a card is
played (`later`). The defender's deploy is their pass in the deployed window. The
attacker's `Roll` or `EndAttack` during the deployed or rolled window is their pass, carried
out when it closes. A player may pass until a card is played (`Pass(until="card")`), for the
rest of the battle (`Pass(until="battle")`) or until their next turn unless attacked
(`Pass(until="turn")`, `state.sitting_out`); a deploy may say the same (`Deploy.until`). A
window nobody can answer closes at once (`window_closed` by "nobody"); a player whose hand
empties during a window counts as passed. A play is its player's pass, except when nobody
else is left to answer and the player still holds a card: then the window waits for them (a
second card, or their Pass). A deploy step whose player holds no tactics card at all deploys
0 by itself (`troops_deployed` with `auto`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_app.rules.board import load_roster
from pi_app.rules.cards import shuffle
from pi_app.rules.commands import Command
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event, Outcome
from pi_app.rules.strike import piles
from pi_app.rules.strike.commands import (
    PLAY_COMMANDS,
    TABLE,
    ChoosePassing,
    CloseWindow,
    DeclareAttack,
    Deploy,
    Draw,
    EndAttack,
    Pass,
    PassTurn,
    Roll,
)
from pi_app.rules.strike.deck import TROOPS, kind_of, load_strike_deck
from pi_app.rules.strike.queries import attack_choices, decider, dice_counts
from pi_app.rules.strike.state import (
    ATTACKER,
    ATTACKER_DEPLOY,
    BATTLE,
    CHOOSE,
    DEFENDER,
    DEFENDER_DEPLOY,
    DEPLOYED,
    DRAW,
    EVERY,
    GAME_OVER,
    PASSING_CHOICES,
    READY,
    ROLLED,
    SIDES,
    TACTICS_WINDOW,
    VARIANT,
    StrikeRules,
    StrikeState,
)
from pi_app.rules.strike.tactics import (
    TACTIC_OF_COMMAND,
    TACTICS,
    Tactic,
    cancelled_plays,
    lost_pairs,
)

if TYPE_CHECKING:
    from pi_app.dice import RandomSource

DECK = load_strike_deck()
MIN_PLAYERS = 2
MAX_PLAYERS = 5
DEAL_CONTINENTS = 3
DEAL_TACTICS = 3
DRAW_PER_TURN = 2


# --- new game ----------------------------------------------------------------------------
def new_game(players: list[str], house_rules: StrikeRules | dict[str, Any] | None,
             rng: RandomSource) -> Outcome[StrikeState]:
    """Shuffle both decks, deal, roll for the first player and start turn 1."""
    rules = (house_rules if isinstance(house_rules, StrikeRules)
             else StrikeRules.from_dict(house_rules))
    _check_players(players)
    state = StrikeState(list(players), rules, DECK.continents)
    events = [Event("game_started", variant=VARIANT, players=list(players))]
    state.continent_deck = list(DECK.continent_cards)
    state.tactics_deck = list(DECK.tactics_cards)
    shuffle(state.continent_deck, rng)
    shuffle(state.tactics_deck, rng)
    for _ in range(DEAL_CONTINENTS):
        for player in players:
            state.tables[player].append(state.continent_deck.pop())
    for _ in range(DEAL_TACTICS):
        for player in players:
            state.hands[player].append(state.tactics_deck.pop())
    for player in players:
        events.append(Event("continents_drawn", player=player, cards=list(state.tables[player])))
        events.append(Event("tactics_drawn", player=player, cards=list(state.hands[player])))
    first = _roll_for_first(state, rng, events)
    order = _seats_from(state, first)
    for player in order[1:]:
        piles.draw_tactics(state, player, 1, rng, events)
    if len(players) == 2:
        piles.draw_continents(state, order[1], 1, rng, events)
    for player in order:
        for continent in DECK.continents:
            piles.check_domination(state, player, continent, events)
    state.first_player = first
    _start_turn(state, first, events)
    return Outcome(state, events)


def _check_players(players: Any) -> None:
    roster = load_roster()
    if not isinstance(players, list | tuple) or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        count = len(players) if isinstance(players, list | tuple) else players
        raise RuleError("bad_players", f"RISK Strike needs {MIN_PLAYERS} to {MAX_PLAYERS} "
                        f"players, got {count!r}.")
    for p in players:
        if p not in roster.colours:
            raise RuleError("bad_players", f"{p!r} is not a colour; use one of "
                            + ", ".join(roster.colours) + ".")
    if len(set(players)) != len(players):
        raise RuleError("bad_players", "Every player needs a different colour.")


def _roll_for_first(state: StrikeState, rng: RandomSource, events: list[Event]) -> str:
    contenders = list(state.players)
    while True:
        faces = {p: rng.roll(1)[0] for p in contenders}
        events.append(Event("first_player_roll", rolls=faces))
        best = max(faces.values())
        contenders = [p for p in contenders if faces[p] == best]
        if len(contenders) == 1:
            events.append(Event("first_player", player=contenders[0]))
            return contenders[0]


def _seats_from(state: StrikeState, player: str) -> list[str]:
    i = state.players.index(player)
    return state.players[i:] + state.players[:i]


# --- apply -------------------------------------------------------------------------------
def apply(state: StrikeState, command: Command, rng: RandomSource) -> Outcome[StrikeState]:
    """Apply `command` to `state` (in place) and return the state and the events caused."""
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise RuleError("bad_command",
                        f"{type(command).__name__} is not a command of RISK Strike.")
    if state.winner is not None:
        raise RuleError("game_over", f"The game is over; {state.winner} won.")
    player = command.player
    if type(command) is CloseWindow:
        if player != TABLE:
            raise RuleError("table_only", "Only the table's timer closes a reaction window; "
                            "players pass.")
    elif player not in state.hands:
        raise RuleError("unknown_player", f"{player!r} is not playing in this game.")
    events: list[Event] = []
    handler(state, command, rng, events)
    if state.winner is not None:
        _clear_table(state)
    return Outcome(state, events)


def _must_decide(state: StrikeState, player: str, doing: str) -> None:
    """Raise unless `player` is the one the game waits for outside any window."""
    window = state.window
    if window is not None:
        raise RuleError("window_open", f"Wait: players may still react ({window['kind']} "
                        f"window). You cannot {doing} until it closes.")
    who = decider(state)
    if who != player:
        raise RuleError("not_your_turn", f"It is {who}'s decision now, not {player}'s.")


def _phase(state: StrikeState, phase: str, doing: str) -> None:
    if state.phase != phase:
        raise RuleError("wrong_phase", f"You cannot {doing} during the {state.phase} phase.")


def _step(state: StrikeState, steps: tuple[str, ...], doing: str) -> dict[str, Any]:
    battle = state.battle
    if battle is None or battle["step"] not in steps:
        raise RuleError("wrong_phase", f"You cannot {doing} now.")
    return battle


def _troops_in_hand(state: StrikeState, player: str) -> int:
    return sum(1 for card in state.hands[player] if kind_of(card) == TROOPS)


# --- turn --------------------------------------------------------------------------------
def _start_turn(state: StrikeState, player: str, events: list[Event]) -> None:
    state.current_player = player
    state.turn += 1
    state.phase = DRAW
    state.battle = None
    state.spied.pop(player, None)
    if player in state.sitting_out:  # a pass until your next turn ends as it starts
        state.sitting_out.remove(player)
    events.append(Event("turn_started", player=player, turn=state.turn))


def _end_turn(state: StrikeState, events: list[Event]) -> None:
    player = state.current_player
    events.append(Event("turn_ended", player=player))
    _start_turn(state, _seats_from(state, player)[1], events)


def _draw(state: StrikeState, cmd: Draw, rng: RandomSource, events: list[Event]) -> None:
    _must_decide(state, cmd.player, "draw")
    _phase(state, DRAW, "draw cards")
    c, t = cmd.continents, cmd.tactics
    if type(c) is not int or type(t) is not int or c < 0 or t < 0:
        raise RuleError("bad_count", "Draw a whole number of each kind of card.")
    have_c = piles.continents_available(state)
    have_t = piles.tactics_available(state)
    need = min(DRAW_PER_TURN, have_c + have_t)
    if c + t != need:
        raise RuleError("bad_count", f"Draw {need} cards in all (continent + tactics), "
                        f"not {c + t}.")
    if c > have_c:
        raise RuleError("deck_empty", f"Only {have_c} continent cards are left to draw.")
    if t > have_t:
        raise RuleError("deck_empty", f"Only {have_t} tactics cards are left to draw.")
    events.append(Event("drew", player=cmd.player, continents=c, tactics=t))
    piles.draw_tactics(state, cmd.player, t, rng, events)
    piles.draw_continents(state, cmd.player, c, rng, events)
    if state.winner is None:
        state.phase = CHOOSE


def _pass_turn(state: StrikeState, cmd: PassTurn, rng: RandomSource,
               events: list[Event]) -> None:
    _must_decide(state, cmd.player, "pass")
    _phase(state, CHOOSE, "pass the turn")
    events.append(Event("turn_passed", player=cmd.player))
    piles.draw_tactics(state, cmd.player, 1, rng, events)
    _end_turn(state, events)


# --- battle ------------------------------------------------------------------------------
def _declare(state: StrikeState, cmd: DeclareAttack, rng: RandomSource,
             events: list[Event]) -> None:
    player, defender = cmd.player, cmd.defender
    a_cont, d_cont = cmd.attack_continent, cmd.defence_continent
    _must_decide(state, player, "attack")
    _phase(state, CHOOSE, "attack")
    if defender not in state.hands or defender == player:
        raise RuleError("bad_target", f"Attack another player at the table, not {defender!r}.")
    for continent in (a_cont, d_cont):
        if continent not in state.coins:
            raise RuleError("unknown_continent", f"There is no continent called {continent!r}.")
    if not DECK.may_attack(a_cont, d_cont):
        raise RuleError("not_connected", f"{DECK.continent_names[a_cont]} is not connected to "
                        f"{DECK.continent_names[d_cont]}; attack the same or a connected "
                        "continent.")
    if state.cards_of(player, a_cont) == 0:
        raise RuleError("no_continent_cards", f"You have no {DECK.continent_names[a_cont]} "
                        "card to attack from.")
    if state.cards_of(defender, d_cont) == 0:
        raise RuleError("no_continent_cards", f"{defender} has no "
                        f"{DECK.continent_names[d_cont]} card to attack.")
    state.phase = BATTLE
    state.battle = {"attacker": player, "defender": defender, "attack_continent": a_cont,
                    "defence_continent": d_cont, "step": ATTACKER_DEPLOY, "troops": [],
                    "supporters": {}, "dice": None, "rolls": 0, "last_roll": None}
    events.append(Event("attack_declared", attacker=player, defender=defender,
                        attack_continent=a_cont, defence_continent=d_cont))
    if defender in state.sitting_out:  # a pass until your next turn ends when you are attacked
        state.sitting_out.remove(defender)
    _skip_empty_deploys(state, rng, events)


def _skip_empty_deploys(state: StrikeState, rng: RandomSource, events: list[Event]) -> None:
    """A deploy step whose player holds no tactics card at all (public) has nothing to ask:
    it deploys 0 by itself. A hand without troops is still asked (what it holds is secret)."""
    battle = state.battle
    while battle is not None and battle is state.battle and battle["step"] in (
            ATTACKER_DEPLOY, DEFENDER_DEPLOY):
        player = battle["attacker" if battle["step"] == ATTACKER_DEPLOY else "defender"]
        if state.hands[player]:
            return
        _after_deploy(state, player, 0, rng, events, auto=True)


def _deploy(state: StrikeState, cmd: Deploy, rng: RandomSource, events: list[Event]) -> None:
    player, count, side = cmd.player, cmd.count, cmd.side
    window = state.window
    if window is not None and window["kind"] == DEPLOYED:
        _deploy_support(state, cmd, rng, events)
        return
    _must_decide(state, player, "deploy troops")
    battle = _step(state, (ATTACKER_DEPLOY, DEFENDER_DEPLOY), "deploy troops")
    own = ATTACKER if battle["step"] == ATTACKER_DEPLOY else DEFENDER
    if side not in (None, own):
        raise RuleError("bad_side", f"You fight as the {own}; your troops join your own side.")
    have = _troops_in_hand(state, player)
    if type(count) is not int or not 0 <= count <= have:
        raise RuleError("bad_count", f"You can deploy 0 to {have} troop cards, not {count!r}.")
    _check_until(cmd.until)
    piles.take_troops(state, player, own, count)
    _waive(state, player, cmd.until)
    _after_deploy(state, player, count, rng, events, until=cmd.until)
    _skip_empty_deploys(state, rng, events)


def _check_until(until: object) -> None:
    if until not in WAIVERS:
        raise RuleError("bad_choice", "Pass for this \"window\", until a \"card\" is played, "
                        f"for this \"battle\" or until your next \"turn\", not {until!r}.")


def _waive(state: StrikeState, player: str, until: str) -> None:
    """Record a pass for longer than one window (`until` "card", "battle" or "turn")."""
    key = WAIVERS[until]
    if until == "turn":
        state.sitting_out.append(player)
    elif key is not None:
        battle = state.battle
        assert battle is not None
        battle[key] = [*battle.get(key, []), player]


def _after_deploy(state: StrikeState, player: str, count: int, rng: RandomSource,
                  events: list[Event], auto: bool = False, until: str = "window") -> None:
    """The attacker's or defender's troops are down: the next step (or window) begins."""
    battle = state.battle
    assert battle is not None
    own = ATTACKER if battle["step"] == ATTACKER_DEPLOY else DEFENDER
    extra: dict[str, Any] = {"auto": True} if auto else {}
    if until != "window":
        extra["until"] = until
    events.append(Event("troops_deployed", player=player, side=own, count=count, **extra))
    if own == ATTACKER:
        battle["step"] = DEFENDER_DEPLOY
        return
    _open_deployed(state, rng, events)


def _deploy_support(state: StrikeState, cmd: Deploy, rng: RandomSource,
                    events: list[Event]) -> None:
    player, count, side = cmd.player, cmd.count, cmd.side
    window = state.window
    battle = state.battle
    assert window is not None and battle is not None
    if player in (battle["attacker"], battle["defender"]):
        raise RuleError("not_eligible", "The attacker and defender have deployed already; "
                        "only the other players may add troops now.")
    if player not in window["eligible"]:
        raise RuleError("not_eligible", f"{player} takes no part in this window.")
    if side not in SIDES:
        raise RuleError("bad_side", "Say which side your troops support: attacker or "
                        "defender.")
    chosen = battle["supporters"].get(player)
    if chosen is not None and chosen != side:
        raise RuleError("switch_sides", f"You already support the {chosen}; you cannot "
                        "switch sides.")
    have = _troops_in_hand(state, player)
    if type(count) is not int or not 1 <= count <= have:
        if have == 0:
            raise RuleError("bad_count", "You hold no troop cards; pass instead.")
        raise RuleError("bad_count", f"You can add 1 to {have} troop cards, not {count!r}.")
    _check_until(cmd.until)
    piles.take_troops(state, player, side, count)
    battle["supporters"][player] = side
    _waive(state, player, cmd.until)
    extra = {} if cmd.until == "window" else {"until": cmd.until}
    events.append(Event("troops_deployed", player=player, side=side, count=count, **extra))
    _answered_by_play(state, window, player, events)
    _close_if_all_passed(state, rng, events)


def _roll(state: StrikeState, cmd: Roll, rng: RandomSource, events: list[Event]) -> None:
    window, battle = state.window, state.battle
    if (window is not None and window["kind"] in (DEPLOYED, ROLLED) and battle is not None
            and cmd.player == battle["attacker"]):
        _next_after_window(state, window, battle, "roll", rng, events)
        return
    _must_decide(state, cmd.player, "roll")
    _roll_dice(state, _step(state, (READY,), "roll"), rng, events)


NEXT_KEYS = {"roll": "roll_next", "stop": "stop_next"}


def _next_after_window(state: StrikeState, window: dict[str, Any], battle: dict[str, Any],
                       decision: str, rng: RandomSource, events: list[Event]) -> None:
    """The attacker's Roll or EndAttack while the window after deployment or after a roll
    is open: it is their pass, and the decision is carried out by itself once the window
    closes with the battle going on (RULES §7). A card played in the window after it undoes
    it (`_answered_by_play`): the attacker is asked again. Saying the other one instead
    changes the decision."""
    player = battle["attacker"]
    key = NEXT_KEYS[decision]
    if battle.get(key):
        done = "roll again" if decision == "roll" else "stop the attack"
        raise RuleError("already_passed", f"You {done} as soon as this window closes; "
                        "wait for the others.")
    for other in NEXT_KEYS.values():
        battle.pop(other, None)
    battle[key] = True
    events.append(Event(key, player=player, kind=window["kind"]))
    if player in window["eligible"] and player not in window["passed"]:
        window["passed"].append(player)
        _close_if_all_passed(state, rng, events)


def _roll_dice(state: StrikeState, battle: dict[str, Any], rng: RandomSource,
               events: list[Event]) -> None:
    a_count, d_count = dice_counts(state)
    attack = sorted(rng.roll(a_count), reverse=True)
    defence = sorted(rng.roll(d_count), reverse=True)
    battle["dice"] = {ATTACKER: attack, DEFENDER: defence}
    battle["rolls"] += 1
    battle["step"] = ROLLED
    events.append(Event("dice_rolled", attacker=battle["attacker"],
                        defender=battle["defender"], attack_dice=list(attack),
                        defence_dice=list(defence)))
    _open_window(state, ROLLED, list(state.players), rng, events)


def _end_attack(state: StrikeState, cmd: EndAttack, rng: RandomSource,
                events: list[Event]) -> None:
    window, battle = state.window, state.battle
    if (window is not None and window["kind"] in (DEPLOYED, ROLLED) and battle is not None
            and cmd.player == battle["attacker"]):
        _next_after_window(state, window, battle, "stop", rng, events)
        return
    _must_decide(state, cmd.player, "stop the attack")
    _step(state, (ATTACKER_DEPLOY, READY), "stop the attack")
    _finish_attack(state, "stopped", events)


def _finish_attack(state: StrikeState, reason: str, events: list[Event]) -> None:
    """End the battle: all active troop cards are discarded, then the turn ends."""
    battle = state.battle
    assert battle is not None
    gone = piles.discard_troops(state)
    events.append(Event("attack_ended", attacker=battle["attacker"], reason=reason,
                        troops_discarded=len(gone)))
    state.battle = None
    _end_turn(state, events)


def _compare(state: StrikeState, events: list[Event]) -> None:
    """Resolve a roll: pair highest with highest; ties go to the defender."""
    battle = state.battle
    assert battle is not None and battle["dice"] is not None
    attack = sorted(battle["dice"][ATTACKER], reverse=True)
    defence = sorted(battle["dice"][DEFENDER], reverse=True)
    losers = [DEFENDER if a > d else ATTACKER for a, d in zip(attack, defence, strict=False)]
    battle["dice"] = None
    battle["last_roll"] = {ATTACKER: attack, DEFENDER: defence, "losers": losers}
    events.append(Event("battle", attacker=battle["attacker"], defender=battle["defender"],
                        attack_dice=attack, defence_dice=defence, losers=list(losers)))
    for side in losers:
        _lose(state, battle, side, events)
        if state.winner is not None:
            return
    attacker, defender = battle["attacker"], battle["defender"]
    if (state.cards_of(attacker, battle["attack_continent"]) > 0
            and state.cards_of(defender, battle["defence_continent"]) > 0):
        battle["step"] = READY
    else:
        _finish_attack(state, "no_cards", events)


def _lose(state: StrikeState, battle: dict[str, Any], side: str, events: list[Event]) -> None:
    """One lost die pair: a troop card of that side, else a continent card."""
    lost = piles.discard_troops(state, side=side, limit=1)
    if lost:
        events.append(Event("troop_lost", player=lost[0]["player"], side=side))
        return
    attacker, defender = battle["attacker"], battle["defender"]
    if side == DEFENDER:
        continent = battle["defence_continent"]
        card = _last_card(state, defender, continent)
        if card is None:
            return
        state.tables[defender].remove(card)
        state.tables[attacker].append(card)
        events.append(Event("continent_captured", player=attacker, source=defender,
                            card=card, continent=continent))
        piles.check_domination(state, attacker, continent, events)
    else:
        continent = battle["attack_continent"]
        card = _last_card(state, attacker, continent)
        if card is None:
            return
        state.tables[attacker].remove(card)
        state.surrendered.append(card)
        events.append(Event("continent_surrendered", player=attacker, card=card,
                            continent=continent))


def _last_card(state: StrikeState, player: str, continent: str) -> str | None:
    prefix = continent + "."
    return next((c for c in reversed(state.tables[player]) if c.startswith(prefix)), None)


# --- reaction windows --------------------------------------------------------------------
# Pass(until=...) -> the battle's list of the players who said it ("window": none; "turn":
# the state's `sitting_out`, since it outlasts a battle).
WAIVERS = {"window": None, "card": "quiet", "battle": "waived", "turn": "sitting_out"}


def _quiet(state: StrikeState) -> list[str]:
    """The players who passed until a card is played, for the rest of the current battle
    (`Pass(until="card")`): a window asks them only once a card or troops are played in it."""
    return list(state.battle.get("quiet", [])) if state.battle is not None else []


def _waived(state: StrikeState) -> list[str]:
    """The players no window asks: they passed for the rest of the current battle
    (`Pass(until="battle")`) or until their next turn (`Pass(until="turn")`)."""
    battle = list(state.battle.get("waived", [])) if state.battle is not None else []
    return [*battle, *state.sitting_out]


def _open_window(state: StrikeState, kind: str, players: list[str], rng: RandomSource | None,
                 events: list[Event], passed: tuple[str, ...] = ()) -> dict[str, Any]:
    """Open a window for those of `players` it asks (`_asks`; `passed`: players whose last
    command already was their pass). With `rng`, a window nobody can answer closes at once
    (a play's own window passes None: its plays wait).

    A seat choosing "every" who can change nothing yet from public facts is asked only once
    a card is played in the window (`later`); a seat choosing "result" is asked again then
    if its hand can answer the card."""
    window: dict[str, Any] = {"id": state.next_window, "kind": kind, "eligible": [],
                              "passed": [], "plays": []}
    state.next_window += 1
    state.window = window
    asks = {p: _asks(state, p, played=False) for p in players}
    eligible = [p for p in players if asks[p] == "now"]
    later = [p for p in players if asks[p] == "later"]
    window["eligible"] = eligible
    window["passed"] = [p for p in eligible if p in passed]
    if later:
        window["later"] = later
    events.append(Event("window_opened", window=window["id"], kind=kind,
                        players=[p for p in eligible if p not in window["passed"]],
                        seconds=state.house_rules.reaction_seconds))
    if rng is not None and all(p in window["passed"] for p in eligible):
        _close(state, "nobody", rng, events)
    return window


def _asks(state: StrikeState, player: str, played: bool) -> str | None:
    """Whether the open window asks `player` "now", "later" (once a card is played) or not
    at all (None), by their passing choice (RULES §7, "Passing"). `played`: a card (or
    troops) has been played in it.

    Nobody is asked who holds no tactics card (public) or passed for the rest of the battle
    or until their next turn; one who passed until a card is played, not before one is.
    "every": from public facts only (Strike 3): after a roll, a player who can change
    nothing yet (`_can_answer_roll`) is asked once a card is played. "result": only while
    the hand holds a card that could change something now (`answers`)."""
    if not state.hands[player] or player in _waived(state):
        return None
    quiet = player in _quiet(state) and not played
    if state.passing_of(player) == EVERY:
        window = state.window
        assert window is not None
        if not played and (quiet or (window["kind"] == ROLLED
                                     and not _can_answer_roll(state, player))):
            return "later"
        return "now"
    return "now" if not quiet and answers(state, player) else None


def answers(state: StrikeState, player: str) -> list[str]:
    """The card kinds in `player`'s hand that could change something if played in the open
    window now: troops a player outside the battle adds in the window after deployment, and
    each tactics card whose timing allows it and whose play could change anything
    (`Tactic.could_change`: Rally and Bombard only while the player's dice lose a pair,
    Cancel Orders only against an opponent's card still standing, Spy and Expand never: a
    window does not wait for them)."""
    window, battle = state.window, state.battle
    held = dict.fromkeys(kind_of(card) for card in state.hands[player])
    found = []
    for kind in held:
        if kind == TROOPS:
            if (window is not None and window["kind"] == DEPLOYED and battle is not None
                    and player not in (battle["attacker"], battle["defender"])):
                found.append(kind)
            continue
        tactic = TACTICS[kind]
        try:
            tactic.timing(state, player)
        except RuleError:
            continue
        if tactic.could_change(state, player):
            found.append(kind)
    return found


def _can_answer_roll(state: StrikeState, player: str) -> bool:
    """Whether `player` can change anything in a fresh window after a roll, from public
    facts alone: another player has active troop cards (an Artillery target), or the
    player rolled dice that lose a pair (Rally and Bombard can only help then). Spy and
    Expand wait for the attacker's next decision; anyone may still Cancel Orders once a
    card is played."""
    battle = state.battle
    assert battle is not None
    if any(t["player"] != player for t in battle["troops"]):
        return True
    side = piles.combatant_side(state, player)
    if side is None or battle["dice"] is None:
        return False
    return lost_pairs(battle["dice"], side) > 0


def _answered_by_play(state: StrikeState, window: dict[str, Any], player: str,
                      events: list[Event], renew: bool = True) -> None:
    """A play is the player's own answer and asks everyone again whom the window asks now
    that a card is down (`_asks`: those asked only once a card is played among them; those
    whose hand is now empty, or who can no longer answer anything, not), with a fresh
    clock: the window takes a new id, since the table times windows by id (`renew=False`:
    the play opened this window just now). A player who passed for the rest of the battle
    stays passed."""
    for key in NEXT_KEYS.values():
        if state.battle is not None and state.battle.pop(key, False):
            events.append(Event(key + "_undone", player=state.battle["attacker"]))
    window.pop("later", None)
    asked = [p for p in state.players if _asks(state, p, played=True) == "now"]
    others = [p for p in asked if p != player]
    window["eligible"] = [p for p in state.players if p in asked or p == player]
    window["passed"] = [player]
    if player in asked and not others:
        window["passed"] = []  # nobody else can answer: the window waits for the player,
        # who may add a card (Rally then Bombard) or pass
    if not renew:
        return
    previous = window["id"]
    window["id"] = state.next_window
    state.next_window += 1
    events.append(Event("window_renewed", window=window["id"], previous=previous,
                        kind=window["kind"],
                        players=[p for p in window["eligible"] if p not in window["passed"]],
                        seconds=state.house_rules.reaction_seconds))


def _open_deployed(state: StrikeState, rng: RandomSource, events: list[Event]) -> None:
    """The one window after deployment: the players outside the battle may add troop cards
    to a side, and anyone may play a card. The defender's deploy was their pass in it
    (they could play Sabotage or Artillery at their deploy step): they are asked again only
    once a card or troops are played."""
    battle = state.battle
    assert battle is not None
    battle["step"] = DEPLOYED
    _open_window(state, DEPLOYED, list(state.players), rng, events,
                 passed=(battle["defender"],))


def _pass(state: StrikeState, cmd: Pass, rng: RandomSource, events: list[Event]) -> None:
    window = state.window
    if window is None:
        raise RuleError("no_window", "Nothing is waiting for a reaction; there is nothing "
                        "to pass on.")
    player = cmd.player
    if player not in window["eligible"]:
        raise RuleError("not_eligible", f"{player} takes no part in this {window['kind']} "
                        "window.")
    if player in window["passed"]:
        raise RuleError("already_passed", "You have passed already; wait for the others.")
    _check_until(cmd.until)
    battle = state.battle
    if cmd.until in ("card", "battle") and battle is None:
        raise RuleError("no_battle", "No battle is being fought; pass for this window or "
                        "until your next turn.")
    window["passed"].append(player)
    if cmd.until != "window":
        _waive(state, player, cmd.until)
        events.append(Event("passed", player=player, kind=window["kind"], until=cmd.until))
    else:
        events.append(Event("passed", player=player, kind=window["kind"]))
    _close_if_all_passed(state, rng, events)


def _choose_passing(state: StrikeState, cmd: ChoosePassing, rng: RandomSource,
                    events: list[Event]) -> None:
    """A seat's standing passing choice (RULES §7, "Passing"): any time, public, kept until
    changed; it takes effect the next time a window asks."""
    if cmd.choice not in PASSING_CHOICES:
        raise RuleError("bad_passing", "Choose \"result\" (ask me only when I can change "
                        "the result) or \"every\" (ask me whenever a window might), not "
                        f"{cmd.choice!r}.")
    state.passing[cmd.player] = cmd.choice
    events.append(Event("passing_chosen", player=cmd.player, choice=cmd.choice))


def _close_window(state: StrikeState, cmd: CloseWindow, rng: RandomSource,
                  events: list[Event]) -> None:
    window = state.window
    if window is None:
        raise RuleError("no_window", "No reaction window is open.")
    if cmd.window is not None and cmd.window != window["id"]:
        raise RuleError("stale_window", f"Window {cmd.window!r} has closed already; window "
                        f"{window['id']} is open now.")
    _close(state, "timeout", rng, events)


def _close_if_all_passed(state: StrikeState, rng: RandomSource, events: list[Event]) -> None:
    window = state.window
    assert window is not None
    if all(p in window["passed"] for p in window["eligible"]):
        _close(state, "passes", rng, events)


def _close(state: StrikeState, by: str, rng: RandomSource, events: list[Event]) -> None:
    """Close the window: resolve its plays in the order played, then move the game on."""
    window = state.window
    assert window is not None
    state.window = None
    kind = window["kind"]
    events.append(Event("window_closed", window=window["id"], kind=kind, by=by))
    plays = window["plays"]
    cancelled = cancelled_plays(plays)
    for play in plays:
        if state.winner is None:
            if play["id"] in cancelled:
                events.append(Event("tactic_cancelled", player=play["player"],
                                    card=play["kind"], play=play["id"]))
            else:
                events.append(Event("tactic_resolved", player=play["player"],
                                    card=play["kind"], play=play["id"]))
                TACTICS[play["kind"]].resolve(state, play, rng, events)
        state.discard.append(play["card"])
    if state.winner is not None:
        return
    battle = state.battle
    if battle is not None and battle.get("sabotaged"):
        # after deployment, or at the defender's deploy step (RULES §7)
        events.append(Event("attack_ended", attacker=battle["attacker"],
                            reason="sabotaged", troops_discarded=0))
        state.battle = None
        _end_turn(state, events)
        return
    if kind == DEPLOYED:
        assert battle is not None
        battle["step"] = READY
    elif kind == ROLLED:
        _compare(state, events)
    battle = state.battle
    if battle is None:
        return
    _skip_empty_deploys(state, rng, events)  # a card played at a deploy step emptied a hand
    battle = state.battle
    if battle is None or state.window is not None:
        return
    roll, stop = battle.pop("roll_next", False), battle.pop("stop_next", False)
    if battle["step"] == READY:
        if roll:
            _roll_dice(state, battle, rng, events)  # the attacker said Roll in the window
        elif stop:
            _finish_attack(state, "stopped", events)  # ... or stopped the attack


# --- tactics cards -----------------------------------------------------------------------
def _play(state: StrikeState, cmd: Command, rng: RandomSource, events: list[Event]) -> None:
    """Play a tactics card: checked now, resolved when its reaction window closes."""
    tactic = TACTIC_OF_COMMAND[type(cmd)]
    player = cmd.player
    _may_play_tactics(state, player, tactic)
    window = state.window
    hand = state.hands[player]
    card = next((c for c in hand if kind_of(c) == tactic.kind), None)
    if card is None:
        raise RuleError("no_card", f"You hold no {tactic.name} card.")
    tactic.check(state, cmd)
    params = tactic.params(state, cmd)
    hand.remove(card)
    play = {"id": state.next_play, "player": player, "card": card, "kind": tactic.kind,
            **params}
    state.next_play += 1
    opened = window is None
    if window is None:
        window = _open_window(state, TACTICS_WINDOW, list(state.players), None, events)
    window["plays"].append(play)
    events.append(Event("tactic_played", player=player, card=tactic.kind, play=play["id"],
                        **params))
    _answered_by_play(state, window, player, events, renew=not opened)
    _close_if_all_passed(state, rng, events)


def _may_play_tactics(state: StrikeState, player: str, tactic: Tactic | None = None) -> None:
    """Raise unless `player` may play a tactics card now: in a window, when the game waits
    for their decision, or (Spy, Expand: "any time on your turn", RULES §7) on their own
    turn while another player decides, e.g. the defender deploying; such a play opens a
    tactics window and the waited-for decision comes back once it closes."""
    window = state.window
    if window is None:
        who = decider(state)
        own_turn_card = tactic is not None and tactic.any_time_on_own_turn
        if who != player and not (own_turn_card and player == state.current_player):
            if player == state.current_player:
                raise RuleError("wrong_time", f"Waiting for {who} to decide; this card can "
                                "be played once they have, or in a reaction window.")
            raise RuleError("not_your_turn", f"It is {state.current_player}'s turn and the "
                            f"game waits for {who}; tactics cards are answered in a "
                            "reaction window.")
    elif player not in window["eligible"]:
        if player in state.sitting_out:
            raise RuleError("not_eligible", "You passed until your next turn.")
        if player in _waived(state):
            raise RuleError("not_eligible", "You passed for the rest of this battle.")
        raise RuleError("not_eligible", f"{player} takes no part in this {window['kind']} "
                        "window.")


def playable_tactics(state: StrikeState, player: str) -> list[str]:
    """The tactics kinds in `player`'s hand whose timing allows playing them now (for the
    phone's buttons; the choices a play names are checked when it is played)."""
    if state.winner is not None or player not in state.hands:
        return []
    held = {kind_of(card) for card in state.hands[player]}
    playable = []
    for kind, tactic in TACTICS.items():
        if kind not in held:
            continue
        try:
            _may_play_tactics(state, player, tactic)
            tactic.timing(state, player)
        except RuleError:
            continue
        playable.append(kind)
    return playable


def available_commands(state: StrikeState, player: str) -> list[str]:
    """The command types `player` may send now (for the phone's buttons). `CloseWindow` is
    the table's and never listed, nor `DeclareAttack` when no attack is possible
    (`attack_choices`). A listed command can still be refused for its choices (a count, a
    target)."""
    if state.winner is not None or player not in state.hands:
        return []
    window = state.window
    plays = ["strike_play_" + kind.replace("-", "_") for kind in
             playable_tactics(state, player)]
    if window is not None:
        battle = state.battle
        rolls = []
        if (window["kind"] in (DEPLOYED, ROLLED) and battle is not None
                and battle["attacker"] == player):
            rolls = [c.type for c, key in ((Roll, "roll_next"), (EndAttack, "stop_next"))
                     if not battle.get(key)]
        if player not in window["eligible"]:
            return rolls
        answers = [] if player in window["passed"] else [Pass.type]
        supports = [Deploy.type] if (
            window["kind"] == DEPLOYED and battle is not None
            and player not in (battle["attacker"], battle["defender"])) else []
        return [*supports, *plays, *rolls, *answers]
    if decider(state) != player:
        return plays  # Spy/Expand on your own turn while another player decides
    if state.phase == DRAW:
        return [Draw.type, *plays]
    if state.phase == CHOOSE:
        attack = [DeclareAttack.type] if attack_choices(state, player) else []
        return [*attack, PassTurn.type, *plays]
    assert state.battle is not None
    step = state.battle["step"]
    if step == ATTACKER_DEPLOY:
        return [Deploy.type, EndAttack.type, *plays]
    if step == DEFENDER_DEPLOY:
        return [Deploy.type, *plays]
    return [Roll.type, EndAttack.type, *plays]


def _clear_table(state: StrikeState) -> None:
    """Once the game is won: cards still in play go to the discard pile."""
    state.phase = GAME_OVER
    if state.window is not None:
        state.discard.extend(p["card"] for p in state.window["plays"])
        state.window = None
    if state.battle is not None:
        piles.discard_troops(state)
        state.battle = None


_HANDLERS: dict[type, Any] = {
    Draw: _draw, PassTurn: _pass_turn, DeclareAttack: _declare, Deploy: _deploy, Roll: _roll,
    EndAttack: _end_attack, Pass: _pass, CloseWindow: _close_window,
    ChoosePassing: _choose_passing,
    **{cls: _play for cls in PLAY_COMMANDS},
}
