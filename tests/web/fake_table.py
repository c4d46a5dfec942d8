"""A TableService for the web tests and benchmarks, backed by the REAL rules engine.

It holds one game (`pi_app.rules.new_game` / `apply`) with `FairDice` behind a
`RecordingSource`, keeps an in-memory journal of accepted commands and their draws, and
passes every view and event through THE redaction function (`pi_app.redaction`), as the
real table does. What it leaves out: the queue/writer thread (commands apply under a lock),
SQLite, the bridge and LEDs (the virtual board is one LED per territory in its owner's
colour, and a touch claims or places for the player the game waits for).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from pi_app.dice import (
    DiceEntryError,
    FairDice,
    PhysicalDice,
    RecordingSource,
    ReplaySource,
)
from pi_app.redaction import redact, redact_event
from pi_app.rules import (
    RuleError,
    apply,
    command_from_dict,
    is_strike,
    load_map,
    new_game,
)
from pi_app.rules.odds import battle_odds
from pi_app.rules.strike import available_commands
from pi_app.table.seat_rights import seat_refusal
from pi_app.table_api import Accepted, CommandRejected, Update, Viewer

SEED = bytes(range(32))
BOARD = load_map()
RGB = {"red": (255, 0, 0), "blue": (0, 0, 255), "green": (0, 160, 0),
       "yellow": (255, 200, 0), "black": (40, 40, 40), "pink": (255, 80, 160)}


def rejected(err: RuleError) -> CommandRejected:
    """The web's refusal for a rule's refusal (malformed commands are 400, the rest 409)."""
    status = 400 if err.code in ("bad_command", "bad_house_rules", "bad_players") else 409
    status = 403 if err.code == "not_your_turn" else status
    return CommandRejected(err.code, err.message, status)


class FakeTable:
    """One real game in memory, thread-safe; waiters sleep on a condition."""

    def __init__(self, journal_dir: Path, players: tuple[str, ...] = ("red", "blue", "green"),
                 variant: str = "classic", seed: bytes = SEED) -> None:
        self._journal = Path(journal_dir) / "journal.jsonl"
        self._cond = threading.Condition()
        self._seed = seed
        self.virtual = True
        self.submitted: list[tuple[dict[str, Any], Viewer]] = []
        self.game_id = 0
        with self._cond:
            self._start(variant, list(players), {})

    # --- game ----------------------------------------------------------------------------
    def _start(self, variant: str, players: list[str], house_rules: dict[str, Any],
               faces: list[int] | None = None) -> None:
        dice = FairDice(self._seed)
        physical = bool(house_rules.get("physical_dice"))
        rng, typed = self._dice_source(dice, physical, faces)
        try:
            outcome = new_game(variant, players, house_rules, rng)
            self._all_typed_used(typed)
        except RuleError as err:
            raise rejected(err) from None
        except DiceEntryError as err:
            raise CommandRejected(err.code, err.message) from None
        self.physical = physical
        self.game_id += 1
        self.params = {"variant": variant, "players": players, "house_rules": house_rules}
        self.dice = dice
        self.state = outcome.state
        # the journal: entry 0 is the game itself; seq k is the k-th accepted command
        self.entries: list[dict[str, Any]] = [{"command": None, "draws": rng.take_draws(),
                                               "events": [e.to_dict() for e in outcome.events]}]
        self.paused = False
        self.revealed = False
        self._journal.parent.mkdir(parents=True, exist_ok=True)
        self._journal.write_text(json.dumps(self.params) + "\n", encoding="utf-8")
        self._cond.notify_all()

    @property
    def seq(self) -> int:
        """The latest journal sequence number (0 = just the new game)."""
        return len(self.entries) - 1

    @staticmethod
    def _dice_source(dice: FairDice, physical: bool, faces: Any
                     ) -> tuple[RecordingSource, PhysicalDice | None]:
        """The recorded source of one command: fair dice, or typed faces (the session's way:
        shuffles still fair; typed dice in a game without physical dice are refused)."""
        if not physical:
            if faces:
                raise CommandRejected("dice_not_typed",
                                      "This table rolls electronic dice; typed dice are not used.")
            return RecordingSource(dice), None
        typed = PhysicalDice(dice)
        try:
            typed.enter(faces or ())
        except DiceEntryError as err:
            raise CommandRejected(err.code, err.message, 400) from None
        return RecordingSource(typed), typed

    @staticmethod
    def _all_typed_used(typed: PhysicalDice | None) -> None:
        if typed is not None and typed.pending:
            raise CommandRejected("dice_left_over", f"{len(typed.pending)} typed dice were not "
                                  "needed; type only the dice rolled.")

    def _accept(self, command: dict[str, Any]) -> list[dict[str, Any]]:
        if self.paused:
            raise CommandRejected("paused", "The host paused the game; wait for them to resume.")
        command = dict(command)
        faces = command.pop("faces", None)
        position = self.dice.position
        rng, typed = self._dice_source(self.dice, self.physical, faces)
        try:
            cmd = command_from_dict(command)
            state = self.state.copy() if typed is not None else self.state
            outcome = apply(state, cmd, rng)
            self._all_typed_used(typed)
        except (RuleError, DiceEntryError, CommandRejected) as err:
            self.dice.position = position
            if isinstance(err, CommandRejected):
                raise
            if isinstance(err, DiceEntryError):
                raise CommandRejected(err.code, err.message) from None
            raise rejected(err) from None
        self.state = outcome.state
        events = [e.to_dict() for e in outcome.events]
        self.entries.append({"command": command, "draws": rng.take_draws(), "events": events})
        with self._journal.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"seq": self.seq, "command": command}) + "\n")
        self._cond.notify_all()
        return events

    def _replay(self, entries: list[dict[str, Any]]) -> None:
        """Rebuild the state from journal entries (undo), replaying their recorded draws."""
        draws = [d for e in entries for d in e["draws"]]
        rng = ReplaySource(draws)
        state = new_game(self.params["variant"], self.params["players"],
                         self.params["house_rules"], rng).state
        for entry in entries[1:]:
            state = apply(state, command_from_dict(entry["command"]), rng).state
        # the dice stream never goes back (as in the session): an undone roll is not re-rolled
        self.state = state
        self.entries = entries

    def _check_seat(self, player: str | None, touch: bool = False) -> None:
        """The table's seat check (`pi_app.table.seat_rights`): 403 when it is not this
        seat's move."""
        refusal = seat_refusal(self.state, player or "", touch)
        if refusal is not None:
            raise CommandRejected("not_your_turn", refusal, 403)

    # --- TableService --------------------------------------------------------------------
    def submit(self, command: dict[str, Any], viewer: Viewer) -> Accepted:
        """Apply a command for the viewer's own seat; raise CommandRejected if refused."""
        with self._cond:
            self.submitted.append((dict(command), viewer))
            if viewer.kind != "player" or command.get("player") != viewer.player:
                raise CommandRejected("not_your_seat", "You can only act for your own seat.", 403)
            self._check_seat(viewer.player)
            events = self._accept(command)
            shown = [redact_event(e, viewer.redaction_key) for e in events]
            return Accepted(self.seq, [e for e in shown if e is not None])

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The redacted state plus seq, game id, status, commitment and pause flag; a Strike
        player's view also lists `available_commands` (as the table's view must, see table_api)."""
        with self._cond:
            view = redact(self.state, viewer.redaction_key)
            view.update(seq=self.seq, game_id=self.game_id, paused=self.paused,
                        commitment=self.dice.commitment,
                        game_status="abandoned" if self.revealed else "running")
            if is_strike(self.state) and viewer.player:
                view["available_commands"] = available_commands(self.state, viewer.player)
            return view

    def updates_since(self, seq: int, viewer: Viewer) -> list[Update]:
        """Redacted updates after `seq` (entries whose events all vanish are still listed)."""
        key = viewer.redaction_key
        with self._cond:
            out = []
            for s in range(max(seq + 1, 0), len(self.entries)):
                shown = [redact_event(e, key) for e in self.entries[s]["events"]]
                out.append(Update(s, [e for e in shown if e is not None]))
            return out

    def wait_for_update(self, after_seq: int, timeout: float) -> int:
        """Block until the seq moves away from `after_seq` or the timeout passes."""
        with self._cond:
            self._cond.wait_for(lambda: self.seq != after_seq, timeout)
            return self.seq

    def status(self) -> dict[str, Any]:
        """A plausible health record of a simulated board."""
        return {"game_id": self.game_id,
                "link": {"state": "connected", "port": "/dev/pts/sim", "retransmits": 0},
                "leds": {"backend": "memory"}, "mismatches": []}

    def host_action(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """new_game, undo (by replay), pause, resume, end_game (reveals the seed)."""
        with self._cond:
            if action == "new_game":
                self._start(params["variant"], list(params["players"]),
                            dict(params.get("house_rules") or {}), params.get("faces"))
                return {"game_id": self.game_id}
            if action == "undo":
                count = int(params.get("count", 1))
                if count > self.seq:
                    raise CommandRejected("nothing_to_undo", "There is nothing to undo.")
                self._replay(self.entries[: len(self.entries) - count])
                self._cond.notify_all()
                return {"seq": self.seq}
            if action in ("pause", "resume"):
                self.paused = action == "pause"
                self._cond.notify_all()
                return {"paused": self.paused}
            if action == "end_game":
                self.revealed = True
                return {"seed": self.dice.reveal(), "commitment": self.dice.commitment}
            raise CommandRejected("unknown_action", f"There is no host action {action!r}.", 400)

    def journal_path(self) -> str:
        """The in-memory journal's text mirror."""
        return str(self._journal)

    def odds(self, source: str, target: str) -> dict[str, Any]:
        """The rules' exact odds for the armies now on the two territories."""
        with self._cond:
            if target not in BOARD.neighbours.get(source, ()):
                raise CommandRejected("not_adjacent", "Those territories do not border.", 400)
            a, d = self.state.armies[source], self.state.armies[target]
        odds = battle_odds(max(a, 1), max(d, 1)).to_dict()
        odds.update(source=source, target=target, attackers=a, defenders=d)
        return odds

    def dice_record(self) -> dict[str, Any]:
        """Commitment always; the seed and every draw once the game was ended."""
        with self._cond:
            draws = [d for e in self.entries for d in e["draws"]] if self.revealed else []
            return {"commitment": self.dice.commitment,
                    "seed": self.dice.reveal() if self.revealed else None, "draws": draws}

    def virtual_board(self) -> dict[str, Any] | None:
        """One LED per territory in its owner's colour (dark when unclaimed)."""
        if not self.virtual:
            return None
        with self._cond:
            owner = getattr(self.state, "owner", None) or {}  # RISK Strike has no map
            ids = list(owner) or list(BOARD.territories)
            leds = [list(RGB.get(owner.get(t) or "", (0, 0, 0))) for t in ids]
            return {"leds": leds, "territory_leds": {t: [i] for i, t in enumerate(ids)}}

    def virtual_touch(self, territory: str, player: str | None = None, *,
                      seat: bool = False) -> None:
        """A touch claims (claim phase), picks the owner's HQ (HQ pick), places a neutral or
        Allied army on a third-army territory, or places one army for the player awaited.
        A seat's touch (`seat`) is refused unless that seat may act now, as at the table."""
        if not self.virtual:
            raise CommandRejected("not_simulated", "This table has real sensors.", 400)
        with self._cond:
            if seat:
                self._check_seat(player, touch=True)
            state = self.state
            if is_strike(state):
                raise CommandRejected("no_board", "RISK Strike is played on the phones.", 400)
            who = player or (state.pending or {}).get("player") or state.current_player
            owner = state.owner[territory]
            kind = {"claim": "claim", "hq_pick": "pick_hq"}.get(state.phase, "place")
            if kind == "pick_hq":
                who = player or owner
            elif state.phase == "setup_place" and owner == state.variant_data.get("army"):
                kind = "place_neutral"
            command: dict[str, Any] = {"type": kind, "player": who, "territory": territory}
            if kind in ("place", "place_neutral"):
                command["count"] = 1
            self._accept(command)
