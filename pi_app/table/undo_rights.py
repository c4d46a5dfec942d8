"""Who may take back what (docs/RULES.md §8.1): the one check every Undo passes.

Every Undo reaches the table core, whatever sent it: a seat's phone pressing Undo on the
virtual board (`seat`: that seat's colour), a physical or virtual Undo button that cannot
tell who pressed it (`BOARD`), or the host (`HOST`). `undo_refusal` answers for the first
two; the host may take back any number of commands, and past a roll or a card draw with
`override` (the session refuses those otherwise, for everyone).

- A seat takes back only the game's last command, only if it was that seat's own, and
  only while it is still that seat's move: the game awaits that seat and no one else (no
  other seat has been asked to decide since: a defender choosing dice, the next player,
  the other seats of a secret HQ pick or of a RISK Strike reaction window).
- The board's Undo acts for the one seat the game awaits, by the same rule: it takes back
  that seat's own last command and nothing of another seat's; while several seats are
  awaited at once (HQ pick, reaction windows) it takes back nothing.
- Nobody but the host takes back across a roll or a drawn card (`GameSession.undo`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pi_app.table.gestures import Refusal
from pi_app.table.kinds import awaited

BOARD = "board"  # an Undo button that cannot tell who pressed it
HOST = "host"


def undo_refusal(state: Any, last: Mapping[str, Any] | None, by: str,
                 where: str | None = None) -> Refusal | None:
    """None if `by` (a seat's colour, or `BOARD`) may take back `last`, the game's last
    command (None: nothing to take back, which the session refuses itself), else why not.
    The host (`HOST`) is never refused here."""
    if by == HOST or last is None or state is None:
        return None
    waiting = awaited(state)
    mover = waiting[0] if len(waiting) == 1 else None
    owner = last.get("player")
    if mover is not None and owner == mover and by in (BOARD, mover):
        return None
    return Refusal("undo_not_yours", "You can only take back your own last move, while it "
                   "is still your move; the host can take back more.", where)
