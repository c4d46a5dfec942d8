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

A finished game answers None: the rules themselves refuse with `game_over`.
"""

from __future__ import annotations

from typing import Any

from pi_app.rules import awaiting_players, is_strike


def seat_refusal(state: Any, player: str, touch: bool = False) -> str | None:
    """None if `player`'s phone may act in `state` now, else why not (a sentence).

    `touch`: the phone touches the (virtual) board. In RISK Strike a touch answers only
    what the game waits for (a decision, or a pass in a reaction window); tactics cards
    played out of that (a passed player's, Spy on one's own turn) go by command."""
    if state is None or state.winner is not None:
        return None
    if is_strike(state):
        from pi_app.rules.strike import available_commands, waiting_for

        awaited = waiting_for(state)
        if player in awaited or (not touch and available_commands(state, player)):
            return None
    else:
        awaited = awaiting_players(state)
        if player in awaited or (state.phase == "hq_pick" and player in state.players):
            return None
    if not awaited:
        return f"Nothing waits for a decision of {player} now."
    return f"It is {_whose(awaited)} move; your phone can only act for {player}."


def _whose(colours: list[str]) -> str:
    """"blue's", "blue's or green's", "blue's, green's or pink's"."""
    names = [f"{c}'s" for c in colours]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
