"""An attacker's HTTP client against the app server: a session opened as the page would
(websocket, XSRF cookie), uploads into it, a signed sign-in cookie made with the server's
secret (what a browser holds after signing in), and the server's resident memory.

Shared by the route-guard tests (``tests/app``) and the browser suite's hostile-use test.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx


def signed_cookie(secret: str, url: str, claims: dict[str, Any]) -> str:
    """The ``_streamlit_user`` cookie Streamlit sets after ``claims`` signed in at ``url``."""
    from streamlit.web.server.starlette.starlette_app_utils import create_signed_value

    payload = json.dumps({"origin": url, "is_logged_in": True, **claims})
    return create_signed_value(secret, "_streamlit_user", payload).decode("latin-1")


@contextmanager
def open_session(url: str) -> Iterator[tuple[str, str]]:
    """What an anonymous attacker gets by opening the page, while the page stays open:
    (session id from the server's first messages, XSRF token from its cookie)."""
    import websockets.sync.client
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    xsrf = httpx.get(f"{url}/_stcore/health").cookies["_streamlit_xsrf"]
    with websockets.sync.client.connect(
            url.replace("http", "ws") + "/_stcore/stream", max_size=None,
            additional_headers={"Cookie": f"_streamlit_xsrf={xsrf}"}) as socket:
        rerun = BackMsg()
        rerun.rerun_script.query_string = ""
        socket.send(rerun.SerializeToString())
        session = ""
        while not session:
            message = ForwardMsg.FromString(socket.recv(timeout=60))
            if message.WhichOneof("type") == "new_session":
                session = message.new_session.initialize.session_id
        yield session, xsrf


def upload(url: str, session: str, xsrf: str, size: int, user: str | None = None) -> int:
    """PUT a ``size``-byte file into ``session`` as Streamlit's uploader does; the status
    (a refusal that closes the connection mid-body counts as its status, 403, when seen)."""
    cookies = {"_streamlit_xsrf": xsrf, **({"_streamlit_user": user} if user else {})}
    try:
        response = httpx.put(
            f"{url}/_stcore/upload_file/{session}/{uuid.uuid4()}",
            files={"file": ("run.trec", b"q Q0 d 1 1 r\n" * (size // 13))},
            headers={"X-Xsrftoken": xsrf}, cookies=cookies, timeout=60)
    except (httpx.WriteError, httpx.RemoteProtocolError, httpx.ReadError):
        return 0  # the server closed the connection before the body was sent
    return response.status_code


def rss_mb(pid: int, field: str = "VmRSS") -> float:
    """Process ``pid``'s resident memory in MB now (``VmRSS``), or its peak (``VmHWM``)."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(rf"{field}:\s+(\d+) kB", status)
    assert found, f"no {field} in /proc/{pid}/status"
    return int(found.group(1)) / 1024


