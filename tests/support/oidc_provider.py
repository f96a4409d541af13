"""A real OpenID Connect provider for the sign-in tests, and the secrets that point the app at it.

``oidc-provider-mock`` (test extra) serves a login form and signs real ID tokens with its own
key: a browser signs in through it exactly as through Google or Entra, Streamlit's Authlib
client fetches its metadata, exchanges the code and checks the token. It runs in a thread of
the test process on a free 127.0.0.1 port (werkzeug), with the accounts given; nothing leaves
this machine.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import werkzeug.serving
from oidc_provider_mock import User, app

CLIENT_ID = "ranklens-tests"


@dataclass(frozen=True)
class Provider:
    """A running provider: where its OpenID configuration is, and its accounts by ``sub``."""

    url: str
    accounts: Mapping[str, Mapping[str, object]]

    @property
    def metadata_url(self) -> str:
        return f"{self.url}/.well-known/openid-configuration"


@contextmanager
def running_provider(accounts: Mapping[str, Mapping[str, object]]) -> Iterator[Provider]:
    """Serve the provider until the block ends; ``accounts`` maps each ``sub`` (the button
    its login form shows) to its claims (email, name, email_verified)."""
    users = [User(sub=sub, claims=dict(claims)) for sub, claims in accounts.items()]
    server = werkzeug.serving.make_server("127.0.0.1", 0, app(user_claims=users),
                                          threaded=True)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1},
                              daemon=True)
    thread.start()
    try:
        yield Provider(f"http://127.0.0.1:{server.server_port}", accounts)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def write_secrets(path: Path, metadata_url: str, **overrides: str | None) -> Path:
    """A secrets file with an ``[auth]`` section for the app started by ``start_app``
    (``{port}`` is filled in by Streamlit); an override of None leaves that key out."""
    keys: dict[str, str | None] = {
        "redirect_uri": "http://127.0.0.1:{port}/oauth2callback",
        "cookie_secret": secrets.token_hex(32),
        "client_id": CLIENT_ID,
        "client_secret": secrets.token_hex(16),
        "server_metadata_url": metadata_url,
        **overrides,
    }
    lines = ["[auth]", *(f'{key} = "{value}"' for key, value in keys.items()
                         if value is not None)]
    path.write_text("\n".join(lines) + "\n")
    return path
