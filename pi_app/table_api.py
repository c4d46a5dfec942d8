"""The door between the web (and any other client) and the table orchestrator.

The web never touches game state: it calls a `TableService`. The table loop (one writer
thread) implements it; tests may use any object with the same methods. Everything a
viewer receives has already passed the one redaction function (`pi_app.redaction`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

ViewerKind = Literal["player", "spectator", "host"]


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a seated player (by colour), a spectator, or the host console."""

    kind: ViewerKind
    player: str | None = None

    @property
    def redaction_key(self) -> str | None:
        """The viewer as the redaction function takes it: a colour, or None for public only."""
        return self.player if self.kind == "player" else None


class CommandRejected(Exception):
    """A command was refused: a stable `code` and a sentence a player understands."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


@dataclass(frozen=True)
class Accepted:
    """A command was journaled and applied: its journal sequence number and the events."""

    seq: int
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Update:
    """One entry of the live stream: journal sequence number and redacted events."""

    seq: int
    events: list[dict[str, Any]]


class TableService(Protocol):
    """What the table orchestrator offers to the web and other clients."""

    def submit(self, command: dict[str, Any], viewer: Viewer) -> Accepted:
        """Queue a command for the table loop and wait until it is journaled or refused.

        The command dict is the rules' JSON form (`{"type": "Attack", ...}`); its acting
        player must be `viewer.player` (the table checks). Raises `CommandRejected`.
        """
        ...

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """A full redacted snapshot for this viewer, including `"seq"` (latest journal seq).

        Also `"game_id"`, `"commitment"` and `"paused"`; optionally `"history"`, a value that
        changes whenever past updates stop being true (an undo) so live pages start their log
        afresh (`reset: true`) even though `seq` kept rising. For RISK Strike a player's view also
        carries `"available_commands"` (`pi_app.rules.strike.available_commands(state,
        player)`): the phone shows one form per listed command type. The table's own part
        (`"table"`) names the game's kind (`"kind"`: "board" or "strike", from the table's one
        game-kind seam, `pi_app.table.kinds`), so a page need not guess it from the variant.
        """
        ...

    def updates_since(self, seq: int, viewer: Viewer) -> list[Update]:
        """Redacted updates after `seq`, in order; empty if none (used for SSE resume).

        `seq` may be -1 to include entry 0 (the new game's own events, e.g. the first-player
        roll); each Update lists its events as the viewer may see them (possibly none).
        """
        ...

    def wait_for_update(self, after_seq: int, timeout: float) -> int:
        """Block until the latest seq is beyond `after_seq` or `timeout` passes; return latest."""
        ...

    def status(self) -> dict[str, Any]:
        """Health: link state and statistics, LED backend, board mismatches, game id."""
        ...

    def host_action(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """Host-only actions: new_game, undo, pause, resume, end_game (reveals the dice seed).

        Raises `CommandRejected` for an unknown action or bad parameters.
        """
        ...

    def journal_path(self) -> str:
        """Path of the SQLite journal file (for the host's download)."""
        ...

    def virtual_board(self) -> dict[str, Any] | None:
        """In simulation: `{"version": str, "leds": [[r, g, b], ...], "territory_leds":
        {id: [i, ...]}, ...}`, the in-memory strip's current frame (named by `version`) and
        the profile's LED map; None on real hardware."""
        ...

    def wait_for_frame(self, version: str, timeout: float) -> None:
        """Block up to `timeout` seconds until the virtual board's frame is another than
        `version` (a `virtual_board()` version); at once when it already is."""
        ...

    def odds(self, source: str, target: str) -> dict[str, Any]:
        """Exact odds (from `pi_app.rules.odds`) of attacking `target` from `source` now.

        Added by the web engineer. Returns `{"source": id, "target": id, "attackers": armies
        on source, "defenders": armies on target}` merged with
        `pi_app.rules.odds.battle_odds(attackers, defenders).to_dict()` minus its two army
        counts (`p_conquer`, `expected_attacker_losses`, `expected_defender_losses`).
        Raises `CommandRejected("not_adjacent", ..., status=400)` for territories that do
        not border each other.
        """
        ...

    def dice_record(self) -> dict[str, Any]:
        """The fairness record of the current game (added by the web engineer).

        `{"commitment": hex | None, "seed": hex | None, "draws": [...]}`: the commitment
        (SHA-256 of the FairDice seed) from the first roll on; the revealed seed and every
        draw of the game in journal order (`["d", [faces]]`, `["u", n, value]`, the
        RecordingSource form) only once the host has ended the game and revealed the seed
        (`seed` None and `draws` empty before, because draws would reveal the deck order).
        May add `"physical_dice": true` when the table typed in real dice: those `"d"` draws
        use no seed counter and the browser's verification skips them.
        """
        ...

    def virtual_touch(self, territory: str, player: str | None = None, *,
                      seat: bool = False, action: str = "touch", tag: str | None = None
                      ) -> bool:
        """In simulation: touch a territory's sensor through the emulator (with `player`'s
        NFC token when the board has readers, or `tag` "marker-N", that player's N-th
        marker). `action` "touch", "down" (held) or "up" (lifted). Raises `CommandRejected`
        off simulation. Returns False when the sensor sits on a port the Pico does not scan.

        `seat=True`: `player`'s phone sent the touch (a seat token). It is that seat's touch
        and is refused (`CommandRejected("not_your_turn", ..., 403)`, nothing changes)
        unless the seat may act now (`pi_app.table.seat_rights.seat_refusal`)."""
        ...

    def virtual_replug(self, territory: str, port: int) -> dict[str, Any]:
        """On the practice board: plug `territory`'s sensor into mux port `port` and restart
        the emulated Pico; returns the board's sensor ports (`TableService.sensor_ports`).
        Raises `CommandRejected` off the practice board, for a port the board lacks or
        another sensor holds."""
        ...

    def virtual_button(self, button: str, action: str, player: str | None = None, *,
                       seat: bool = False) -> None:
        """In simulation: a control button of the virtual board goes `action` "down" or
        "up" (the host: the simulated pin, so the hold time makes a long press). `seat=True`:
        `player`'s phone pressed it, refused like `virtual_touch` unless that seat may act;
        its release is a long press after the hold time. Raises `CommandRejected` off
        simulation or for a button the board lacks."""
        ...

    def virtual_pico(self, action: str) -> None:
        """In simulation: the emulated Pico is `action` "reset" (a new boot: its unsent
        events are lost and the link shakes hands again), "unplug" (its cable pulled: the
        device path vanishes) or "replug". Raises `CommandRejected` off simulation or for
        another action."""
        ...
