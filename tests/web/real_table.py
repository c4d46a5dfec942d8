"""The real table behind the real web app, for tests that must judge the table itself:
a `TableLoop` on a journal file, the `LocalTableService` over it with a recording stand-in
for the emulated Pico, the web app, and a seat token per player."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.leds import open_strip
from hardware.profiles import load_profile
from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import FairDice
from pi_app.rules import is_strike, legal_attacks_from, load_map
from pi_app.table.lights import LedMap
from pi_app.table.loop import NewGameSpec, TableLoop, Wiring, awaited
from pi_app.table.painter import Painter
from pi_app.table.palette import Palette
from pi_app.table.service import LocalTableService
from pi_app.table_api import Viewer
from pi_app.web import create_app

from .conftest import PIN, seat

PROFILE = load_profile("classic-42")
BOARD = load_map()
LEDS = LedMap.from_profile(PROFILE)


class GameOver(AssertionError):
    """The bots finished the game before it reached the wanted position."""


def reach(tables: Callable[..., Table], spec: NewGameSpec, done: Callable[[Any], bool],
          seeds: bytes = bytes(range(1, 9))) -> Table:
    """A table of `spec` played by the bots until `done(state)`: the first seed (dice)
    whose game gets there before it is won."""
    for seed in seeds:
        table = tables(spec, seed=bytes([seed]))
        try:
            table.bot_until(done)
        except GameOver:
            continue
        return table
    raise AssertionError(f"no seed brought {spec.variant} to the wanted position")


class RecordingEmulator:
    """Stands in for the emulated Pico: records every sensor it is asked to touch."""

    sensor_count = PROFILE.sensor_count  # the channels the Pico scans

    def __init__(self) -> None:
        self.touched: list[Any] = []

    def touch(self, channel: int) -> None:
        self.touched.append(("touch", channel))

    def tag(self, channel: int, uid: bytes) -> None:
        self.touched.append(("tag", channel, uid))

    def untag(self, channel: int) -> None:
        self.touched.append(("untag", channel))


class Table:
    """A real table loop with the web app in front of it and a token per seat."""

    def __init__(self, tmp_path, spec: NewGameSpec, seed: bytes = b"\x07") -> None:
        tmp_path.mkdir(parents=True)
        self.loop = TableLoop(tmp_path / "journal.sqlite", Wiring.from_profile(PROFILE),
                              demo=spec, dice=lambda: FairDice(seed * 32))
        self.loop.start()
        self.emulator = RecordingEmulator()
        service = LocalTableService(self.loop, leds=LEDS, emulator=self.emulator)
        self.app = create_app(service, host_pin=PIN, data_dir=tmp_path / "data",
                              command_rate=(1000.0, 1000))
        self.tokens = self.app.extensions["riskboard"].seats.issue_all(list(spec.players))
        self.client = self.app.test_client()

    def state(self) -> Any:
        return self.loop.call(lambda core: core.state.copy())

    def mark(self) -> tuple[int, int]:
        """(journal seq, revision): both stay put when nothing changes."""
        return self.loop.call(lambda core: (core.session.last_seq, core.revision))

    def bot_until(self, done: Callable[[Any], bool], limit: int = 4000) -> None:
        """Let the bots play through the phones' door until `done(state)`."""
        for _ in range(limit):
            state = self.state()
            if done(state):
                return
            bot: Any = StrikeBot() if is_strike(state) else SimpleBot()
            if not awaited(state):
                raise GameOver(f"the game was won by {state.winner} first")
            player = awaited(state)[0]
            command = bot.choose(state, player).to_dict()
            self.loop.call(lambda core, c=command, p=player: core.submit(c, Viewer("player", p)))
        raise AssertionError("the game never reached the wanted position")

    def play(self, player: str, command: dict[str, Any]) -> None:
        """`player` plays `command` on the table (no web, no check of the outcome)."""
        self.loop.call(lambda core: core.submit({**command, "player": player},
                                                Viewer("player", player)))

    def attack_until(self, kind: str, limit: int = 400) -> None:
        """From the attack phase: the current player attacks with the most dice from their
        strongest front (the defender answers with the most) until `kind` is pending."""
        for _ in range(limit):
            state = self.state()
            if state.pending is not None and state.pending["kind"] == kind:
                return
            if state.pending is not None and state.pending["kind"] == "defend":
                self.play(state.pending["player"], {"type": "choose_defence",
                                                    "dice": state.pending["max_dice"]})
                continue
            if state.pending is not None or state.phase != "attack":
                self.bot_until(lambda s: s.phase == "attack" and s.pending is None)
                continue
            me = state.current_player
            fronts = [(state.armies[t], t, target) for t in state.territories_of(me)
                      for target in legal_attacks_from(state, t)]
            if not fronts:
                self.play(me, {"type": "end_attack"})
                continue
            armies, source, target = max(fronts)
            self.play(me, {"type": "attack", "source": source, "target": target,
                           "dice": min(3, armies - 1)})
        raise AssertionError(f"no {kind} decision came")

    def command(self, player: str, command: dict[str, Any]):
        return self.client.post("/api/command", json={"command": command},
                                headers=seat(self.tokens[player]))

    def touch(self, player: str, territory: str):
        return self.client.post("/api/virtual/touch", json={"territory": territory},
                                headers=seat(self.tokens[player]))




class SimBoard:
    """The simulated board's sensors for the web tests: a touch on the virtual board goes
    straight to the table loop as the Pico's sensor event would (the serial bridge between
    them has its own tests), and returns once the loop has handled it."""

    sensor_count = PROFILE.sensor_count  # the channels the Pico scans

    def __init__(self, loop: TableLoop) -> None:
        self.loop = loop

    def touch(self, channel: int) -> None:
        self.loop.call(lambda core: core.on_sensor(channel, "press", None))

    def press(self, channel: int) -> None:
        self.loop.call(lambda core: core.on_sensor(channel, "press", None))

    def release(self, channel: int) -> None:
        self.loop.call(lambda core: core.on_sensor(channel, "release", None))

    def tag(self, channel: int, uid: bytes) -> None:
        self.loop.call(lambda core: core.on_sensor(channel, "tag_present", uid))

    def untag(self, channel: int) -> None:
        self.loop.call(lambda core: core.on_sensor(channel, "tag_removed", None))


class ServedTable(LocalTableService):
    """The real table service (`LocalTableService` over a `TableLoop` on a journal file,
    the simulated board's sensors and its in-memory LED strip, painted by the real
    `Painter`) with the helpers the web tests use:
    `state` (the live game state; a position edited through it by hand is published before
    the web next reads the table), `seq` (the journal's), `game_id`, `entries` (each
    journal entry's command, draws and events), `dice` (commitment; the seed once ended),
    `submitted` (every command a phone sent) and `virtual` (False: no virtual board)."""

    def __init__(self, journal_dir, players: tuple[str, ...] = ("red", "blue", "green"),
                 variant: str = "classic", seed: bytes = bytes(range(32))) -> None:
        from pathlib import Path

        folder = Path(journal_dir)
        folder.mkdir(parents=True, exist_ok=True)
        strip = open_strip("memory", LEDS.count, history=2)
        # no frame thread: `virtual_board` paints the current scene when it is read
        painter = Painter(strip, LEDS, Palette.from_config())
        loop = TableLoop(folder / "journal.sqlite", Wiring.from_profile(PROFILE),
                         show=painter.show, demo=NewGameSpec(variant, tuple(players), {}),
                         dice=lambda: FairDice(seed))
        loop.start()
        super().__init__(loop, leds=LEDS, strip=strip, painter=painter, emulator=SimBoard(loop))
        self.submitted: list[tuple[dict[str, Any], Viewer]] = []
        self.dice = _Dice(self)

    def close(self) -> None:
        """Stop the loop (and close its journal)."""
        self.loop.stop()

    def __enter__(self) -> ServedTable:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @property
    def virtual(self) -> bool:
        return self.emulator is not None

    @virtual.setter
    def virtual(self, on: bool) -> None:
        self.emulator = SimBoard(self.loop) if on else None

    @property
    def state(self) -> Any:
        return self.loop.call(lambda core: core.state)

    @property
    def seq(self) -> int:
        return self.loop.call(lambda core: core.session.last_seq)

    @property
    def revision(self) -> int:
        """The table's revision: the `seq` of its views, stream messages and updates (it
        moves once per accepted command, and also for a refusal, a selection, an undo or a
        new game; the journal's seq is `seq`)."""
        self._publish_edits()
        return self.loop.publisher.snapshot.revision

    @property
    def game_id(self) -> int | None:
        return self.loop.publisher.snapshot.game_id

    @property
    def entries(self) -> list[dict[str, Any]]:
        from pi_app.session import replay_steps

        def read(core: Any) -> list[dict[str, Any]]:
            record = core.journal.load(core.session.game_id)
            return [{"command": entry.command, "draws": entry.draws,
                     "events": [e.to_dict() for e in events]}
                    for entry, _state, events in replay_steps(record)]

        return self.loop.call(read)

    def _publish_edits(self) -> None:
        """A position a test edited by hand through `state` is published (as the table
        publishes every change) before the web reads it."""

        def sync(core: Any) -> None:
            if core.state is not None and core.state != core._state_copy:
                core.publish([], state_changed=True)

        self.loop.call(sync)

    def submit(self, command: dict[str, Any], viewer: Viewer) -> Any:
        self.submitted.append((command, viewer))
        self._publish_edits()
        return super().submit(command, viewer)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        self._publish_edits()
        return super().view(viewer)

    def odds(self, source: str, target: str) -> dict[str, Any]:
        self._publish_edits()
        return super().odds(source, target)

    def virtual_board(self) -> dict[str, Any] | None:
        if self.emulator is not None:
            self._publish_edits()
            self.painter.paint_once()
        return super().virtual_board()


class _Dice:
    """The running game's dice as the tests see them: commitment, and the seed once the
    game was ended."""

    def __init__(self, table: ServedTable) -> None:
        self.table = table

    @property
    def commitment(self) -> str:
        return self.table.loop.call(lambda core: core.session.commitment)

    def reveal(self) -> str:
        return self.table.loop.call(lambda core: core.session.reveal_seed())
