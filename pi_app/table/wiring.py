"""What the table needs from a board profile (`Wiring`) and what a new game is (`NewGameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from hardware.profiles import normalise_uid as profile_uid


def normalise_uid(uid: bytes | str | None) -> str | None:
    """A tag UID as lower-case hex without separators (the profiles' form), or None."""
    return None if uid is None else profile_uid(uid)


@dataclass(frozen=True)
class Wiring:
    """What the loop needs from a board profile: channels, and whose tags are whose."""

    channel_territory: Mapping[int, str]
    token_colours: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    marker_colours: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    nfc: bool = False

    @classmethod
    def from_profile(cls, profile: Any) -> Wiring:
        """Build from a `hardware.profiles.BoardProfile`."""
        channels = {spec.channel: t for t, spec in profile.sensors.items()}
        tokens = {normalise_uid(u): c for c, uids in profile.tokens.items() for u in uids}
        markers = {normalise_uid(u): c for c, uids in profile.markers.items() for u in uids}
        nfc = any(spec.kind == "nfc" for spec in profile.sensors.values())
        return cls(MappingProxyType(channels), MappingProxyType(tokens),  # type: ignore[arg-type]
                   MappingProxyType(markers), nfc)  # type: ignore[arg-type]

    def territory_channel(self, territory: str) -> int | None:
        """The sensor channel of `territory`, or None."""
        for channel, name in self.channel_territory.items():
            if name == territory:
                return channel
        return None

    def token_of(self, colour: str) -> str | None:
        """A token UID (hex) of `colour`, for simulated touches."""
        for uid, owner in self.token_colours.items():
            if owner == colour:
                return uid
        return None


@dataclass(frozen=True)
class NewGameSpec:
    """Parameters of a game to start: variant, players (colours) and house rules."""

    variant: str
    players: tuple[str, ...]
    house_rules: Mapping[str, Any] = field(default_factory=dict)
