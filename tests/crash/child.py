"""Crash-test child: play a journaled game as fast as it can, printing each acknowledgement.

Usage: python tests/crash/child.py DB SEED_HEX CHOOSER_SEED
Resumes the running game in DB (or starts one), then for every command: submit (journaled
and fsynced), then print `ack SEQ STATE_HASH` and flush. The parent kills it with SIGKILL.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent), str(HERE.parent)]

from crash.driver import next_command  # noqa: E402
from pi_app.dice import FairDice  # noqa: E402
from pi_app.journal import Journal  # noqa: E402
from pi_app.rules import GameState  # noqa: E402
from pi_app.session import GameSession  # noqa: E402


def state_hash(state: GameState) -> str:
    """A short fingerprint of the whole game state."""
    text = json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def main() -> None:
    """Resume or start the game, then play until killed (or the game ends)."""
    db, seed_hex, chooser_seed = sys.argv[1], sys.argv[2], sys.argv[3]
    journal = Journal(db)
    running = journal.game_ids("running")
    if running:
        session = GameSession.resume(journal, running[0])
    else:
        session = GameSession.new(journal, "classic", ["red", "blue", "green", "yellow"], None,
                                  FairDice(bytes.fromhex(seed_hex)))
    chooser = random.Random(f"{chooser_seed}-{session.last_seq}")
    out = sys.stdout
    out.write(f"ready {session.game_id} {session.last_seq} {state_hash(session.state)}\n")
    out.flush()
    while True:
        command = next_command(session.state, chooser)
        if command is None:
            session.end("finished")
            out.write("done\n")
            out.flush()
            return
        seq, _events = session.submit(command)
        out.write(f"ack {session.game_id} {seq} {state_hash(session.state)}\n")
        out.flush()


if __name__ == "__main__":
    main()
