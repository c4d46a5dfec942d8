"""The host's side of `make pi-shim-check` (tools/pibox/shim-check.sh), run with the host's
own python3 (3.11 or newer, no venv): what the arm64 root must install, and the detection
cases the probe printed, one line each.

    python3 tools/pibox/shim_host.py pi-packages pyproject.toml
    python3 tools/pibox/shim_host.py detect-cases probe-output.txt
"""

from __future__ import annotations

import json
import sys
import tomllib
from collections.abc import Iterable


def pi_packages(pyproject: str) -> list[str]:
    """What the project asks for on a Pi: its dependencies and its pi extra (rpi-ws281x,
    lgpio), as pyproject.toml pins them."""
    with open(pyproject, "rb") as file:
        project = tomllib.load(file)["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["pi"]]


def detect_cases(lines: Iterable[str]) -> list[str]:
    """One line per case of `probe.py detect`: the case, its outcome and what rpi-ws281x
    said. A case's JSON may follow a message of the library's on the same line (its stderr
    ends without a newline)."""
    cases = []
    for line in lines:
        if '{"case"' in line:
            case = json.loads(line[line.index('{"case"'):])
            cases.append(f"    {case['case']}: {case['outcome']}"
                         + (f" -> {case['said']}" if case["said"] else ""))
    return cases


def main(argv: list[str]) -> int:
    """Print what the subcommand asks for, one item a line."""
    command, path = argv
    if command == "pi-packages":
        print("\n".join(pi_packages(path)))
    elif command == "detect-cases":
        with open(path) as file:
            print("\n".join(detect_cases(file)))
    else:
        raise SystemExit(f"unknown command {command!r}: pi-packages or detect-cases")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
