"""Which BCM GPIO pins a control button may use, given how the LEDs are wired.

The rules (hardware/README.md, "Raspberry Pi GPIO pin table"):
- GPIO 7-11 are SPI0 (CE1, CE0, MISO, MOSI, SCLK). The recommended LED wiring sends the
  data on GPIO 10 (SPI MOSI) and the kernel's SPI driver then owns the whole bus, so a control
  button there is refused, whatever the configured LED pin (a profile does not know it).
- The LED data pin itself (10, or the PWM/PCM pins 12, 13, 18, 19, 21 when the config uses
  one) cannot also be a button.
- GPIO 2/3 (I2C1, with fixed 1.8 kOhm pull-ups on the board) and 14/15 (the UART: serial
  console, Bluetooth on some models) work as buttons but clash with those uses: a warning.

No gpiozero import here, so the config loader and the doctor can call these cheaply.
"""

from __future__ import annotations

from collections.abc import Mapping

SPI_PINS = range(7, 12)
LED_DATA_PINS: dict[int, str] = {
    10: "SPI MOSI", 12: "PWM0", 13: "PWM1", 18: "PWM0", 19: "PWM1", 21: "PCM",
}
CAUTION_PINS: dict[int, str] = {
    2: "I2C1 SDA, with a fixed pull-up on the Pi",
    3: "I2C1 SCL, with a fixed pull-up on the Pi",
    14: "the serial console's TX (UART)",
    15: "the serial console's RX (UART)",
}
# Pins the README suggests for buttons, in the order a free one is offered.
SUGGESTED_PINS = (5, 6, 16, 26, 17, 27, 22, 23, 4, 24, 25, 20)


def spi_refusal(name: str, pin: int) -> str | None:
    """The sentence refusing control button `name` on `pin` if it is an SPI pin, else None."""
    if pin not in SPI_PINS:
        return None
    return (
        f"control button {name!r} is on GPIO {pin}, one of the SPI pins 7-11 that the "
        "recommended LED wiring (data on GPIO 10, SPI MOSI) needs; use another pin, e.g. "
        f"{', '.join(str(p) for p in SUGGESTED_PINS[:4])}"
    )


def caution(name: str, pin: int) -> str | None:
    """A sentence warning about control button `name` on an I2C or UART pin, else None."""
    use = CAUTION_PINS.get(pin)
    if use is None:
        return None
    bus = "I2C" if pin in (2, 3) else "serial"
    return (
        f"control button {name!r} is on GPIO {pin}, {use}; it works, but the {bus} bus "
        "cannot be used while the button is there"
    )


def check_pin_conflicts(controls: Mapping[str, int], led_pin: int | None) -> list[str]:
    """Sentences naming each control button whose pin clashes with the LED wiring.

    `controls` maps button name -> BCM GPIO; `led_pin` is the configured `leds.gpio_pin`
    when the ws281x backend drives the LEDs from the Pi, else None. Empty = no conflict.
    I2C/UART pins are not conflicts: see `pin_warnings`."""
    used = set(controls.values()) | ({led_pin} if led_pin is not None else set())
    free = [p for p in SUGGESTED_PINS if p not in used][:3]
    instead = f"; free pins: {', '.join(str(p) for p in free)}" if free else ""
    problems = []
    for name, pin in controls.items():
        if led_pin is not None and pin == led_pin:
            kind = LED_DATA_PINS.get(pin, "the LED data")
            problems.append(
                f"control button {name!r} is on GPIO {pin}, which carries the LED data "
                f"(leds.gpio_pin = {led_pin}, {kind}); move the button{instead}"
            )
        elif pin in SPI_PINS:
            why = (
                "the LED data on GPIO 10 uses that bus" if led_pin == 10
                else "they are kept for the recommended LED wiring on GPIO 10 (SPI MOSI)"
            )
            problems.append(
                f"control button {name!r} is on GPIO {pin}, one of the SPI pins 7-11, and "
                f"{why}; move the button{instead}"
            )
    return problems


def pin_warnings(controls: Mapping[str, int]) -> list[str]:
    """Sentences about control buttons on the I2C (2, 3) or UART (14, 15) pins."""
    return [text for name, pin in controls.items() if (text := caution(name, pin))]
