"""The choice the engine asks of a seat now, as its phone shows it (issue 32.7).

My view asked the raw state (`state.pending`) what to ask and which buttons to show; now the
table says it, beside what it waits for (`pi_app.table.awaiting`): `decision(state, me)` is
the question (a sentence) and its choices (each a sentence and the command it sends), or
None when the engine asks `me` nothing of its own. Keys and parameters, never words.
"""

from __future__ import annotations

from typing import Any

Sentence = dict[str, Any]


def _say(key: str, **params: Any) -> Sentence:
    return {"key": key, "params": params}


def _choice(key: str, n: int, command: dict[str, Any]) -> dict[str, Any]:
    return {"says": _say(key, n=n), "command": command}


def _question(state: Any, me: str, pend: dict[str, Any]) -> Sentence:
    kind = pend["kind"]
    if kind == "defend":
        owner = state.owner.get(pend["to"])
        where = {"to": {"territory": pend["to"]}, "attacker": {"colour": pend["attacker"]},
                 "from": {"territory": pend["from"]}}
        if owner and owner != me:
            return _say("ask.defend_for", owner={"colour": owner}, **where)
        return _say("ask.defend", **where)
    if kind == "move_in":
        if pend.get("army"):
            return _say("ask.move_in_army", army={"colour": pend["army"]},
                        to={"territory": pend["to"]})
        return _say("ask.move_in", to={"territory": pend["to"]})
    if kind == "trade_down":
        return _say("ask.trade_down")
    return _say("ask.other", kind={"word": "pending", "of": kind})


def _choices(pend: dict[str, Any]) -> list[dict[str, Any]]:
    if pend["kind"] == "defend":
        return [_choice("me.dice_n", n, {"type": "choose_defence", "dice": n})
                for n in range(1, (pend.get("max_dice") or 2) + 1)]
    if pend["kind"] == "move_in":
        low = pend.get("min") or 1
        high = pend.get("max") or low
        # the least, the middle (rounded up, as the page did) and the most
        counts = sorted({low, (low + high + 1) // 2, high})
        return [_choice("me.move_n", n, {"type": "move_in", "count": n}) for n in counts]
    return []


def decision(state: Any, me: str) -> dict[str, Any] | None:
    """The engine's pending decision when it is `me`'s: {"ask": sentence, "choices":
    [{"says": sentence, "command": {...}}]} (a trade-down's choice is made in the hand);
    None otherwise. A trade-down that is placing what it gave asks nothing here: the
    seat's sentence says it."""
    pend = getattr(state, "pending", None)
    if not pend or pend.get("player") != me:
        return None
    if pend["kind"] == "trade_down" and len(state.hands.get(me, ())) < 5:
        return None
    return {"ask": _question(state, me, pend), "choices": _choices(pend)}


def turn_mark(state: Any) -> str | None:
    """What a page's own choices last until (a selection, odds, a refusal, ticked cards): the
    turn, whose it is and its phase; a new mark starts them afresh. None: no game."""
    if state is None or not getattr(state, "players", None):
        return None
    return f"{state.turn}:{state.current_player}:{state.phase}"
