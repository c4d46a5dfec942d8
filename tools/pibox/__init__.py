"""The Pi box (issue 11): riskboard installed by a maker on an emulated arm64 Raspberry Pi OS,
and the checks that it runs as on a Pi.

tools/pibox/pi-check.sh builds and boots the box (systemd-nspawn under qemu-user), then runs
`python -m tools.pibox` from the checkout's venv (for the bot that plays the game and the
board profile). The checks (`tools.pibox.checks`, one module each) reach into the box
through a `Runner` (`tools.pibox.runner`: nsenter into the booted box; tests/pibox use a
fake) and over HTTP (the box shares the host's network). Every check prints
`check N ... ok: <what held>` or `check N ... FAILED: <sentence>`; the run goes on after a
failure where it can, and exits 1 if any check failed.

What a maker does is written as they would type it (`Box.maker`): README's "Installing on
the Pi", `git pull && sudo deploy/install.sh` to update, `riskboard doctor`.

From check 2 on the service drives the LEDs with the real rpi-ws281x (SPI, GPIO 10) and reads
the control buttons with the real lgpio, against the device shim (tools/pibox/shim, preloaded
by tools/pibox/pibox-gpio.conf): the checks read the LED strip the shim decodes from the SPI
bytes (`Strip`) and press buttons by writing edges to the shim's FIFO (`Strip.press`). The
Pico is the real firmware on MicroPython on the emulated RP2040 of tools/picobox, run on the
host and plugged into the box (`tools.pibox.usb`: its USB port a pty of the box's own,
linked as /dev/riskboard-pico with the group and mode the installed udev rule names, gone
while the emulated chip resets), its board wired with two buttons' inputs crossed. The
checks bring that board up over HTTP (check 11), play on it (4), reset the Pico mid-game
(12) and update its firmware with mpremote as firmware_bridge/firmware/README.md says (13).
"""
