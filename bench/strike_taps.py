"""RISK Strike: how much of the players' tapping is passing (issue 23.13 measured 51 % at a
real table). Bots play whole 3-player games; every accepted command is a tap.

    python -m bench.strike_taps [games]

Prints the commands per game, the share that are `strike_pass`, the reaction windows per
game and the players each window asked. No aim: it shows what the window rules cost.
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

PLAYERS = ["red", "blue", "green"]


def measure(games: int) -> dict[str, float]:
    """Play `games` bot games (seeds 0..games-1) and count taps, passes and windows."""
    taps: Counter[str] = Counter()
    windows = asked = 0
    for game in range(games):
        rng = SeededSource(f"taps:{game}")
        state = new_game(PLAYERS, None, rng).state
        bot = StrikeBot()
        while state.winner is None and state.turn <= 2000:
            player = waiting_for(state)[0]
            command = bot.choose(state, player)
            events = apply(state, command, rng).events
            taps[command.type] += 1
            for event in events:
                if event.type == "window_opened":
                    windows += 1
                    asked += len(event["players"])
    total = sum(taps.values())
    return {"games": games, "taps_per_game": total / games,
            "pass_share": taps["strike_pass"] / total, "windows_per_game": windows / games,
            "asked_per_window": asked / max(windows, 1)}


def main() -> int:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    r = measure(games)
    print(f"{r['games']} games: {r['taps_per_game']:.1f} taps/game, passing "
          f"{100 * r['pass_share']:.1f} % of taps, {r['windows_per_game']:.1f} windows/game, "
          f"{r['asked_per_window']:.2f} players asked per window")
    return 0


if __name__ == "__main__":
    sys.exit(main())
