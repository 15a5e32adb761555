"""One thumb at the table, on a 390×844 phone: taps counted, targets measured.

The hand's controls are in the lower half of the screen, portrait and landscape, and there is no
accidental zoom."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

WIDTH, HEIGHT = 390, 844
MIN_TARGET = 48
"""Every tap target, in CSS px, both ways."""

TARGETS = """() => {
  // Closed disclosures hide controls: open every one, so what they hold is measured too.
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
  const found = [];
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary, " +
    "[tabindex]:not([tabindex='-1'])";
  for (const element of document.querySelectorAll(selector)) {
    if (!element.checkVisibility({ visibilityProperty: true })) continue;
    const type = (element.getAttribute("type") || "").toLowerCase();
    // A radio or a checkbox is tapped through the label around it: that is the target.
    const target = (type === "radio" || type === "checkbox") ? element.closest("label") : element;
    if (!target) {
      found.push({ what: element.outerHTML.slice(0, 80), width: 0, height: 0 });
      continue;
    }
    const box = target.getBoundingClientRect();
    found.push({
      what: target.outerHTML.slice(0, 80).replace(/\\s+/g, " "),
      width: Math.round(box.width * 10) / 10,
      height: Math.round(box.height * 10) / 10,
    });
  }
  return found;
}"""

DURING_A_HAND = {
    "team choice": ".hand-form .whose label",
    "points box": ".hand-form input[name=points]",
    "Registar": ".hand-form button[value=points]",
    "quick buttons": ".hand-form .quick > button, .hand-form .quick > a.button",
    "all tricks": ".hand-form .more .check",
    "trump": ".hand-form details.trump > summary",
    "undo": ".hand-form details.undo > summary",
}
"""Every control the scorer uses during a hand."""


class Thumb:
    """Taps, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def tap(self, locator: Any) -> None:
        locator.tap()
        self.taps += 1


def start(live_server: str, phone: Any, thumb: Thumb | None = None) -> str:
    phone.goto(live_server + "/")
    button = phone.get_by_role("button", name="Nova partida: Nós contra Eles")
    if thumb:
        thumb.tap(button)
    else:
        button.tap()
    expect(phone).to_have_url(re.compile(r"/r/[A-Za-z0-9_-]{32}$"))
    return str(phone.url)


def record(phone: Any, points: str, score: str) -> None:
    phone.get_by_label("Pontos", exact=True).fill(points)
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".scoreline .games")).to_have_text(score)


def test_taps_to_start_record_and_undo(live_server: str, phone: Any) -> None:
    thumb = Thumb(phone)
    start(live_server, phone, thumb)
    assert thumb.taps <= 2, f"starting a rubber with the defaults took {thumb.taps} taps"
    starting = thumb.taps

    # A typical hand: the box, the points typed on the keyboard, Registar.
    thumb.taps = 0
    thumb.tap(phone.get_by_label("Pontos", exact=True))
    phone.keyboard.type("75")
    thumb.tap(phone.get_by_role("button", name="Registar", exact=True))
    expect(phone.locator(".scoreline .games")).to_have_text("1 – 0")
    assert thumb.taps <= 3, f"recording a hand took {thumb.taps} taps"
    typical = thumb.taps

    # The other team's points: one tap more, still within three.
    thumb.taps = 0
    thumb.tap(phone.locator(".hand-form .whose label").filter(has_text="Eles"))
    thumb.tap(phone.get_by_label("Pontos", exact=True))
    phone.keyboard.type("95")
    thumb.tap(phone.get_by_role("button", name="Registar", exact=True))
    expect(phone.locator(".scoreline .games")).to_have_text("1 – 2")
    assert thumb.taps <= 3, f"recording the other team's hand took {thumb.taps} taps"

    # A tie is one tap.
    thumb.taps = 0
    thumb.tap(phone.get_by_role("button", name="Empate 60-60"))
    expect(phone.locator(".hands li")).to_have_count(3)
    assert thumb.taps == 1

    # Undo: one tap to open, one to confirm.
    thumb.taps = 0
    thumb.tap(phone.get_by_text("Anular a última mão"))
    thumb.tap(phone.get_by_role("button", name="Sim, anular a mão 3"))
    expect(phone.locator(".hands li")).to_have_count(2)
    assert thumb.taps == 2, f"undo took {thumb.taps} taps"
    print(f"\ntaps: start {starting}, typical hand {typical}, undo 1 + 1")


@pytest.mark.parametrize("preset", ["portugal", "brasil"])
def test_every_control_of_a_hand_is_in_the_lower_half(
    live_server: str, phone: Any, preset: str
) -> None:
    """Without any scrolling: the form is a sheet at the bottom of the screen."""
    if preset == "portugal":
        start(live_server, phone)
    else:
        phone.goto(live_server + "/rubbers/new")
        phone.get_by_label("Regras", exact=True).select_option(preset)
        phone.get_by_role("button", name="Começar a partida").tap()
        expect(phone).to_have_url(re.compile(r"/r/[A-Za-z0-9_-]{32}$"))
    record(phone, "75", "1 – 0")  # a hand, so undo is there, and a flashed summary on top
    phone.reload()
    assert phone.evaluate("() => window.scrollY") == 0
    lowest = HEIGHT
    for name, selector in DURING_A_HAND.items():
        controls = phone.locator(selector)
        assert controls.count() >= 1, name
        for control in controls.all():
            box = control.bounding_box()
            assert box is not None, name
            top, bottom = box["y"], box["y"] + box["height"]
            assert top >= HEIGHT / 2, f"{name} starts at y={top:.0f}, above the lower half"
            assert bottom <= HEIGHT, f"{name} ends at y={bottom:.0f}, below the screen"
            lowest = min(lowest, top)
    print(f"\n{preset}: the hand's controls from y={lowest:.0f} to {HEIGHT}")


def measure(page: Any) -> list[dict[str, Any]]:
    targets: list[dict[str, Any]] = page.evaluate(TARGETS)
    assert targets, page.url
    return targets


def too_small(targets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [target for target in targets if min(target["width"], target["height"]) < MIN_TARGET]


def test_every_tap_target_is_at_least_48_px(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    page_url = start(live_server, phone)
    record(phone, "95", "2 – 0")
    record(phone, "70", "3 – 0")
    rubber_id = page_url.rsplit("/", 1)[-1]
    second_phone.goto(page_url)  # the read-only view

    pages = [
        "/",
        "/rubbers/new",
        page_url,
        f"/r/{rubber_id}/hands/1",
        f"/r/{rubber_id}/hands/1/edit",
        f"/r/{rubber_id}/count",
        f"/r/{rubber_id}/replay",
        "/history",
        "/glossary",
    ]
    smallest: tuple[float, str] = (1e9, "")
    offenders = []
    for path in pages:
        phone.goto(path if path.startswith("http") else live_server + path)
        targets = measure(phone)
        offenders += [(path, target) for target in too_small(targets)]
        for target in targets:
            smallest = min(smallest, (min(target["width"], target["height"]), target["what"]))
    reader = measure(second_phone)
    offenders += [("read-only rubber page", target) for target in too_small(reader)]

    phone.goto(page_url)
    record(phone, "61", "4 – 0")  # finished: the next-rubber button and the pente
    offenders += [("finished rubber", target) for target in too_small(measure(phone))]
    assert not offenders, "\n".join(f"{where}: {target}" for where, target in offenders)
    print(f"\nsmallest target: {smallest[0]} px ({smallest[1]})")


def test_landscape_keeps_every_control_usable(live_server: str, phone: Any) -> None:
    start(live_server, phone)
    record(phone, "75", "1 – 0")
    phone.set_viewport_size({"width": HEIGHT, "height": WIDTH})
    phone.reload()
    overflow = phone.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
    assert not too_small(measure(phone))
    phone.reload()
    for name, selector in DURING_A_HAND.items():
        for control in phone.locator(selector).all():
            control.scroll_into_view_if_needed()
            expect(control).to_be_in_viewport()
            box = control.bounding_box()
            assert box is not None and box["x"] + box["width"] <= HEIGHT, name
    # Landscape on a phone: the form beside the score, both in view at once.
    score = phone.locator(".scoreline").bounding_box()
    registar = phone.get_by_role("button", name="Registar", exact=True).bounding_box()
    assert score is not None and registar is not None
    assert registar["x"] > score["x"] + score["width"] - 1
    record(phone, "61", "2 – 0")


def test_no_accidental_zoom(live_server: str, phone: Any) -> None:
    page_url = start(live_server, phone)
    record(phone, "75", "1 – 0")
    for path in ("/", "/rubbers/new", page_url, page_url + "/hands/1/edit", "/history"):
        phone.goto(path if path.startswith("http") else live_server + path)
        viewport = phone.locator("meta[name=viewport]").get_attribute("content")
        # Pinch zoom stays: nothing disables it.
        assert viewport == "width=device-width, initial-scale=1"
        sizes = phone.evaluate(
            """() => [...document.querySelectorAll("input, select, textarea")]
                 .filter((e) => e.type !== "hidden")
                 .map((e) => [e.name || e.id, parseFloat(getComputedStyle(e).fontSize)])"""
        )
        # iOS zooms into a box whose text is under 16 px when it is tapped.
        assert all(size >= 16 for _, size in sizes), sizes
        # A double tap does not zoom either (a quick second tap on a button is common).
        assert phone.evaluate("() => getComputedStyle(document.documentElement).touchAction") == (
            "manipulation"
        )
