"""The Flask extensions, made once and bound to the app by create_app."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask_babel import Babel
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    """The models' base: every table of every feature is in its metadata."""


db = SQLAlchemy(model_class=Base)

# The models' base class: db.Model, which Flask-SQLAlchemy makes at run time from Base (its
# declarative machinery plus the extension's mixins), so mypy cannot see it; it types as Base.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate()
csrf = CSRFProtect()
babel = Babel()
