"""With dice typed in from the table there is no blitz: queries, bots and the engine agree."""

from __future__ import annotations

from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import SeededSource
from pi_app.rules import Attack, Blitz, HouseRules, apply, legal_commands, new_game, waiting_for

PHYSICAL = HouseRules(physical_dice=True, setup="deal")


def test_legal_commands_offer_no_blitz_with_physical_dice_but_do_with_electronic():
    offered = {True: False, False: False}
    for physical in (True, False):
        rng = SeededSource(5)
        rules = HouseRules(physical_dice=physical, setup="deal")
        state = new_game("classic", ["red", "blue", "green"], rules, rng).state
        bot = SimpleBot()
        for _ in range(400):
            player = waiting_for(state)
            if any(isinstance(c, Blitz) for c in legal_commands(state, player)):
                offered[physical] = True
            if any(isinstance(c, Attack) for c in legal_commands(state, player)):
                break
            state = apply(state, bot.choose(state, player), rng).state
    assert offered == {True: False, False: True}


def test_a_bot_game_with_physical_dice_is_played_to_the_end_roll_by_roll():
    rng = SeededSource(3)
    state = new_game("classic", ["red", "blue", "green"], PHYSICAL, rng).state
    bot = SimpleBot()
    for _ in range(20_000):
        if state.winner is not None:
            break
        player = waiting_for(state)
        command = bot.choose(state, player)
        assert not isinstance(command, Blitz)
        state = apply(state, command, rng).state
    assert state.winner is not None
