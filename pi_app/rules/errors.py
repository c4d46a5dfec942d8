"""The one error type of the rules: a stable code plus a sentence a player understands."""

from __future__ import annotations


class RuleError(ValueError):
    """An illegal command or bad input. `code` is stable (for UIs and tests); `message` is
    a sentence shown to players. Raising it guarantees the game state is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, str]:
        """JSON form for web answers: {"code": ..., "message": ...}."""
        return {"code": self.code, "message": self.message}
