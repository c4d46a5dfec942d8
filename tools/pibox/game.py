"""A Classic game on the box's table, played by the bot through the service's API, and what
must survive a restart: the position, and the LEDs showing each territory's owner."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pi_app.computer.simple_bot import SimpleBot
from pi_app.rules import GameState
from pi_app.table.palette import DEFAULT_COLOURS
from tools.pibox.box import Box
from tools.pibox.constants import PLAYERS
from tools.pibox.devices import Pico, Strip
from tools.pibox.errors import CheckFailed
from tools.pibox.web import get_json, post_json, wait_port

if TYPE_CHECKING:  # run.py holds a Game: imported for the annotations only
    from tools.pibox.run import Run


def state_of(view: dict[str, Any]) -> GameState:
    """The game as the viewer sees it, as a GameState the bot can read: other players'
    hands are empty lists of the right length unknown, the deck unknown (empty)."""
    data = dict(view)
    hands: dict[str, list[Any]] = {p: [] for p in data["players"]}
    viewer = data.get("viewer")
    if viewer in hands:
        hands[viewer] = list(data.get("my_hand") or [])
    data.update(hands=hands, deck=[], missions={}, hq=data.get("hq") or {})
    return GameState.from_dict(data)


@dataclass
class Game:
    """A Classic game on the box's table: the host's PIN, the seats' tokens, the bot."""

    pin: str
    tokens: dict[str, str] = field(default_factory=dict)
    bot: SimpleBot = field(default_factory=SimpleBot)
    commands: int = 0
    touches: int = 0

    def host(self) -> dict[str, str]:
        """Headers of the host page."""
        return {"X-Host-Pin": self.pin}

    def view(self, player: str | None = None) -> dict[str, Any]:
        """/api/state as a spectator or as `player`'s phone."""
        headers = {"X-Seat-Token": self.tokens[player]} if player else None
        return get_json("/api/state", headers)["state"]

    def start(self) -> None:
        """The host starts a 3-player Classic game whose territories are claimed by touch."""
        post_json("/api/host/new_game", {"variant": "classic", "players": PLAYERS,
                                          "house_rules": {"setup": "claim"}}, self.host())
        for player in PLAYERS:  # the code the host shows each seat: its link, its token
            seat = get_json(f"/api/host/seats/{player}/code", self.host())["seat"]
            self.tokens[player] = seat["url"].split("#t=", 1)[1]

    def acting(self, view: dict[str, Any]) -> str:
        """Whose move it is (a defender answers an attack)."""
        pending = view.get("pending")
        return pending["player"] if pending and pending.get("player") else view["current_player"]

    def wait_seq(self, after: int, timeout: float = 30) -> dict[str, Any]:
        """The spectator view once its seq has passed `after`."""
        deadline = time.monotonic() + timeout
        while True:
            view = self.view()
            if view["seq"] > after:
                return view
            if time.monotonic() > deadline:
                raise CheckFailed(f"the table did not take a move within {timeout:.0f} s "
                                  f"(seq stayed {after}; refusal: {view['table'].get('refusal')})")
            time.sleep(0.1)

    def touch_setup(self, pico: Pico, channels: dict[str, int]) -> None:
        """Claim every territory and place every setup army by touching sensors."""
        view = self.view()
        while view["phase"] in ("claim", "setup_place") and view["winner"] is None:
            player = self.acting(view)
            move = self.bot.choose(state_of(self.view(player)), player).to_dict()
            # One touch a move: a touch the table does not take is a lost touch, and a
            # failure (a player would have to press again), never retried.
            pico.touch(channels[move["territory"]])
            self.touches += 1
            try:
                view = self.wait_seq(view["seq"], 60)
            except CheckFailed as exc:
                raise CheckFailed(f"touch {self.touches} (sensor {channels[move['territory']]},"
                                  f" {move['territory']}) was lost: {exc}") from None

    def play(self, moves: int | None = None) -> dict[str, Any]:
        """Play up to `moves` commands (None: to the end) through POST /api/command."""
        done = 0
        view = self.view()
        while view["winner"] is None and (moves is None or done < moves):
            player = self.acting(view)
            command = self.bot.choose(state_of(self.view(player)), player).to_dict()
            post_json("/api/command", {"command": command},
                      {"X-Seat-Token": self.tokens[player]})
            self.commands += 1
            done += 1
            view = self.view()
            if self.commands > 5000:
                raise CheckFailed("the game did not end within 5000 commands")
        return view


def position(box: Box, view: dict[str, Any]) -> dict[str, Any]:
    """What must survive a restart: the game as every phone sees it (board, armies, owners,
    phase, whose turn, cards counts) and where its journal ends. The view's `seq` is left
    out: it numbers every update published, table-only ones too (a lit selection), and is
    rebuilt from the journal at start, so it may go down across a restart."""
    game = {k: view[k] for k in ("game_id", "phase", "turn", "current_player", "owner",
                                 "armies", "reserves", "pending", "winner", "hand_counts",
                                 "trade_count")}
    game["journal"] = box.journal_end(int(view["game_id"]))
    return game


def gamma(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """A palette colour as the strip shows it (gamma 2.2 on each channel)."""
    return tuple((c / 255) ** 2.2 for c in rgb)  # type: ignore[return-value]


def shown_owner(pixels: list[tuple[int, int, int]]) -> str | None:
    """Which player's colour these LEDs show (by hue), or None when they are dark."""
    lit = [p for p in pixels if max(p) > 8]
    if not lit:
        return None
    mean = [sum(p[i] for p in lit) / len(lit) for i in range(3)]

    def closeness(colour: str) -> float:
        ref = gamma(DEFAULT_COLOURS[colour])
        dot = sum(a * b for a, b in zip(mean, ref))
        return dot / (math.hypot(*mean) * math.hypot(*ref))

    return max(PLAYERS, key=closeness)


def leds_show_owners(strip: Strip, view: dict[str, Any], leds: dict[str, tuple[int, ...]],
                     timeout: float = 60) -> None:
    """Wait until one decoded LED frame shows every territory in its owner's colour."""
    deadline = time.monotonic() + timeout
    wrong: list[str] = []
    needed = max(max(idx) for idx in leds.values()) + 1
    while time.monotonic() < deadline:
        frame = strip.last()
        if len(frame) < needed:
            wrong = [f"the strip shows {len(frame)} LEDs, not {needed} or more"]
        else:
            wrong = [f"{t} ({view['owner'][t]}'s) shows {shown_owner([frame[i] for i in idx])}"
                     for t, idx in leds.items()
                     if view["owner"].get(t) and shown_owner([frame[i] for i in idx])
                     != view["owner"][t]]
            if not wrong:
                return
        time.sleep(1)
    raise CheckFailed(f"the LEDs do not show the owners: {len(wrong)} territories wrong, e.g. "
                      + "; ".join(wrong[:4]))


def resumed(run: Run, before: dict[str, Any], frames_before: tuple[int, int] | None,
            what: str) -> None:
    """The game is where it was at its last acknowledged command (same board and journal
    end), and the LEDs were lit again, after `what`."""
    assert run.game is not None and run.strip is not None
    wait_port()
    after = position(run.box, run.game.view())
    if after != before:
        changed = [f"{k} ({before[k]} -> {after[k]})" if k in ("journal", "phase", "turn")
                   else k for k in before if before[k] != after[k]]
        raise CheckFailed(f"after {what} the game is not where it was: "
                          f"{', '.join(changed)} differ")
    if run.strip.wait_frame(frames_before, 60) is None:
        raise CheckFailed(f"after {what} no LED frame reached the strip (the shim's SPI) "
                          "within 60 s")
    leds_show_owners(run.strip, run.game.view(), dict(run.profile.territory_leds))
