"""Every error code the Strike engine raises, with what it means (for UIs and translators).

Codes shared with the board game keep the board game's meaning (`pi_app.rules.errors`).
"""

from __future__ import annotations

STRIKE_ERROR_CODES: dict[str, str] = {
    "already_passed": "the player already passed in this reaction window",
    "bad_choice": "Expand was asked for something other than continents or tactics, or a "
                  "pass for something other than this window or this battle",
    "bad_command": "a command is malformed (unknown type, missing or extra field, bad value)",
    "bad_count": "a number of cards to draw or deploy is outside what is allowed now",
    "bad_die": "Bombard named a die the player did not roll",
    "bad_house_rules": "a Strike house rule option is unknown or has a bad value",
    "bad_passing": "a passing choice other than \"result\" or \"every\"",
    "bad_players": "the player list is wrong (2 to 5 players, known distinct colours)",
    "bad_side": "troops were sent to a side the player may not support",
    "bad_target": "the named player cannot be the target (yourself, or not playing)",
    "deck_empty": "fewer cards of that kind are left to draw",
    "game_over": "the game has been won; no more commands",
    "no_battle": "a pass for the rest of the battle came when no battle is being fought",
    "no_card": "the player holds no tactics card of that kind",
    "no_continent_cards": "the attacker or defender holds no card of the continent named",
    "no_such_play": "Cancel Orders named a play that is not waiting to resolve",
    "no_troops": "Artillery named a player with no active troop cards",
    "no_window": "a window command (pass, close) came when no window is open",
    "not_connected": "the two continents are neither the same nor connected",
    "not_eligible": "the player takes no part in the open window",
    "not_in_battle": "Rally or Bombard by a player who rolls no dice in this battle",
    "not_your_turn": "someone else must act now (or the card is for your own turn)",
    "own_card": "Cancel Orders aimed at the player's own card",
    "stale_window": "the table's timer fired for a window that has closed already",
    "switch_sides": "a supporter tried to add troops to the other side",
    "table_only": "CloseWindow came from a player instead of the table",
    "unknown_continent": "no continent has that id",
    "unknown_player": "the colour is not playing in this game",
    "window_open": "a reaction window is open; only reactions are accepted until it closes",
    "wrong_phase": "the action is not possible in the current phase or battle step",
    "wrong_time": "the tactics card's timing does not allow it now",
}
