"""The serial link between the Pi and the Pico that scans the territory sensors."""
