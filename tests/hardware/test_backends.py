"""The one list of LED and button backends (hardware/backends.py, issue 35.1): the config
offers exactly its names, `open_strip` and `pin_factory_for` open them through it, and the
backends on the Pi's own GPIO header are the ones whose pins the config checks together."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.backends import BUTTON_BACKENDS, LED_BACKENDS, Backend
from hardware.controls import pin_factory_for
from hardware.errors import HardwareUnavailable
from hardware.leds import BridgeStrip, MemoryStrip, open_strip
from pi_app.config import ButtonConfig, LedConfig, config_from_dict


def test_every_backend_with_an_opener_names_a_callable_that_exists():
    for backend in [*LED_BACKENDS.values(), *BUTTON_BACKENDS.values()]:
        if backend.opener:
            assert callable(backend.load()), backend.name


def test_open_strip_opens_each_led_backend_through_the_list(monkeypatch):
    assert isinstance(open_strip("memory", 3), MemoryStrip)
    assert isinstance(open_strip("bridge", 3, send=lambda frame: None), BridgeStrip)
    monkeypatch.setitem(LED_BACKENDS, "shelf", Backend("shelf", "hardware.leds:MemoryStrip",
                                                       pi_only=False))
    assert isinstance(open_strip("shelf", 3), MemoryStrip)  # a new entry needs no if-chain
    with pytest.raises(HardwareUnavailable, match="serial link to the Pico"):
        open_strip("bridge", 3)


def test_pin_factory_for_opens_each_button_backend_through_the_list(monkeypatch):
    assert isinstance(pin_factory_for("mock"), MockFactory)
    assert pin_factory_for("gpio") is None
    with pytest.raises(ValueError, match="unknown buttons backend 'none'; use 'gpio', "
                       "'rpigpio' or 'mock'"):
        pin_factory_for("none")  # no buttons: nothing to open
    monkeypatch.setitem(BUTTON_BACKENDS, "bench", Backend(
        "bench", "gpiozero.pins.mock:MockFactory", pi_only=False))
    assert isinstance(pin_factory_for("bench"), MockFactory)


def test_the_config_offers_exactly_the_listed_backends():
    for name in LED_BACKENDS:
        assert config_from_dict({"leds": {"backend": name}}).leds.backend == name
    for name in BUTTON_BACKENDS:
        assert config_from_dict({"buttons": {"backend": name}}).buttons.backend == name
    with pytest.raises(ValueError, match=r'leds\.backend must be one of "ws281x", "bridge", '
                       '"memory"'):
        config_from_dict({"leds": {"backend": "neopixel"}})
    # the help a maker reads names them as it always did
    assert LedConfig.__dataclass_fields__["backend"].metadata["doc"] == "ws281x | bridge | memory"
    assert ButtonConfig.__dataclass_fields__["backend"].metadata["doc"] == \
        "gpio | rpigpio | mock | none"


@pytest.mark.parametrize("leds", list(LED_BACKENDS))
@pytest.mark.parametrize("buttons", list(BUTTON_BACKENDS))
def test_a_button_pin_clashes_with_the_led_pin_only_when_both_use_the_pis_gpio(leds, buttons):
    config = {"leds": {"backend": leds, "gpio_pin": 18},
              "buttons": {"backend": buttons, "pins": {"roll": 18}}}
    if LED_BACKENDS[leds].pi_only and BUTTON_BACKENDS[buttons].pi_only:
        with pytest.raises(ValueError, match=r"leds\.gpio_pin already drives"):
            config_from_dict(config)
    else:
        assert config_from_dict(config).buttons.pins["roll"] == 18
    assert {n for n, b in LED_BACKENDS.items() if b.pi_only} == {"ws281x"}
    assert {n for n, b in BUTTON_BACKENDS.items() if b.pi_only} == {"gpio", "rpigpio"}
