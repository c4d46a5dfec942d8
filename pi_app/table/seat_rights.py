"""What a seat's phone may do now: the check at the door between phones and the table.

A phone holds one seat's token, so everything it sends (a command, a touch on the virtual
board) is that seat's. Before the table carries it out it asks `seat_refusal`: None when
the seat may act now, else the sentence the phone shows with a 403 `not_your_turn`, and
nothing changes. The answer comes from the rules' own queries:

- board engine (every variant but RISK Strike): the seats the game awaits
  (`awaiting_players`: the current player, or whoever a pending decision asks — the
  defender choosing dice, the attacker moving in, a player trading down — and the
  commander during the Allied phase); during Capital's secret HQ pick any seat, since a
  pick may change until the last seat has picked (the engine's `any_seat_commands`).
- RISK Strike: the seat has at least one command type it may send now
  (`available_commands`: the decider, a reaction window's eligible players, Spy/Expand on
  one's own turn); a touch on the board only for a seat the game waits for.

A seat's standing setting (the kind's `settings`: Strike's passing choice) is no move: a
seat may send it at any time, and the rules check its value.

A finished game answers None: the rules themselves refuse with `game_over`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from pi_app.rules import Command, RuleError, command_from_dict
from pi_app.rules.strike import CloseWindow
from pi_app.table.kinds import kind_of
from pi_app.table_api import CommandRejected, Viewer

log = logging.getLogger("riskboard.table")


def seat_refusal(state: Any, player: str, touch: bool = False) -> str | None:
    """None if `player`'s phone may act in `state` now, else why not (a sentence).

    `touch`: the phone touches the (virtual) board. In RISK Strike a touch answers only
    what the game waits for (a decision, or a pass in a reaction window); tactics cards
    played out of that (a passed player's, Spy on one's own turn) go by command."""
    if state is None or state.winner is not None:
        return None
    allowed, awaited = kind_of(state).may_act(state, player, touch)
    if allowed:
        return None
    if not awaited:
        return f"Nothing waits for a decision of {player} now."
    return f"It is {_whose(awaited)} move; your phone can only act for {player}."


def check_seat(state: Any, player: str | None, touch: bool = False) -> None:
    """Raise 403 `not_your_turn` with `seat_refusal`'s sentence unless `player` may act."""
    refusal = seat_refusal(state, player or "", touch)
    if refusal is not None:
        log.info("event=table.seat_refused player=%s", player)
        raise CommandRejected("not_your_turn", refusal, 403)


def check_computer(player: str, computers: Mapping[str, Any]) -> None:
    """Raise 403 `computer_seat` if the computer plays `player`'s seat: its old phone token
    then drives nothing, neither commands nor touches and presses on the virtual board."""
    if player in computers:
        raise CommandRejected("computer_seat", "The computer plays this seat; the host "
                              "can give it back to a phone.", 403)


def phone_command(state: Any, command: Any, viewer: Viewer, paused: bool,
                  computers: Mapping[str, Any]) -> tuple[Command, Any]:
    """A phone's command checked at the door: (the command, its typed dice `faces`), or
    `CommandRejected` — not a seated player, another seat's command, `CloseWindow` (the
    table's own timer only), a paused game, a computer seat, a malformed command, or a
    seat that may not act now. The rules check the rest when it is applied."""
    if viewer.kind != "player" or not viewer.player:
        raise CommandRejected("not_a_player", "Only a seated player can play.", 403)
    if isinstance(command, dict) and command.get("type") == CloseWindow.type:
        raise CommandRejected("table_only", "Only the table's own timer closes a reaction "
                              "window; pass instead.", 403)
    if not isinstance(command, dict) or command.get("player") != viewer.player:
        raise CommandRejected("not_your_seat", "You can only act for your own seat.", 403)
    if paused:
        raise CommandRejected("paused", "The host has paused the game.")
    check_computer(viewer.player, computers)
    body = dict(command)
    faces = body.pop("faces", None)
    try:
        cmd = command_from_dict(body)
    except RuleError as exc:
        raise CommandRejected(exc.code, exc.message, 400) from None
    if cmd.type not in kind_of(state).settings:
        check_seat(state, viewer.player)
    return cmd, faces


def _whose(colours: list[str]) -> str:
    """"blue's", "blue's or green's", "blue's, green's or pink's"."""
    names = [f"{c}'s" for c in colours]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
