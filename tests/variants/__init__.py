"""Tests of the RISK variants: Secret Mission, Capital, two-player (neutral), Allied Army."""
