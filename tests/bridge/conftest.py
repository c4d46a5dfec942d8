"""Shared helpers for the bridge tests: a fake Pico clock, a host-side frame recorder and
emulator + link rigs that are always stopped."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge import protocol as P
from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware.core import FirmwareCore
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
        return [P.unpack_event(p) for t, p in self.received() if t == P.MSG_EVENT]

    def connect(self, since: int = 0) -> list[tuple[int, bytes]]:
        """HELLO then REPLAY_REQ(since); returns the frames written in answer."""
        self.send(P.MSG_HELLO, P.pack_hello(P.PROTOCOL_VERSION, 1))
        self.send(P.MSG_REPLAY_REQ, P.pack_replay_req(self.core.epoch, since))
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


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Poll ``condition`` until true or ``timeout`` seconds pass (generous: a busy machine
    is slow, and the tests wait for behaviour, never time it)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.002)
    return condition()


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

    def link(self, path: str, got: list[SensorEvent], **kwargs: object) -> Link:
        link = Link(path, got.append, **kwargs)  # type: ignore[arg-type]
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
