"""The groups' HTML forms: a new group, and a rubber started in one."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField
from wtforms.validators import DataRequired, Length

from scorekeeper.rubbers.forms import NewRubberForm
from scorekeeper.web.columns import NAME_LENGTH
from scorekeeper.web.forms import Form, name_text, printable


class NewGroupForm(Form):
    """A group of regulars: only its name."""

    name = StringField(
        _l("Name of the group"),
        validators=[
            DataRequired(message=_l("Give the group a name.")),
            Length(max=NAME_LENGTH, message=_l("At most %(max)d characters.")),
            printable,
        ],
        filters=[name_text],
        render_kw={"placeholder": _l("Tasca do Zé, Fridays"), "autocomplete": "off"},
    )


class GroupRubberForm(NewRubberForm):
    """A rubber started in a group: the seats filled by tapping the group's names, or typed.

    One tap each (the page comes back with the name in the next empty seat)."""

    pick = HiddenField()
    unpick = HiddenField()
    action = HiddenField()
