"""What every hardware device shares: `close()`, and use as a context manager."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class HardwareDevice:
    """A device that holds a resource until `close()`; `with device:` closes it on exit."""

    def close(self) -> None:
        """Release the device; calling it again does nothing."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
