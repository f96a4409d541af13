"""A Streamlit session without a browser: the app's own WebSocket protocol, for load tests.

`ProtocolSession` answers "how long does the server take to run the script for this click",
with nothing of a browser's drawing in it: it speaks Streamlit's WebSocket protocol
(``/_stcore/stream``, the protobuf ``BackMsg`` / ``ForwardMsg`` the frontend sends and
receives), reads the widgets the script sends (their id, label, options and default), and
reruns the script with a widget's new value as the frontend would, timing from the request
sent to the server's ``script_finished`` message received. Ten of them cost the machine next
to nothing, so they measure the server under ten sessions where ten Chromium clients on the
same cores would measure mostly the clients (``bench/bench_load.py --clients protocol``).

What it leaves out: drawing, fragments (every click reruns the whole script, as a rerun the
browser starts does), file uploads and sign-in. It keeps the widget values it set and sends
them with every rerun, as the frontend sends the values on the page; every other widget
keeps its default. It knows only the widgets the demo sessions use (select boxes, multiselects,
radios, checkboxes and toggles).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

FINISHED = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}
"""A run that ended (not one cut short for the next rerun, which the frontend ignores too)."""

KINDS = ("selectbox", "multiselect", "radio", "checkbox")


@dataclass
class Widget:
    """A widget the script drew: its proto ``kind``, ``id``, ``options`` and ``default``."""

    kind: str
    id: str
    options: tuple[str, ...] = ()
    default: Any = None


@dataclass
class ProtocolSession:
    """One session of the app at ``url`` (``http://127.0.0.1:PORT``), driven over its
    WebSocket; ``widgets`` by label, as the last run drew them."""

    url: str
    widgets: dict[str, Widget] = field(default_factory=dict)
    states: dict[str, WidgetState] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    page_hash: str = ""
    _socket: Any = None

    async def open(self, timeout: float = 120.0) -> float:
        """Connect and run the script once (the page's first view); its seconds."""
        address = self.url.replace("http://", "ws://") + "/_stcore/stream"
        self._socket = await websockets.connect(
            address, subprotocols=["streamlit"], max_size=None,  # type: ignore[list-item]
            origin=self.url)  # type: ignore[arg-type]
        return await self._rerun(timeout)

    async def select(self, label: str, option: str, timeout: float = 120.0) -> float:
        """Choose ``option`` in the select box or radio labelled ``label``; seconds to the
        run's end."""
        widget = self._widget(label)
        self.states[widget.id] = WidgetState(id=widget.id, string_value=option)
        return await self._rerun(timeout)

    async def choose(self, label: str, options: list[str], timeout: float = 120.0) -> float:
        """Set the multiselect labelled ``label`` to ``options``; seconds to the run's end."""
        widget = self._widget(label)
        state = WidgetState(id=widget.id)
        state.string_array_value.data.extend(options)
        self.states[widget.id] = state
        return await self._rerun(timeout)

    async def tick(self, label: str, value: bool, timeout: float = 120.0) -> float:
        """Set the checkbox or toggle labelled ``label``; seconds to the run's end."""
        widget = self._widget(label)
        self.states[widget.id] = WidgetState(id=widget.id, bool_value=value)
        return await self._rerun(timeout)

    def chosen(self, label: str) -> list[str]:
        """The options the multiselect labelled ``label`` holds now (set here, else its
        default)."""
        widget = self._widget(label)
        state = self.states.get(widget.id)
        if state is not None:
            return list(state.string_array_value.data)
        return [widget.options[i] for i in widget.default]

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()

    def _widget(self, label: str) -> Widget:
        if label not in self.widgets:
            raise KeyError(f"no widget labelled {label!r} on the page (have: "
                           f"{', '.join(sorted(self.widgets))})")
        return self.widgets[label]

    async def _rerun(self, timeout: float) -> float:
        message = BackMsg()
        message.rerun_script.query_string = ""
        message.rerun_script.page_script_hash = self.page_hash
        message.rerun_script.widget_states.widgets.extend(self.states.values())
        started = time.perf_counter()
        await self._socket.send(message.SerializeToString())
        await asyncio.wait_for(self._until_finished(), timeout)
        return time.perf_counter() - started

    async def _until_finished(self) -> None:
        while True:
            forward = ForwardMsg()
            forward.ParseFromString(await self._socket.recv())
            kind = forward.WhichOneof("type")
            if kind == "new_session":
                self.page_hash = self.page_hash or forward.new_session.page_script_hash
            elif kind == "delta":
                self._read_delta(forward)
            elif kind == "script_finished" and forward.script_finished in FINISHED:
                return

    def _read_delta(self, forward: ForwardMsg) -> None:
        delta = forward.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            self.errors.append(element.exception.message)
        elif kind in KINDS:
            proto = getattr(element, kind)
            options = tuple(getattr(proto, "options", ()))
            default: Any = getattr(proto, "default", None)
            self.widgets[proto.label] = Widget(
                kind, proto.id, options,
                list(default) if kind == "multiselect" else default)
