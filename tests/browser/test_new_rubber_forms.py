"""The two new-rubber forms on a small phone (issue 25, item 12): the home page's and a group's.

Every house rule's choices are read whole at 360 px, measured; "Jogos para ganhar" shows its
value; "Primeiro a dar" lists the names typed; both forms ask in the same order.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .test_fit import new_group

SMALL = {"width": 360, "height": 640}

CUT = """(form) => {
  // Every label, legend, box and choice of the form whose words do not fit its box.
  const cut = [];
  const canvas = document.createElement("canvas").getContext("2d");
  for (const element of form.querySelectorAll("label, legend, select, input, summary, .choice span")) {
    if (element.type === "hidden" || !element.getClientRects().length) continue;
    if (element.scrollWidth > element.clientWidth + 1) {
      cut.push(`${element.tagName} ${element.textContent.trim() || element.name}: ` +
               `${element.scrollWidth} > ${element.clientWidth}`);
    }
    if (element.right === undefined && element.getBoundingClientRect().right > innerWidth) {
      cut.push(`${element.tagName} ${element.textContent.trim()}: off the screen`);
    }
    if (element.tagName === "SELECT") {
      // A box shows its chosen option on one line: the words of each must fit inside it.
      const style = getComputedStyle(element);
      canvas.font = style.font;
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
      for (const option of element.options) {
        const width = Math.ceil(canvas.measureText(option.textContent).width);
        if (width > room) cut.push(`${element.name}: "${option.textContent}" ${width} > ${room}`);
      }
    }
  }
  return cut;
}"""

ORDER = """(form) => [...form.querySelectorAll("input, select")]
  .filter((element) => element.type !== "hidden" && element.name)
  .map((element) => element.name)
  .filter((name, at, names) => names.indexOf(name) === at)"""


def group_form(base: str, phone: Any) -> str:
    group = new_group(base)
    phone.goto(group["edit_url"])  # the group's edit rights, for its new-rubber form
    return f"{base}/g/{group['id']}/rubbers/new"


def open_house_rules(phone: Any) -> Any:
    form = phone.locator("main form").last
    form.locator("details summary").first.tap()
    return form


def test_every_choice_is_read_whole_on_a_small_phone(live_server: str, phone: Any) -> None:
    phone.set_viewport_size(SMALL)
    for url in (f"{live_server}/rubbers/new", group_form(live_server, phone)):
        phone.goto(url)
        form = open_house_rules(phone)
        assert form.evaluate(CUT) == [], url
        # The Azores' "o 10" and Brasil's words follow the preset, and fit too.
        for preset in ("brasil", "acores", "online", "portugal"):
            form.get_by_label("Regras", exact=True).select_option(preset)
            assert form.evaluate(CUT) == [], (url, preset)
        tie = form.locator("[data-preset-values]").first
        expect(tie).to_contain_text("a próxima mão vale mais um jogo")


def test_games_to_win_shows_its_value(live_server: str, phone: Any) -> None:
    for url in (f"{live_server}/rubbers/new", group_form(live_server, phone)):
        phone.goto(url)
        open_house_rules(phone)
        expect(phone.get_by_label("Jogos para ganhar a partida")).to_have_value("4")


def test_the_first_dealer_is_chosen_by_name(live_server: str, phone: Any) -> None:
    phone.goto(f"{live_server}/rubbers/new")
    dealer = phone.get_by_label("Primeiro a dar")
    options = dealer.locator("option")
    expect(options.nth(0)).to_have_text("Lugar 1")
    phone.get_by_label("Lugar 1", exact=True).fill("Ana")
    phone.get_by_label("Lugar 3", exact=True).fill("Rui")
    expect(options.nth(0)).to_have_text("Ana")
    expect(options.nth(1)).to_have_text("Lugar 2")
    expect(options.nth(2)).to_have_text("Rui")
    phone.get_by_label("Lugar 1", exact=True).fill("")
    expect(options.nth(0)).to_have_text("Lugar 1")

    # A group's form: the names tapped come back from the server in the list.
    phone.goto(group_form(live_server, phone))
    phone.get_by_label("Lugar 2", exact=True).fill("Zé")
    phone.get_by_label("Lugar 2", exact=True).dispatch_event("input")
    expect(phone.get_by_label("Primeiro a dar").locator("option").nth(1)).to_have_text("Zé")


def test_both_forms_ask_in_the_same_order(live_server: str, phone: Any) -> None:
    orders = []
    for url in (f"{live_server}/rubbers/new", group_form(live_server, phone)):
        phone.goto(url)
        orders.append(phone.locator("main form").last.evaluate(ORDER))
    assert orders[0] == orders[1]
    assert orders[0][:5] == ["player0", "player1", "player2", "player3", "first_dealer"]
