"""Tests of the Pi box's checks (tools/pibox) against a fake runner: no box, no root."""
