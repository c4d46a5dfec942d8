"""Where each key of a TOML text sits: line numbers for error messages.

tomllib gives values but no positions, so validation errors find the line of the key they
talk about here. It reads table headers (`[a.b]`), `key = value` lines (bare, quoted and
dotted keys) and the keys of one-line inline tables (`alaska = { leds = [0], sensor = 0 }`).
It is a locator, not a parser: lines it does not understand are skipped.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY_PART = r"(?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)"
_KEY = re.compile(rf"^\s*({_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=(.*)$")
_INLINE_KEY = re.compile(r"([A-Za-z0-9_-]+)\s*=")


def _split_key(dotted: str) -> tuple[str, ...]:
    parts = re.findall(_KEY_PART, dotted)
    return tuple(part.strip("\"'") for part in parts)


class KeyLines:
    """Line numbers (1-based) of the tables and keys of a TOML text, by key path."""

    def __init__(self, text: str) -> None:
        self._lines: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        for number, line in enumerate(text.splitlines(), start=1):
            if line.lstrip().startswith("#"):
                continue
            header = _HEADER.match(line)
            if header:
                table = _split_key(header.group(1))
                self._lines.setdefault(table, number)
                continue
            key = _KEY.match(line)
            if not key:
                continue
            path = table + _split_key(key.group(1))
            self._lines.setdefault(path, number)
            value = key.group(2).strip()
            if value.startswith("{"):
                for inner in _INLINE_KEY.finditer(value):
                    self._lines.setdefault((*path, inner.group(1)), number)

    def line_of(self, *path: str) -> int | None:
        """The line of `path`, or of its nearest enclosing key or table; None if unknown."""
        for end in range(len(path), 0, -1):
            number = self._lines.get(tuple(path[:end]))
            if number is not None:
                return number
        return None
