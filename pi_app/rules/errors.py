"""The one error type of the rules: a stable code plus a sentence a player understands."""

from __future__ import annotations


class RuleError(ValueError):
    """An illegal command or bad input. `code` is stable (for UIs and tests); `message` is
    a sentence shown to players. Raising it guarantees the game state is unchanged."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def to_dict(self) -> dict[str, str]:
        """JSON form for web answers: {"code": ..., "message": ...}."""
        return {"code": self.code, "message": self.message}


# Every code the rules raise, with what it means (for user interfaces and translators).
ERROR_CODES: dict[str, str] = {
    "allied_attacks_only_turn_player": "the Allied Army may attack only the turn player",
    "allied_phase_first": "the Allied Army's phase comes before fortifying",
    "armies_to_place": "reinforcements are still waiting to be placed",
    "awaiting_decision": "the game waits for another decision (defence dice, move-in, trade)",
    "bad_command": "a command is malformed (unknown type, missing or extra field, bad value)",
    "bad_count": "an army count is outside what is allowed now",
    "bad_dice": "a dice count is outside the attack or defence limits",
    "bad_house_rules": "a house rule option is unknown or has a bad value",
    "bad_players": "the player list is wrong (count, unknown or repeated colour)",
    "bad_stop_at": "the blitz stop level is below 1",
    "blitz_needs_electronic_dice": "a blitz was asked for in a game with physical dice",
    "card_not_in_hand": "a traded card is not in the player's hand",
    "duplicate_cards": "the same card was named twice in a set",
    "game_over": "the game has been won; no more commands",
    "hq_card_in_set": "an HQ card (Capital) was named in a set; HQ cards are never traded",
    "must_trade_cards": "the player holds too many cards and must trade before placing",
    "not_a_set": "the cards are not a set",
    "not_allied_territory": "the territory does not belong to the Allied Army",
    "not_neutral_territory": "a neutral army goes only on a neutral territory",
    "not_adjacent": "the two territories do not border each other",
    "not_connected": "no chain of own territories links the two territories",
    "not_your_territory": "the territory belongs to someone else (or nobody)",
    "not_your_turn": "someone else must act now",
    "nothing_pending": "an answer (defence dice, move-in) was given when none was asked",
    "one_at_a_time": "setup armies are placed one at a time",
    "place_neutral_now": "this placing turn's own armies are down; the neutral ones are next",
    "own_territory": "the attack target already belongs to the attacker",
    "same_territory": "source and target are the same territory",
    "territory_taken": "the territory was already claimed",
    "too_few_armies": "the source has too few armies for this attack",
    "trade_not_needed": "after an elimination, trading stops at 4 cards or fewer",
    "unknown_player": "the colour is not playing in this game",
    "unknown_territory": "no territory has that id",
    "unknown_variant": "no variant has that name",
    "variant_not_available": "the variant has its own engine (RISK Strike), not this one",
    "wrong_phase": "the action is not possible in the current phase",
}
