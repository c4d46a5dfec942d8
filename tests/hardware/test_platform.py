"""Raspberry Pi detection from the device-tree model string."""

from __future__ import annotations

import pytest

from hardware.platform import detect_platform, parse_model


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("Raspberry Pi Model B Rev 2", 1),
        ("Raspberry Pi Model B Plus Rev 1.2", 1),
        ("Raspberry Pi Zero W Rev 1.1", 1),
        ("Raspberry Pi 2 Model B Rev 1.1", 2),
        ("Raspberry Pi 3 Model B Plus Rev 1.3", 3),
        ("Raspberry Pi Zero 2 W Rev 1.0", 3),
        ("Raspberry Pi Compute Module 3 Plus Rev 1.0", 3),
        ("Raspberry Pi 4 Model B Rev 1.4", 4),
        ("Raspberry Pi 400 Rev 1.0", 4),
        ("Raspberry Pi Compute Module 4 Rev 1.0", 4),
        ("Raspberry Pi 5 Model B Rev 1.0", 5),
        ("Raspberry Pi 500 Rev 1.0", 5),
        ("Raspberry Pi Compute Module 5 Rev 1.0", 5),
        ("Raspberry Pi Compute Module 4S Rev 1.0", 4),  # CM4S: BCM2711 on the CM1/3 form
        ("Raspberry Pi Compute Module 0 Rev 1.0", 3),  # CM0: RP3A0, the Zero 2 W's BCM2710A1
        ("Raspberry Pi Compute Module Rev 1.0", 1),  # the first CM carries no number
    ],
)
def test_model_string_gives_the_pi_family(model, family):
    assert parse_model(model + "\x00").family == family


@pytest.mark.parametrize("model", ["Raspberry Pi 4 Model B Rev 1.4", "Raspberry Pi Zero W Rev 1.1"])
def test_pi_1_to_4_support_ws281x(model):
    platform = parse_model(model)
    assert platform.supports_ws281x
    assert platform.ws281x_refusal() is None


def test_pi_5_refuses_ws281x_and_points_to_the_bridge():
    platform = parse_model("Raspberry Pi 5 Model B Rev 1.0")
    assert not platform.supports_ws281x
    assert "'bridge' backend" in platform.ws281x_refusal()


def test_other_boards_are_not_a_pi():
    platform = parse_model("Pine64 RockPro64 v2.1")
    assert not platform.is_raspberry_pi
    assert "'memory' backend" in platform.ws281x_refusal()


def test_missing_model_file_means_not_a_pi(tmp_path):
    platform = detect_platform(tmp_path / "no-such-file")
    assert platform.model is None and not platform.is_raspberry_pi


def test_model_file_is_read_without_its_trailing_nul(tmp_path):
    path = tmp_path / "model"
    path.write_bytes(b"Raspberry Pi 3 Model B Rev 1.2\x00")
    assert detect_platform(path).model == "Raspberry Pi 3 Model B Rev 1.2"


def test_compute_module_4s_supports_ws281x():
    platform = parse_model("Raspberry Pi Compute Module 4S Rev 1.0")
    assert platform.supports_ws281x and platform.ws281x_refusal() is None


@pytest.mark.parametrize(
    "model",
    ["Raspberry Pi 6 Model B Rev 1.0", "Raspberry Pi Compute Module 7 Rev 1.0",
     "Raspberry Pi Compute Module 2 Rev 1.0", "Raspberry Pi Quantum Rev 1.0"],
)
def test_unknown_raspberry_pi_model_is_refused_as_unknown(model):
    platform = parse_model(model)
    assert platform.is_raspberry_pi
    assert platform.family is None
    refusal = platform.ws281x_refusal()
    assert "unknown Raspberry Pi model" in refusal and model in refusal
    assert "'bridge' backend" in refusal
    assert "RP1" not in refusal


def test_the_model_is_read_from_sysfs_when_proc_has_no_device_tree(tmp_path, monkeypatch):
    import hardware.platform as platform_module

    sysfs = tmp_path / "sysfs-model"
    sysfs.write_bytes(b"Raspberry Pi 4 Model B Rev 1.4\x00")
    monkeypatch.setattr(platform_module, "DEVICE_TREE_MODEL", tmp_path / "no-proc-model")
    monkeypatch.setattr(platform_module, "SYSFS_MODEL", sysfs)
    assert detect_platform().family == 4
    monkeypatch.setattr(platform_module, "SYSFS_MODEL", tmp_path / "no-sysfs-model")
    assert detect_platform().model is None
