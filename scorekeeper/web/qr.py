"""QR codes of the app's links, drawn on the server by segno as inline SVG, and a link to pass on.

No script, no other host, and a phone's camera opens the link. A rubber's share page and a
group's page show their links the same way (templates/_share.html, static/share.js)."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class SharedLink:
    """One link to pass on, as a share page shows it: QR code, share sheet and copy button."""

    name: str
    """The element ids' stem: ``share`` (to follow) or ``edit`` (to record hands)."""
    url: str
    heading: str
    hint: str
    qr: Markup
    reveal: str | None = None
    """For a link that gives the right to write: the words of the disclosure its QR code is
    folded behind, so that a camera pointed at the page reads the follower's code."""
