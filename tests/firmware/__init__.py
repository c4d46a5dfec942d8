"""Tests of the Pico firmware, run on CPython against the fake MicroPython modules."""
