"""Database passwords out of every message: the one job of this module.

A PostgreSQL password can reach ranklens in four forms, and each is masked as ``***``:

- the user part of a URL: ``postgresql://rl:PW@host/db``;
- a query parameter of a URL: ``postgresql://rl@host/db?password=PW`` (also ``sslpassword``,
  and ``postgresql:///db?host=…&password=PW``);
- a libpq key=value string: ``host=… password=PW`` (also quoted, ``password='a b'``);
- the environment: ``PGPASSWORD`` (and ``PGSSLPASSWORD``), which libpq reads on its own;
  its value is masked wherever it appears in a message, as are the passwords of the URL or
  key=value string in ``RANKLENS_STORE``.

`redact_url` masks what one location string holds; `redact` masks a whole message (say, a
driver's error) against everything above; `RedactingFilter` applies `redact` to log records,
and `install_log_redaction` to every record the process makes (``ranklens app`` does).
Nothing here decides whether a string *is* a secret beyond these forms: a password written
into an unrelated free-text field is not found.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

MASK = "***"
SECRET_KEYS = frozenset({"password", "sslpassword"})
"""libpq parameters whose value is a secret (``passfile`` and ``sslkey`` are paths)."""
PASSWORD_ENVS = ("PGPASSWORD", "PGSSLPASSWORD")
"""Environment variables libpq takes a password from."""
STORE_ENV = "RANKLENS_STORE"

_KEY_VALUE = re.compile(
    r"(?P<key>\b(?:ssl)?password)(?P<eq>\s*=\s*)(?P<value>'(?:[^'\\]|\\.)*'|[^\s&;'\"]+)",
    re.IGNORECASE)
_USER_PART = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:/@\s]*):(?P<pw>[^@\s/]*)@")


def redact_url(text: str) -> str:
    """``text`` (a PostgreSQL URL, a libpq key=value string or a file path) with every
    password in it replaced by ``***``: the URL's user part, ``password=`` and
    ``sslpassword=`` wherever they appear. Other parts (user, host, database) stay."""
    if "://" in text:
        text = _redact_parsed_url(text)
    text = _USER_PART.sub(lambda m: f"{m['head']}:{MASK}@", text)
    return _KEY_VALUE.sub(lambda m: f"{m['key']}{m['eq']}{MASK}", text)


def _redact_parsed_url(url: str) -> str:
    try:
        parts = urlsplit(url.strip())
        netloc = parts.netloc
        if parts.password is not None:
            host = parts.hostname or ""
            if ":" in host:
                host = f"[{host}]"
            netloc = f"{parts.username or ''}:{MASK}@{host}"
            if parts.port is not None:
                netloc += f":{parts.port}"
        query = parts.query
        if query:
            pairs = parse_qsl(query, keep_blank_values=True)
            if any(key.lower() in SECRET_KEYS for key, _ in pairs):
                query = "&".join(
                    f"{quote(key)}="
                    f"{MASK if key.lower() in SECRET_KEYS else quote(value, safe='/:,')}"
                    for key, value in pairs)
        return urlunsplit(parts._replace(netloc=netloc, query=query))
    except ValueError:  # a malformed URL (bad port): say nothing of it rather than leak it
        return "the configured PostgreSQL URL"


def known_secrets(environ: Mapping[str, str] | None = None) -> list[str]:
    """The password values this process was given: ``PGPASSWORD``-style variables and the
    passwords inside ``RANKLENS_STORE`` (longest first; values under 4 characters are left
    out, as masking them would mangle ordinary words)."""
    env = os.environ if environ is None else environ
    found = {env.get(name, "") for name in PASSWORD_ENVS}
    store = env.get(STORE_ENV, "")
    if store:
        found.update(m["value"].strip("'") for m in _KEY_VALUE.finditer(store))
        try:
            parts = urlsplit(store.strip())
            found.add(parts.password or "")
            found.update(value for key, value in parse_qsl(parts.query)
                         if key.lower() in SECRET_KEYS)
        except ValueError:
            pass
    return sorted((s for s in found if len(s) >= 4), key=len, reverse=True)


def redact(message: str, environ: Mapping[str, str] | None = None) -> str:
    """``message`` with every password form above masked: in-text URLs and key=value pairs,
    and every value `known_secrets` answers, wherever it appears."""
    text = redact_url(message)
    for secret in known_secrets(environ):
        text = text.replace(secret, MASK)
    return text


class RedactingFilter(logging.Filter):
    """A log filter that masks passwords (`redact`) in a record's message and traceback.

    Attach it to a handler: every record that handler writes is masked, whichever logger made
    it. It never drops a record.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to the handler's own error path
            return True
        masked = redact(message)
        if masked != message:  # a record without a secret keeps its message and arguments
            record.msg, record.args = masked, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True


def install_log_redaction() -> bool:
    """Mask passwords (`redact`) in every log record this process makes from now on, whatever
    logger or handler (Streamlit's own loggers do not propagate, and replace their handlers
    when their configuration changes, so the record factory is where all of them meet).
    Answers False when already installed."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "ranklens_redacting", False):
        return False
    masking = RedactingFilter()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        masking.filter(record)
        return record

    factory.ranklens_redacting = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)
    return True
