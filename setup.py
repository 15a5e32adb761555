"""The build steps pyproject.toml cannot say: the compiled catalogues and the analysis' core.

The .mo files are not committed (make compiles them in a checkout); without this, a wheel built
from a clean clone served English to a pt-PT phone. Babel is a build requirement for it.
The analysis' C core is optional: without a compiler the install goes on, and the analysis
runs its pure-Python search (scorekeeper/engine/analysis/search.py), slower but the same.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

CATALOGUES = Path(__file__).resolve().parent / "scorekeeper" / "translations"


class build_py_with_catalogues(build_py):  # noqa: N801 - setuptools' naming
    """build_py, then each messages.po compiled into the build, beside its copy."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's, which make compiles
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for source in sorted(CATALOGUES.glob("*/LC_MESSAGES/messages.po")):
            locale = source.parent.parent.name
            target = Path(self.build_lib, "scorekeeper", "translations", locale, "LC_MESSAGES")
            target.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po:
                catalog = read_po(po, locale=locale)
            with (target / "messages.mo").open("wb") as mo:
                write_mo(mo, catalog, use_fuzzy=False)


SEARCH = Extension(
    "scorekeeper.engine.analysis._search",
    sources=["scorekeeper/engine/analysis/_search.c"],
    extra_compile_args=["-O3"],
    optional=True,
)

setup(cmdclass={"build_py": build_py_with_catalogues}, ext_modules=[SEARCH])
