"""The control buttons a table may have, and what players use them for.

Kept apart from `hardware.controls` so the config loader can check button names
without importing gpiozero.
"""

# The buttons a table may have, and what players use them for (the gestures layer decides).
CONTROL_NAMES: dict[str, str] = {
    "confirm": "confirm the selection / the attack / the move",
    "undo": "take back the last command (long press: across a roll, if the house allows)",
    "end_phase": "end the current phase (reinforce -> attack -> fortify -> next player)",
    "roll": "roll the dice for the attack being considered (long press: blitz)",
    "cancel": "drop the current selection without doing anything",
    "blitz": "attack until the battle is decided",
    "cycle_dice": "cycle the number of attacking dice 3 -> 2 -> 1",
    "cards": "trade in a set of cards",
    "menu": "open the host menu on the status page",
}
