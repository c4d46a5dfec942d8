"""``python -m tools.picobox serve --port /dev/ttyPICO``: one emulated Pico on a pty path.

The port path is a symlink to a pseudo-terminal that exists while the emulated Pico's USB is
up (like /dev/ttyACM0: gone during a reset). Runs until interrupted; prints what it costs
(CPU seconds per Pico second) every ``--report-every`` seconds.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

from tools.picobox.box import Miswiring, PicoBox, PicoBoxError

# `serve --miswired`: the board of tests/picobox/test_miswired.py (issue 25), to practise a
# bring-up against the real firmware
MISWIRED = Miswiring(swap=(3, 17), led_order="RGB", reversed_run=(30, 38))
MISWIRED_NFC = Miswiring(led_order="RGB", moved_readers=((2, 0x72, 4), (33, 0x75, 7)))


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and serve the emulated Pico until SIGINT/SIGTERM."""
    parser = argparse.ArgumentParser(prog="python -m tools.picobox", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve one emulated Pico on a pty path")
    serve.add_argument("--port", required=True, help="where the pty symlink goes")
    serve.add_argument("--board", default=None, help="board.txt (default: classic-42)")
    serve.add_argument("--py", action="store_true", help=".py modules instead of .mpy")
    serve.add_argument("--workdir", default="/tmp/picobox-serve")
    serve.add_argument("--report-every", type=float, default=30.0)
    serve.add_argument("--miswired", action="store_true",
                       help="wire the board otherwise than the firmware expects: crossed "
                       "buttons 3 and 17, RGB chips, LEDs 30-38 reversed (NFC: readers 2 and "
                       "20 on each other's mux ports, reader 33 on a spare port)")
    args = parser.parse_args(argv)
    wiring = (MISWIRED_NFC if args.board == "classic-42-nfc" else MISWIRED) \
        if args.miswired else None
    box = PicoBox(Path(args.workdir), board=args.board, mpy=not args.py, port=args.port,
                  miswired=wiring)
    try:
        box.start()
    except PicoBoxError as exc:
        print(f"picobox: {exc}", file=sys.stderr)
        return 2
    stop = False

    def on_signal(*_: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    print(f"picobox: serving the emulated Pico on {args.port} (appears once USB is up)",
          flush=True)
    last = time.monotonic()
    try:
        while not stop:
            time.sleep(0.2)
            if box.proc is not None and box.proc.poll() is not None:
                print("picobox: the emulator exited; see", box.workdir / "picobox.log")
                return 1
            if time.monotonic() - last >= args.report_every:
                last = time.monotonic()
                s = box.stats()
                print(f"picobox: pico {s['emu_s']:.1f} s, cpu {s['cpu_s']:.1f} s "
                      f"({s['cpu_s'] / max(s['emu_s'], 1e-9):.1f} cpu s per pico s), "
                      f"boots {s['boots']}", flush=True)
    finally:
        box.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
