"""The Pi box's device shim (tools/pibox/shim/pibox_shim.c), built with this machine's gcc and
preloaded into a child Python that speaks the kernel's uAPI to it directly (no rpi-ws281x, no
lgpio: `make pi-shim-check` runs those in the arm64 box). The WS2812 bits are encoded here
from the datasheet's scheme as rpi-ws281x's README states it (1 -> 110, 0 -> 100, at 3 x the
bit rate), independently of the shim's decoder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SHIM_SRC = Path(__file__).resolve().parents[1] / "tools" / "pibox" / "shim" / "pibox_shim.c"


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pibox_shim.so built for this machine."""
    out = tmp_path_factory.mktemp("shim") / "pibox_shim.so"
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-shared", "-fPIC", "-o", str(out),
                    str(SHIM_SRC), "-ldl", "-lpthread"], check=True, timeout=120)
    return out


def run_with_shim(shim: Path, state: Path, code: str, **env: str) -> dict:
    """Run `code` in a child Python with the shim preloaded; it prints one JSON line."""
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env={**os.environ, "LD_PRELOAD": str(shim), "PIBOX_SHIM_DIR": str(state), **env},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def encode(wire: bytes, reset_bytes: int = 20) -> bytes:
    """WS2812 bytes as rpi-ws281x's SPI mode sends them: 3 SPI bits a bit, then a low reset."""
    bits = "".join("110" if (byte >> (7 - i)) & 1 else "100" for byte in wire for i in range(8))
    bits += "0" * (-len(bits) % 8)
    return int(bits, 2).to_bytes(len(bits) // 8, "big") + bytes(reset_bytes)


SPI_SEND = """
    import ctypes, fcntl, json, os, struct
    data = bytes.fromhex({hex!r})
    fd = os.open("/dev/spidev0.0", os.O_RDWR)
    fcntl.ioctl(fd, 0x40046B04, struct.pack("I", 2400000))  # SPI_IOC_WR_MAX_SPEED_HZ
    buf = ctypes.create_string_buffer(data, len(data))
    # struct spi_ioc_transfer: tx_buf, rx_buf, len, speed_hz, delay_usecs, bits, ...
    tr = struct.pack("QQIIHBBBBBB", ctypes.addressof(buf), 0, len(data), 0, 0, 8, 0, 0, 0, 0, 0)
    sent = fcntl.ioctl(fd, 0x40206B00, tr)  # SPI_IOC_MESSAGE(1)
    os.close(fd)
    state = os.environ["PIBOX_SHIM_DIR"]
    frame = dict(l.split(" ", 1) for l in open(state + "/leds").read().splitlines())
    print(json.dumps(frame))
"""


def test_spi_frame_decodes_to_the_bytes_sent(shim: Path, tmp_path: Path) -> None:
    wire = bytes.fromhex("00ff00" "ff0000" "0000ff" "3412c8")  # GRB: red, green, blue, a mix
    frame = run_with_shim(shim, tmp_path, SPI_SEND.format(hex=encode(wire).hex()))
    assert frame["grb"].split() == ["00ff00", "ff0000", "0000ff", "3412c8"]
    assert frame["leds"] == "4"
    assert frame["speed_hz"] == "2400000"
    assert frame["bad_symbols"] == "0"
    assert float(frame["reset_us"]) >= 20 * 8 / 2.4  # the 20 low bytes at 2.4 MHz


def test_spi_frame_with_a_broken_symbol_is_counted(shim: Path, tmp_path: Path) -> None:
    good = encode(bytes.fromhex("ffffff"))
    broken = bytes([good[0] | 0x20]) + good[1:]  # the first symbol 110 -> 111
    frame = run_with_shim(shim, tmp_path, SPI_SEND.format(hex=broken.hex()))
    assert frame["bad_symbols"] == "1"


def test_spi_transfer_longer_than_spidev_buffer_is_refused(shim: Path, tmp_path: Path) -> None:
    code = """
        import ctypes, fcntl, json, os, struct
        fd = os.open("/dev/spidev0.0", os.O_RDWR)
        buf = ctypes.create_string_buffer(5000)
        tr = struct.pack("QQIIHBBBBBB", ctypes.addressof(buf), 0, 5000, 0, 0, 8, 0, 0, 0, 0, 0)
        try:
            fcntl.ioctl(fd, 0x40206B00, tr)  # SPI_IOC_MESSAGE(1)
            print(json.dumps({"errno": None}))
        except OSError as exc:
            print(json.dumps({"errno": exc.errno}))
    """
    result = run_with_shim(shim, tmp_path, code)
    assert result == {"errno": 90}  # EMSGSIZE, as spidev with its default bufsiz=4096


GPIO_EDGES = """
    import fcntl, json, os, select, struct, time
    state = os.environ["PIBOX_SHIM_DIR"]
    chip = os.open("/dev/gpiochip0", os.O_RDWR)
    info = bytearray(68)
    fcntl.ioctl(chip, 0x8044B401, info)  # GPIO_GET_CHIPINFO_IOCTL
    lines = struct.unpack_from("I", info, 64)[0]
    # struct gpio_v2_line_request (592 bytes): offsets[64], consumer[32], config, num_lines...
    req = bytearray(592)
    struct.pack_into("I", req, 0, 17)
    req[256:260] = b"test"
    INPUT, PULL_UP, RISING, FALLING = 1 << 2, 1 << 8, 1 << 4, 1 << 5
    struct.pack_into("Q", req, 288, INPUT | PULL_UP | RISING | FALLING)
    struct.pack_into("I", req, 560, 1)
    fcntl.ioctl(chip, 0xC250B407, req)  # GPIO_V2_GET_LINE_IOCTL
    line = struct.unpack_from("i", req, 588)[0]

    def value():
        v = bytearray(struct.pack("QQ", 0, 1))
        fcntl.ioctl(line, 0xC010B40E, v)  # GPIO_V2_LINE_GET_VALUES_IOCTL
        return struct.unpack_from("Q", v, 0)[0]

    before = value()
    busy = None
    try:
        fcntl.ioctl(chip, 0xC250B407, bytearray(req))
    except OSError as exc:
        busy = exc.errno
    fifo = state + "/buttons"
    deadline = time.monotonic() + 30
    while not os.path.exists(fifo) and time.monotonic() < deadline:
        time.sleep(0.05)
    events = []
    for level in ("0", "1"):
        with open(fifo, "w") as f:
            f.write("17 " + level + "\\n")
        ready, _, _ = select.select([line], [], [], 30)
        if ready:
            # struct gpio_v2_line_event: timestamp_ns, id, offset, seqno, line_seqno
            ts, kind, offset, seqno, line_seqno = struct.unpack_from("QIIII", os.read(line, 48))
            events.append([kind, offset, seqno, line_seqno, value()])
    print(json.dumps({"lines": lines, "before": before, "busy": busy, "events": events}))
"""


def test_button_edges_arrive_as_line_events(shim: Path, tmp_path: Path) -> None:
    result = run_with_shim(shim, tmp_path / "made-by-the-shim", GPIO_EDGES)
    assert result["lines"] == 58  # a BCM2711's GPIO chip
    assert result["before"] == 1  # pulled up, nothing pressed
    assert result["busy"] == 16  # EBUSY: the line is already requested
    # falling edge (id 2) then rising (id 1) on line 17, numbered, the level following
    assert result["events"] == [[2, 17, 1, 1, 0], [1, 17, 2, 2, 1]]


def test_revision_and_model_files(shim: Path, tmp_path: Path) -> None:
    code = """
        import json
        rev = open("/proc/device-tree/system/linux,revision", "rb").read()
        model = open("/sys/firmware/devicetree/base/model", "rb").read()
        try:
            open("/dev/mem", "rb")
            mem = "opened"
        except OSError as exc:
            mem = exc.errno
        print(json.dumps({"rev": rev.hex(), "model": model.decode(), "mem": mem}))
    """
    result = run_with_shim(shim, tmp_path, code, PIBOX_SHIM_REVISION="c03114",
                           PIBOX_SHIM_MODEL="Raspberry Pi 4 Model B Rev 1.4")
    assert result == {"rev": "00c03114", "model": "Raspberry Pi 4 Model B Rev 1.4\x00",
                      "mem": 13}  # /dev/mem refused with EACCES


def test_with_nodes_a_device_follows_its_node_in_dev(shim: Path, tmp_path: Path) -> None:
    """PIBOX_SHIM_NODES=1 (the Pi box's service): a device answers only where its node is
    there and this process may open it, as the kernel would say; without it, always."""
    code = """
        import json, os
        said = {}
        for node in ("/dev/spidev0.0", "/dev/gpiomem", "/dev/gpiochip0"):
            try:
                os.close(os.open(node, os.O_RDWR))
                said[node] = 0
            except OSError as exc:
                said[node] = exc.errno
        print(json.dumps(said))
    """
    nodes = ("/dev/spidev0.0", "/dev/gpiomem", "/dev/gpiochip0")
    assert run_with_shim(shim, tmp_path, code) == dict.fromkeys(nodes, 0)
    kernel = {}  # what this machine's own /dev answers for each node (ENOENT here: no Pi)
    for node in nodes:
        kernel[node] = 0 if os.access(node, os.R_OK | os.W_OK) else (
            2 if not os.path.exists(node) else 13)
    assert run_with_shim(shim, tmp_path, code, PIBOX_SHIM_NODES="1") == kernel
    assert any(kernel.values()), "this machine has every Pi device node: nothing was tested"
    assert "refused like the kernel would" in (tmp_path / "log").read_text()
