"""Crash-test child: a table replaces its game with a new one and dies at a chosen instant.

Usage: python tests/crash/new_game_child.py DB MODE
Starts the table on DB (a demo Classic game), journals seat tokens for it (but for
before_end), prints
`old GAME_ID OLD_TOKENS_JSON` and `new NEW_TOKENS_JSON`, then asks for a new game with the
new tokens. MODE says where the process SIGKILLs itself:
  before_end     when the old game is about to be marked ended
  before_tokens  when the new game's seat tokens are about to be written
  after_commit   once the new game is acknowledged (before anyone is told its tokens)
A write that never happens (older code) lets it run on and print `survived`.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent), str(HERE.parent)]

from hardware.profiles import load_profile  # noqa: E402
from pi_app.dice import FairDice  # noqa: E402
from pi_app.journal import Journal  # noqa: E402
from pi_app.table.loop import NewGameSpec, TableCore, Wiring  # noqa: E402

DEMO = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})
OLD_TOKENS = {"red": "old-red", "blue": "old-blue", "green": "old-green"}
NEW_TOKENS = {"red": "new-red", "blue": "new-blue", "green": "new-green"}


def die(*_args: object, **_kwargs: object) -> None:
    """The power cut."""
    os.kill(os.getpid(), signal.SIGKILL)


def main() -> None:
    """Start, seat, announce, replace the game, dying where MODE says."""
    db, mode = sys.argv[1], sys.argv[2]
    journal = Journal(db)
    core = TableCore(journal, Wiring.from_profile(load_profile("classic-42")),
                     dice=lambda: FairDice(b"\x07" * 32))
    core.start(DEMO)
    assert core.session is not None
    if mode != "before_end":  # (that crash needs nothing but the two games)
        journal.set_seat_tokens(core.session.game_id, OLD_TOKENS)
    print(f"old {core.session.game_id} {json.dumps(OLD_TOKENS)}", flush=True)
    print(f"new {json.dumps(NEW_TOKENS)}", flush=True)
    if mode == "before_end":
        journal.set_status = die  # type: ignore[method-assign]
    elif mode == "before_tokens":
        journal.set_seat_tokens = die  # type: ignore[method-assign]
    core.host_action("new_game", {"variant": "classic", "players": ["blue", "red", "green"],
                                  "seat_tokens": NEW_TOKENS})
    if mode == "after_commit":
        die()
    print("survived", flush=True)


if __name__ == "__main__":
    main()
