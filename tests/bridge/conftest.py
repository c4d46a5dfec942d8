"""Shared helpers for the bridge tests: a fake Pico clock, a host-side frame recorder, the
two pure cores joined by in-memory wires, and emulator + link rigs that are always stopped."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware.core import FirmwareCore
from firmware_bridge.host_core import HostCore
from firmware_bridge.link import Link, SensorEvent


class Clock:
    """A millisecond clock the test advances by hand."""

    def __init__(self) -> None:
        self.now = 1000

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        """Move time forward by ``ms``."""
        self.now += ms


class Host:
    """Plays the Pi against a FirmwareCore: sends frames, decodes what the core wrote."""

    def __init__(self, core: FirmwareCore, wire: bytearray) -> None:
        self.core = core
        self.wire = wire
        self.decoder = P.FrameDecoder()
        self.seq = 0

    def send(self, msg_type: int, payload: bytes = b"") -> None:
        """Deliver one frame to the core."""
        self.seq = (self.seq + 1) & 0xFF
        self.core.feed(P.encode_frame(msg_type, self.seq, payload))

    def received(self) -> list[tuple[int, bytes]]:
        """Frames the core wrote since the last call, as (type, payload)."""
        frames = self.decoder.feed(bytes(self.wire))
        self.wire.clear()
        return [(t, p) for t, _s, p in frames]

    def events(self) -> list[tuple[int, int, int, int, bytes]]:
        """EVENT frames written since the last call, unpacked."""
        return [M.EVENT.decode(p) for t, p in self.received() if t == P.MSG_EVENT]

    def connect(self, since: int = 0) -> list[tuple[int, bytes]]:
        """HELLO then REPLAY_REQ(since); returns the frames written in answer."""
        self.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 1))
        self.send(P.MSG_REPLAY_REQ, M.REPLAY_REQ.encode(self.core.epoch, since))
        return self.received()


@pytest.fixture
def clock() -> Clock:
    """A hand-driven millisecond clock."""
    return Clock()


@pytest.fixture
def pico(clock: Clock) -> tuple[FirmwareCore, Host]:
    """A firmware core with 42 sensors (epoch 0x11223344) and a host to talk to it."""
    wire = bytearray()
    leds: list[bytes] = []
    core = FirmwareCore(wire.extend, clock, 42, 0xA5A5A5A5, "1.2.3", on_led_frame=leds.append,
                        ring_size=16, epoch=0x11223344, window=4)
    core.test_leds = leds  # type: ignore[attr-defined]
    return core, Host(core, wire)


class Pair:
    """A HostCore (the Pi) and a FirmwareCore (the Pico) joined by two in-memory wires, on
    one hand-driven clock: the whole protocol, frame by frame, with no thread and no pty.

    ``to_host``/``to_pico``: optional wire faults, ``frames -> frames`` (each frame a bytes
    object ending in its 0x00 delimiter). ``accept``: whether the host side takes events
    (False plays a service that is stopping).
    """

    def __init__(self, clock: Clock, *, host: dict | None = None, pico: dict | None = None,
                 to_host: Callable[[list[bytes]], list[bytes]] | None = None,
                 to_pico: Callable[[list[bytes]], list[bytes]] | None = None) -> None:
        self.clock = clock
        self.wire_to_pico = bytearray()
        self.wire_to_host = bytearray()
        self.to_host_faults = to_host
        self.to_pico_faults = to_pico
        self.events: list[SensorEvent] = []
        self.dumps: list = []
        self.saved: list[tuple[int, int]] = []
        self.leds: list[bytes] = []
        self.accept = True
        # What happened on the host side, in order: ("save", epoch, seq) and ("sent", type).
        self.journal: list[tuple] = []
        pico_options: dict = {"ring_size": 64, "epoch": 0x11223344, "window": 8, **(pico or {})}
        self.pico = FirmwareCore(self.wire_to_host.extend, clock, 42, 0xA5A5A5A5, "1.2.3",
                                 on_led_frame=self.leds.append, **pico_options)
        nonces = itertools.count(0x1000)
        host_options: dict = {"nonce": lambda: next(nonces), **(host or {})}
        self.host = HostCore(self._host_write, self._deliver, save=self._save,
                             on_state=self.dumps.append, **host_options)

    @property
    def now(self) -> float:
        """The host's time in seconds (the same clock as the Pico's milliseconds)."""
        return self.clock.now / 1000

    def _host_write(self, data: bytes) -> None:
        self.wire_to_pico.extend(data)
        for msg_type, _seq, _payload in P.FrameDecoder().feed(data):
            self.journal.append(("sent", msg_type))

    def _deliver(self, event: SensorEvent) -> bool:
        if self.accept:
            self.events.append(event)
        return self.accept

    def _save(self, epoch: int, seq: int) -> None:
        self.saved.append((epoch, seq))
        self.journal.append(("save", epoch, seq))

    @staticmethod
    def _frames(data: bytes) -> list[bytes]:
        return [part + b"\x00" for part in data.split(b"\x00")[:-1]]

    def _carry(self, wire: bytearray, faults: Callable | None) -> bytes:
        data = bytes(wire)
        wire.clear()
        if faults is None or not data:
            return data
        return b"".join(faults(self._frames(data)))

    def step(self, ms: int = 1) -> None:
        """Carry the bytes each way, let both sides run, then let ``ms`` pass."""
        self.pico.feed(self._carry(self.wire_to_pico, self.to_pico_faults))
        self.pico.poll()
        data = self._carry(self.wire_to_host, self.to_host_faults)
        if data:
            self.host.receive(data, self.now)
        self.host.tick(self.now)
        self.clock.advance(ms)

    def run(self, ms: int) -> None:
        """Step ``ms`` milliseconds, one at a time."""
        for _ in range(ms):
            self.step()

    def connect(self) -> None:
        """Open the host side and run until it is connected (at most 2 s of its time)."""
        self.host.open(self.now)
        for _ in range(2000):
            if self.host.connected:
                return
            self.step()
        raise AssertionError(f"not connected: {self.host.status(self.now)}")


@pytest.fixture
def pair(clock: Clock) -> Pair:
    """A HostCore connected to a FirmwareCore (42 sensors, epoch 0x11223344)."""
    joined = Pair(clock)
    joined.connect()
    return joined


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll ``condition`` until true or ``timeout`` seconds pass (generous: a busy machine
    is slow, and the tests wait for behaviour, never time it)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.002)
    return condition()


# The links' silence limit in tests not about silence: the product's 2 s would make a test
# process stalled that long on a loaded machine reconnect and miscount reconnects.
GENEROUS_SILENCE_S = 60.0


class Rig:
    """An emulator and the links opened on it, stopped at teardown."""

    def __init__(self) -> None:
        self.emulators: list[Emulator] = []
        self.links: list[Link] = []

    def emulator(self, **kwargs: object) -> Emulator:
        emu = Emulator(**kwargs)  # type: ignore[arg-type]
        emu.start()
        self.emulators.append(emu)
        return emu

    def link(self, path: str, got: list[SensorEvent], *,
             silence_timeout_s: float = GENEROUS_SILENCE_S, **kwargs: object) -> Link:
        """A started Link on `path`; its silence limit is generous unless a test about
        silence gives the product's (a stalled test process must not look like a dead Pico)."""
        link = Link(path, got.append, **kwargs)  # type: ignore[arg-type]
        link.core.silence_timeout_s = silence_timeout_s
        link.start()
        self.links.append(link)
        return link

    def close(self) -> None:
        for link in self.links:
            link.stop()
        for emu in self.emulators:
            emu.stop()


@pytest.fixture
def rig() -> Iterator[Rig]:
    """Emulators and links that are stopped after the test."""
    r = Rig()
    yield r
    r.close()
