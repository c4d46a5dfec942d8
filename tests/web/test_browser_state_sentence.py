"""Each surface says the state the engine is in, in every variant (issue 23.3): the bots play
a real table (the table loop on a journal, the served web app) and at each distinct pending
decision the engine reaches, My view of the awaited seat and of another seat, the table view
and /virtual (Chromium at 360×640, English and one other language) must say that decision.

The expected words are built here from the i18n catalogue keys for the decision, with the
parameters taken from the engine's own state; what the pages say comes from the table's own
object (`table.waits`, pi_app/table/awaiting.py: tests/table/test_awaiting.py holds it for
every decision), so this holds that object's words as well as that each page says them —
and each page must say the object's own sentences too (`saying.py`)."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest

from pi_app.table.kinds import awaited
from pi_app.table.loop import NewGameSpec
from pi_app.table_api import Viewer
from pi_app.web import create_app
from pi_app.web.serve import start_background

from .browsing import ARTIFACTS, page_in_language, shot
from .conftest import PIN
from .real_table import GameOver
from .saying import words_of
from .test_browser_game_night import SMALL, catalogue, say, wait_text

pytestmark = pytest.mark.browser

THREE, TWO = ("red", "blue", "green"), ("red", "blue")
BOARD = ("setup_place", "reinforce", "attack", "defend", "move_in", "fortify")
# variant: (players, the other language, house rules, decisions the bots must bring)
VARIANTS: dict[str, tuple[tuple[str, ...], str, dict[str, Any], tuple[str, ...]]] = {
    "classic": (THREE, "ko", {}, BOARD),
    "mission": (THREE, "ja", {}, BOARD),
    "capital": (THREE, "fr", {}, ("hq_pick", "hq_pick_some_picked", *BOARD)),
    "two-player": (TWO, "ja", {}, BOARD),
    "allied": (TWO, "fr", {}, ("setup_place", "reinforce", "attack", "allied_place",
                                "allied_attack")),
    "strike": (TWO, "ko", {"reaction_seconds": 600}, (
        "draw", "choose", "attacker_deploy", "defender_deploy", "window:deployed", "ready",
        "window:rolled")),
}


# ----- the decision the engine waits for ---------------------------------------------------
def decision(s) -> str:
    """A name for the engine's pending decision (one per distinct sentence a page says)."""
    if s.winner is not None:
        return "won"
    if s.variant == "strike":
        if s.window:
            return f"window:{s.window['kind']}"
        if s.battle:
            return s.battle["step"]
        return s.phase
    if s.pending:
        return s.pending["kind"]
    if s.phase == "hq_pick" and s.hq:
        return "hq_pick_some_picked"  # a seat that picked waits for the others
    if s.phase == "reinforce" and len(s.hands[s.current_player]) >= 5:
        return "forced_trade"
    d = s.variant_data or {}
    if s.phase == "allied" and d.get("allied_turn"):
        return "allied_place" if d.get("reserve") else "allied_attack"
    if s.phase == "setup_place" and d.get("placing") and not d["placing"].get("own"):
        return "place_third"
    return s.phase


# ----- the words each page uses, from the catalogue ------------------------------------------
class Words:
    """RB.t and its helpers (colour, phase, territory, continent names) in one language."""

    def __init__(self, lang: str) -> None:
        self.lang, self.words = lang, catalogue(lang)

    def __call__(self, key: str, **params: Any) -> str:
        return say(self.lang, key, **params)

    def named(self, prefix: str, k: str) -> str:
        return self(f"{prefix}.{k}") if f"{prefix}.{k}" in self.words else k.replace("_", " ")

    def who(self, p: str) -> str:
        return self.named("colour", p)

    def place(self, t: str) -> str:
        return self.named("territory", t)


def my_sentence(w: Words, s, me: str) -> str:
    """What My view of `me` must say (the table's `says.seat` for that seat)."""
    if s.winner is not None:
        return w("state.won") if s.winner == me else w("state.other_won", player=w.who(s.winner))
    if s.variant == "strike":
        return strike_sentence(w, s, me)
    pend, d = s.pending, s.variant_data or {}
    cards = {p: len(h) for p, h in s.hands.items()}
    if pend and pend["kind"] == "trade_down" and pend["player"] == me:
        return w("state.trade_down") if cards[me] > 4 else \
            w("state.trade_down_place", n=s.reserves[me])
    if not pend and s.phase == "reinforce" and s.current_player == me and cards[me] >= 5:
        return w("state.forced_trade", n=cards[me])
    if pend:
        if pend["player"] != me:
            them = pend["player"]
            # a trade-down is two duties: the trading, then placing what it gave
            what = w.named("pending", pend["kind"]) if pend["kind"] != "trade_down" else \
                w("duty.trade_down", n=cards[them]) if cards[them] > 4 else \
                w("duty.trade_down_place", n=s.reserves[them])
            return w("state.waiting", player=w.who(them), what=what)
        if pend["kind"] == "defend":
            return w("state.defend", n=pend.get("max_dice") or 2)
        if pend["kind"] == "move_in":
            return w("state.move_in", to=w.place(pend["to"]))
        raise AssertionError(f"a pending decision this test does not know: {pend}")
    if s.phase == "hq_pick":
        chosen = list(list(s.hq))
        if me not in chosen:
            return w("state.hq_pick")
        return w("state.hq_waiting", players=", ".join(w.who(p) for p in s.players
                                                      if p not in chosen))
    if s.phase == "allied" and d.get("allied_turn"):
        commander = d["allied_turn"]["commander"]
        if commander == me:
            return w("state.allied_place", n=d["reserve"]) if d.get("reserve") \
                else w("state.allied_attack")
        return w("state.waiting", player=w.who(commander), what=w.named("phase", "allied"))
    if s.current_player != me:
        them = s.current_player
        duty = (not pend and s.phase == "reinforce" and cards[them] >= 5)
        return w("state.waiting", player=w.who(them),
                 what=w("duty.forced_trade", n=cards[them]) if duty
                 else w.named("phase", s.phase))
    left = s.reserves[me]
    if s.phase == "setup_place":
        if d.get("placing") and not d["placing"].get("own"):
            return w("state.place_third", army=w.who(d["army"]))
        return w("state.setup_place", n=left)
    if s.phase in ("reinforce", "claim", "attack", "fortify"):
        return w(f"state.{s.phase}", n=left)
    raise AssertionError(f"a phase this test does not know: {s.phase}")


def banner_parts(w: Words, s) -> list[str]:
    """What the table view's banner must hold (the table's `says.banner`)."""
    if s.winner is not None:
        key = "strike.won" if s.variant == "strike" else "banner.won"
        return [w(key, player=w.who(s.winner))]
    if s.variant == "strike":
        return [strike_banner(w, s)]
    d = s.variant_data or {}
    if s.phase == "hq_pick":
        return [w("banner.hq_pick", waiting=", ".join(w.who(p) for p in s.players
                                                     if p not in list(s.hq)) or "–")]
    if s.phase == "allied" and d.get("allied_turn"):
        turn = d["allied_turn"]
        return [w("banner.allied", player=w.who(turn["turn_of"]),
                  commander=w.who(turn["commander"]))]
    parts = [w("banner.turn", player=w.who(s.current_player), phase=w.named("phase", s.phase))]
    pend = s.pending
    if pend and pend["kind"] != "trade_down":
        parts.append(w("banner.waiting_for", player=w.who(pend["player"]),
                       what=w.named("pending", pend["kind"])))
    if decision(s) == "forced_trade":
        parts.append(w("duty.forced_trade", n=len(s.hands[s.current_player])))
    elif s.phase == "setup_place" and d.get("placing"):
        placing = d["placing"]
        parts.append(w("banner.placing", own=placing.get("own"), third=placing.get("third") or 0,
                       army=w.who(d.get("army") or "neutral")))
    elif s.reserves.get(s.current_player) and not pend:
        parts.append(w("banner.to_place", n=s.reserves[s.current_player]))
    return parts


def virtual_parts(w: Words, s) -> list[str]:
    """What /virtual's state line must hold (the table's `says.line`)."""
    if s.winner is not None and s.variant != "strike":
        return [w("vboard.won", player=w.who(s.winner))]
    if s.variant == "strike":
        return [strike_banner(w, s)]
    pend = s.pending
    deciding = pend["player"] if pend else s.current_player
    # headed by the turn's owner during a defence (the defender is named after the attack)
    heading = s.current_player if pend and pend["kind"] == "defend" else deciding
    parts = [w.who(heading), w.named("phase", s.phase)]
    reserve = s.reserves.get(s.current_player)
    if decision(s) == "forced_trade":
        parts.append(w("vboard.forced_trade", n=len(s.hands[deciding])))
    elif pend and pend["kind"] == "defend":
        parts.append(w("vboard.defend", attacker=w.who(pend["attacker"]), player=w.who(deciding),
                       territory=w.place(pend["to"]), **{"from": w.place(pend["from"])}))
    elif pend and pend["kind"] == "move_in":
        parts.append(w("vboard.move_in", territory=w.place(pend["to"])))
    elif s.phase in ("setup_place", "reinforce") and reserve:
        parts.append(w("vboard.to_place", n=reserve))
    return parts


# ----- Strike -------------------------------------------------------------------------------
def battle_words(w: Words, b: dict[str, Any]) -> dict[str, str]:
    return {"attacker": w.who(b["attacker"]), "defender": w.who(b["defender"]),
            "from": w.named("continent", b["attack_continent"]),
            "to": w.named("continent", b["defence_continent"])}


def strike_banner(w: Words, s) -> str:
    if s.winner is not None:
        return w("strike.won", player=w.who(s.winner))
    win, b = s.window, s.battle
    what = w("strike.window", kind=w.named("strike.window_kind", win["kind"])) if win \
        else w.named("strike.phase", s.phase)
    if b:
        what = f"{w('strike.battle_short', **battle_words(w, b))}, {what}"
    return w("strike.banner", turn=s.turn, player=w.who(s.current_player), what=what,
             waiting=", ".join(w.who(p) for p in awaited(s)) or "–")


def strike_sentence(w: Words, s, me: str) -> str | None:
    """A Strike seat's sentence (None: a card play's line, which this test does not rebuild)."""
    win, b = s.window, s.battle
    if me not in awaited(s):
        if win and win.get("plays"):
            return None  # "waiting for X to answer: <a card play's line>"
        return w("state.waiting", player=", ".join(w.who(p) for p in awaited(s)) or "–",
                 what=w.named("strike.phase", s.phase))
    if win and b and win["kind"] == "support":
        return w("strike.you_support", **battle_words(w, b))
    if win and win.get("plays"):
        return None
    if win and b and win["kind"] == "rolled" and b.get("dice"):
        dice = b["dice"]
        return w("strike.you_rolled", **battle_words(w, b), a=" ".join(map(str, dice["attacker"])),
                 d=" ".join(map(str, dice["defender"])))
    if win and b and win["kind"] == "deployed":
        side = [x["side"] for x in b.get("troops") or []]
        return w("strike.you_deployed", **battle_words(w, b), a=side.count("attacker"),
                 d=side.count("defender"))
    if win:
        return w("strike.you_window", kind=w.named("strike.window_kind", win["kind"]))
    if b and b["step"] in ("attacker_deploy", "defender_deploy"):
        key = {"attacker_deploy": "strike.you_attack_deploy",
               "defender_deploy": "strike.you_defend_deploy"}[b["step"]]
        return w(key, **battle_words(w, b))
    if b and b["step"] == "ready":
        side = [x["side"] for x in b.get("troops") or []]
        a = min(3, s.cards_of(b["attacker"], b["attack_continent"]) + side.count("attacker"))
        d = min(2, s.cards_of(b["defender"], b["defence_continent"]) + side.count("defender"))
        return w("strike.you_ready", **battle_words(w, b), a=a, d=d)
    return w("strike.your_turn", what=w.named("strike.phase", s.phase))


# ----- the pages ----------------------------------------------------------------------------
def serve(table, data_dir) -> tuple[Any, dict[str, str]]:
    """The table's service behind an app of its own that lets one address (this test's
    browser) keep every page's stream open (the real app allows 3 per address) and read at
    will; the server and a token per seat."""
    app = create_app(table.app.extensions["riskboard"].table, host_pin=PIN, data_dir=data_dir,
                     command_rate=(1000.0, 1000), join_rate=(1000.0, 1000),
                     read_rate=(1000.0, 1000), streams_per_client=16)
    tokens = app.extensions["riskboard"].seats.issue_all(list(table.state().players))
    return start_background(app), tokens


def open_pages(stack: ExitStack, browser, server, tokens, lang: str) -> dict[str, Any]:
    """My view of every seat, the table view and /virtual in `lang`, each in its own
    browser context: {seat or "table" or "virtual": page}."""
    def page(url: str, ready: str):
        return page_in_language(stack, browser, f"{server.url}{url}", ready, lang, SMALL)

    pages = {p: page(f"/me#t={token}", "#state-sentence[data-ready]")
             for p, token in tokens.items()}
    pages["table"] = page("/", "#conn.ok")
    pages["virtual"] = page("/virtual", "#conn.ok")
    return pages


DIAG = "[document.getElementById('conn').className, Number(document.body.dataset.seq)]"


def said(page, selector: str) -> str:
    """What `selector` says now: its text in the document, read at once (Playwright's
    `inner_text` waits for the page's next frames, and timed out on the very page whose
    wait had just failed)."""
    return page.evaluate("s => { const n = document.querySelector(s);"
                         " return n ? n.textContent : '(no ' + s + ')'; }", selector)


def lag(page, table) -> str:
    """Where a page that did not say what it should stands against the table: the last
    stream message it rendered (`body[data-seq]`), again 5 s later, and the table's
    revision (a page still working through a backlog moves on; a stuck one does not)."""
    conn, seq = page.evaluate(DIAG)
    page.wait_for_timeout(5000)
    _, later = page.evaluate(DIAG)
    return (f"[conn {conn!r}: the page rendered seq {seq}, {later} 5 s later; "
            f"the table is at seq {table.loop.publisher.snapshot.revision}]")


def table_says(table, w: Words, viewer: Viewer) -> dict[str, list[str]]:
    """The table's own sentences for `viewer` (`table.waits.says`), in `w`'s language."""
    says = table.app.extensions["riskboard"].table.view(viewer)["table"]["waits"]["says"]
    return {k: [words_of(w.lang, x) for x in v] for k, v in says.items()
            if isinstance(v, list)}


def check(pages: dict[str, Any], w: Words, s, name: str, table) -> None:
    """Every page says the engine's pending decision `s`."""
    ready = [s.winner] if s.winner is not None else awaited(s)
    seat = ready[0]
    out = getattr(s, "eliminated", [])  # an eliminated seat's phone says so, not the decision
    others = [p for p in s.players if p not in ready and p not in out]
    for me in [seat, *others[:1]]:
        own = table_says(table, w, Viewer("player", me))["seat"]
        try:
            wait_text(pages[me], "#state-sentence", *own)
        except Exception as e:
            raise AssertionError(f"{name}: My view of {me} does not say the table's {own!r}: "
                                 f"{said(pages[me], '#state-sentence')!r}") from e
        sentence = my_sentence(w, s, me)
        if sentence is not None:
            try:
                wait_text(pages[me], "#state-sentence", sentence)
            except Exception as e:
                raise AssertionError(f"{name}: My view of {me} does not say {sentence!r}: "
                                     f"{said(pages[me], '#state-sentence')!r} "
                                     f"{lag(pages[me], table)}") from e
    public = table_says(table, w, Viewer("spectator"))
    for where, selector, parts in (("table", "#banner", banner_parts(w, s) + public["banner"]),
                                   ("virtual", "#v-state", virtual_parts(w, s) + public["line"])):
        try:
            wait_text(pages[where], selector, *parts)
        except Exception as e:
            raise AssertionError(f"{name}: the {where} page does not say {parts!r}: "
                                 f"{said(pages[where], selector)!r} "
                                 f"{lag(pages[where], table)}") from e


def steering(s, seen: list[str]) -> bool:
    """An attack the bots would play on, where this test steers toward a defence, then a
    fortify, not yet seen (the bots rarely stop there on their own)."""
    return (s.variant != "strike" and s.winner is None and not s.pending
            and s.phase == "attack" and not {"defend", "fortify"} <= set(seen))


def steer(table, seen: list[str]) -> None:
    """See `steering`."""
    s = table.state()
    if not steering(s, seen):
        return
    if "defend" not in seen:
        try:
            table.attack_until("defend")
        except AssertionError:  # the game ended (GameOver) or no defence came: go on
            pass
    elif "fortify" not in seen:
        table.play(s.current_player, {"type": "end_attack"})


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_page_says_the_engines_pending_decision(tables, chromium, tmp_path, variant):
    players, other, rules, wanted = VARIANTS[variant]
    table = tables(NewGameSpec(variant, players, rules))
    seen: list[str] = []
    with ExitStack() as stack:
        langs = {}
        for lang in ("en", other):
            # a server per language: a seat (and the host) keeps one stream per app
            server, tokens = serve(table, tmp_path / lang)
            stack.callback(server.stop)
            langs[lang] = (Words(lang), open_pages(stack, chromium[1], server, tokens, lang))
        for _ in range(len(wanted) * 10 + 40):
            if {*wanted, "won"} <= set(seen):
                break
            try:
                table.bot_until(lambda s: decision(s) not in seen or steering(s, seen), limit=3000)
            except GameOver:
                break
            state = table.state()
            if decision(state) in seen:
                steer(table, seen)
                continue
            name = f"{variant}:{decision(state)}"
            seen.append(decision(state))
            for lang, (words, pages) in langs.items():
                check(pages, words, state, f"{name} in {lang}", table)
            shot(langs[other][1][(awaited(state) or [state.winner])[0]],
                 f"state-{variant}-{seen[-1]}-{other}")
            if state.winner is not None:
                break
            steer(table, seen)
    (ARTIFACTS / f"state-sentence-{variant}.json").write_text(json.dumps(seen), "utf-8")
    missing = [d for d in (*wanted, "won") if d not in seen]
    assert missing == [], f"{variant}: the bots never brought {missing} (saw {seen})"
