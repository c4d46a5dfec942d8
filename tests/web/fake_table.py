"""A small in-memory TableService for the web tests, until the real table loop exists.

It keeps a toy game (owners, armies, hands, secret missions, a deck) with just enough
commands (place, attack, trade_cards, end_turn) to drive the pages, and redacts every view
and event by the contract's rules: a player sees only their own hand, mission and drawn
cards; everyone else sees counts. Dice come from `FairDice` with a fixed seed so the dice
page can verify the revealed seed against the recorded draws.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from pi_app.dice import FairDice, RecordingSource
from pi_app.rules.odds import battle_odds
from pi_app.table_api import Accepted, CommandRejected, Update, Viewer
from pi_app.web.api import board_map

SEED = bytes(range(32))
PRIVATE_EVENTS = {"card_drawn"}


class FakeTable:
    """A TableService over a toy game; thread-safe, one lock, waiters on a condition."""

    def __init__(self, journal_dir: Path, players: tuple[str, ...] = ("red", "blue")) -> None:
        self._journal = Path(journal_dir) / "journal.sqlite"
        self._cond = threading.Condition()
        self.virtual = True
        self.submitted: list[tuple[dict[str, Any], Viewer]] = []
        self._new_game(list(players), "classic")

    # --- game -----------------------------------------------------------------------------
    def _new_game(self, players: list[str], variant: str) -> None:
        layout = board_map()
        ids = [t["id"] for t in layout["territories"]]
        self.adjacent = {tid: set() for tid in ids}
        for a, b in layout["edges"]:
            self.adjacent[a].add(b)
            self.adjacent[b].add(a)
        self.game_id = getattr(self, "game_id", 0) + 1
        self.players = players
        self.variant = variant
        self.owner = {tid: players[i % len(players)] for i, tid in enumerate(ids)}
        self.armies = {tid: 3 for tid in ids}
        self.hands = {p: [f"{p}-card-{n}" for n in range(3)] for p in players}
        self.missions = {p: f"secret mission of {p}" for p in players}
        self.deck = [f"deck-card-{n}" for n in range(20)]
        self.current = 0
        self.phase = "attack"
        self.winner: str | None = None
        self.paused = False
        self.revealed = False
        self.dice = FairDice(SEED)
        self.draws: list[list[Any]] = []
        self.log: list[tuple[int, list[dict[str, Any]]]] = []
        self.seq = 0

    def _record(self, events: list[dict[str, Any]]) -> int:
        self.seq += 1
        self.log.append((self.seq, events))
        self._journal.parent.mkdir(parents=True, exist_ok=True)
        with self._journal.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"seq": self.seq, "events": events}) + "\n")
        self._cond.notify_all()
        return self.seq

    def _apply(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        kind = command.get("type")
        player = command.get("player")
        if self.paused:
            raise CommandRejected("paused", "The host paused the game.")
        if player != self.players[self.current]:
            raise CommandRejected("not_your_turn", f"It is {self.players[self.current]}'s turn.")
        if kind == "place":
            tid = command.get("territory")
            if self.owner.get(tid) != player:
                raise CommandRejected("not_your_territory", "You can only place on your own land.")
            self.armies[tid] += 1
            return [{"type": "placed", "player": player, "territory": tid, "count": 1}]
        if kind == "attack":
            return self._attack(player, command.get("source"), command.get("target"))
        if kind == "trade_cards":
            cards = command.get("cards", [])
            if not cards or any(c not in self.hands[player] for c in cards):
                raise CommandRejected("not_your_cards", "You do not hold those cards.")
            self.hands[player] = [c for c in self.hands[player] if c not in cards]
            return [{"type": "cards_traded", "player": player, "cards": cards, "armies": 4}]
        if kind == "end_turn":
            self.current = (self.current + 1) % len(self.players)
            nxt = self.players[self.current]
            card = self.deck.pop(0)
            self.hands[player].append(card)
            return [
                {"type": "card_drawn", "player": player, "card": card},
                {"type": "turn_started", "player": nxt},
            ]
        raise CommandRejected("bad_command", f"Unknown command type {kind!r}.", status=400)

    def _attack(self, player: str, source: Any, target: Any) -> list[dict[str, Any]]:
        if self.owner.get(source) != player or self.owner.get(target) in (None, player):
            raise CommandRejected("bad_attack", "Attack from your land to an enemy's.")
        if target not in self.adjacent[source]:
            raise CommandRejected("not_adjacent", "Those territories do not border each other.")
        if self.armies[source] < 2:
            raise CommandRejected("too_few_armies", "You need at least 2 armies to attack.")
        rng = RecordingSource(self.dice)
        attack = sorted(rng.roll(min(3, self.armies[source] - 1)), reverse=True)
        defence = sorted(rng.roll(min(2, self.armies[target])), reverse=True)
        self.draws.extend(rng.take_draws())
        lose_a = sum(1 for a, d in zip(attack, defence) if a <= d)
        lose_d = min(len(attack), len(defence)) - lose_a
        self.armies[source] -= lose_a
        self.armies[target] -= lose_d
        defender = self.owner[target]
        events: list[dict[str, Any]] = [{
            "type": "battle", "attacker": player, "defender": defender, "from": source,
            "to": target, "attack_dice": attack, "defence_dice": defence,
            "attacker_losses": lose_a, "defender_losses": lose_d,
        }]
        if self.armies[target] == 0:
            self.owner[target] = player
            self.armies[target] = 1
            self.armies[source] -= 1
            events.append({"type": "conquered", "player": player, "territory": target})
            if len(set(self.owner.values())) == 1:
                self.winner = player
                self.phase = "over"
                events.append({"type": "game_won", "winner": player})
        return events

    # --- redaction (the contract's rules) --------------------------------------------------
    def _redact_event(self, event: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        if event["type"] in PRIVATE_EVENTS and event.get("player") != viewer.redaction_key:
            return {k: v for k, v in event.items() if k != "card"}
        return dict(event)

    def _redacted(self, viewer: Viewer) -> dict[str, Any]:
        me = viewer.redaction_key
        view: dict[str, Any] = {
            "game_id": self.game_id,
            "seq": self.seq,
            "variant": self.variant,
            "players": list(self.players),
            "phase": self.phase,
            "turn": 1,
            "current_player": self.players[self.current],
            "owner": dict(self.owner),
            "armies": dict(self.armies),
            "reserves": dict.fromkeys(self.players, 0),
            "hands": {p: list(h) if p == me else len(h) for p, h in self.hands.items()},
            "deck": len(self.deck),
            "pending": None,
            "eliminated": [],
            "winner": self.winner,
            "missions": {me: self.missions[me]} if me else {},
            "paused": self.paused,
            "commitment": self.dice.commitment,
        }
        return view

    # --- TableService ----------------------------------------------------------------------
    def submit(self, command: dict[str, Any], viewer: Viewer) -> Accepted:
        """Apply a command at once (no queue needed in a fake); raise CommandRejected."""
        with self._cond:
            self.submitted.append((dict(command), viewer))
            if viewer.kind != "player" or command.get("player") != viewer.player:
                raise CommandRejected("not_your_seat", "You can only act for your own seat.", 403)
            events = self._apply(command)
            seq = self._record(events)
            return Accepted(seq, [self._redact_event(e, viewer) for e in events])

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The redacted snapshot."""
        with self._cond:
            return self._redacted(viewer)

    def updates_since(self, seq: int, viewer: Viewer) -> list[Update]:
        """Redacted updates after `seq`."""
        with self._cond:
            return [
                Update(s, [self._redact_event(e, viewer) for e in events])
                for s, events in self.log if s > seq
            ]

    def wait_for_update(self, after_seq: int, timeout: float) -> int:
        """Block until the seq moves away from `after_seq` or the timeout passes."""
        with self._cond:
            self._cond.wait_for(lambda: self.seq != after_seq, timeout)
            return self.seq

    def status(self) -> dict[str, Any]:
        """A plausible health record."""
        return {
            "game_id": self.game_id,
            "link": {"state": "connected", "port": "/dev/pts/fake", "retransmits": 0},
            "leds": {"backend": "memory"},
            "mismatches": [],
        }

    def host_action(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """new_game, undo (drops the last log entry), pause, resume, end_game."""
        with self._cond:
            if action == "new_game":
                self._new_game(list(params["players"]), params["variant"])
                self._cond.notify_all()
                return {"game_id": self.game_id}
            if action == "undo":
                if not self.log:
                    raise CommandRejected("nothing_to_undo", "There is nothing to undo.")
                self.log.pop()
                self.seq -= 1
                self._cond.notify_all()
                return {"seq": self.seq}
            if action in ("pause", "resume"):
                self.paused = action == "pause"
                return {"paused": self.paused}
            if action == "end_game":
                self.revealed = True
                self.phase = "over"
                self._record([{"type": "seed_revealed", "seed": self.dice.reveal()}])
                return {"seed": self.dice.reveal()}
            raise CommandRejected("unknown_action", f"No host action {action!r}.", 400)

    def journal_path(self) -> str:
        """The fake journal file."""
        return str(self._journal)

    def odds(self, source: str, target: str) -> dict[str, Any]:
        """The rules' exact odds for the armies on the two territories."""
        with self._cond:
            if target not in self.adjacent.get(source, set()):
                raise CommandRejected("not_adjacent", "Those territories do not border.", 400)
            a, d = self.armies[source], self.armies[target]
        odds = battle_odds(a, d).to_dict()
        odds.update(source=source, target=target, attackers=a, defenders=d)
        return odds

    def dice_record(self) -> dict[str, Any]:
        """Commitment always; seed and draws after end_game."""
        with self._cond:
            return {
                "commitment": self.dice.commitment,
                "seed": self.dice.reveal() if self.revealed else None,
                "draws": list(self.draws) if self.revealed else [],
            }

    def virtual_board(self) -> dict[str, Any] | None:
        """One LED per territory in its owner's colour."""
        if not self.virtual:
            return None
        colours = {"red": [255, 0, 0], "blue": [0, 0, 255], "green": [0, 160, 0],
                   "yellow": [255, 200, 0], "black": [40, 40, 40], "pink": [255, 80, 160]}
        with self._cond:
            ids = list(self.owner)
            return {
                "leds": [colours[self.owner[t]] for t in ids],
                "territory_leds": {t: [i] for i, t in enumerate(ids)},
            }

    def virtual_touch(self, territory: str, player: str | None = None) -> None:
        """A touch places one army for the current player on their own territory."""
        if not self.virtual:
            raise CommandRejected("not_simulated", "This table has real sensors.", 400)
        with self._cond:
            who = self.players[self.current]
            if self.owner[territory] != who:
                raise CommandRejected("not_your_territory", "Touch one of your own territories.")
            self.armies[territory] += 1
            self._record([{"type": "placed", "player": who, "territory": territory, "count": 1}])
