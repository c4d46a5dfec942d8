"""The Pico in a box: the real firmware on real MicroPython on an emulated RP2040 (issue 20).

``run.mjs`` (Node, rp2040js pinned in package-lock.json) runs the MicroPython UF2 with the
firmware on its flash and models the board's chips; ``box.PicoBox`` starts it behind a
pseudo-terminal, like ``/dev/ttyACM0`` on the Pi, and drives the chips; ``flash`` builds the
littlefs image the way the firmware README's mpremote step lays the files out.
``python -m tools.picobox serve --port PATH`` serves one emulated Pico on a pty path.
"""
