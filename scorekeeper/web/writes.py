"""The versioned, idempotent write of every feature: a rubber, a bidding game, what comes next.

A write runs a change on one row in one transaction and answers with the row's new state:

- a write key (an idempotency key) seen before with the same body answers the first answer
  again, marked repeated; with another body, :class:`Conflict` ``key_reused``;
- a version the client last saw that is not the row's: ``stale``;
- the row's version column (SQLAlchemy's ``version_id_col``) refuses a write based on a stale
  read: the write reads again and tries again, up to ``tokens.RETRIES`` times, then ``busy``.

Each store names what the write needs of its rows in a :class:`Versioned`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.extensions import db
from scorekeeper.web import tokens
from scorekeeper.web.columns import WRITE_KEY_LENGTH


class Conflict(Exception):
    """A write refused because of the row's state, not the input: answered with 409.

    ``code`` is ``stale``, ``key_reused`` or ``busy`` here; a feature adds its own (a bidding
    game's ``ends_early``, ``no_hands``)."""

    def __init__(self, code: str, message: str | None = None) -> None:
        self.code = code
        self.message = message
        """The refusal in words where its code alone cannot say it (which match depends)."""
        super().__init__(code)


RowT = TypeVar("RowT")
"""A row a write changes (a rubber, a game): it has a ``version`` column, and a ``state()``
the engine folds from it."""
StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Versioned(Generic[RowT, StateT]):
    """What the write needs of one kind of row.

    ``model`` and ``key_model`` are the row's table and its write keys' (whose primary key is
    the row's id then the key); ``owner`` names the write key's column of the row's id;
    ``refresh`` stores the new state's totals on the row."""

    model: type[RowT]
    key_model: type[Any]
    owner: str
    refresh: Callable[[RowT, StateT], None]

    def write(  # noqa: PLR0913  a write's options, keyword-only, as each caller names them
        self,
        row_id: str,
        change: Callable[[RowT], StateT],
        *,
        key: str | None = None,
        body: Any = None,
        version: int | None = None,
        status: int = 200,
        respond: Callable[[RowT, StateT], dict[str, Any]] | None = None,
    ) -> Written[RowT, StateT]:
        """Run ``change`` on the row in one transaction, again when another write got there first.

        Raises LookupError (no such row, or an id that could be none), :class:`Conflict`, or
        what ``change`` raises (the engine's refusals); nothing is stored then.
        """
        if not tokens.is_token(row_id):
            raise LookupError(row_id)
        check_key(key)
        attempt = _Attempt(row_id, change, key, tokens.body_hash(body), version, status, respond)
        for tried in range(tokens.RETRIES):
            try:
                return self._write_once(attempt, again=tried > 0)
            except (StaleDataError, IntegrityError, OperationalError) as error:
                db.session.rollback()
                if isinstance(error, OperationalError) and not tokens.lost_a_race(error):
                    raise
                if version is not None and isinstance(error, StaleDataError):
                    raise Conflict("stale") from error
                if tried == tokens.RETRIES - 1:
                    raise Conflict("busy") from error
            except Exception:
                db.session.rollback()
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    @staticmethod
    def undo_last(row: RowT) -> StateT:
        """The change that removes the row's last hand."""
        current: Any = row  # its hands and state, which a TypeVar cannot promise
        if not current.hands:
            raise Conflict("no_hands")
        current.hands.pop()
        state: StateT = current.state()
        return state

    def _write_once(self, attempt: _Attempt[RowT, StateT], again: bool) -> Written[RowT, StateT]:
        if again:
            # Another write got there first: read everything again. The first attempt may use
            # what this request has loaded already, since the version column refuses a write
            # based on a stale read (StaleDataError, then this retry).
            db.session.expire_all()
        row = db.session.get(self.model, attempt.row_id)
        if row is None:
            raise LookupError(attempt.row_id)
        current: Any = row  # its version and state, which a TypeVar cannot promise
        if attempt.key is not None:
            seen = db.session.get(self.key_model, (attempt.row_id, attempt.key))
            if seen is not None:
                if seen.body_hash != attempt.digest:
                    raise Conflict("key_reused")
                db.session.rollback()
                return Written(row, current.state(), seen.status, seen.response, repeated=True)
        if attempt.version is not None and attempt.version != current.version:
            raise Conflict("stale")
        state = attempt.change(row)
        self.refresh(row, state)
        db.session.flush()
        response = attempt.respond(row, state) if attempt.respond else None
        if attempt.key is not None:
            db.session.add(
                self.key_model(
                    **{self.owner: attempt.row_id},
                    key=attempt.key,
                    body_hash=attempt.digest,
                    status=attempt.status,
                    response=response,
                )
            )
        db.session.commit()
        return Written(row, state, attempt.status, response)


@dataclass(frozen=True)
class _Attempt(Generic[RowT, StateT]):
    """One write as asked: what each try of it needs."""

    row_id: str
    change: Callable[[RowT], StateT]
    key: str | None
    digest: str
    version: int | None
    status: int
    respond: Callable[[RowT, StateT], dict[str, Any]] | None


@dataclass(frozen=True)
class Written(Generic[RowT, StateT]):
    """The answer to a write: the new state, or the first answer to a repeated key."""

    row: RowT
    state: StateT
    status: int
    response: dict[str, Any] | None
    repeated: bool = False


def check_key(key: str | None) -> None:
    if key is not None and not 0 < len(key) <= WRITE_KEY_LENGTH:
        # Callers validate first; this keeps PostgreSQL from being the one to say it.
        raise ValueError(f"a write key has 1 to {WRITE_KEY_LENGTH} characters")
