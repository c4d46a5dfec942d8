"""Benchmark: exact battle odds for a 200-army source against 200 defenders (aim < 50 ms)."""

import time

from pi_app.rules.odds import battle_odds


def main() -> None:
    """Time battle_odds(200, 200) several times and print the best and median."""
    times = []
    for _ in range(15):
        start = time.perf_counter()
        odds = battle_odds(200, 200)
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"odds 200x200: best {times[0] * 1000:.1f} ms, median {times[len(times) // 2] * 1000:.1f}"
          f" ms (aim < 50 ms); p_conquer={float(odds.p_conquer):.6f}")


if __name__ == "__main__":
    main()
