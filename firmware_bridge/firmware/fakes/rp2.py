"""Fake MicroPython ``rp2`` module: ``asm_pio`` really runs the program body, and
``StateMachine.put`` records the words pushed into the TX FIFO.

``asm_pio`` calls the decorated function with the PIO instruction names injected as
globals (what MicroPython does), so a misspelt instruction, a missing label or a delay too
long for the side-set bits fails here as on the Pico.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from firmware_bridge.firmware.fakes import world as _world


class PIO:
    """Constants of ``rp2.PIO``."""

    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


class Instruction:
    """One assembled instruction; ``.side(v)`` and ``[delay]`` annotate it."""

    def __init__(self, program: Program, op: str, args: tuple) -> None:
        self.op = op
        self.args = args
        self.sideset: int | None = None
        self.delay = 0
        program.instructions.append(self)

    def side(self, value: int) -> Instruction:
        """Side-set value driven while this instruction runs."""
        self.sideset = value
        return self

    def __getitem__(self, delay: int) -> Instruction:
        self.delay = delay
        return self


class Program:
    """What ``asm_pio`` produced: instructions, labels, wrap points and the config."""

    def __init__(self, name: str, config: dict[str, Any]) -> None:
        self.name = name
        self.config = config
        self.instructions: list[Instruction] = []
        self.labels: dict[str, int] = {}
        self.wrap_target = 0
        self.wrap: int | None = None

    def check(self) -> None:
        """Raise ValueError for jumps to unknown labels or delays too long."""
        side_bits = 1 if "sideset_init" in self.config else 0
        max_delay = (1 << (5 - side_bits)) - 1
        for ins in self.instructions:
            if ins.delay > max_delay or ins.delay < 0:
                raise ValueError("delay %d out of range in %s" % (ins.delay, self.name))
            if ins.op == "jmp":
                target = ins.args[-1]
                if isinstance(target, str) and target not in self.labels:
                    raise ValueError("jump to unknown label %r" % target)
        if len(self.instructions) > 32:
            raise ValueError("a PIO program holds at most 32 instructions")


def asm_pio(**config: Any) -> Callable[[Callable], Program]:
    """Assemble the decorated PIO program (see the module docstring)."""

    def assemble(func: Callable) -> Program:
        program = Program(func.__name__, config)

        def emitter(op: str) -> Callable[..., Instruction]:
            return lambda *args: Instruction(program, op, args)

        def label(name: str) -> None:
            program.labels[name] = len(program.instructions)

        def wrap_target() -> None:
            program.wrap_target = len(program.instructions)

        def wrap() -> None:
            program.wrap = len(program.instructions) - 1

        names: dict[str, Any] = {
            "label": label, "wrap_target": wrap_target, "wrap": wrap,
            "x": "x", "y": "y", "not_x": "!x", "not_y": "!y", "x_dec": "x--",
            "y_dec": "y--", "x_not_y": "x!=y", "pin": "pin", "not_osre": "!osre",
            "pins": "pins", "isr": "isr", "osr": "osr", "null": "null", "block": "block",
            "noblock": "noblock", "rel": "rel", "pindirs": "pindirs", "pc": "pc",
            "exec": "exec", "status": "status", "gpio": "gpio", "irq": emitter("irq"),
        }
        for op in ("out", "jmp", "nop", "set", "in_", "push", "pull", "mov", "wait"):
            names[op] = emitter(op)
        body = types.FunctionType(func.__code__, {**func.__globals__, **names},
                                  func.__name__, func.__defaults__, func.__closure__)
        body()
        program.check()
        return program

    return assemble


class StateMachine:
    """``rp2.StateMachine``: records its program, pins, frequency and every word put."""

    def __init__(self, sm_id: int, program: Program | None = None, freq: int = -1,
                 **kwargs: Any) -> None:
        self.id = sm_id
        self.program = program
        self.freq = freq
        self.kwargs = kwargs
        self.running = False
        self.words: list[int] = []
        self.puts = 0
        _world.current().state_machines[sm_id] = self

    def active(self, value: int | None = None) -> bool:
        """Start/stop, or query."""
        if value is not None:
            self.running = bool(value)
        return self.running

    def put(self, value: Any, shift: int = 0) -> None:
        """Push one word or a buffer of words, each shifted left by ``shift``."""
        if not self.running:
            raise RuntimeError("state machine %d is not active" % self.id)
        self.puts += 1
        words = [value] if isinstance(value, int) else list(value)
        self.words.extend((w << shift) & 0xFFFFFFFF for w in words)

    def take_words(self) -> list[int]:
        """The words pushed since the last call."""
        out = self.words
        self.words = []
        return out
