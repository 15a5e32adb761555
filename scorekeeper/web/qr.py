"""QR codes of the app's links, drawn on the server by segno as inline SVG.

No script, no other host, and a phone's camera opens the link."""

from __future__ import annotations

import segno
from markupsafe import Markup

BORDER = 4
"""The quiet zone round the code, in modules: the four a scanner needs."""


def qr_svg(url: str, label: str) -> Markup:
    """Return the QR code of ``url`` as an SVG element named ``label`` for screen readers.

    Dark modules on white whatever the page's colours (a scanner wants dark on light), one unit a
    module, sized by the stylesheet.

    >>> svg = qr_svg("https://example.org/r/abc", "QR code")
    >>> svg.startswith('<svg role="img" shape-rendering="crispEdges" viewBox="0 0 33 33"')
    True
    >>> "<title>QR code</title>" in svg
    True
    """
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(
        scale=1, border=BORDER, dark="#000", light="#fff", omitsize=True, svgclass="qr", title=label
    )
    return Markup(svg.replace("<svg ", '<svg role="img" shape-rendering="crispEdges" ', 1))
