"""A throwaway PostgreSQL server for the tests: initdb + pg_ctl on a temp dir and a free port.

Uses Debian's ``postgresql`` package (``make test`` and ``.ci/run`` install it when missing);
the binaries are looked up on PATH, then in ``/usr/lib/postgresql/*/bin``. PostgreSQL refuses
to run as root, so as root the server runs as the ``postgres`` user, in a temp dir it owns.
It listens on 127.0.0.1 only (and a unix socket inside its temp dir), with ``trust`` auth for
the local test role: nothing outside this machine can reach it.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg

ROLE = "ranklens"
_database_numbers = itertools.count()
# What a test left in a database besides what a new one holds: schemas other than public (and
# the system's), and relations, types or functions outside the system's schemas.
_LEFT_IN_DATABASE = """
SELECT (SELECT count(*) FROM pg_namespace WHERE nspname NOT IN ('public', 'information_schema')
          AND nspname NOT LIKE 'pg\\_%'),
       (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public')
       + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
          WHERE n.nspname = 'public')
       + (SELECT count(*) FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
          WHERE n.nspname = 'public')
"""


def find_binary(name: str) -> str | None:
    """Path of PostgreSQL's ``name`` (initdb, pg_ctl), newest major version first, or None."""
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit()
                        else 0, reverse=True)
    return candidates[0] if candidates else None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """One PostgreSQL cluster in a temp dir; ``start``/``stop``/``restart`` it at will."""

    def __init__(self) -> None:
        initdb, pg_ctl = find_binary("initdb"), find_binary("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise FileNotFoundError("PostgreSQL's initdb/pg_ctl not found: apt-get install "
                                    "postgresql (make test does it)")
        self._pg_ctl = pg_ctl
        self._as_postgres = os.geteuid() == 0
        # Not under pytest's tmp dir: that is private to root, and the server runs as postgres.
        self.base = Path(tempfile.mkdtemp(prefix="ranklens-pg-"))
        if self._as_postgres:
            user = pwd.getpwnam("postgres")
            os.chown(self.base, user.pw_uid, user.pw_gid)
        self.data = self.base / "data"
        self.log = self.base / "server.log"
        self.port = free_port()
        self._given_back: list[str] = []  # emptied databases, for new_database to answer
        self._run([initdb, "-D", str(self.data), "-U", ROLE, "--auth=trust", "-E", "UTF8",
                   "--no-sync", "--no-instructions"])

    def _run(self, command: list[str]) -> None:
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120,
                              check=False)
        if done.returncode != 0:
            log = self.log.read_text() if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}\n"
                               f"{log[-3000:]}")

    def start(self) -> None:
        options = (f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c full_page_writes=off -c max_connections=200")
        self._run([self._pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options,
                   "-w", "-t", "60", "start"])

    def stop(self) -> None:
        self._run([self._pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop"])

    def restart(self) -> None:
        self.stop()
        self.start()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{ROLE}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """URL of an empty database on this server that no test is using: one given back
        emptied (`give_back`), else a new one."""
        if self._given_back:
            return self.url(self._given_back.pop())
        name = f"t{os.getpid()}_{next(_database_numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def give_back(self, url: str) -> None:
        """Take back the database at ``url`` (from `new_database`) once its test is done: end
        its sessions, drop what the store made (the schema ``ranklens``) and, when it is then
        as empty as a new one, let `new_database` answer it again. Only for a database no
        object of this process will use again: the app caches the store it opened for a URL
        (``st.cache_resource``), so an in-process app's database is not given back.

        A new database costs PostgreSQL a copy of ``template1`` (about 7 MB, 300 files, and
        as much WAL): the store tests made some 200 of them, and removing the cluster's
        600 MB at the end of the session took 5-30 s of each worker's last teardown.
        """
        name = url.rsplit("/", 1)[1]
        try:
            with psycopg.connect(self.url(), autocommit=True) as conn:
                conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE datname = %s AND pid <> pg_backend_pid()", (name,))
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("DROP SCHEMA IF EXISTS ranklens CASCADE")
                left = conn.execute(_LEFT_IN_DATABASE).fetchone()
        except psycopg.Error:
            return  # the server is down or the database gone: a later test gets a new one
        if left == (0, 0):
            self._given_back.append(name)

    def remove(self) -> None:
        with contextlib.suppress(RuntimeError):
            self.stop()
        shutil.rmtree(self.base, ignore_errors=True)
