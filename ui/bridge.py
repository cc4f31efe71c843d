"""Engine work off the GUI thread, and engine callbacks back as Qt signals.

- `Tasks.submit(fn, ...)` runs a blocking engine call on a QThread and delivers its result
  (or error) on the GUI thread. `fn` gets a `threading.Event` as `cancel=` when it accepts one.
- `RunBridge` is the listener the install runner calls from its worker thread with each event of
  app/run/events.py; the events (the same objects, in order) reach the GUI thread every `FLUSH_MS`
  as one `events` signal, so thousands of lines a second never drown the event loop.
- `SampleBridge` does the same for verification samples (charts refresh at most 10 Hz).

Every thread and timer made here is registered, and `Tasks.shutdown()` stops and joins them:
the tests fail any test that leaves one running.
"""
from __future__ import annotations

import inspect
import threading
import traceback
from collections import deque
from typing import Any, Callable, Optional

from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from app.run.events import Event

FLUSH_MS = 40
_ORPHANS: list = []  # worker threads still running after their owner shut down


class _Worker(QThread):
    done = Signal(object)
    failed = Signal(str, str)

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict, parent: QObject):
        super().__init__(parent)
        self.fn, self.args, self.kwargs = fn, args, kwargs

    def run(self) -> None:  # on the worker thread
        try:
            result = self.fn(*self.args, **self.kwargs)
        except Exception as e:  # noqa: BLE001 - every engine error reaches the user as a message
            self.failed.emit(str(e) or e.__class__.__name__, traceback.format_exc())
        else:
            # always a fresh list: PySide6 6.12 mis-counts references of None sent through a
            # queued Signal(object), which crashes the interpreter after a few dozen results
            self.done.emit([result])


class Task:
    """One submitted call. `cancel()` sets the event the call was given; `is_running()` stays
    valid after the worker thread object is gone."""

    def __init__(self, cancel: threading.Event):
        self.cancel_event = cancel
        self._running = True

    def cancel(self) -> None:
        self.cancel_event.set()

    def is_running(self) -> bool:
        return self._running

    def _ended(self) -> None:
        self._running = False


class Tasks(QObject):
    """Runs engine calls on worker threads; owns them until they end."""

    def __init__(self, parent: Optional[QObject] = None):
        super().__init__(parent)
        self._live: set[_Worker] = set()
        self._events: dict[_Worker, threading.Event] = {}

    def submit(self, fn: Callable[..., Any], *args: Any, on_done: Optional[Callable[[Any], None]] = None,
               on_error: Optional[Callable[[str, str], None]] = None, **kwargs: Any) -> Task:
        cancel = threading.Event()
        try:
            if "cancel" in inspect.signature(fn).parameters:
                kwargs.setdefault("cancel", cancel)
        except (TypeError, ValueError):
            pass
        w = _Worker(fn, args, kwargs, self)
        task = Task(cancel)
        # `done`/`failed` are emitted from run(), before `finished`: the task counts as running
        # until its result has been delivered
        def delivered(box: list) -> None:
            task._ended()
            if on_done is not None:
                on_done(box[0])

        def errored(message: str, details: str) -> None:
            task._ended()
            if on_error is not None:
                on_error(message, details)

        def ended() -> None:
            task._ended()
            self._reap(w)

        w.done.connect(delivered)
        w.failed.connect(errored)
        w.finished.connect(ended)
        self._live.add(w)
        self._events[w] = cancel
        w.start()
        return task

    def _reap(self, w: _Worker) -> None:
        self._live.discard(w)
        self._events.pop(w, None)
        w.deleteLater()

    @property
    def busy(self) -> bool:
        return any(w.isRunning() for w in self._live)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel everything and wait for the threads to end (window closing, test teardown)."""
        for e in self._events.values():
            e.set()
        ok = True
        for w in list(self._live):
            done = w.wait(timeout_ms)
            ok = done and ok
            self._live.discard(w)
            self._events.pop(w, None)
            if not done:  # a call that ignores cancel (a hung tool past its own timeout): never
                w.setParent(None)  # destroy a running QThread (Qt aborts); let it finish alone
                _ORPHANS.append(w)
                w.finished.connect(lambda w=w: _ORPHANS.remove(w) if w in _ORPHANS else None)
        return ok


class RunBridge(QObject):
    """The install run's listener (app.run.events.Listener: called with each event on the runner's
    thread) → the same event objects on the GUI thread, in order, as one `events` list every FLUSH_MS.
    The page folds them into its run record (ui.state.InstallState.apply) and redraws once per batch, so
    thousands of lines a second never drown the event loop."""

    events = Signal(list)  # [Event, ...] in the order the run emitted them

    def __init__(self, parent: Optional[QObject] = None):
        super().__init__(parent)
        self._q: deque[Event] = deque()
        self._lock = threading.Lock()
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_MS)
        self._timer.timeout.connect(self.flush)

    def __call__(self, ev: Event) -> None:  # the runner's thread
        with self._lock:
            self._q.append(ev)

    # --- GUI thread ----------------------------------------------------------------------
    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self.flush()

    @property
    def active(self) -> bool:
        return self._timer.isActive()

    @Slot()
    def flush(self) -> None:
        with self._lock:
            if not self._q:
                return
            batch = list(self._q)
            self._q.clear()
        self.events.emit(batch)


class SampleBridge(QObject):
    """Verification samples from the sampler thread → at most one `samples` signal per tick."""

    samples = Signal(list)  # [(t_s, {metric: value}), ...]

    def __init__(self, interval_ms: int = 100, parent: Optional[QObject] = None):
        super().__init__(parent)
        self._buf: list[tuple[float, dict]] = []
        self._lock = threading.Lock()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.flush)

    def sample(self, t_s: float, values: dict) -> None:  # sampler thread
        with self._lock:
            self._buf.append((t_s, values))

    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self.flush()

    @Slot()
    def flush(self) -> None:
        with self._lock:
            batch, self._buf = self._buf, []
        if batch:
            self.samples.emit(batch)
