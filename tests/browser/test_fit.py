"""What a table found on the screen (issue 25): names, scores and links that fit, measured.

Long names wrap and are never cut, a score never breaks inside "4 – 1", a back link is a
target, the tally and the cross say the real count past the target, and the hand's panel keeps
to 45 % of a 360×640 screen in every state without moving a button."""

from __future__ import annotations

from typing import Any

import requests

from .test_follow import record

SMALL = {"width": 360, "height": 640}
TEAMS = ["Os Reformados", "Benfica Sempre"]
PLAYERS = ["Conceição Albuquerque", "Maria da Graça", "João", "Ana"]

LINES = """(element) => {
  const style = getComputedStyle(element);
  return Math.round(element.getBoundingClientRect().height / parseFloat(style.lineHeight));
}"""
"""How many lines an element's text takes: its height over its line height."""

LINES_OF = """(element, part) => {
  // The lines a part of an element's text is written on, across the element's inner tags.
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  const text = nodes.map((node) => node.data).join("");
  const at = text.indexOf(part);
  if (at < 0) throw new Error(`${part} is not in ${text}`);
  const range = document.createRange();
  let seen = 0;
  for (const node of nodes) {
    const end = seen + node.data.length;
    if (seen <= at && at < end) range.setStart(node, at - seen);
    if (seen < at + part.length && at + part.length <= end) range.setEnd(node, at + part.length - seen);
    seen = end;
  }
  return new Set([...range.getClientRects()].map((rect) => Math.round(rect.bottom))).size;
}"""
"""How many lines a part of an element's text is written on."""


def new_group(base: str) -> dict[str, Any]:
    created = requests.post(f"{base}/api/v1/groups", json={"name": "Tasca da Graça"}, timeout=10)
    assert created.status_code == 201, created.text
    return dict(created.json())


def group_rubber(base: str, group: dict[str, Any], **body: Any) -> dict[str, Any]:
    created = requests.post(
        f"{base}/api/v1/rubbers",
        json={"group": group["id"], "teams": TEAMS, "players": PLAYERS, **body},
        headers={"X-Group-Key": group["edit_key"]},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    return dict(created.json())


def a_sitting_won_4_1(base: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Five rubbers of one game each between the same four: the first team wins four."""
    group = new_group(base)
    rubber: dict[str, Any] = {}
    for winner in (0, 0, 1, 0, 0):
        rubber = group_rubber(base, group, rules={"games_to_win": 1})
        record(base, rubber, {"points": [75, 45] if winner == 0 else [45, 75]})
    return group, rubber


def test_back_links_are_targets_and_scores_stay_whole(live_server: str, phone: Any) -> None:
    """Item 13: every "←" link is at least 44 px tall; item 3: "4 – 1" is one line."""
    group, last = a_sitting_won_4_1(live_server)
    phone.set_viewport_size(SMALL)
    phone.goto(group["edit_url"])  # the group's edit rights, for its new-rubber form
    group_page = f"{live_server}/g/{group['id']}"
    pages = {
        "sitting": f"{live_server}/r/{last['id']}/sitting",
        "stats": f"{group_page}/stats",
        "player": f"{group_page}/player?name=João",
        "new rubber": f"{group_page}/rubbers/new",
        "share": f"{live_server}/r/{last['id']}/share",
    }
    for name, url in pages.items():
        phone.goto(url)
        back = phone.locator("a").filter(has_text="←").first.bounding_box()
        assert back is not None, name
        assert back["height"] >= 44, f"{name}: the back link is {back['width']}×{back['height']}"
        if name == "sitting":
            total = phone.locator(".sitting-total strong")
            assert total.inner_text().replace("\u00a0", " ") == "4 – 1"
            assert total.evaluate(LINES) == 1, "the sitting's count breaks across lines"

    # Names of every length round the one that split "…Graça 2 / – 3 Benfica" at a table.
    for first in ("Tios", "Primos", "Amigos", "Vizinhos", "Compadres", "Reformados", "Veteranos"):
        group_rubber(live_server, group, teams=[f"Os {first} da Graça", "Benfica"])
    phone.goto(group_page)
    scores = phone.locator(".group-history .result strong")
    assert scores.count() == 12
    for score in scores.all():
        text = score.inner_text()
        assert score.evaluate(LINES_OF, text[text.index("–") - 2 : text.index("–") + 3]) == 1, text

    phone.goto(last["url"])
    count = phone.locator(".sitting-count")
    assert "Os Reformados 4 – 1 Benfica Sempre" in count.inner_text()
    assert count.evaluate(LINES_OF, "Reformados 4 – 1 Benfica") == 1, "the score left its names"
    # "…partidas ganhas Nós / 0 – 0 Eles" on a 390-px phone: the score and its names together.
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(requests.post(f"{live_server}/api/v1/rubbers", json={}, timeout=10).json()["url"])
    assert count.evaluate(LINES_OF, "Nós 0 – 0 Eles") == 1, count.inner_text()


def test_past_the_target_the_tally_and_the_cross_say_the_real_count(
    live_server: str, phone: Any
) -> None:
    """Item 11: at 3-0 a hand of two games ends 5-0: five strokes, and the cross says so."""
    created = requests.post(f"{live_server}/api/v1/rubbers", json={}, timeout=10).json()
    for _ in range(3):
        record(live_server, created, {"points": [75, 45]})
    record(live_server, created, {"points": [95, 25]})
    phone.goto(created["url"])
    phone.locator(".tally-view > summary").tap()
    tally = phone.get_by_role("img", name="Nós: 5 jogos")
    assert tally.locator("line").count() == 5
    cross = phone.get_by_role("img", name="Cruz: Nós 5, Eles 0")
    # The cross keeps the target's four dots (RULES.md) and writes the game past them.
    assert cross.locator(".dot.team0").count() == 4
    beyond = cross.locator("text.beyond")
    assert beyond.count() == 1
    assert beyond.text_content() == "+1"
    assert "team0" in (beyond.get_attribute("class") or "")


NAMED = {
    ".scoreline > span": 2,
    ".seat .player": 4,
    ".whose label > span": 2,
    ".quick button.team0 .who, .quick button.team1 .who": 4,
}
"""Where the rubber page writes a team's or a player's name, and how many times."""

CUT = """(selector) => [...document.querySelectorAll(selector)].map((element) => {
  const style = getComputedStyle(element);
  return {
    text: element.textContent,
    cut: element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1,
    ellipsis: style.textOverflow === "ellipsis" || style.webkitLineClamp !== "none",
  };
})"""

CROSS_NAMES = """() => [...document.querySelectorAll(".cross .team-name")].map((text) => {
  const box = text.getBBox();
  return { text: text.textContent, left: box.x, right: box.x + box.width };
})"""

PANEL = """() => {
  const sheet = document.querySelector(".thumb-sheet").getBoundingClientRect();
  const controls = {};
  for (const control of document.querySelectorAll(".thumb-sheet button, .thumb-sheet summary, .thumb-sheet label")) {
    if (!control.checkVisibility()) continue;
    const box = control.getBoundingClientRect();
    controls[control.textContent.replace(/\\s+/g, " ").trim()] = [box.x, box.y, box.width, box.height];
  }
  const dealer = document.querySelector(".role-deals").getBoundingClientRect();
  return { share: (innerHeight - sheet.top) / innerHeight, controls, dealer: dealer.bottom, top: sheet.top };
}"""
"""The panel's share of the screen (from its top edge to the screen's bottom), where each of its
visible controls is, and where the seat that deals ends."""


def test_long_names_are_never_cut(live_server: str, phone: Any) -> None:
    """Item 2: the score, the seats, the cross and the panel's buttons show whole names."""
    group = new_group(live_server)
    rubber = group_rubber(
        live_server, group, teams=["Os Reformados do Bairro", "Benfica Se Unidos"]
    )
    record(live_server, rubber, {"points": [75, 45]})
    phone.set_viewport_size(SMALL)
    phone.goto(rubber["edit_url"])
    names = {*TEAMS, *PLAYERS, "Os Reformados do Bairro", "Benfica Se Unidos"}
    for selector, count in NAMED.items():
        shown = phone.evaluate(CUT, selector)
        assert len(shown) == count, selector
        for name in shown:
            assert name["text"] in names, f"{selector}: {name['text']!r} is not a whole name"
            assert not name["cut"] and not name["ellipsis"], f"{selector}: {name} is cut"
    crossed = phone.evaluate(CROSS_NAMES)
    assert [name["text"] for name in crossed] == ["Os Reformados do Bairro", "Benfica Se Unidos"]
    for name in crossed:
        assert 0 <= name["left"] and name["right"] <= 200, f"{name} runs off the cross"


def test_the_panel_keeps_to_45_percent_and_nothing_moves(live_server: str, phone: Any) -> None:
    """Item 20: at 360×640 the panel is at most 45 % of the screen in every state.

    Closed, with the trump open and with the undo open; no control moves and the seat that
    deals stays in sight."""
    group = new_group(live_server)
    rubber = group_rubber(live_server, group)
    record(live_server, rubber, {"points": [75, 45]})
    phone.set_viewport_size(SMALL)
    phone.goto(rubber["edit_url"])
    closed = phone.evaluate(PANEL)
    shares = {"closed": closed["share"]}
    for part, summary in (("trump", "details.trump > summary"), ("undo", "details.undo > summary")):
        phone.locator(summary).tap()
        opened = phone.evaluate(PANEL)
        shares[part] = opened["share"]
        assert opened["top"] == closed["top"], f"opening the {part} moved the panel's top"
        for name, box in closed["controls"].items():
            if name in opened["controls"]:
                assert opened["controls"][name] == box, f"opening the {part} moved {name!r}"
        assert opened["dealer"] <= opened["top"], f"with the {part} open the dealer is hidden"
        new = [name for name in opened["controls"] if name not in closed["controls"]]
        assert new, f"opening the {part} showed nothing"
        for name in new:
            x, y, width, height = opened["controls"][name]
            assert y >= opened["top"] and y + height <= SMALL["height"], f"{name} is off the panel"
        phone.locator(summary).tap()  # closed again
    print("\nthe panel's share of a 360×640 screen:", {k: f"{v:.1%}" for k, v in shares.items()})
    for state, share in shares.items():
        assert share <= 0.45, f"the panel takes {share:.1%} of the screen with the {state} open"
