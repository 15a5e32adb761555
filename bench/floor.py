"""The app with the hand's database write taken out: the floor under the record-a-hand figure.

Everything else of the hand form's POST is as gunicorn serves it (the session, the CSRF check,
the form, the engine, the note for the next page, the redirect); only recording.record_hand is
replaced, by scoring the hand on a new rubber and storing nothing. What this answers per second
is the most the real POST could, were its write free.
"""

from scorekeeper import engine
from scorekeeper.rubbers import recording
from scorekeeper.rubbers.recording import Recorded


def _nothing_stored(_rubber_id: str, _device: str, hand: engine.Hand, **_: object) -> Recorded:
    _tally, result = engine.next_hand(engine.Tally(engine.RuleSet()), hand)
    return Recorded(("Nós", "Eles"), result)


recording.record_hand = _nothing_stored  # type: ignore[assignment]

from bench.wsgi import app  # noqa: E402  (the app made after the write is taken out)

__all__ = ["app"]
