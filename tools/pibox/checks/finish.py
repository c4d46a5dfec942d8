"""Check 4, second half: the game played to its end over HTTP."""

from __future__ import annotations

from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run


def check_4_finish(run: Run) -> str:
    """4 (second half). The game is played to its end over HTTP (every seat's phone)."""
    assert run.game is not None
    with run.timed("rest of the game over HTTP"):
        view = run.game.play()
    if view["winner"] is None:
        raise CheckFailed("the game has no winner")
    return (f"{view['winner']} won on turn {view['turn']} after {run.game.commands} commands "
            f"over HTTP ({run.timings['rest of the game over HTTP']:.0f} s for the last part) "
            f"and {run.game.touches} touches")
