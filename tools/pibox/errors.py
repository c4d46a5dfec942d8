"""The one way a check fails: `CheckFailed`, whose message is the sentence the run prints."""

from __future__ import annotations


class CheckFailed(Exception):
    """A check did not hold; the message is the sentence that says so."""
