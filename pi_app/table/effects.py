"""The table's passing light effects: what the game's events light for a moment.

`Effects` holds the running effects (turn pulse, dice shown on the battle's territories,
conquest flashes, blinks of a refusal or a limit), the last battle's dice for the dice
LEDs and since when the winner shines. The core feeds it every update's events
(`from_events`); finished effects go at each update and at each `tick`, not only when the
queue idles (a busy table may never idle, and the list grew with every roll of the game).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pi_app.table import strike_gestures
from pi_app.table.lights import (
    Battle,
    ConquestFlash,
    DiceShow,
    Effect,
    ErrorBlink,
    LimitBlink,
    TurnPulse,
    effect_alive,
)


class Effects:
    """The effects running now, the last battle's dice and the winner's start time."""

    def __init__(self) -> None:
        self.running: list[Effect] = []
        self.last_battle: Battle | None = None
        self.winner_since = 0.0

    def restart(self, first_player: str, now: float) -> None:
        """A new game: only its first player's turn pulse."""
        self.running = [TurnPulse(first_player, now)]
        self.last_battle = None
        self.winner_since = 0.0

    def turn_pulse(self, player: str, now: float) -> None:
        """Pulse `player`'s turn (a demo game just started)."""
        self.running.append(TurnPulse(player, now))

    def blink(self, territories: Iterable[str], now: float) -> None:
        """A refusal blinks `territories`."""
        self.running.extend(ErrorBlink(t, now) for t in territories)

    def limit(self, territory: str, now: float) -> None:
        """A count reached its limit on `territory`."""
        self.running.append(LimitBlink(territory, now))

    def prune(self, now: float) -> bool:
        """Drop finished effects; True if any was dropped."""
        if all(effect_alive(e, now) for e in self.running):
            return False
        self.running = [e for e in self.running if effect_alive(e, now)]
        return True

    def alive(self, now: float) -> tuple[Effect, ...]:
        """The effects still running at `now`."""
        return tuple(e for e in self.running if effect_alive(e, now))

    def from_events(self, events: list[dict[str, Any]], now: float) -> None:
        """Start what the events of one update light (a battle's dice, conquests, turns)."""
        battle: dict[str, Any] | None = None
        for event in events:
            kind = event.get("type")
            if kind == "turn_started":
                self.running.append(TurnPulse(event["player"], now))
                self.last_battle = None
            elif kind == "battle" and "from" in event:
                battle = event
            elif kind in ("battle", "dice_rolled"):
                # a battle of no territories (RISK Strike): dice LEDs only, from the roll on,
                # so a table without phones sees it while the window after it is open
                self.last_battle = Battle(tuple(event["attack_dice"]),
                                          tuple(event["defence_dice"]),
                                          event.get("attacker"), event.get("defender"))
            elif kind == "dice_changed" and self.last_battle is not None:
                # Rally or Bombard resolved: the LEDs show the dice that are compared
                dice = tuple(event["dice"])
                changed = self.last_battle
                self.last_battle = Battle(
                    dice if event["side"] == "attacker" else changed.attack_dice,
                    dice if event["side"] == "defender" else changed.defence_dice,
                    changed.attacker, changed.defender)
            elif kind == "coin_taken":
                self.running.extend(ConquestFlash(t, now)
                                    for t in strike_gestures.continent_area(event["continent"]))
            elif kind == "conquered":
                self.running.append(ConquestFlash(event["to"], now))
            elif kind == "game_won":
                self.winner_since = now
            elif kind in ("undone", "game_started"):
                self.last_battle = None
        if battle is not None:
            self.running.append(DiceShow(battle["from"], tuple(battle["attack_dice"]),
                                         battle["attacker_losses"], now))
            self.running.append(DiceShow(battle["to"], tuple(battle["defence_dice"]),
                                         battle["defender_losses"], now))
            self.last_battle = Battle(tuple(battle["attack_dice"]),
                                      tuple(battle["defence_dice"]),
                                      battle.get("attacker"), battle.get("defender"))
