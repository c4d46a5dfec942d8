"""SimpleBot moves the Allied Army in a game with typed physical dice, where no blitz exists:
the army's attack is a one-roll `Attack`, made by the player whose turn moves the army."""

from __future__ import annotations

from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import SeededSource
from pi_app.rules import Attack, Blitz, HouseRules, apply, new_game, waiting_for
from pi_app.rules.state import ALLIED

MAX_COMMANDS = 3000


def test_the_allied_army_attacks_with_one_roll_when_dice_are_typed() -> None:
    bot, rng = SimpleBot(), SeededSource(0)
    state = new_game("allied", ["red", "blue"], HouseRules(physical_dice=True), rng).state
    army_attacks: list[Attack] = []
    for _ in range(MAX_COMMANDS):
        if state.winner is not None:
            break
        player = waiting_for(state)
        command = bot.choose(state, player)
        if state.phase == ALLIED and isinstance(command, Attack | Blitz):
            assert isinstance(command, Attack) and command.player == player, command
            army_attacks.append(command)
        state = apply(state, command, rng).state  # a refused command raises RuleError
    assert state.winner is not None
    assert army_attacks  # the army attacked at least once
