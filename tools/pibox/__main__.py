"""`python -m tools.pibox`: the Pi box's checks against the booted box (tools/pibox/pi-check.sh
runs it from the checkout once the box is up); exits 1 if a check failed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hardware.profiles import load_profile
from tools.pibox.box import Box
from tools.pibox.checks import run_all
from tools.pibox.run import Run
from tools.pibox.runner import NsenterRunner


def main(argv: list[str] | None = None) -> int:
    """Run every check in order; print a summary; exit 1 if one failed."""
    parser = argparse.ArgumentParser(prog="python -m tools.pibox",
                                     description="the Pi box's checks (tools/pibox)")
    parser.add_argument("--leader", type=int, required=True, help="the box's PID 1 (host pid)")
    parser.add_argument("--root", type=Path, required=True, help="the box's root filesystem")
    parser.add_argument("--nspawn", type=int, default=0, help="systemd-nspawn's pid")
    parser.add_argument("--bench", default="bench.table_latency,bench.rules_engine",
                        help="benches to run in the box, comma separated ('' for none)")
    args = parser.parse_args(argv)
    box = Box(NsenterRunner(args.leader, args.nspawn), args.root)
    run = Run(box, args.root / "srv" / "riskboard.git", profile=load_profile("classic-42"))
    benches = [b for b in args.bench.split(",") if b]
    run_all(run, benches)
    return run.report()


if __name__ == "__main__":
    sys.exit(main())
