"""Tests of the RISK Strike engine (`pi_app.rules.strike`)."""
