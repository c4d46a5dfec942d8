"""Crash test: a game driven in a child process is killed with SIGKILL at random moments;
each time, the journal resumes to the state after the last acknowledged command (or, if the
kill fell between the durable commit and the printed ack, exactly one command later)."""

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from crash.child import state_hash

from pi_app.journal import Journal
from pi_app.session import GameSession, replay_state

CHILD = Path(__file__).parent / "crash" / "child.py"
KILLS = int(os.environ.get("RISKBOARD_CRASH_KILLS", "32"))


def run_and_kill(db: Path, rng: random.Random) -> list[str]:
    """Start the child, let it play a random while, SIGKILL it; return every line it printed."""
    child = subprocess.Popen(
        [sys.executable, str(CHILD), str(db), "5a" * 32, "7"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        for line in child.stdout:
            lines.append(line.strip())
            ready.set()
        ready.set()  # the child ended (or was killed) without printing

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    ready.wait(60)
    assert lines, f"child printed nothing; rc={child.poll()} stderr={child.stderr.read()}"
    time.sleep(rng.uniform(0.0, 0.25))
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    reader.join(10)
    assert child.returncode == -signal.SIGKILL, child.stderr.read()
    return lines


@pytest.mark.slow
def test_resume_after_sigkill_equals_the_last_acknowledged_state(tmp_path):
    db = tmp_path / "crash.db"
    rng = random.Random(2026)
    committed_not_acked = resumed = 0
    last, finished = None, False
    for kill in range(KILLS):
        lines = run_and_kill(db, rng)
        ready = lines[0].split()
        game_id, start_seq = int(ready[1]), int(ready[2])
        if last is not None and last[0] == game_id:
            # The child resumed where the previous check left the journal.
            assert start_seq == last[1] and ready[3] == last[2], (kill, lines[0], last)
            resumed += 1
        else:  # the first child, or one after a game that ended: a new game from seq 0
            assert last is None or finished, (kill, lines[0], last)
        finished = "done" in lines
        acks = [line.split() for line in lines[1:] if line.startswith("ack ")]
        ack_seq, ack_hash = (int(acks[-1][2]), acks[-1][3]) if acks else (start_seq, ready[3])
        with Journal(db) as journal:
            session = GameSession.resume(journal, game_id)
            assert session.last_seq in (ack_seq, ack_seq + 1), (kill, session.last_seq, ack_seq)
            if session.last_seq == ack_seq:
                assert state_hash(session.state) == ack_hash, kill
            else:
                committed_not_acked += 1
                prefix = replay_state(journal.load(game_id), until_seq=ack_seq)
                assert state_hash(prefix) == ack_hash, kill
            last = (game_id, session.last_seq, state_hash(session.state))
    print(f"{KILLS} kills, {committed_not_acked} landed between commit and ack")
    assert resumed > 0, "no child went on with the journal's game"
