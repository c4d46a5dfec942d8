"""Tests of the serial bridge: codec, firmware core, Pi-side link, emulator."""
