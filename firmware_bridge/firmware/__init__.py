"""The Pico's MicroPython firmware; `core` is its transport-agnostic protocol logic."""
