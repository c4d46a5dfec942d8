"""The terminal walk-through of `riskboard bringup` (see pi_app/cli/bringup.py).

The table runs here (`build_rig`) and the bring-up desk is driven as the host page drives
it: a watcher thread prints every change (the prompt, the power notice, each sensor event
with its channel and territory, a refusal), and the main thread reads one answer a line.
Words come from the English catalogue (pi_app/web/i18n/en.json), as on the page.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sys
import threading
import time
from importlib import resources
from typing import Any, TextIO

ANSWERS = {
    "y": ("confirm", None), "yes": ("confirm", None), "confirm": ("confirm", None),
    "r": ("colour", "R"), "g": ("colour", "G"), "b": ("colour", "B"),
    "+": ("more", None), "more": ("more", None), "-": ("less", None), "less": ("less", None),
    "done": ("done", None), "skip": ("skip", None), "next": ("next", None),
    "u": ("undo", None), "undo": ("undo", None),
    "free": ("order", "free"), "map": ("order", "map"),
}
HELP = """answers: y (yes / confirm), count N, r g b (the colour you see), pick TERRITORY,
status GROUP (turn, phase, attack_dice, defence_dice), + / - (one LED more / less), done,
skip, next, free / map (sensor order), u (undo), diff, save, quit"""
CONNECT_S = 15.0


def _words() -> dict[str, str]:
    text = resources.files("pi_app.web").joinpath("i18n/en.json").read_text("utf-8")
    return dict(json.loads(text))


class Terminal:
    """Prints the bring-up's changes and turns typed lines into answers."""

    def __init__(self, desk: Any, out: TextIO = sys.stdout) -> None:
        self.desk, self.out = desk, out
        self.words = _words()
        self._shown: tuple[Any, ...] = ()
        self._heard = 0
        self._refusal = 0
        self._stop = threading.Event()

    def say(self, key: str, params: dict[str, Any] | None = None) -> str:
        """One catalogue sentence filled with its parameters (names in words)."""
        p = dict(params or {})
        for name in ("territory", "owner"):
            if name in p and f"territory.{p[name]}" in self.words:
                p[name] = self.words[f"territory.{p[name]}"]
        if "control" in p:
            p["control"] = self.words.get(f"bringup.control.{p['control']}", p["control"])
        if "colour" in p:
            p["colour"] = self.words.get(f"colour.{p['colour']}", p["colour"])
        if isinstance(p.get("territories"), list):
            p["territories"] = ", ".join(self.words.get(f"territory.{t}", t)
                                         for t in p["territories"])
        text = self.words.get(key, key)
        return re.sub(r"\{(\w+)\}", lambda m: str(p.get(m.group(1), m.group(0))), text)

    def show(self, state: dict[str, Any]) -> None:
        """Print what changed since the last call."""
        if not state.get("active"):
            return
        fresh = state["heard"] - self._heard
        self._heard = state["heard"]
        for event in state["log"][len(state["log"]) - min(fresh, len(state["log"])):]:
            where = self.words.get(f"territory.{event['territory']}", "") \
                if event["territory"] else "(not mapped)"
            print(f"  · {event['what']:<11} channel {event['channel']:>3} {where}",
                  file=self.out)
        refusal = state.get("refusal")
        if refusal and refusal["at"] > self._refusal:
            self._refusal = refusal["at"]
            print("  ! " + self.say(f"bringup.refused.{refusal['code']}", refusal["params"]),
                  file=self.out)
        shown = (state["step"], state["prompt"]["key"], json.dumps(state["prompt"]["params"]))
        if shown != self._shown:
            self._shown = shown
            progress = state["progress"]
            print(f"\n[{progress['index'] + 1}/{len(progress['steps'])} {state['step']}] "
                  + self.say(state["prompt"]["key"], state["prompt"]["params"]), file=self.out)
            if state.get("notice"):
                print("  " + self.say(state["notice"]["key"], state["notice"]["params"]),
                      file=self.out)
        self.out.flush()

    def watch(self) -> None:
        """The watcher thread: print each change until `stop`."""
        revision = -1
        while not self._stop.is_set():
            revision = self.desk.wait(revision, 0.5)
            try:
                self.show(self.desk.state())
            except Exception as exc:  # a print must never end the walk-through
                print(f"  ({exc})", file=self.out)

    def stop(self) -> None:
        """End the watcher."""
        self._stop.set()

    def handle(self, line: str) -> bool:
        """One typed line; False when the maker is finished (saved or quit)."""
        from pi_app.table.bringup_desk import BringUpRefused

        words = line.strip().split()
        if not words:
            return True
        head, rest = words[0].lower(), " ".join(words[1:])
        try:
            if head in ("quit", "exit", "stop"):
                self.desk.stop()
                print("Stopped without saving.", file=self.out)
                return False
            if head in ("help", "?"):
                print(HELP, file=self.out)
            elif head == "diff":
                preview = self.desk.preview()
                print(preview["diff"] or "(no change)", file=self.out)
                print(self.say("bringup.page.crc", {"crc": preview["sensor_crc"],
                                                    "count": preview["sensor_count"]}),
                      file=self.out)
            elif head == "save":
                preview = self.desk.preview()
                print(preview["diff"] or "(no change)", file=self.out)
                saved = self.desk.save(pico_later=not preview["crc_matches"])["last_saved"]
                print(self.say("bringup.page.saved_backup" if saved["backup"]
                               else "bringup.page.saved",
                               {"path": saved["path"], "backup": saved["backup"],
                                "crc": saved["sensor_crc"]}), file=self.out)
                if not preview["crc_matches"]:
                    print(self.say("bringup.page.crc_differs", {
                        "pico": preview["pico_crc"], "crc": preview["sensor_crc"]}),
                        file=self.out)
                return False
            elif head == "count":
                self.desk.answer("count", int(rest))
            elif head in ("pick", "status"):
                self.desk.answer(head, self._territory(rest) if head == "pick" else rest)
            elif head in ANSWERS:
                self.desk.answer(*ANSWERS[head])
            else:
                print(f"?  {HELP}", file=self.out)
        except BringUpRefused as exc:
            print("  ! " + self.say(f"bringup.refused.{exc.code}", exc.params), file=self.out)
        except ValueError:
            print("  ! count takes a number", file=self.out)
        return True

    def _territory(self, text: str) -> str:
        """A territory id from its id or its English name (any case)."""
        wanted = text.strip().lower()
        for key, name in self.words.items():
            if key.startswith("territory.") and name.lower() == wanted:
                return key.split(".", 1)[1]
        return wanted.replace(" ", "-")


def walk_through(args: Any, stdin: TextIO = sys.stdin, out: TextIO = sys.stdout,
                 on_start: Any = None) -> int:
    """Run the table, bring the board up from the terminal; 0 once saved or stopped.
    `on_start(rig)` is called once the bring-up runs (tests reach the virtual board)."""
    from hardware.errors import ProfileError
    from pi_app.cli.serve import config_path
    from pi_app.config import ConfigError, load_config
    from pi_app.table.rig import build_rig

    try:
        config = load_config(config_path(args.config))
        if args.profile:
            config = dataclasses.replace(
                config, board=dataclasses.replace(config.board, profile=args.profile))
        if args.miswired:
            config = dataclasses.replace(
                config, board=dataclasses.replace(config.board, miswired=args.miswired))
        rig = build_rig(config, sim=args.sim, data_dir=args.data)
    except (ConfigError, ProfileError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    desk = rig.service.bringup
    assert desk is not None, "build_rig gives every table a bring-up desk"
    rig.start()
    terminal = Terminal(desk, out)
    try:
        deadline = time.monotonic() + CONNECT_S
        while not rig.link.connected and time.monotonic() < deadline:
            time.sleep(0.1)
        desk.start(args.pace)
        if not rig.link.connected:
            print(f"The Pico does not answer on {rig.link.port} yet: is it plugged in, and "
                  "is the service stopped (sudo systemctl stop riskboard)? Touches show "
                  "below as soon as it answers.", file=out)
        print(f"Bring-up of {rig.profile.name}. {HELP}", file=out)
        watcher = threading.Thread(target=terminal.watch, name="bringup-terminal", daemon=True)
        watcher.start()
        if on_start is not None:
            on_start(rig)
        for line in stdin:
            if not terminal.handle(line):
                break
        else:
            if desk.mode is not None:
                desk.stop()
        return 0
    except Exception as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        terminal.stop()
        rig.stop()
