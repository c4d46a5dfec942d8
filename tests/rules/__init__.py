"""Tests of the pure rules engine (pi_app.rules)."""
