"""The registry of board variants: `get_variant(name)` and `VARIANT_NAMES`.

Each variant is a small module in this package: a `Variant` subclass (`variants.base`,
Classic's hooks) overriding a few hooks. The registry sits above them (the variant modules
never import it): variant modules (`mission`, `capital`, `two_player`, `allied`) are
imported on first use by `get_variant`, so the Classic hot path never pays for them. RISK
Strike has its own engine (`pi_app.rules.strike`); asking this registry for it raises
RuleError("variant_not_available").
"""

from __future__ import annotations

import importlib

from pi_app.rules.errors import RuleError
from pi_app.rules.variants.base import Variant
from pi_app.rules.variants.classic import CLASSIC

__all__ = ["PLANNED", "VARIANTS", "VARIANT_NAMES", "Variant", "get_variant",
           "register_variant"]

VARIANTS: dict[str, Variant] = {"classic": CLASSIC}
# name -> (module, the module's variant object)
_MODULES = {
    "mission": ("pi_app.rules.variants.mission", "SECRET_MISSION"),
    "capital": ("pi_app.rules.variants.capital", "CAPITAL"),
    "two-player": ("pi_app.rules.variants.two_player", "TWO_PLAYER"),
    "allied": ("pi_app.rules.variants.allied", "ALLIED_VARIANT"),
}
PLANNED = ("strike",)
VARIANT_NAMES = ("classic", "mission", "capital", "two-player", "allied", *PLANNED)


def register_variant(variant: Variant) -> Variant:
    """Make `variant` available to `new_game` under `variant.name`."""
    VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    """The registered variant called `name`, or RuleError naming what is available."""
    variant = VARIANTS.get(name)
    if variant is not None:
        return variant
    found = _MODULES.get(name) if isinstance(name, str) else None
    if found is not None:
        module, attribute = found
        return register_variant(getattr(importlib.import_module(module), attribute))
    if name in VARIANT_NAMES:
        raise RuleError("variant_not_available",
                        f"The {name} variant has its own engine (pi_app.rules.strike); "
                        "this board engine plays classic, mission, capital, two-player "
                        "and allied.")
    raise RuleError("unknown_variant",
                    f"There is no variant called {name!r}; choose one of "
                    + ", ".join(VARIANT_NAMES) + ".")
