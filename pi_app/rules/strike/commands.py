"""RISK Strike commands, one per player intent; each names the acting player (a colour id).

They subclass the board game's `Command`, so `cmd.to_dict()` gives {"type": ..., fields}.
Every type string starts with `strike_`, so a top-level dispatcher can tell them from the
board game's commands. `command_from_dict(d)` builds one back or raises
RuleError("bad_command") naming the problem.

Troop cards are interchangeable, so commands name how many (`Deploy.count`) or which kind
(`PlaySpy` plays one Spy from the hand), never a card id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pi_app.rules.commands import Command, build_command

TABLE = "table"  # the `player` of commands the table itself issues (CloseWindow)


@dataclass(frozen=True, slots=True)
class Draw(Command):
    """Start of the turn: draw 2 cards in any mix of continent and tactics cards."""

    type: ClassVar[str] = "strike_draw"
    continents: int
    tactics: int


@dataclass(frozen=True, slots=True)
class PassTurn(Command):
    """Do not attack: draw 1 more tactics card and end the turn."""

    type: ClassVar[str] = "strike_pass_turn"


@dataclass(frozen=True, slots=True)
class DeclareAttack(Command):
    """Attack step 1: attack `defender`'s `defence_continent` from your `attack_continent`."""

    type: ClassVar[str] = "strike_declare_attack"
    defender: str
    attack_continent: str
    defence_continent: str


@dataclass(frozen=True, slots=True)
class Deploy(Command):
    """Attack step 2: put `count` troop cards from your hand into the battle.

    The attacker and the defender deploy for their own side (`side` may be omitted); any
    other player joins in the window after deployment and must say which `side`
    ("attacker" or "defender") they support.

    A deploy is also a pass for as long as `until` says, as `Pass.until` (RULES §7): the
    defender's deploy is their pass in the window after deployment ("window"), or until a
    card is played ("card"), or for the rest of the battle ("battle").
    """

    type: ClassVar[str] = "strike_deploy"
    count: int
    side: str | None = None
    until: str = "window"

    def to_dict(self) -> dict[str, Any]:
        """As every command's, without `until` when it says nothing more (journals keep
        their form)."""
        data = {"type": self.type, "player": self.player, "count": self.count,
                "side": self.side}
        if self.until != "window":
            data["until"] = self.until
        return data


@dataclass(frozen=True, slots=True)
class Roll(Command):
    """Attack step 3: the attacker rolls (again)."""

    type: ClassVar[str] = "strike_roll"


@dataclass(frozen=True, slots=True)
class EndAttack(Command):
    """The attacker stops the attack; active troop cards are discarded and the turn ends."""

    type: ClassVar[str] = "strike_end_attack"


@dataclass(frozen=True, slots=True)
class Pass(Command):
    """In a reaction window: I do nothing (more). The window closes when all have passed.

    `until="battle"`: nor in any later window of this battle (RULES §7): the table stops
    asking this player until the battle ends. `until="card"`: for the rest of this battle,
    ask me only once a card (or troops) is played in a window, to answer it.
    `until="turn"`: no window asks me until my next turn starts or I am attacked."""

    type: ClassVar[str] = "strike_pass"
    until: str = "window"

    def to_dict(self) -> dict[str, Any]:
        """As every command's, without `until` for a plain pass (journals keep their form)."""
        data = {"type": self.type, "player": self.player}
        if self.until != "window":
            data["until"] = self.until
        return data


@dataclass(frozen=True, slots=True)
class ChoosePassing(Command):
    """A seat's standing choice of when a reaction window asks it (RULES §7, "Passing"),
    said in public and kept until changed: `choice` "result" (only while I hold a card that
    could change the result; the default) or "every" (whenever a window might: my pace
    tells nothing of my hand). Sent any time, even out of turn; it takes effect the next
    time a window asks (opens, or a card is played in it)."""

    type: ClassVar[str] = "strike_choose_passing"
    choice: str


@dataclass(frozen=True, slots=True)
class CloseWindow(Command):
    """The table's reaction timer fired: close the open window as if everyone had passed.

    `window` is the id of the window the timer was started for (from its `window_opened`
    event); a late timer for a window already closed is then refused (`stale_window`)
    instead of closing the next one. Omitted: whichever window is open.
    """

    type: ClassVar[str] = "strike_close_window"
    player: str = TABLE
    window: int | None = None


@dataclass(frozen=True, slots=True)
class PlaySpy(Command):
    """Spy (your turn): look at `target`'s hand and draw 1 tactics card."""

    type: ClassVar[str] = "strike_play_spy"
    target: str


@dataclass(frozen=True, slots=True)
class PlayExpand(Command):
    """Expand (your turn): draw 2 continent cards (`take="continents"`) or 1 tactics card."""

    type: ClassVar[str] = "strike_play_expand"
    take: str


@dataclass(frozen=True, slots=True)
class PlayCancelOrders(Command):
    """Cancel Orders: cancel the tactics card an opponent played as play number `play`."""

    type: ClassVar[str] = "strike_play_cancel_orders"
    play: int


@dataclass(frozen=True, slots=True)
class PlayRally(Command):
    """Rally (after a roll, attacker or defender): +2 to each of your dice."""

    type: ClassVar[str] = "strike_play_rally"


@dataclass(frozen=True, slots=True)
class PlayBombard(Command):
    """Bombard (after a roll, attacker or defender): your die at index `die` becomes a 6.

    `die` indexes your dice as rolled, highest first (0 = highest); -1 means the lowest.
    """

    type: ClassVar[str] = "strike_play_bombard"
    die: int = -1


@dataclass(frozen=True, slots=True)
class PlayArtillery(Command):
    """Artillery (after troops are deployed): `target` discards up to 2 active troop cards."""

    type: ClassVar[str] = "strike_play_artillery"
    target: str


@dataclass(frozen=True, slots=True)
class PlaySabotage(Command):
    """Sabotage (right after deployment): all troops go back to hands and the turn ends."""

    type: ClassVar[str] = "strike_play_sabotage"


PLAY_COMMANDS: tuple[type[Command], ...] = (
    PlaySpy, PlayExpand, PlayCancelOrders, PlayRally, PlayBombard, PlayArtillery, PlaySabotage)

TURN_COMMANDS: tuple[type[Command], ...] = (
    Draw, PassTurn, DeclareAttack, Deploy, Roll, EndAttack, Pass, CloseWindow)

# Commands a seat may send at any time: standing settings, not moves of the game.
SETTINGS: tuple[type[Command], ...] = (ChoosePassing,)
SETTING_COMMANDS: frozenset[str] = frozenset(cls.type for cls in SETTINGS)

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls for cls in TURN_COMMANDS + SETTINGS + PLAY_COMMANDS}


def command_from_dict(data: Any) -> Command:
    """Build a Strike command from its dict form (the board game's parser, Strike's types)."""
    return build_command(data, COMMAND_TYPES)
