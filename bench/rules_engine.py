"""Rules engine speed: validated commands/s, 10-vs-10 blitz battles/s, bot games/s.

    python -m bench.rules_engine

Aims on one core: >= 50,000 commands/s (journal off), >= 40,000 blitz battles/s with
`FairDice` (what real games roll: the headline), with pre-rolled dice and with SeededSource,
all in the same run, and FairDice at >= 75 % of the pre-rolled figure (the dice must not
cost a player a visible pause); >= 60 complete 4-player games/s with the simulator,
>= 20,000 commands/s with bots in every variant (variant hooks must not slow the hot path).
Every line ends OK or MISS against its aim.

Times are CPU time of this process (`time.process_time`): the machine is shared, and wall
time would measure the neighbours' load rather than the engine.
"""

from __future__ import annotations

import time

from pi_app.cli.simulate import simulate
from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import FairDice, RandomSource, SeededSource
from pi_app.rules import Blitz, Command, GameState, HouseRules, apply, new_game, waiting_for
from pi_app.rules.state import ATTACK

PLAYERS = ["red", "blue", "green", "yellow"]
BLITZ_AIM = 40_000
FAIR_RATIO_AIM = 0.75
VARIANT_AIM = 20_000
GAMES_AIM = 60  # complete 4-player Classic games/s with bots (issue 15.3)
VARIANT_GAMES = (("mission", 4), ("capital", 4), ("capital", 6), ("two-player", 2),
                 ("allied", 2))


class PrerolledSource:
    """Dice from a pre-rolled pool: isolates the engine's cost from the dice generator's.

    SeededSource spends ~1 us per die on `random.randint`; a blitz rolls ~40 dice, so with it
    the dice, not the rules, set the battles/s figure. Both figures are printed.
    """

    def __init__(self, seed: int, size: int = 4096) -> None:
        rng = SeededSource(seed)
        self._pools = {n: [rng.roll(n) for _ in range(size)] for n in (1, 2, 3)}
        self._mask = size - 1
        self._i = 0

    def roll(self, count: int) -> tuple[int, ...]:
        """The next pre-rolled tuple of `count` faces."""
        self._i = (self._i + 1) & self._mask
        return self._pools[count][self._i]

    def below(self, n: int) -> int:
        """Not random: shuffles are not part of this benchmark."""
        return 0


def record_games(games: int) -> list[tuple[int, list[Command]]]:
    """Play bot games and keep each game's seed and command list (for a pure replay)."""
    bot = SimpleBot()
    recorded = []
    for seed in range(games):
        rng = SeededSource(seed)
        state = new_game("classic", PLAYERS, HouseRules(), rng).state
        commands: list[Command] = []
        while state.winner is None:
            cmd = bot.choose(state, waiting_for(state) or "")
            commands.append(cmd)
            state = apply(state, cmd, rng).state
        recorded.append((seed, commands))
    return recorded


def bench_commands(games: int = 20) -> tuple[int, float]:
    """Re-apply recorded games (same seeds, so same dice); time only `apply`."""
    recorded = record_games(games)
    total = 0
    seconds = 0.0
    for seed, commands in recorded:
        rng = SeededSource(seed)
        state = new_game("classic", PLAYERS, HouseRules(), rng).state
        start = time.process_time()
        for cmd in commands:
            state = apply(state, cmd, rng).state
        seconds += time.process_time() - start
        total += len(commands)
    return total, seconds


def blitz_state() -> GameState:
    """A 4-player game in red's attack phase with Ukraine (red) next to Ural (blue)."""
    state = new_game("classic", PLAYERS, HouseRules(), SeededSource(0)).state
    for i, territory in enumerate(state.owner):
        state.owner[territory] = PLAYERS[i % 4]
        state.armies[territory] = 3
    state.owner["ukraine"], state.owner["ural"] = "red", "blue"
    state.reserves = dict.fromkeys(PLAYERS, 0)
    state.phase, state.current_player, state.turn = ATTACK, "red", 1
    return state


def blitz_dice(kind: str) -> RandomSource:
    """The dice of one blitz run: "fair" (FairDice, as games roll), "pre-rolled", "seeded"."""
    if kind == "fair":
        return FairDice(bytes(range(32)))
    return PrerolledSource(7) if kind == "pre-rolled" else SeededSource(7)


def bench_blitz(battles: int = 40_000, dice: str = "pre-rolled") -> tuple[int, float, int]:
    """Complete 10-vs-10 blitzes (until one side can go on no more) through `apply`."""
    state = blitz_state()
    rng = blitz_dice(dice)
    cmd = Blitz("red", "ukraine", "ural", 1)
    armies, owner = state.armies, state.owner
    won = 0
    start = time.process_time()
    for _ in range(battles):
        armies["ukraine"] = 10
        armies["ural"] = 10
        owner["ural"] = "blue"
        state.pending = None
        apply(state, cmd, rng)
        if owner["ural"] == "red":
            won += 1
    return battles, time.process_time() - start, won


def verdict(value: float, aim: float) -> str:
    """OK when `value` reaches `aim` (higher is better), else MISS."""
    return "OK" if value >= aim else "MISS"


def main() -> None:
    """Run the measurements and print each with its aim and OK/MISS."""
    count, seconds = bench_commands()
    rate = count / seconds
    print(f"commands: {count} validated commands in {seconds:.3f} s = "
          f"{rate:,.0f} commands/s (journal off, aim >= 50,000) {verdict(rate, 50_000)}")
    rates = {}
    for kind, name in (("fair", "FairDice, what games roll"), ("pre-rolled", "pre-rolled dice"),
                       ("seeded", "SeededSource dice")):
        battles, seconds, won = bench_blitz(dice=kind)
        rate = rates[kind] = battles / seconds
        print(f"blitz ({name}): {battles} complete 10-vs-10 blitz battles in {seconds:.3f} s "
              f"= {rate:,.0f} battles/s (attacker won {won / battles:.1%}, "
              f"aim >= {BLITZ_AIM:,}) {verdict(rate, BLITZ_AIM)}")
    ratio = rates["fair"] / rates["pre-rolled"]
    print(f"blitz FairDice / pre-rolled: {ratio:.0%} (the dice's share of a blitz; "
          f"aim >= {FAIR_RATIO_AIM:.0%}) {verdict(ratio, FAIR_RATIO_AIM)}")
    start = time.process_time()
    summary = simulate("classic", 4, 40, "bench")
    seconds = time.process_time() - start
    rate = summary["games"] / seconds
    print(f"games: {summary['finished']}/{summary['games']} complete 4-player games in "
          f"{seconds:.3f} s = {rate:.1f} games/s "
          f"({summary['commands']} commands; aim >= {GAMES_AIM}) {verdict(rate, GAMES_AIM)}")
    for variant, seats in VARIANT_GAMES:
        start = time.process_time()
        summary = simulate(variant, seats, 20, "bench")
        seconds = time.process_time() - start
        rate = summary["commands"] / seconds
        print(f"games ({variant}, {seats} players): {summary['finished']}/{summary['games']} "
              f"in {seconds:.3f} s = {summary['games'] / seconds:.1f} games/s, "
              f"{rate:,.0f} commands/s with bots (aim >= {VARIANT_AIM:,} commands/s) "
              f"{verdict(rate, VARIANT_AIM)}")


if __name__ == "__main__":
    main()
