"""Benchmark: exact battle odds, 200 vs 200 (aim < 50 ms) and the CLI cap 1000 vs 1000
(aim < 2 s); each line ends OK or MISS against its aim."""

import time

from pi_app.rules.odds import battle_odds


def _time(source: int, target: int, runs: int) -> tuple[list[float], float]:
    times = []
    p = 0.0
    for _ in range(runs):
        start = time.perf_counter()
        p = float(battle_odds(source, target).p_conquer)
        times.append(time.perf_counter() - start)
    times.sort()
    return times, p


def main() -> None:
    """Time battle_odds at 200x200 and at the CLI cap; print best/median and OK/MISS."""
    for source, target, runs, aim_ms in [(200, 200, 15, 50.0), (1000, 1000, 3, 2000.0)]:
        times, p = _time(source, target, runs)
        median = times[len(times) // 2] * 1000
        verdict = "OK" if median < aim_ms else "MISS"
        print(f"odds {source}x{target}: best {times[0] * 1000:.1f} ms, median {median:.1f} ms "
              f"(aim < {aim_ms:.0f} ms) p_conquer={p:.6f} {verdict}")


if __name__ == "__main__":
    main()
