"""RISK Strike: how much of the players' tapping is passing (issue 23.13 measured 51 % at a
real table). Bots play whole 3-player games; every accepted command is a tap.

    python -m bench.strike_taps [games] [players] [policy]

(200 games of 3 players by default; 2 to 5 players.) `policy`: "bench" (the default: the
bot's own passing, which passes for longer than a window when its hand cannot answer) or
"newcomer" (a player who has never chosen anything: the bot's cards and decisions, but in a
window always the plain Pass, the attacker's Roll or Stop as the window offers it, and a
deploy that is a pass for this window only). Issue 32.5 aims at passing at most 15 % of the
newcomer's taps.

Prints the commands per game, the share that are `strike_pass`, the reaction windows per
game and the players each window asked; then where the passes come from (by the passer's
role in the battle and the window's kind), how many windows ask somebody at all ("wait":
the game cannot go on until a player answers or the table's timer fires) and how many of
those end with every asked player passing (nobody played anything: pure waiting).
"""

from __future__ import annotations

import sys
from collections import Counter

from pi_app.dice import SeededSource
from pi_app.rules.strike.engine import apply, new_game
from pi_app.rules.strike.queries import waiting_for

try:  # the bot moved with issue 22.3; older trees keep it beside the rules
    from pi_app.computer.strike_bot import StrikeBot
except ImportError:  # pragma: no cover - for measuring an older tree
    from pi_app.rules.strike.bot import StrikeBot  # type: ignore[no-redef]

class Newcomer(StrikeBot):
    """StrikeBot as a newcomer taps: the same cards and decisions, but never a pass for
    longer than one window (`waivers=False`) and never a passing choice; as the attacker
    in a window it says its next Roll or Stop, the button the window shows it."""

    def __init__(self) -> None:
        super().__init__(waivers=False)

    def _pass_or(self, state, player, chosen):  # type: ignore[no-untyped-def]
        """`chosen`, else the attacker's next decision in the window, else the plain Pass."""
        if chosen is not None and chosen.type != "strike_pass":
            return chosen
        if state.battle is not None:
            decision = self._next_decision(state, player)
            if decision is not None:
                return decision
        return super()._pass_or(state, player, chosen)


POLICIES = {"bench": StrikeBot, "newcomer": Newcomer}
PLAYERS = ["red", "blue", "green"]
COLOURS = ["red", "blue", "green", "yellow", "black"]


def _role(state, player: str) -> str:
    battle = state.battle
    if battle is not None and player == battle["attacker"]:
        return "attacker"
    if battle is not None and player == battle["defender"]:
        return "defender"
    if battle is None and player == state.current_player:
        return "attacker"  # the player whose turn it is (a tactics window before a battle)
    return "outsider"


def measure(games: int, players: list[str] | None = None, policy: str = "bench") -> dict:
    """Play `games` bot games (seeds 0..games-1) and count taps, passes and windows; every
    seat plays `policy` (a key of `POLICIES`)."""
    players = players or PLAYERS
    taps: Counter[str] = Counter()
    passes: Counter[tuple[str, str]] = Counter()
    kinds: Counter[str] = Counter()  # windows opened, by kind
    passed_in: Counter[str] = Counter()  # windows somebody tapped Pass in, by kind
    windows = asked = waited = idle = 0
    for game in range(games):
        rng = SeededSource(f"taps:{game}")
        state = new_game(players, None, rng).state
        bot = POLICIES[policy]()
        played = False  # a card or troops went into the open window
        window_passed = False  # somebody tapped Pass in the open window
        while state.winner is None and state.turn <= 2000:
            player = waiting_for(state)[0]
            command = bot.choose(state, player)
            if command.type == "strike_pass":
                kind = state.window["kind"] if state.window is not None else "-"
                passes[(_role(state, player), kind)] += 1
                if not window_passed:
                    window_passed = True
                    passed_in[kind] += 1
            events = apply(state, command, rng).events
            taps[command.type] += 1
            for event in events:
                if event.type == "window_opened":
                    windows += 1
                    kinds[event["kind"]] += 1
                    window_passed = False
                    asked += len(event["players"])
                    played = False
                    if event["players"]:
                        waited += 1
                elif event.type in ("tactic_played", "window_renewed") or (
                        event.type == "troops_deployed" and state.window is not None):
                    played = True
                elif event.type == "window_closed" and event["by"] == "passes" and not played:
                    idle += 1
    total = sum(taps.values())
    return {"games": games, "taps_per_game": total / games,
            "pass_share": taps["strike_pass"] / total, "windows_per_game": windows / games,
            "asked_per_window": asked / max(windows, 1), "waiting_per_game": waited / games,
            "idle_per_game": idle / games, "passes_per_game": taps["strike_pass"] / games,
            "passes": {k: v / games for k, v in sorted(passes.items())},
            "kinds": {k: (v / games, passed_in[k] / games) for k, v in sorted(kinds.items())}}


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seats = int(sys.argv[2]) if len(sys.argv) > 2 else len(PLAYERS)
    policy = sys.argv[3] if len(sys.argv) > 3 else "bench"
    if policy not in POLICIES:
        print(f"policy is one of {', '.join(POLICIES)}, not {policy!r}", file=sys.stderr)
        return 2
    r = measure(games, COLOURS[:seats], policy)
    print(f"{r['games']} games of {seats} players ({policy}): {r['taps_per_game']:.1f} "
          f"taps/game, passing "
          f"{100 * r['pass_share']:.1f} % of taps, {r['windows_per_game']:.1f} windows/game, "
          f"{r['asked_per_window']:.2f} players asked per window")
    print(f"windows that wait for somebody: {r['waiting_per_game']:.1f}/game, of which "
          f"{r['idle_per_game']:.1f} end with everybody passing (nothing played)")
    print("windows per game by kind, and those somebody had to tap Pass in (a player's own "
          "next decision, the attacker's Roll or Stop, is no waiting):")
    for kind, (opened, with_pass) in r["kinds"].items():
        print(f"  {kind:9} {opened:6.1f} {with_pass:6.1f}")
    print(f"passes per game: {r['passes_per_game']:.1f}, by role and window kind:")
    for (role, kind), per_game in r["passes"].items():
        print(f"  {role:9} {kind:9} {per_game:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
