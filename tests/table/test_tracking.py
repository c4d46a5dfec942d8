"""Board tracking: marker readings judged against owners, with hysteresis."""

from __future__ import annotations

from pi_app.table.tracking import MarkerTracker

MARKERS = {"aa01": "red", "bb02": "blue"}
OWNERS = {"alaska": "red", "peru": "blue"}


def tracker() -> MarkerTracker:
    return MarkerTracker(MARKERS, settle_s=0.5)


def test_a_settled_wrong_colour_is_reported_with_what_was_seen():
    t = tracker()
    t.read("alaska", "BB02", 0.0)
    assert t.mismatches(OWNERS, 0.6)["alaska"].to_dict() == {
        "kind": "wrong_colour", "expected": "red", "seen": "blue"}


def test_a_flickering_read_is_not_a_mismatch():
    t = tracker()
    t.load_dump({"alaska": "aa01"}, 0.0)
    t.read("alaska", None, 1.0)
    assert t.mismatches(OWNERS, 1.1) == {}
    t.read("alaska", "aa01", 1.2)
    assert t.mismatches(OWNERS, 2.0) == {}


def test_a_fix_clears_at_once():
    t = tracker()
    t.read("alaska", None, 0.0)
    assert t.mismatches(OWNERS, 1.0)["alaska"].kind == "missing"
    t.read("alaska", "aa01", 1.01)
    assert t.mismatches(OWNERS, 1.02) == {}


def test_unknown_tags_and_missing_markers_are_told_apart():
    t = tracker()
    t.load_dump({"alaska": "ffff", "peru": None}, 0.0)
    found = t.mismatches(OWNERS, 0.0)
    assert (found["alaska"].kind, found["peru"].kind) == ("unknown_tag", "missing")


def test_a_conquest_is_judged_against_long_settled_readings_at_once():
    t = tracker()
    t.load_dump({"alaska": "aa01"}, 0.0)
    assert t.mismatches(OWNERS, 5.0) == {}
    assert t.mismatches({"alaska": "blue"}, 5.0)["alaska"].kind == "wrong_colour"


def test_unread_and_unowned_territories_are_never_reported():
    t = tracker()
    t.read("peru", None, 0.0)
    assert t.mismatches({"alaska": "red", "peru": None}, 9.0) == {}
