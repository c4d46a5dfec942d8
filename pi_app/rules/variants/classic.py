"""Classic RISK (docs/RULES.md §2): the base `Variant` unchanged, named for discoverability."""

from __future__ import annotations

from pi_app.rules.variants.base import Variant

CLASSIC = Variant()
