"""A write to a rubber's or a bidding game's hands, answered as the API answers it.

The write is web/writes' (versioned, idempotent); here its refusals become the API's errors,
and its answer the state as JSON, with ``Idempotent-Replayed`` on an answer given again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Response, jsonify, request

from scorekeeper.api.errors import ApiError
from scorekeeper.web.writes import Conflict

CONFLICT_FIELDS = {"stale": "version", "key_reused": "key"}
"""The field of a body a 409 is about: the version it carried, or its idempotency key."""


class Keyed(Protocol):
    """A write's body: its idempotency key and the version it was sent against."""

    @property
    def key(self) -> str | None: ...

    @property
    def version(self) -> int | None: ...


@dataclass(frozen=True)
class Answering:
    """How one feature's writes are answered: its state as JSON and its words."""

    respond: Callable[[Any, Any], dict[str, Any]]
    """The state's JSON, from the row and its state."""
    conflict: Callable[[str], str]
    """The sentence of a write the row's state refused (a :class:`Conflict`'s code)."""
    unknown: Callable[[], ApiError]
    """The 404 of a row that is not there (deleted since the key was checked)."""
    refused: tuple[type[Exception], ...]
    refusal: Callable[[Any], ApiError]
    """The engine's refusals of the change, and the API's error for each."""

    def answer(
        self, run: Callable[..., Any], given: Keyed, body: Any, status: int
    ) -> tuple[Response, int]:
        """Run the write and answer it.

        ``run`` is the feature's store's write with its row and change given
        (``partial(store.write, rubber_id, change)``), ``given`` the body read, ``body`` the
        request's JSON and ``status`` the answer's on success."""
        # The key covers the request, not just its body: the same body to another address is
        # another write.
        request_body = {"method": request.method, "path": request.path, "body": body}
        try:
            written = run(
                key=given.key,
                body=request_body,
                version=given.version,
                status=status,
                respond=self.respond,
            )
        except Conflict as conflict:
            field = CONFLICT_FIELDS.get(conflict.code)
            message = conflict.message or self.conflict(conflict.code)
            raise ApiError(409, message, field, conflict.code) from None
        except self.refused as error:
            raise self.refusal(error) from None
        except LookupError as error:
            if isinstance(error, KeyError | IndexError):
                raise
            raise self.unknown() from None
        answer = jsonify(written.response or self.respond(written.row, written.state))
        if written.repeated:
            answer.headers["Idempotent-Replayed"] = "true"
        return answer, written.status
