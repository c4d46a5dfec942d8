"""`riskboard table-card`: write the printable table card (SVG) with the Wi-Fi's and the
page's QR codes (pi_app.web.table_card). install.sh --hotspot writes one for the table's
own network; run it again for another language or address."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "ko", "ja", "fr")


def register(subparsers: Any) -> None:
    """Add the `table-card` subcommand."""
    parser = subparsers.add_parser(
        "table-card", help="write a printable card with the table's Wi-Fi and page QR codes",
        description="Write a printable SVG card: a QR code that joins the table's Wi-Fi (with "
                    "--wifi-ssid) and one that opens the table's page.")
    parser.add_argument("--url", required=True, help="the page's address, e.g. "
                        "http://10.42.0.1:8080 (the table's own hotspot)")
    parser.add_argument("--wifi-ssid", default="", help="the table's Wi-Fi network name")
    parser.add_argument("--wifi-password", default="", help="its password (none: open)")
    parser.add_argument("--lang", choices=LANGUAGES, default="en", help="the card's language")
    parser.add_argument("--out", type=Path, help="the SVG file to write (default: stdout)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the card; exit 2 with a sentence for an address that is not http(s)."""
    from pi_app.web.table_card import TableWifi, table_card_svg

    if not args.url.startswith(("http://", "https://")):
        print(f"riskboard: the page's address must start with http:// (got {args.url!r})",
              file=sys.stderr)
        return 2
    if args.wifi_password and not args.wifi_ssid:
        print("riskboard: --wifi-password needs --wifi-ssid", file=sys.stderr)
        return 2
    wifi = TableWifi(args.wifi_ssid, args.wifi_password) if args.wifi_ssid else None
    svg = table_card_svg(args.url.rstrip("/"), wifi, args.lang)
    if args.out is None:
        sys.stdout.write(svg)
    else:
        args.out.write_text(svg, encoding="utf-8")
        print(f"riskboard: wrote the table card to {args.out} (print it at 100 %)")
    return 0
