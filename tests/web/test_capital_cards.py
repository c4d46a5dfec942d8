"""Capital's cards as a phone reads them over the API (docs/RULES.md §4): once the HQs are
revealed, `my_hand` holds RISK cards only, `my_hq_cards` the HQ cards the seat holds, and
`deck_count` counts a deck without the HQ cards."""

from __future__ import annotations

import pytest

from pi_app.computer.simple_bot import SimpleBot
from pi_app.rules import awaiting_players
from pi_app.rules.board import load_cards

from .conftest import seat

PLAYERS = ("red", "blue", "green")


@pytest.mark.slow
def test_a_phone_lists_its_hq_cards_apart_and_never_an_hq_card_in_its_hand(app, client,
                                                                          tmp_path, served_table):
    table = served_table(players=PLAYERS, variant="capital")
    app.extensions["riskboard"].table = table
    tokens = app.extensions["riskboard"].seats.issue_all(list(PLAYERS))
    bot = SimpleBot()
    checked = 0
    for _ in range(400):
        state = table.state
        if state.winner:
            break
        player = awaiting_players(state)[0]
        res = client.post("/api/command", json={"command": bot.choose(state, player).to_dict()},
                          headers=seat(tokens[player]))
        assert res.status_code == 200, res.get_json()
        if not table.state.hq_revealed:
            continue
        hqs = set(table.state.hq.values())
        for colour in PLAYERS:
            view = client.get("/api/state", headers=seat(tokens[colour])).get_json()["state"]
            assert not hqs & set(view["my_hand"]), (colour, view["my_hand"])
            holders = view["variant_data"]["hq_holders"]
            assert view["my_hq_cards"] == [view["hq"][p] for p in view["hq"]
                                           if holders[p] == colour]
            in_hands = sum(view["hand_counts"].values())
            assert view["deck_count"] + in_hands + len(view["discard"]) == (
                len(load_cards().all_cards) - len(PLAYERS))
            checked += 1
    assert checked > 30

