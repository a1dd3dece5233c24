"""Errors: one class per kind of failure, each carrying what the server said.

Every error answer of the server is ``{"error": {"code", "field", "message"}}``; :func:`error_for` maps its
HTTP status to a subclass of :class:`MemLoopError`, so callers can catch the kind they handle
(``except memloop.NotFound``) or everything (``except memloop.MemLoopError``).
"""

import builtins
from typing import Dict, Optional, Type

# The fields of the error object the server sends, in its order (the OpenAPI conformance test checks them).
ERROR_FIELDS = ("code", "field", "message")


class MemLoopError(Exception):
    """A request that did not succeed.

    Attributes:
        status: the HTTP status, or None when no answer came (connection failures).
        code: the server's error code (``invalid_argument``, ``not_found``, ...), or a client-side code.
        field: the request field at fault (``reward``, ``limit``, ...), or ``""``.
        message: the server's explanation.
    """

    def __init__(self, message: str, *, status: Optional[int] = None, code: str = "", field: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.field = field
        self.message = message

    def __str__(self) -> str:
        head = "HTTP %d" % self.status if self.status is not None else "no answer"
        where = " (field %s)" % self.field if self.field else ""
        return "%s %s%s: %s" % (head, self.code, where, self.message)

    def __repr__(self) -> str:
        return "%s(status=%r, code=%r, field=%r, message=%r)" % (
            type(self).__name__, self.status, self.code, self.field, self.message)


class BadRequest(MemLoopError):
    """400: a field is missing, malformed or out of range; ``field`` names it."""


class Unauthorized(MemLoopError):
    """401: no API key, or not a valid one."""


class Forbidden(MemLoopError):
    """403: refused, e.g. a request carrying a browser ``Origin`` the server does not allow."""


class NotFound(MemLoopError):
    """404: no such memory or retrieval, or a namespace this key may not use (the same answer)."""


class MethodNotAllowed(MemLoopError):
    """405: the server does not serve this method on this path (an older server than this client)."""


class Conflict(MemLoopError):
    """409: e.g. a retrieval already rewarded, or expired."""


class PayloadTooLarge(MemLoopError):
    """413: the request body is over the server's ``--max-body-bytes``."""


class UnsupportedMediaType(MemLoopError):
    """415: a request body that is not ``application/json``."""


class MisdirectedRequest(MemLoopError):
    """421: the ``Host`` header names a host the server does not answer for (see ``--allow-host``)."""


class ServerError(MemLoopError):
    """5xx: the server failed (see its log); 502: the embedding model failed; 503: the store is unavailable."""


class ServiceUnavailable(ServerError):
    """503: the store is unavailable, or the server is stopping."""


class ConnectionError(MemLoopError, builtins.ConnectionError):
    """No answer: the server could not be reached, or the connection failed or timed out.

    ``sent`` is False when the request surely never left this process (the connection could not be made);
    when True the server may have acted on it.
    """

    def __init__(self, message: str, *, sent: bool) -> None:
        super().__init__(message, status=None, code="connection_failed" if not sent else "no_answer")
        self.sent = sent


class UnexpectedResponse(MemLoopError):
    """The server answered with something this client cannot read (not the MemLoop API, or another version)."""


_BY_STATUS: Dict[int, Type[MemLoopError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    405: MethodNotAllowed,
    409: Conflict,
    413: PayloadTooLarge,
    415: UnsupportedMediaType,
    421: MisdirectedRequest,
    503: ServiceUnavailable,
}


def error_for(status: int, code: str, field: str, message: str) -> MemLoopError:
    """The error for an answer with HTTP ``status`` and the server's error object."""
    cls = _BY_STATUS.get(status)
    if cls is None:
        cls = ServerError if status >= 500 else MemLoopError
    return cls(message, status=status, code=code, field=field)
