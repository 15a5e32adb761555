from collections.abc import Callable
from typing import Any

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Flask

class Babel:
    def __init__(
        self,
        app: Flask | None = None,
        date_formats: dict[str, str | None] | None = None,
        configure_jinja: bool = True,
        *args: Any,
        **kwargs: Any,
    ) -> None: ...
    def init_app(
        self,
        app: Flask,
        default_locale: str = "en",
        default_domain: str = "messages",
        default_translation_directories: str = "translations",
        default_timezone: str = "UTC",
        locale_selector: Callable[[], str | None] | None = None,
        timezone_selector: Callable[[], str | None] | None = None,
    ) -> None: ...

def get_translations() -> Translations | NullTranslations: ...
def get_locale() -> Locale | None: ...
def refresh() -> None: ...
def gettext(string: str, **variables: Any) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str: ...
def format_datetime(
    datetime: Any = None, format: str | None = None, rebase: bool = True
) -> str: ...

# A LazyString at run time, translated when it is rendered; WTForms takes it wherever it takes
# a str (labels, choices, messages), so it is typed as one.
def lazy_gettext(string: str, **variables: Any) -> str: ...
