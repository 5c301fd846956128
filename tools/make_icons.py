"""Make the web app's icons (static/icons/*.png) from static/favicon.svg.

    .venv/bin/python tools/make_icons.py

The PNGs are checked in; run this again after changing the favicon. ``icon-192.png`` and
``icon-512.png`` are the favicon as it is; ``maskable-512.png`` puts its heart inside the
middle 80 % circle that launchers keep when they cut an icon to their own shape, on a
full-bleed background. cairosvg (pinned in the dev extra) draws them.
"""

from __future__ import annotations

import re
from pathlib import Path

import cairosvg

ROOT = Path(__file__).resolve().parent.parent
FAVICON = ROOT / "static" / "favicon.svg"
OUT = ROOT / "static" / "icons"


def maskable(svg: str) -> str:
    """The favicon's heart, scaled to the safe zone, on the favicon's colour edge to edge."""
    background = re.search(r'<rect[^>]*fill="([^"]+)"', svg).group(1)
    heart = re.search(r"<path[^>]*/>", svg).group(0)
    # The favicon is 32 units wide; 0.6 of it, centred, stays well inside the safe circle.
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        f'<rect width="32" height="32" fill="{background}"/>'
        f'<g transform="translate(6.4 6.4) scale(0.6)">{heart}</g></svg>'
    )


def main() -> None:
    svg = FAVICON.read_text()
    OUT.mkdir(exist_ok=True)
    for size in (192, 512):
        cairosvg.svg2png(
            bytestring=svg.encode(), write_to=str(OUT / f"icon-{size}.png"),
            output_width=size, output_height=size,
        )
    cairosvg.svg2png(
        bytestring=maskable(svg).encode(), write_to=str(OUT / "maskable-512.png"),
        output_width=512, output_height=512,
    )


if __name__ == "__main__":
    main()
