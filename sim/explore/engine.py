"""The explorer's state: the loaded baseline, the draft of edits, and the
headline numbers of both on common dice, refined in the background.

An edit is checked by the loaders at once (``sim.explore.fields``); a refused
value keeps its one-line error beside its field and runs nothing. An accepted
one becomes the newest request, handed to the measuring process
(``sim.explore.measure``); a thread here takes back each group's numbers as
soon as a stage of it is done and keeps them as the latest ``Snapshot``."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from sim.content.load import DEFAULT_DIR, ContentError
from sim.explore.fields import check_folder, content_fields, parse, same, save_copy, shown, table_names, write_draft
from sim.explore.measure import KEEP, group_names, measuring
from sim.explore.schedule import stage_label

KEEP_FOLDERS = 2 * KEEP
"""Draft folders kept on disk (more than the drafts whose tallies are kept, so a kept draft has its folder)."""
LOADING = "Loading the compiled kernels: seconds from the cache, a few minutes the first time they compile."


@dataclass(frozen=True)
class Snapshot:
    """What the page shows: every group's latest view, the status line and the generation it is of."""

    version: int
    generation: int
    groups: dict
    status: str
    finished: bool = False
    failed: bool = False


def edits_key(edits: dict) -> tuple:
    """A set of edits as a key (a flag and a number of the same value are different edits)."""
    return tuple(sorted(((k, type(v).__name__, v) for k, v in edits.items()), key=lambda e: e[:2]))


class Explorer:
    """The baseline content (a content or report folder; default: the shipped one),
    the draft of edits to it and their numbers, at the full trial counts of
    ``report.toml`` (``quick``: its quick ones); ``threads`` for the kernels (default: all cores)."""

    def __init__(self, content=None, *, threads=None, quick=False):
        from sim.compare.diff import resolve_content

        self.folder = Path(resolve_content(content, "--content") if content is not None else DEFAULT_DIR)
        check_folder(self.folder)  # content the loaders refuse stops here, before anything starts
        self.quick, self.threads = quick, threads
        self.fields = content_fields(self.folder)
        self.table_names = table_names(self.folder, self.fields)
        self.by_key = {(f.file, f.key): f for f in self.fields}
        self.edits, self.history, self.errors = {}, [], {}
        self.draft_version = 0
        self.cancel_latencies = []
        """Seconds from each request that cut short the work in hand to the moment that work stopped."""
        self.on_ready = None
        """Called once, from a background thread, when the first numbers are in (the kernels are loaded)."""
        self._drafts = OrderedDict()
        self._scratch = scratch_folder()
        weakref.finalize(self, shutil.rmtree, self._scratch, True)
        self._edit_lock = threading.RLock()
        self._changed = threading.Condition()
        self._generation = 0
        self._snapshot = Snapshot(0, 0, {}, LOADING)
        self._child = self._conn = self._newest = None

    # --- the draft -------------------------------------------------------------------------

    @property
    def generation(self) -> int:
        """The newest request (0: the baseline at start); each accepted edit, undo or reset adds one."""
        return self._generation

    def value(self, file: str, key: str):
        """The field's value in the draft."""
        return self.edits.get((file, key), self.by_key[(file, key)].base)

    def text(self, file: str, key: str) -> str:
        """The field's value in the draft, as its field shows it."""
        return shown(self.value(file, key))

    def set(self, file: str, key: str, text: str) -> str | None:
        """Apply the text typed into a field: ``None`` when the content takes it (the
        numbers are then measured again), else the loader's one-line error, and nothing runs."""
        base = self.by_key[(file, key)].base
        value = parse(text)
        with self._edit_lock:
            edits = {k: v for k, v in self.edits.items() if k != (file, key)}
            if not same(value, base):
                edits[(file, key)] = value
            if edits_key(edits) == edits_key(self.edits):
                self.errors.pop((file, key), None)
                return None
            try:
                self._draft(edits)
            except ContentError as exc:
                self.errors[(file, key)] = str(exc)
                return str(exc)
            self._apply(edits, remember=True)
        return None

    def undo(self) -> bool:
        """Go back to the draft before the last edit (or reset); False when there is none."""
        with self._edit_lock:
            if not self.history:
                return False
            self._apply(self.history.pop(), remember=False)
            return True

    def reset(self) -> bool:
        """Back to the baseline (undo brings the draft back); False when the draft is the baseline."""
        with self._edit_lock:
            self.errors.clear()
            if not self.edits:
                return False
            self._apply({}, remember=True)
            return True

    def open_draft(self, folder) -> int:
        """Take the content folder ``folder`` (a saved draft, a ``zonesim balance``
        proposal, a report folder) as the draft: its differences from the baseline
        become the edits, and undo goes back. Refused, with nothing changed, when it
        differs in a field the page does not show. The number of fields it changes."""
        from sim.compare.diff import content_diff, resolve_content

        other = resolve_content(folder, "--draft")
        diff = content_diff(self.folder, other)
        hidden = [f"{d['file']}: {d['key']}" for d in diff if (d["file"], d["key"]) not in self.by_key]
        if hidden:
            raise ContentError(f"--draft: {other} differs from the baseline in {len(hidden)} field"
                               f"{'s' * (len(hidden) != 1)} the explorer does not show ({', '.join(hidden[:3])}"
                               f"{', ...' if len(hidden) > 3 else ''}); open it with --content instead")
        edits = {(d["file"], d["key"]): d["new"] for d in diff}
        with self._edit_lock:
            self._draft(edits)
            if edits_key(edits) != edits_key(self.edits):
                self._apply(edits, remember=True)
        return len(edits)

    def folder_of_draft(self) -> Path:
        """The folder holding the draft (the baseline's own when nothing is edited)."""
        with self._edit_lock:
            return self._draft(self.edits)

    def save_as(self, target) -> Path:
        """Write the draft as the new content folder ``target`` (``zonesim validate`` accepts
        it; ``zonesim compare BASE target`` shows the draft's changes)."""
        return save_copy(self.folder_of_draft(), Path(target).expanduser())

    def changes(self) -> list:
        """The draft's content diff against the baseline, as ``zonesim compare`` prints it."""
        from sim.compare.diff import content_diff

        return content_diff(self.folder, self.folder_of_draft())

    def _draft(self, edits: dict) -> Path:
        """The checked folder of ``edits`` (written once per set of edits, kept while recent)."""
        if not edits:
            return self.folder
        key = edits_key(edits)
        if key not in self._drafts:
            folder = self._scratch / hashlib.sha256(repr(key).encode()).hexdigest()[:16]
            shutil.rmtree(folder, ignore_errors=True)
            write_draft(self.folder, folder, edits)
            try:
                check_folder(folder)
            except ContentError:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            self._drafts[key] = folder
            while len(self._drafts) > KEEP_FOLDERS:
                shutil.rmtree(self._drafts.popitem(last=False)[1], ignore_errors=True)
        self._drafts.move_to_end(key)
        return self._drafts[key]

    def _apply(self, edits: dict, remember: bool):
        if remember:
            self.history.append(self.edits)
        self.edits = edits
        self.errors.clear()
        self.draft_version += 1
        with self._changed:
            self._generation += 1
            self._send()
            self._snapshot = replace_snapshot(self._snapshot, status="Measuring the new draft…",
                                              generation=self._generation)
            self._changed.notify_all()

    # --- the numbers -----------------------------------------------------------------------

    def start(self):
        """Start measuring in a child process (once; later calls do nothing)."""
        with self._changed:
            if self._child is not None:
                return
            ctx = multiprocessing.get_context("spawn")
            self._newest = ctx.Value("q", self._generation, lock=False)
            self._conn, child = ctx.Pipe()
            self._child = ctx.Process(target=measuring, name="zonesim-explore",
                                      args=(child, self._newest, str(self.folder), self.quick, self.threads),
                                      daemon=True)
            self._child.start()
            child.close()
            self._send()
        threading.Thread(target=self._listen, name="zonesim-explore-listen", daemon=True).start()

    def close(self):
        """Stop the measuring process."""
        with self._changed:
            if self._child is not None and self._child.is_alive():
                self._child.kill()
                self._child.join()

    def snapshot(self) -> Snapshot:
        """The numbers as they stand (a new ``version`` whenever something has changed)."""
        return self._snapshot

    def wait(self, stage: int = 0, timeout: float = 600.0) -> Snapshot:
        """Block until every group of the newest request has reached ``stage`` (or it has failed)."""
        return self.wait_until(lambda snap: self.reached(snap, stage), timeout)

    def wait_until(self, done, timeout: float = 600.0) -> Snapshot:
        """Block until ``done(snapshot)`` holds; that snapshot."""
        deadline = time.perf_counter() + timeout
        with self._changed:
            while not done(self._snapshot):
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise TimeoutError(f"the explorer's numbers did not come in {timeout:.0f} s")
                self._changed.wait(left)
            return self._snapshot

    def reached(self, snap: Snapshot, stage: int, names=None) -> bool:
        """Every group of ``names`` (default: all) of the newest request is at ``stage`` or later in ``snap``
        (or it failed)."""
        if snap.failed and snap.generation == self._generation:
            return True
        views = [snap.groups.get(name) for name in names or group_names()]
        return all(v is not None and v.generation == self._generation and v.stage >= stage for v in views)

    def _send(self):
        """Hand the newest request to the measuring process (it drops the work in hand)."""
        if self._child is None:
            return
        self._newest.value = self._generation
        folder = None if not self.edits else str(self._draft(self.edits))
        self._conn.send((self._generation, edits_key(self.edits), folder, time.perf_counter()))

    def _listen(self):
        """Take each message of the measuring process into the snapshot."""
        ready = False
        while True:
            try:
                message = self._conn.recv()
            except (EOFError, OSError):
                self._update(status="The measuring process has stopped.", failed=True)
                return
            kind = message[0]
            if kind == "view":
                view = message[1]
                if view.generation == self._generation:
                    self._update(groups={view.name: view}, status=f"Refining: {stage_label(view.stage)}")
                if not ready and self.on_ready is not None:
                    self.on_ready()
                ready = True
            elif kind == "done" and message[1] == self._generation:
                self._update(status="Full counts: every number and interval is that of zonesim compare's full run",
                             finished=True)
            elif kind == "failed" and message[1] == self._generation:
                self._update(status=f"This content cannot run: {message[2]}", failed=True)
            elif kind == "cancelled":
                with self._changed:
                    self.cancel_latencies.append(message[1])
                    self._changed.notify_all()

    def _update(self, **changes):
        with self._changed:
            self._snapshot = replace_snapshot(self._snapshot, **changes)
            self._changed.notify_all()


def scratch_folder() -> Path:
    """A new folder for this process's drafts, named by its process id; the folders of
    explorers whose process has ended without removing them (Ctrl-C ends at once) go first."""
    for old in Path(tempfile.gettempdir()).glob("zonesim-explore-*-*"):
        pid = old.name.split("-")[2]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(old, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=f"zonesim-explore-{os.getpid()}-"))


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def replace_snapshot(snap: Snapshot, **changes) -> Snapshot:
    """The next snapshot: ``changes`` over ``snap`` (groups merged), a new version, not
    finished or failed unless said."""
    groups = {**snap.groups, **changes.pop("groups", {})}
    values = {"generation": snap.generation, "status": snap.status, "finished": False, "failed": False, **changes}
    return Snapshot(snap.version + 1, groups=groups, **values)
