"""The printable table card (SVG): what a player needs to reach the table from a phone.

With the table's own Wi-Fi (install.sh --hotspot): step 1, a QR code that joins that
network from a phone's camera (with its name and password written out), and step 2, a QR
code of the table's page. On a known Wi-Fi, only the page's code. The words come from the
pages' catalogues (pi_app/web/i18n), so a card prints in the players' language. Pure: no
I/O; `riskboard table-card` writes it to a file.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from importlib import resources
from xml.sax.saxutils import escape

# The card: A6 landscape (148 x 105 mm), in millimetres.
WIDTH, HEIGHT = 148, 105
QR_SIZE = 52


@dataclass(frozen=True)
class TableWifi:
    """The table's own Wi-Fi network (the hotspot), as a phone joins it."""

    ssid: str
    password: str  # "" for an open network

    def qr_data(self) -> str:
        """The `WIFI:` text phone cameras understand (special characters escaped)."""
        import segno.helpers

        return segno.helpers.make_wifi_data(self.ssid, self.password or None,
                                            "WPA" if self.password else "nopass")


def words(lang: str) -> dict[str, str]:
    """The card's sentences in `lang` (English for a key that language lacks)."""
    folder = resources.files("pi_app.web").joinpath("i18n")
    catalogue = json.loads(folder.joinpath("en.json").read_text("utf-8"))
    if lang != "en":
        catalogue.update(json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8")))
    return {key.removeprefix("tablecard."): value for key, value in catalogue.items()
            if key.startswith("tablecard.")}


def qr_svg(data: str, x: float, y: float, size: float = QR_SIZE) -> str:
    """A QR code of `data` as a nested <svg> placed at (x, y), `size` mm wide."""
    import segno

    code = segno.make(data, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=1, border=2, xmldecl=False, svgns=True,
              omitsize=True, nl=False)
    inner = out.getvalue().decode()
    return inner.replace("<svg ", f'<svg x="{x}" y="{y}" width="{size}" height="{size}" ', 1)


def _text(x: float, y: float, text: str, size: float, weight: str = "normal") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="middle">{escape(text)}</text>')


def table_card_svg(page_url: str, wifi: TableWifi | None = None, lang: str = "en") -> str:
    """The card as an SVG document: the Wi-Fi's code (when the table has its own network)
    and the page's code, each under a numbered step, with what they hold written out."""
    said = words(lang)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}mm" height="{HEIGHT}mm" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff" stroke="#000" '
             'stroke-width="0.3"/>',
             _text(WIDTH / 2, 11, said["title"], 7, "bold")]
    columns = [WIDTH / 4, WIDTH * 3 / 4] if wifi else [WIDTH / 2]
    if wifi:
        x = columns[0]
        parts.append(_text(x, 20, said["wifi"], 3.5, "bold"))
        parts.append(qr_svg(wifi.qr_data(), x - QR_SIZE / 2, 23))
        parts.append(_text(x, 82, said["network"].format(ssid=wifi.ssid), 3.6))
        password = (said["password"].format(password=wifi.password) if wifi.password
                    else said["open_network"])
        parts.append(_text(x, 88, password, 3.6))
    x = columns[-1]
    parts.append(_text(x, 20, said["page" if wifi else "page_only"], 3.5, "bold"))
    parts.append(qr_svg(page_url, x - QR_SIZE / 2, 23))
    parts.append(_text(x, 82, page_url, 3.6))
    parts.append(_text(WIDTH / 2, 99, said["scan"], 3.4))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
