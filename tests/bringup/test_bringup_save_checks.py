"""What keeps a learned board from being saved, each with its stable code
(pi_app.table.bringup_desk._problems): a territory without LEDs or a sensor, an LED, a
channel or a tag used twice."""

from __future__ import annotations

from pi_app.bringup.draft import Draft
from pi_app.table.bringup_desk import _problems, profile_file, profile_in_use

TERRITORIES = ("alaska", "peru", "siam")


def whole() -> Draft:
    draft = Draft(led_count=10, step="done")
    draft.sensors = {"alaska": (0, "button"), "peru": (1, "button"), "siam": (2, "button")}
    draft.territory_leds = {"alaska": [0, 1], "peru": [2, 3], "siam": [4, 5, 6]}
    draft.status_leds = {"turn": [7]}
    return draft


def test_a_whole_board_has_no_problem():
    assert _problems(whole(), TERRITORIES) == []


def test_each_problem_has_its_code_and_what_it_names():
    draft = whole()
    del draft.territory_leds["peru"]
    del draft.sensors["siam"]
    draft.status_leds["phase"] = [1]
    draft.sensors["alaska"] = (1, "button")
    draft.tokens = {"red": ["04aa"]}
    draft.markers = {"blue": ["04aa"]}
    assert _problems(draft, TERRITORIES) == [
        ("territory_without_leds", {"territories": ["peru"]}),
        ("territory_without_sensor", {"territories": ["siam"]}),
        ("led_used_twice", {"led": 1, "owners": ["alaska", "phase"]}),
        ("channel_used_twice", {"channel": 1}),
        ("tag_used_twice", {}),
    ]


def test_a_learned_profile_goes_to_the_data_folder_unless_the_config_names_a_file(tmp_path):
    assert profile_file("classic-42", tmp_path) == tmp_path / "board-profile.toml"
    assert profile_in_use("classic-42", tmp_path) == "classic-42"  # nothing learned yet
    (tmp_path / "board-profile.toml").write_text("learned", "utf-8")
    assert profile_in_use("classic-42", tmp_path) == tmp_path / "board-profile.toml"
    mine = tmp_path / "my-board.toml"
    assert profile_file(str(mine), tmp_path) == mine
    assert profile_in_use(str(mine), tmp_path) == str(mine)
