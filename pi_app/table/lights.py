"""State to LED frame: a pure function of the table's scene and the time.

`render(scene, leds, palette, t)` paints every territory from scratch: its owner's colour
and pattern, then (in rising priority) the turn pulse, board-tracking mismatches, the
gesture highlight (selection, attack source and target), dice results, a conquest flash,
an error blink and finally the winner's celebration. Nothing is ever mutated piecemeal:
the table loop swaps in a new immutable `Scene` and the frame thread (`painter.py`) calls
`render` when the frame can change (`motion`, at the end of this module: a blink's edges,
an effect's start and end, a swell's steps), pushing only frames that changed.

Visual language (documented for players in GESTURES.md):
- owned territory: owner's colour at half brightness, with the owner's pattern;
- unclaimed territory (claim phase): breathing slowly in the colour of the player who
  claims next, dim (never below the visible floor, see below);
- turn start: the new player's territories swell to full brightness once (1.2 s);
- whose turn: the current player's territories keep swelling gently above half
  brightness (1.5 s in every 4 s), all game long; brightness, not hue, so it reads for
  colour-blind players too;
- selected / attack or fortify source: full brightness; the chosen number of attack dice
  as that many short dips every 1.5 s;
- attack target: alternates between defender's and attacker's colour (2.5 Hz);
  fortify or move-in destination: mover's colour, bright, dipping once per army that would
  move (2.5 Hz, then a 1.2 s pause: the count you are setting);
- a computer's held step (its moves to copy onto the board): each territory it changed in
  its owner's colour, dipping once per army of that colour the step put there (like a
  move-in destination), or blinking bright and dim where it only took pieces away;
- defence prompt: the attacked territory pulses in the defender's colour (a slow swell,
  with one dip per defence die chosen), the turn LED takes the defender's colour;
- a +1 / -1 already at its limit: two white blinks on that territory;
- dice results: for 2 s each territory in the battle blinks white once per army it lost
  (a territory that lost nothing shines steadily at full brightness);
- conquest: 1 s of white/new-owner flashes (2.5 Hz: three flashes);
- refused touch: 1 s of error-red blinks (2.5 Hz: three flashes);
- mismatch with the pieces on the board: wrong colour alternates the expected and seen
  colours (1 Hz); missing marker blinks the expected colour slowly (short on, long off);
  unknown tag triple-flashes white every 1.5 s;
- Capital headquarters (only once revealed): full brightness of the holder's colour with a
  short white "crown" blink every 2 s;
- RISK Strike: every territory in its continent's coin holder's colour (unlit while the coin
  is in the pile); the attacking continent shines in the attacker's colour, the defending
  continent alternates attacker's and defender's colours (2.5 Hz);
- victory: a wave of the winner's colour sweeping round the whole board with white sparks;
- a game the host ended: each territory in its owner's colour, no one's turn swelling, the
  turn and phase LEDs dark: nothing is awaited any more.

Photosensitivity: nothing flashes more than three times in any one second (WCAG 2.3.1, the
general and the red flash thresholds), so every blink, strobe and alternation here runs at
`MAX_FLASH_HZ` (3 Hz) or slower, and the two strongest (error red, conquest white) at
`FLASH_HZ` (2.5 Hz).

Visible floor: the LEDs get these colours through gamma and global brightness
(`hardware.output_stage`), which crush low levels: at brightness 0.5 and gamma 2.2 a
requested 60 comes out as 5 of 255, invisible beside lit neighbours. `render(..., floor=)`
takes the lowest requested level that still comes out at `MIN_VISIBLE_OUTPUT`
(`visible_floor(gamma, brightness)`, which the painter computes from its strip) and lifts
the dim states that must stay readable to it: the unclaimed breath, the dice dips, the dim
phase of a fortify/move-in target and of a battle's dice show, a breathing player's trough,
the dice status LEDs and the celebration's wave. A dim state never rises above
`DIM_CAP` of its full colour, so it stays a dim state. Intentional darkness (the off phase
of a blink, a missing marker, a double-blink dip) stays dark. The power budget may still
scale a whole very bright frame down.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from hardware.output_stage import gamma_table
from pi_app.table.palette import RGB, Palette, pattern_level
from pi_app.table.swells import CLAIM_BREATH, PATTERN_BREATH, Swell

OFF: RGB = (0, 0, 0)
WHITE: RGB = (255, 255, 255)
ERROR_RED: RGB = (255, 0, 24)

BASE_LEVEL = 0.5
TURN_PULSE_S = 1.2
CONQUEST_S = 1.0
ERROR_S = 1.0
DICE_S = 2.0
LIMIT_S = 0.8
TURN_CUE_CYCLE_S = 4.0  # the current player's gentle swell: once every 4 s ...
TURN_CUE_S = 1.5  # ... lasting 1.5 s ...
TURN_CUE_LEVEL = 0.85  # ... up to this brightness
TURN_CUE = Swell(TURN_CUE_S)  # sin² of the cue's phase: a raised cosine as long as the cue
COUNT_PULSE_S = 0.4  # one dip per counted army: 2.5 Hz
COUNT_PAUSE_S = 1.2  # then a steady pause, so the count can be read again
HQ_CYCLE_S = 2.0
HQ_CROWN_S = 0.2

MISMATCH_KINDS = ("wrong_colour", "missing", "unknown_tag")

MAX_FLASH_HZ = 3.0  # WCAG 2.3.1: at most three flashes in any one second
FLASH_HZ = 2.5  # the error strobe and the conquest flash: three flashes in their second
TARGET_HZ = 2.5  # an attack / fortify target alternating its two looks
MIN_VISIBLE_OUTPUT = 12  # of 255 after the output stage: readable in a lit room
DIM_CAP = 0.6  # a lifted dim state stays at most this fraction of its full colour
CLAIM_GREY = 60  # the unclaimed breath's peak grey when the floor does not lift it


def visible_floor(gamma: float, brightness: float,
                  min_output: int = MIN_VISIBLE_OUTPUT) -> int:
    """The lowest requested channel level the output stage turns into at least
    `min_output` (255 when even full level stays below it)."""
    table = gamma_table(gamma, brightness)
    return next((v for v in range(256) if table[v] >= min_output), 255)


def _frozen(mapping: Mapping | None) -> Mapping:
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True)
class LedMap:
    """Which LEDs belong to which territory, the named status LEDs, and the strip length.

    Status LEDs a profile may name: `turn` (current player's colour), `phase` (reinforce,
    attack, fortify), `attack_dice` and `defence_dice` (the last battle of the turn, in RISK
    Strike from the roll on, while its reaction window is open: each die lit in the colour
    of who wins its comparison, brighter for a higher face).
    """

    count: int
    territories: Mapping[str, tuple[int, ...]]
    status: Mapping[str, tuple[int, ...]] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def build(cls, count: int, territories: Mapping[str, object],
              status: Mapping[str, object] | None = None) -> LedMap:
        """Check every index is on the strip and freeze the mappings."""

        def check(name: str, indices: object) -> tuple[int, ...]:
            seq = (indices,) if isinstance(indices, int) else tuple(indices)  # type: ignore[arg-type]
            for i in seq:
                if not 0 <= i < count:
                    raise ValueError(f"LED {i} of {name} is outside a strip of {count}")
            return seq

        return cls(count, MappingProxyType({t: check(t, i) for t, i in territories.items()}),
                   MappingProxyType({n: check(n, i) for n, i in (status or {}).items()}))

    @classmethod
    def from_profile(cls, profile: object) -> LedMap:
        """The LED map of a `hardware.profiles.BoardProfile`."""
        return cls.build(profile.led_count, profile.territory_leds,  # type: ignore[attr-defined]
                         profile.status_leds)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Highlight:
    """What the gestures have selected so far (nothing of it is game state)."""

    selected: str | None = None
    source: str | None = None
    target: str | None = None
    mode: str = "attack"  # "attack" | "fortify" | "move" | "defend" | "copy"
    dice: int | None = None
    dice_on: str | None = None  # the territory showing `dice` as short dips
    mover: str | None = None
    source_area: tuple[str, ...] = ()  # RISK Strike: the attacking continent's territories
    target_area: tuple[str, ...] = ()  # ... and the defending continent's
    defender: str | None = None
    count: int | None = None  # armies to move in / fortify: the destination dips that often
    # a computer's held step: each territory to copy, with the armies of its owner's colour
    # the step put there (0: it only took pieces away)
    copy: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class TurnPulse:
    """A player's territories swell once when their turn begins."""

    player: str
    start: float


@dataclass(frozen=True)
class ConquestFlash:
    """A territory just changed hands."""

    territory: str
    start: float


@dataclass(frozen=True)
class ErrorBlink:
    """A touch on this territory was refused."""

    territory: str
    start: float


@dataclass(frozen=True)
class LimitBlink:
    """A +1 or -1 touch on this territory was already at its limit: nothing changed."""

    territory: str
    start: float


@dataclass(frozen=True)
class DiceShow:
    """One battle's result on a territory in play: its dice and the armies it lost."""

    territory: str
    dice: tuple[int, ...]
    losses: int
    start: float


Effect = TurnPulse | ConquestFlash | ErrorBlink | DiceShow | LimitBlink
EFFECT_SECONDS: Mapping[type, float] = MappingProxyType(
    {TurnPulse: TURN_PULSE_S, ConquestFlash: CONQUEST_S, ErrorBlink: ERROR_S, DiceShow: DICE_S,
     LimitBlink: LIMIT_S}
)


def effect_alive(effect: Effect, t: float) -> bool:
    """True while an effect still changes the picture at time `t`."""
    return t < effect.start + EFFECT_SECONDS[type(effect)]


@dataclass(frozen=True)
class Mismatch:
    """A territory whose pieces disagree with the game: kind, expected colour, seen colour."""

    kind: str
    expected: str | None
    seen: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        """JSON form for status pages."""
        return {"kind": self.kind, "expected": self.expected, "seen": self.seen}


@dataclass(frozen=True)
class Battle:
    """The last roll of the turn, for the dice LEDs: faces and the two sides' colours."""

    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    attacker: str | None
    defender: str | None


@dataclass(frozen=True)
class Scene:
    """Everything the lights show, frozen: owners, turn, highlight, effects, mismatches.

    `awaiting`: whose decision the game waits for when it is not the current player's
    (the defender choosing dice): the turn LED shows them."""

    owners: Mapping[str, str | None] = field(default_factory=lambda: MappingProxyType({}))
    current_player: str | None = None
    awaiting: str | None = None
    phase: str | None = None
    claiming: bool = False
    last_battle: Battle | None = None
    winner: str | None = None
    winner_since: float = 0.0
    highlight: Highlight = Highlight()
    effects: tuple[Effect, ...] = ()
    mismatches: Mapping[str, Mismatch] = field(default_factory=lambda: MappingProxyType({}))
    hq: frozenset[str] = frozenset()  # Capital HQ territories; empty until revealed

    @classmethod
    def build(
        cls,
        owners: Mapping[str, str | None],
        current_player: str | None = None,
        *,
        phase: str | None = None,
        claiming: bool = False,
        last_battle: Battle | None = None,
        winner: str | None = None,
        winner_since: float = 0.0,
        highlight: Highlight | None = None,
        effects: tuple[Effect, ...] = (),
        mismatches: Mapping[str, Mismatch] | None = None,
        hq: frozenset[str] | set[str] = frozenset(),
        awaiting: str | None = None,
    ) -> Scene:
        """Build a scene with frozen copies of the mappings."""
        return cls(
            owners=_frozen(owners),
            current_player=current_player,
            awaiting=awaiting,
            phase=phase,
            claiming=claiming,
            last_battle=last_battle,
            winner=winner,
            winner_since=winner_since,
            highlight=highlight or Highlight(),
            effects=effects,
            mismatches=_frozen(mismatches),
            hq=frozenset(hq),
        )


def _scale(rgb: RGB, level: float) -> RGB:
    level = 0.0 if level < 0 else 1.0 if level > 1 else level
    return (round(rgb[0] * level), round(rgb[1] * level), round(rgb[2] * level))


def _dim(rgb: RGB, level: float, floor: int) -> RGB:
    """`rgb` at `level`, lifted so its brightest channel reaches `floor` (at most
    `DIM_CAP` of the full colour): a dim state that stays visible on the LEDs."""
    top = max(rgb)
    if top > 0 and top * level < floor:
        level = max(level, min(DIM_CAP, floor / top))
    return _scale(rgb, level)


def _square(t: float, hz: float, duty: float = 0.5) -> bool:
    """True during the 'on' part of a square wave of `hz` starting at t = 0."""
    return (t * hz) % 1.0 < duty


def _base(scene: Scene, territory: str, palette: Palette, t: float, floor: int) -> RGB:
    owner = scene.owners.get(territory)
    if owner is None:
        if scene.claiming:
            breath = CLAIM_BREATH.level(t)
            if scene.current_player is None:
                low: float = max(floor, CLAIM_GREY // 3)
                high: float = min(255, max(CLAIM_GREY, round(low * 1.6)))
                grey = round(low + (high - low) * breath)
                return (grey, grey, grey)
            # in the colour of who claims next, dim; the breath rides above the visible
            # floor (lifting each level to it would flatten the breath away)
            rgb = palette.rgb(scene.current_player)
            top = max(rgb) or 1
            low = max(0.08, floor / top)
            high = max(low, min(DIM_CAP, max(0.3, low * 1.6)))
            return _scale(rgb, low + (high - low) * breath)
        return OFF
    look = palette.look(owner)
    level = pattern_level(look.pattern, t)
    if look.pattern == "double_blink" and level < 1.0:
        return _scale(look.rgb, BASE_LEVEL * level)  # the dip is meant to go dark
    cue = turn_cue(t) if owner == scene.current_player and scene.phase else 0.0
    return _dim(look.rgb, max(BASE_LEVEL * level, BASE_LEVEL + (TURN_CUE_LEVEL - BASE_LEVEL)
                              * cue), floor)


def turn_cue(t: float) -> float:
    """0..1: the current player's gentle swell (a smooth rise and fall, `TURN_CUE_S` long,
    once every `TURN_CUE_CYCLE_S`); 0 between swells."""
    phase = t % TURN_CUE_CYCLE_S
    return TURN_CUE.level(phase) if phase < TURN_CUE_S else 0.0


def _count_dips(rgb: RGB, count: int, t: float, floor: int) -> RGB:
    """`rgb`, dipping `count` times (2.5 Hz), then steady for `COUNT_PAUSE_S`, round again."""
    cycle = count * COUNT_PULSE_S + COUNT_PAUSE_S
    phase = t % cycle
    dip = phase < count * COUNT_PULSE_S and (phase % COUNT_PULSE_S) < 0.15
    return _dim(rgb, 0.2, floor) if dip else rgb


def _mismatch(m: Mismatch, palette: Palette, t: float, under: RGB) -> RGB:
    expected = palette.rgb(m.expected) if m.expected else (60, 60, 60)
    if m.kind == "wrong_colour":
        seen = palette.rgb(m.seen) if m.seen else OFF
        return expected if _square(t, 1.0) else seen
    if m.kind == "missing":
        return expected if _square(t, 1.0, 0.3) else OFF
    # unknown tag: three short white flashes, then a pause
    phase = t % 1.5
    if phase < 0.6 and (phase % 0.2) < 0.1:
        return WHITE
    return under


def _highlight(scene: Scene, territory: str, palette: Palette, t: float, floor: int
               ) -> RGB | None:
    h = scene.highlight
    owner_rgb = palette.rgb(scene.owners.get(territory))
    if h.dice and territory == h.dice_on:
        # `dice` short dips at the start of every 1.5 s cycle (at most 3 in any second)
        phase = t % 1.5
        dip = phase < h.dice * 0.24 and (phase % 0.24) < 0.1
        if dip:
            return _dim(owner_rgb, 0.2, floor)
        if h.mode == "defend":  # the defender's prompt: a slow swell between the dips
            swell = 0.5 - 0.5 * math.cos(2 * math.pi * max(0.0, phase - 0.72) / 0.78)
            return _dim(owner_rgb, 0.55 + 0.45 * swell, floor)
        return owner_rgb
    if territory == h.source or (territory == h.selected and territory != h.target):
        return owner_rgb
    if territory == h.target:
        mover = h.mover or (scene.owners.get(h.source) if h.source else None)
        if h.mode in ("attack", "defend"):
            return owner_rgb if _square(t, TARGET_HZ) else palette.rgb(mover)
        if h.count:
            return _count_dips(palette.rgb(mover), h.count, t, floor)
        return palette.rgb(mover) if _square(t, TARGET_HZ) else \
            _dim(palette.rgb(mover), 0.25, floor)
    return None


def _to_copy(rgb: RGB, added: int, t: float, floor: int) -> RGB:
    """A territory of a computer's held step, in its owner's colour: one dip per army the
    step put there, else blinking (pieces to take away)."""
    if added:
        return _count_dips(rgb, added, t, floor)
    return rgb if _square(t, TARGET_HZ) else _dim(rgb, 0.25, floor)


def _areas(h: Highlight, palette: Palette, t: float, colours: dict[str, RGB]) -> None:
    """RISK Strike's battle: attacking continent lit, defending continent flickering."""
    mover = palette.rgb(h.mover)
    for territory in h.source_area:
        if territory in colours:
            colours[territory] = mover
    if h.target_area:
        lit = mover if _square(t, TARGET_HZ) else palette.rgb(h.defender)
        for territory in h.target_area:
            if territory in colours:
                colours[territory] = lit


TerritoryEffect = ConquestFlash | ErrorBlink | DiceShow | LimitBlink


def _effect(effect: TerritoryEffect, scene: Scene, palette: Palette, t: float, floor: int
            ) -> RGB:
    age = t - effect.start
    if isinstance(effect, ErrorBlink):
        return ERROR_RED if _square(age, FLASH_HZ) else OFF
    if isinstance(effect, LimitBlink):
        return WHITE if _square(age, FLASH_HZ, 0.4) else OFF
    owner_rgb = palette.rgb(scene.owners.get(effect.territory))
    if isinstance(effect, ConquestFlash):
        return WHITE if _square(age, FLASH_HZ) else owner_rgb
    if effect.losses == 0:
        return owner_rgb
    # one white blink per army lost (a roll loses at most 3: at most 3 in any second)
    if int(age / 0.3) < effect.losses and (age % 0.3) < 0.15:
        return WHITE
    return _dim(owner_rgb, 0.25, floor)


def _colours(scene: Scene, territories: Iterable[str], palette: Palette, t: float, floor: int
             ) -> dict[str, RGB]:
    """The colour of each of `territories` at `t`: its owner's look, then every layer over it
    (turn pulse, HQ crown, Strike's continents, mismatches, the highlight, the effects)."""
    colours: dict[str, RGB] = {}
    base_of: dict[str | None, RGB] = {}  # the base look depends on the owner alone
    owners = scene.owners
    for territory in territories:
        owner = owners.get(territory)
        rgb = base_of.get(owner)
        if rgb is None:
            rgb = base_of[owner] = _base(scene, territory, palette, t, floor)
        colours[territory] = rgb
    for effect in scene.effects:
        if isinstance(effect, TurnPulse) and effect_alive(effect, t):
            swell = math.sin(math.pi * (t - effect.start) / TURN_PULSE_S)
            look = palette.look(effect.player)
            level = BASE_LEVEL + (1 - BASE_LEVEL) * swell
            for territory, owner in scene.owners.items():
                if owner == effect.player and territory in colours:
                    colours[territory] = _dim(look.rgb, level, floor)
    for territory in scene.hq:
        if territory in colours and (t % HQ_CYCLE_S) >= HQ_CROWN_S:
            colours[territory] = palette.rgb(scene.owners.get(territory))
        elif territory in colours:
            colours[territory] = WHITE
    _areas(scene.highlight, palette, t, colours)
    for territory, mismatch in scene.mismatches.items():
        if territory in colours:
            colours[territory] = _mismatch(mismatch, palette, t, colours[territory])
    for territory, added in scene.highlight.copy:
        if territory in colours:
            colours[territory] = _to_copy(palette.rgb(scene.owners.get(territory)), added, t,
                                          floor)
    for marked in (scene.highlight.selected, scene.highlight.source, scene.highlight.target):
        if marked in colours:
            lit = _highlight(scene, marked, palette, t, floor)
            if lit is not None:
                colours[marked] = lit
    # Later effects win; errors always sit on top of anything else on their territory.
    ordered: list[TerritoryEffect] = sorted(
        (e for e in scene.effects if not isinstance(e, TurnPulse) and effect_alive(e, t)),
        key=lambda e: (isinstance(e, ErrorBlink), e.start),
    )
    for effect in ordered:
        if effect.territory in colours:
            colours[effect.territory] = _effect(effect, scene, palette, t, floor)
    return colours


def render(scene: Scene, leds: LedMap, palette: Palette, t: float, floor: int = 0
           ) -> tuple[RGB, ...]:
    """The LED frame of `scene` at time `t` (seconds, same clock as the effects' starts);
    `floor` lifts the dim states to a level the LEDs still show (see `visible_floor`)."""
    frame: list[RGB] = [OFF] * leds.count
    if scene.winner is not None:
        return _celebration(scene.winner, leds, palette, t - scene.winner_since, floor)
    colours = _colours(scene, leds.territories, palette, t, floor)
    for territory, indices in leds.territories.items():
        rgb = colours[territory]
        for i in indices:
            frame[i] = rgb
    if leds.status:
        _status_leds(scene, leds, palette, frame, floor, t)
    return tuple(frame)


def repaint(scene: Scene, leds: LedMap, palette: Palette, t: float, floor: int,
            previous: tuple[RGB, ...], moving: Iterable[str]) -> tuple[RGB, ...]:
    """`render(scene, leds, palette, t, floor)` from `previous`, the scene's frame at an
    earlier time with no edge, start or end between (`Motion.due`): only the territories
    `moving` (every one `Motion.territories` named since) and the status LEDs are drawn
    again, the rest is as it was. What the frame thread does between a swell's steps."""
    if scene.winner is not None:
        return render(scene, leds, palette, t, floor)
    frame = list(previous)
    where = leds.territories
    again = [m for m in moving if m in where]
    if again:
        for territory, rgb in _colours(scene, again, palette, t, floor).items():
            for i in where[territory]:
                frame[i] = rgb
    if leds.status:
        _status_leds(scene, leds, palette, frame, floor, t)
    return tuple(frame)


PHASE_LEDS = ("reinforce", "attack", "fortify")
# the phases that have no LED of their own light the nearest one; setup's placing phases
# breathe on the reinforce LED, so setup and a turn's reinforcement look different
PHASE_LED_OF = MappingProxyType({"claim": "reinforce", "setup_place": "reinforce",
                                 "hq_pick": "reinforce", "allied": "attack"})
SETUP_PHASES = frozenset({"claim", "setup_place", "hq_pick"})


def _status_leds(scene: Scene, leds: LedMap, palette: Palette, frame: list[RGB],
                 floor: int = 0, t: float = 0.0) -> None:
    """Turn, phase and dice LEDs beside the board (see `LedMap`): the turn LED in the
    colour of whoever must decide now (the defender during a defence prompt)."""
    player_rgb = palette.rgb(scene.current_player) if scene.current_player else OFF
    deciding = scene.awaiting or scene.current_player
    for i in leds.status.get("turn", ()):
        frame[i] = palette.rgb(deciding) if deciding else OFF
    phase = PHASE_LED_OF.get(scene.phase or "", scene.phase)
    phase_index = PHASE_LEDS.index(phase) if phase in PHASE_LEDS else -1
    phase_rgb = player_rgb
    if scene.phase in SETUP_PHASES:
        phase_rgb = _dim(player_rgb, 0.4 + 0.6 * CLAIM_BREATH.level(t), floor)
    for n, i in enumerate(leds.status.get("phase", ())):
        frame[i] = phase_rgb if n == phase_index else OFF
    battle = scene.last_battle
    if battle is None:
        return
    attack = sorted(battle.attack_dice, reverse=True)
    defence = sorted(battle.defence_dice, reverse=True)
    for side, dice, other in (("attack_dice", attack, defence), ("defence_dice", defence, attack)):
        for n, i in enumerate(leds.status.get(side, ())):
            if n >= len(dice):
                frame[i] = OFF
                continue
            if n < len(other):
                attacker_won = attack[n] > defence[n]
                winner = battle.attacker if attacker_won else battle.defender
                rgb = palette.rgb(winner)
            else:
                rgb = (90, 90, 90)  # an unpaired die decided nothing
            frame[i] = _dim(rgb, 0.25 + 0.75 * dice[n] / 6, floor)


def _celebration(winner: str, leds: LedMap, palette: Palette, age: float, floor: int = 0
                 ) -> tuple[RGB, ...]:
    """The winner's colour sweeping round the board, with white sparks hopping along."""
    rgb = palette.rgb(winner)
    n = max(leds.count, 1)
    frame: list[RGB] = []
    spark = int(age * 12) % 7
    for i in range(leds.count):
        wave = 0.5 + 0.5 * math.sin(2 * math.pi * (i / n * 3 - age * 0.8))
        frame.append(WHITE if i % 7 == spark else _dim(rgb, 0.2 + 0.8 * wave, floor))
    return tuple(frame)


# --- when the frame changes -------------------------------------------------------------------
# `render` is a pure function of the scene and the time; most of it does not move at all, the
# blinks move at their edges, and only the swells and breaths move continuously. The frame
# thread asks `next_change` when to paint again, so an idle board costs nothing and a blink is
# drawn at its edge, not at the next tick of a fixed rate; a swell is drawn when it has moved
# a step (`pi_app.table.swells`).

# A blink's edge is given a microsecond late: `render` reckons its phases its own way, and
# at the very edge the two may round to either side of it; a microsecond on, both agree.
EDGE_SLACK_S = 1e-6


def _next_edge(t: float, period: float, edges: tuple[float, ...], origin: float = 0.0
               ) -> float:
    """Just after (`EDGE_SLACK_S`) the first time after `t` of `origin + k * period + e`
    for an `e` in `edges` (sorted, each in [0, period))."""
    phase = (t - origin) % period
    base = t - phase
    for edge in edges:
        if edge > phase:
            return base + edge + EDGE_SLACK_S
    return base + period + edges[0] + EDGE_SLACK_S


def _square_edges(hz: float, duty: float = 0.5) -> tuple[float, tuple[float, float]]:
    """Period and edges of `_square(t, hz, duty)`."""
    return 1.0 / hz, (0.0, duty / hz)


@dataclass(frozen=True)
class Motion:
    """How the frame of a scene moves from a time on: `due`, the next blink's edge, an
    effect's start or end, a swell's start or end (None: none); until then, `moving`, what
    moves continuously: None,
    "swell" (the gentle swells and breaths: the turn cue, breathing territories and the
    setup's phase LED, `swells`, each drawn when it has moved a step) or "fast" (a turn's
    pulse, the defender's swell, the victory wave: drawn at the frame rate); `territories`,
    the ones that move so (`repaint` draws only them and the status LEDs again)."""

    due: float | None
    moving: str | None = None
    territories: frozenset[str] = frozenset()  # the territories moving continuously
    swells: frozenset[Swell] = frozenset()  # the gentle swells moving meanwhile

    def next_step(self, t: float) -> float | None:
        """After a frame drawn at `t`, when one of its gentle swells has moved a step (None:
        none moves)."""
        return min((swell.next_step(t) for swell in self.swells), default=None)


def next_change(scene: Scene, leds: LedMap, palette: Palette, t: float) -> float | None:
    """When `render(scene, leds, palette, ...)` may next give another frame than at `t`:
    None when never (until the scene changes), `t` itself while something moves
    continuously, else the next edge of a blink, the start or end of an effect. Never
    later than a real change; it may be earlier (the same frame is then drawn again and
    not handed to the strip)."""
    found = motion(scene, leds, palette, t)
    return t if found.moving else found.due


@dataclass(frozen=True)
class BaseMotion:
    """What of a scene's base layer (its owners' looks) moves, whatever the time:
    `breathing`, the territories that breathe (unclaimed while claiming, a breathing
    player's) and `breaths`, their curves; `double_blink`, whether a player's territories
    double-blink; `cued`, the current player's territories, which swell at every turn cue."""

    breathing: frozenset[str]
    double_blink: bool
    cued: frozenset[str]
    breaths: frozenset[Swell] = frozenset()


def base_motion(scene: Scene, leds: LedMap, palette: Palette) -> BaseMotion:
    """The `BaseMotion` of `scene` (the same all the scene long: the frame thread keeps it)."""
    breathing: set[str] = set()
    breaths: set[Swell] = set()
    cued: set[str] = set()
    double_blink = False
    cue = scene.current_player if scene.phase else None
    for territory in leds.territories:
        owner = scene.owners.get(territory)
        if owner is None:
            if scene.claiming:
                breathing.add(territory)  # the unclaimed breath
                breaths.add(CLAIM_BREATH)
            continue
        pattern = palette.look(owner).pattern
        if pattern == "breath":
            breathing.add(territory)
            breaths.add(PATTERN_BREATH)
        double_blink = double_blink or pattern == "double_blink"
        if owner == cue:
            cued.add(territory)
    return BaseMotion(frozenset(breathing), double_blink, frozenset(cued), frozenset(breaths))


def motion(scene: Scene, leds: LedMap, palette: Palette, t: float,
           base: BaseMotion | None = None) -> Motion:
    """How the frame of `scene` moves from `t` on (see `Motion`, `next_change`); `base`:
    the scene's `base_motion`, when the caller keeps it."""
    if scene.winner is not None:
        return Motion(None, "fast", frozenset(leds.territories))
    due: list[float] = []
    moving: set[str] = set()
    movers: set[str] = set()

    def square(hz: float, duty: float = 0.5, origin: float = 0.0) -> None:
        period, edges = _square_edges(hz, duty)
        due.append(_next_edge(t, period, edges, origin))

    territories = leds.territories
    base = base or base_motion(scene, leds, palette)
    swells: set[Swell] = set(base.breaths)
    if base.breathing:
        moving.add("swell")
        movers.update(base.breathing)
    if base.double_blink:
        due.append(_next_edge(t, 2.0, (0.0, 0.12, 0.24, 0.36)))
    if base.cued:  # the turn's swell, from its start to its end
        if t % TURN_CUE_CYCLE_S < TURN_CUE_S:
            moving.add("swell")
            movers.update(base.cued)
            swells.add(Swell(TURN_CUE_S, t - t % TURN_CUE_CYCLE_S))  # this cue's
        due.append(_next_edge(t, TURN_CUE_CYCLE_S, (0.0, TURN_CUE_S)))
    for effect in scene.effects:
        if effect.start > t:
            due.append(effect.start)
        elif not effect_alive(effect, t):
            continue
        due.append(effect.start + EFFECT_SECONDS[type(effect)])
        if isinstance(effect, TurnPulse):
            moving.add("fast")
            movers.update(name for name, held_by in scene.owners.items()
                          if held_by == effect.player)
            continue
        if effect.territory not in territories:
            continue
        if isinstance(effect, LimitBlink):
            square(FLASH_HZ, 0.4, effect.start)
        elif isinstance(effect, ErrorBlink | ConquestFlash):
            square(FLASH_HZ, 0.5, effect.start)
        elif effect.losses:  # a DiceShow blinking once per army lost
            due.append(_next_edge(t, 0.3, (0.0, 0.15), effect.start))
    if any(territory in territories for territory in scene.hq):
        due.append(_next_edge(t, HQ_CYCLE_S, (0.0, HQ_CROWN_S)))
    h = scene.highlight
    if h.target_area:
        square(TARGET_HZ)
    for territory, mismatch in scene.mismatches.items():
        if territory not in territories:
            continue
        if mismatch.kind == "wrong_colour":
            square(1.0)
        elif mismatch.kind == "missing":
            square(1.0, 0.3)
        else:
            due.append(_next_edge(t, 1.5, tuple(k / 10 for k in range(7))))
    if h.dice and h.dice_on is not None and h.dice_on in territories:
        if h.mode == "defend" and t % 1.5 >= 0.72:
            moving.add("fast")  # the defender's swell
            movers.add(h.dice_on)
        dips = tuple(sorted({0.0, 0.72, *(k * 0.24 for k in range(h.dice)),
                             *(k * 0.24 + 0.1 for k in range(h.dice))}))
        due.append(_next_edge(t, 1.5, tuple(e for e in dips if e < 1.5)))
    if h.target in territories:
        if h.mode in ("attack", "defend") or not h.count:
            square(TARGET_HZ)
        else:
            cycle = h.count * COUNT_PULSE_S + COUNT_PAUSE_S
            due.append(_next_edge(t, cycle, tuple(sorted(
                {0.0, *(k * COUNT_PULSE_S for k in range(h.count)),
                 *(k * COUNT_PULSE_S + 0.15 for k in range(h.count))}))))
    if leds.status.get("phase") and scene.phase in SETUP_PHASES and scene.current_player:
        moving.add("swell")  # the setup's breathing phase LED
        swells.add(CLAIM_BREATH)
    return Motion(min(due) if due else None,
                  "fast" if "fast" in moving else "swell" if moving else None,
                  frozenset(movers), frozenset(swells))
