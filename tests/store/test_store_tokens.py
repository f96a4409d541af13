"""Every bad token gets the same ReportNotFound; good tokens carry 192 random bits."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ranklens.store import ReportNotFound, ReportStore, new_token, parse_token, token_digest
from ranklens.store.errors import NOT_FOUND_MESSAGE
from tests.support.store_helpers import Backend, FakeClock

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"

BAD_TOKENS = [
    "",
    " ",
    "../../../etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "/etc/passwd" + "A" * 21,
    "..\\..\\windows\\system32\\config",
    "' OR '1'='1",
    "'; DROP TABLE reports; --",
    "\" OR 1=1 --" + "A" * 21,
    "A" * 31 + "'",
    "A" * 31 + "%",
    "A" * 31 + "*",
    "%" * 32,
    "_" * 31 + "\x00",
    "A" * 33,
    "A" * 31,
    "A" * 10_000,
    "A" * 10_000_000,
    "Ａ" * 32,  # fullwidth letters
    "é" * 32,
    "A" * 31 + "\n",
    " " + "A" * 31,
    "\u202e" + "A" * 31,
    "😀" * 32,
]


def test_new_tokens_are_long_urlsafe_and_distinct() -> None:
    tokens = {new_token() for _ in range(1000)}
    assert len(tokens) == 1000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{32}", t) for t in tokens)
    assert parse_token(next(iter(tokens))) in tokens


def test_token_is_not_a_storage_key(store: ReportStore, backend: Backend) -> None:
    token = store.put({}, {"run_a": b"x"})
    if backend.name == "sqlite":
        path = Path(backend.location)
        files = [path, path.with_name(path.name + "-wal")]
        on_disk = b"".join(f.read_bytes() for f in files if f.exists())
        assert token.encode() not in on_disk
        assert token_digest(token) in on_disk
    else:
        with backend.raw_connection() as conn:
            rows = [r[0] for r in conn.execute("SELECT r::text FROM ranklens.reports r")]
            keys = [bytes(r[0]) for r in conn.execute("SELECT token_digest FROM ranklens.reports")]
        assert len(rows) == 1 and token not in rows[0]
        assert keys == [token_digest(token)]


@pytest.mark.parametrize("bad", BAD_TOKENS, ids=lambda t: repr(t[:20]) + f"/{len(t)}")
def test_malformed_tokens_are_not_found(store: ReportStore, bad: str) -> None:
    store.put({}, {"run_a": b"x"})
    for call in (store.get, store.delete, parse_token):
        with pytest.raises(ReportNotFound) as caught:
            call(bad)
        assert str(caught.value) == NOT_FOUND_MESSAGE
    assert store.usage().reports == 1
    assert store.integrity_check() == "ok"


@pytest.mark.parametrize("bad", [None, 12345, b"A" * 32, ["A" * 32]])
def test_non_string_tokens_are_not_found(store: ReportStore, bad: object) -> None:
    with pytest.raises(ReportNotFound):
        store.get(bad)  # type: ignore[arg-type]


def test_unknown_token_and_near_misses_say_the_same(store: ReportStore) -> None:
    token = store.put({}, {"run_a": b"x"})
    near_misses = [
        new_token(),
        token[:-1] + ("A" if token[-1] != "A" else "B"),
        token.swapcase() if token.swapcase() != token else new_token(),
        token[1:] + token[0],
    ]
    messages = set()
    for candidate in near_misses:
        with pytest.raises(ReportNotFound) as caught:
            store.get(candidate)
        messages.add(str(caught.value))
    assert messages == {NOT_FOUND_MESSAGE}
    assert store.get(token).inputs["run_a"] == b"x"


def test_expired_report_is_not_found(store: ReportStore, clock: FakeClock) -> None:
    token = store.put({}, {"run_a": b"x"}, ttl=timedelta(hours=1))
    keep = store.put({}, {"run_a": b"y"})
    clock.advance(3599)
    assert store.get(token).inputs["run_a"] == b"x"
    clock.advance(1)
    with pytest.raises(ReportNotFound, match=f"^{NOT_FOUND_MESSAGE}$"):
        store.get(token)
    assert store.purge_expired() == 1
    assert store.usage().reports == 1
    assert store.usage().blobs == 1
    assert store.get(keep).inputs["run_a"] == b"y"


def test_default_ttl_applies_when_put_has_none(backend: Backend, clock: FakeClock) -> None:
    store = backend.open(default_ttl=timedelta(days=1), clock=clock)
    token = store.put({}, {"run_a": b"x"})
    clock.advance(86_400)
    with pytest.raises(ReportNotFound):
        store.get(token)


def test_deleted_report_is_not_found(store: ReportStore) -> None:
    token = store.put({}, {"run_a": b"x"})
    store.delete(token)
    with pytest.raises(ReportNotFound):
        store.get(token)
    with pytest.raises(ReportNotFound):
        store.delete(token)


@given(candidate=st.text(max_size=200))
def test_parse_token_accepts_only_the_token_shape(candidate: str) -> None:
    shaped = len(candidate) == 32 and all(c in ALPHABET for c in candidate)
    if shaped:
        assert parse_token(candidate) == candidate
    else:
        with pytest.raises(ReportNotFound):
            parse_token(candidate)


@settings(
    max_examples=200,
    deadline=None,  # each example is a database read; a loaded CI machine may take >200 ms
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    candidate=st.one_of(
        st.text(max_size=100),
        st.text(alphabet=ALPHABET, min_size=32, max_size=32),
        st.binary(max_size=64).map(lambda b: b.decode("latin-1")),
    )
)
def test_store_answers_not_found_for_any_unknown_string(
    store: ReportStore, candidate: str
) -> None:
    with pytest.raises(ReportNotFound) as caught:
        store.get(candidate)
    assert str(caught.value) == NOT_FOUND_MESSAGE
