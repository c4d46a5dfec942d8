"""The Python example in hardware/README.md runs as written, so the README cannot rot."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


def test_readme_example_runs_and_lights_the_strip(capsys):
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, str(README), "exec"), namespace)
    strip, buttons = namespace["strip"], namespace["buttons"]
    assert strip.closed and strip.frames[0] == ((255, 0, 0),) * namespace["profile"].led_count
    assert set(buttons.names) == set(namespace["profile"].controls)
    buttons.close()
