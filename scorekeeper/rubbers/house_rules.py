"""Which rules a new rubber starts on, and the rules in force said in words.

A phone that has played before starts on its last rubber's rules; a phone new to the app
starts on the preset of its language (Brasil in pt-BR, Portugal otherwise). A group's new
rubber starts on the group's last rubber's rules, else its language's preset. The rubber page
names its preset and every setting changed from it (``engine.RuleSet.changed``), with the
words of the new-rubber form, so each says a setting the same way.
"""

from __future__ import annotations

import json
from typing import Any

from flask import request
from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers.forms import AS_PRESET, NewRubberForm
from scorekeeper.rubbers.models import DeviceRubber, Rubber
from scorekeeper.web.device import current_device
from scorekeeper.web.forms import choices

LOCALE_PRESETS = {"pt_BR": "brasil"}
"""The preset a phone new to the app starts on, by its language; Portugal's otherwise."""


def starting_rules(device: str | None) -> engine.RuleSet:
    """The rules of the phone's last rubber, else its language's preset."""
    if device:
        return _rules_or_language(
            db.select(Rubber.rules)
            .join(DeviceRubber, DeviceRubber.rubber_id == Rubber.id)
            .where(DeviceRubber.device == device)
            .order_by(DeviceRubber.created_at.desc(), DeviceRubber.rubber_id.desc())
        )
    return _rules_or_language(None)


def group_starting_rules(group_id: str) -> engine.RuleSet:
    """The rules of the group's last rubber, else the language's preset."""
    return _rules_or_language(
        db.select(Rubber.rules)
        .where(Rubber.group_id == group_id)
        .order_by(Rubber.group_seq.desc(), Rubber.created_at.desc())
    )


def _rules_or_language(last_rules: Any) -> engine.RuleSet:
    """The rules the query's first row holds, else the preset of the reader's language."""
    last = db.session.execute(last_rules.limit(1)).scalar() if last_rules is not None else None
    if last:
        try:
            return engine.RuleSet.from_dict(last)
        except engine.RulesError:
            pass  # a rubber stored under rules this version no longer takes
    return engine.PRESETS[LOCALE_PRESETS.get(str(get_locale()), "portugal")]


def fill(form: NewRubberForm, rules: engine.RuleSet) -> None:
    """Set a new-rubber form's rules to these: the preset, and each setting changed."""
    for name, value in form_values(rules).items():
        form[name].data = int(value) if name == "games_to_win" else value


def form_values(rules: engine.RuleSet) -> dict[str, str]:
    """The new-rubber form's fields for these rules: the preset, and each setting changed."""
    written = rules.to_dict()
    values = {"preset": rules.preset}
    for name in rules.changed():
        value = written[name]
        values[name] = ("yes" if value else "no") if isinstance(value, bool) else str(value)
    return values


def new_rubber_form() -> NewRubberForm:
    """Return the new-rubber form of this request.

    It holds what was posted, or, for the page's first view and a one-tap start that says no
    rules, the rules this phone starts on. Each house-rule box says what its preset has."""
    form = NewRubberForm()
    posted = request.method == "POST"
    # The full form always sends its preset; the home page's one tap may not (an old page).
    bare_tap = (
        posted and request.endpoint == "rubbers.quick_rubber" and "preset" not in request.form
    )
    if bare_tap or (not posted and "preset" not in request.args):
        fill(form, starting_rules(current_device()))
    elif not posted and request.args.get("preset") in engine.PRESETS:
        form.preset.data = request.args["preset"]
    dress(form)
    return form


def dress(form: NewRubberForm) -> None:
    """Make a new-rubber form say what it holds, the home page's and a group's alike.

    Each house rule's "as the preset says" says the preset's value; the target shows the
    preset's when none was typed; the first dealer's list names the players typed, each seat
    its number when empty (static/rules.js follows the typing)."""
    dress_rules(form)
    dealer = _select(form, "first_dealer")
    seats = [str(choice.label) for choice in dealer.choices[:4]]
    names = [(form[f"player{seat}"].data or "").strip() for seat in range(4)]
    dealer.choices = [
        *choices([(str(seat), names[seat] or seats[seat]) for seat in range(4)]),
        *dealer.choices[4:],
    ]
    dealer.render_kw = {"data-seats": json.dumps(seats, ensure_ascii=False)}


def dress_rules(form: NewRubberForm) -> None:
    """The rules' part of :func:`dress`, for any form with a rubber's rules (a tournament's).

    Each house rule's "as the preset says" says the preset's value; the target shows the
    preset's when none was typed."""
    _show_preset_values(form)
    preset = engine.PRESETS.get(str(form.preset.data), engine.PRESETS["portugal"])
    if form.games_to_win.data is None and not form.games_to_win.raw_data:
        form.games_to_win.data = preset.games_to_win


def _select(form: NewRubberForm, name: str) -> Any:
    """A select box of the form (WTForms' stubs type its choices as pairs, not SelectChoice)."""
    return form[name]


def _option_words(form: NewRubberForm, name: str, rules: engine.RuleSet) -> str:
    value = rules.to_dict()[name]
    wanted = ("yes" if value else "no") if isinstance(value, bool) else str(value)
    options = _select(form, name).choices
    return str(next(choice.label for choice in options if choice.value == wanted))


def _show_preset_values(form: NewRubberForm) -> None:
    """Make each house-rule box's "as the preset says" option say what the preset has.

    Each box carries every preset's value too, for the page to follow a change of preset."""
    preset = engine.PRESETS.get(str(form.preset.data), engine.PRESETS["portugal"])
    for name in form.SETTINGS:
        field = _select(form, name)
        words = {key: _option_words(form, name, rules) for key, rules in engine.PRESETS.items()}
        field.choices = [
            *choices([(AS_PRESET, _("as the preset says: %(value)s", value=words[preset.preset]))]),
            *field.choices[1:],
        ]
        # On the choices' fieldset, not on each radio button (render_kw would be on each).
        field.fieldset_kw = {
            "data-preset-values": json.dumps(words, ensure_ascii=False),
            "data-as-preset": _("as the preset says: %(value)s", value="{value}"),
        }


def rules_in_words(rules: engine.RuleSet) -> str:
    """The rules in force: the preset's name, and every setting changed from it in words."""
    form = NewRubberForm(formdata=None)
    presets = _select(form, "preset").choices
    preset = next(str(choice.label) for choice in presets if choice.value == rules.preset)
    changed = []
    for name in rules.changed():
        if name == "games_to_win":
            changed.append(f"{form.games_to_win.label.text}: {rules.games_to_win}")
        else:
            changed.append(f"{form[name].label.text}: {_option_words(form, name, rules)}")
    if not changed:
        return _("Rules: %(preset)s.", preset=preset)
    return _("Rules: %(preset)s, with %(changes)s.", preset=preset, changes="; ".join(changed))


DIRECTION_ARROWS = {
    engine.rules.Direction.COUNTERCLOCKWISE: "↺",
    engine.rules.Direction.CLOCKWISE: "↻",
}
"""The arrow beside the next hand's number on the rubber page, by the direction of play."""


def direction_turn(rules: engine.RuleSet) -> tuple[str, str]:
    """The direction of play as a sentence and its arrow: ("Play goes clockwise", "↻")."""
    if rules.direction is engine.rules.Direction.COUNTERCLOCKWISE:
        return _("Play goes counter-clockwise"), DIRECTION_ARROWS[rules.direction]
    return _("Play goes clockwise"), DIRECTION_ARROWS[rules.direction]


def rules_in_full(rules: engine.RuleSet) -> list[str]:
    """Every setting of the rules in force, one line each, a house rule said to be one.

    The lines are the new-rubber form's labels and options for the engine's values
    (docs/decisions/rubber-page.md, "The rules in force, in full"); the direction of play
    carries the arrow the page shows beside the next hand's number."""
    form = NewRubberForm(formdata=None)
    changed = set(rules.changed())
    lines = []
    for name in ("games_to_win", *form.SETTINGS):
        if name == "games_to_win":
            value = str(rules.games_to_win)
        else:
            value = _option_words(form, name, rules)
        if name == "direction":
            value = f"{value} {DIRECTION_ARROWS[rules.direction]}"
        line = f"{form[name].label.text}: {value}"
        lines.append(_("%(rule)s (house rule)", rule=line) if name in changed else line)
    return lines


def template_globals() -> dict[str, Any]:
    """What the templates call: the rules in force in words, in full, the direction's arrow."""
    return {
        "rules_in_words": rules_in_words,
        "rules_in_full": rules_in_full,
        "direction_turn": direction_turn,
    }
