"""Writing output files safely, and the progress bar shown on long runs (shared by every command)."""
from __future__ import annotations

import itertools
import os
import signal
import stat
import sys
import time
from pathlib import Path
from typing import Callable, TextIO

from .i18n import _, ngettext
from .safetext import visible


class OutputError(Exception):
    """An output file that cannot be written; the message names the path and why."""


def write_atomically(path: str | Path, write: Callable[[TextIO], None], *, force: bool = True,
                     encoding: str = "utf-8", binary: bool = False, sync: bool = True) -> None:
    """Write ``path`` whole or not at all: ``write(fh)`` fills a temporary file beside it, which then
    replaces ``path``.  On any failure the temporary file is removed and an existing ``path`` is left as
    it was.  With ``force=False`` an existing file is an :class:`OutputError`.  ``binary``: ``fh`` is a
    binary file (``encoding`` is then ignored).  The new file has the mode a plain open() gives it (that of
    the file it replaces, where there is one).  The content is on disk before the name points at it, and
    the folder is synced after the rename; ``sync=False`` leaves both to the caller, who syncs the files
    of a whole run at its end (:func:`sync_written`: a command that writes many files)."""
    path = Path(path)
    fd, tmp, folder = _temp_beside(path, force)
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding=encoding, newline="")) as fh:
            fd = -1                    # (the file object closes it from here on)
            write(fh)
            fh.flush()
            if sync:
                os.fsync(fh.fileno())  # the content on disk before the name points at it
        _put_in_place(tmp, path, folder, sync)
    except BaseException as e:
        _failed(fd, tmp, path, e)
        raise


def write_bytes_atomically(path: str | Path, data: bytes, *, force: bool = True, sync: bool = True,
                           absent: bool = False) -> None:
    """:func:`write_atomically` of ``data``, written as it is: the same guarantees, without a file object
    (``convert`` writes thousands of small files this way).  ``absent``: the caller knows that no file is at
    ``path`` (its folder was made by the same run), so it is not looked at first; a file or folder that
    appeared there all the same is replaced or refused by the rename, as with ``force``."""
    fd, tmp, folder = _temp_beside(path, force, absent)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        if sync:
            os.fsync(fd)
        os.close(fd)
        fd = -1
        _put_in_place(tmp, path, folder, sync)
    except BaseException as e:
        _failed(fd, tmp, Path(path), e)
        raise


_TEMP_SEQ = itertools.count()


def _create(name: str, mode: int) -> int:
    """A new file ``name`` (never an existing one) opened for writing, with ``mode`` less the umask."""
    return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
                   | getattr(os, "O_BINARY", 0), mode)


def _temp_beside(path: str | Path, force: bool, absent: bool = False) -> tuple[int, str, str]:
    """(fd, name, folder) of a new temporary file ``.NAME.XXXX.tmp`` beside ``path``, with the mode a plain
    open() would give ``path`` (the mode of the file it replaces, where there is one); OutputError when
    ``path`` is a folder, exists without ``force``, or no file can be made there.  Its name is chosen
    before it is made, so that a Ctrl-C (or SIGTERM) arriving as it is made leaves nothing behind: the file
    is removed and the signal goes on.  ``absent``: ``path`` is known to be free (no look at it)."""
    st = None
    if not absent:
        try:
            st = os.stat(path)
        except OSError:
            pass
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise OutputError(is_folder(Path(path)))
    if st is not None and not force:
        raise OutputError(exists(Path(path)))
    # (the folder and the name as strings: convert writes thousands of files; pathlib spells them in messages)
    folder, name = os.path.split(os.fspath(path))
    folder = folder or "."
    while True:
        tmp = os.path.join(folder, f".{name}.{os.getpid():x}-{next(_TEMP_SEQ):x}.tmp")
        try:
            fd = _create(tmp, 0o666)
        except FileExistsError:        # (the leftover of a process killed long ago, with the same number)
            continue
        except OSError as e:
            raise OutputError(_cannot_write(Path(path), _no_file_in(Path(path).parent, e))) from None
        except BaseException:          # a signal raised as the file was made: it is ours, by its name
            _remove(tmp)
            raise
        break
    if st is not None:                 # the mode of the file it replaces
        try:
            os.fchmod(fd, stat.S_IMODE(st.st_mode))
        except (OSError, AttributeError):
            pass
    return fd, tmp, folder


def _put_in_place(tmp: str, path: str | Path, folder: str, sync: bool) -> None:
    os.replace(tmp, path)
    if sync:
        _sync_folder(folder)           # and the rename itself


def _failed(fd: int, tmp: str, path: Path, e: BaseException) -> None:
    """After a write that failed (or a signal): the temporary file closed and removed; an OSError becomes
    the OutputError raised instead (the caller raises anything else)."""
    if fd >= 0:
        try:
            os.close(fd)
        except OSError:
            pass
    _remove(tmp)
    if isinstance(e, OSError):
        raise OutputError(_cannot_write(path, e.strerror or e)) from None


def _remove(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


def is_folder(path: Path) -> str:
    """The message of an output path that is a folder."""
    return _("cannot write {path}: it is a folder").format(path=path)


def exists(path: Path) -> str:
    """The message of an output file that exists (without ``--force``)."""
    return _("{path} exists; use --force to overwrite it").format(path=path)


def _cannot_write(path: Path, why: object) -> str:
    # TRANSLATORS: {reason}: why (the system's reason, or one of the messages about the folder)
    return _("cannot write {path}: {reason}").format(path=path, reason=why)


def _no_file_in(folder: Path, e: OSError) -> str:
    """Why no file can be made in ``folder`` (where the temporary file of an output goes)."""
    if not folder.exists():
        return _("the folder {folder} does not exist").format(folder=folder)
    if not folder.is_dir():
        return _("{folder} is not a folder").format(folder=folder)
    return _("no file can be made in the folder {folder} ({reason}; an output is written to a new file there "
             "first, then renamed)").format(folder=folder, reason=e.strerror or e)


def sync_written(paths) -> None:
    """The files ``paths``, written with ``write_atomically(..., sync=False)``, and their renames on disk:
    where the system has ``sync`` (every Unix), one flush of everything written, instead of a flush per
    file (a journal commit each: most of the time of writing a small file); elsewhere each file and each
    folder synced."""
    paths = [str(p) for p in paths]
    if not paths:
        return
    if hasattr(os, "sync"):
        os.sync()
        return
    for p in paths:
        _fsync(p)                            # (a file gone since: nothing to sync)
    for folder in sorted({os.path.dirname(p) or "." for p in paths}):
        _sync_folder(Path(folder))


def _sync_folder(folder: str | Path) -> None:
    """The folder's entries on disk (the rename of an output survives a crash); where a folder cannot be
    opened or synced (some systems and file systems), the rename stands as the system keeps it."""
    _fsync(folder, getattr(os, "O_DIRECTORY", 0))


def _fsync(path: str | Path, flags: int = 0) -> None:
    """``path`` (a file, or a folder with ``O_DIRECTORY``) synced to disk; nothing where it cannot be opened
    or synced."""
    try:
        fd = os.open(path, os.O_RDONLY | flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _status_umask() -> int | None:
    """The process's umask as the system reports it without changing it (Linux 4.7+: /proc/self/status),
    or None where it does not."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _import_umask() -> int:
    mask = _status_umask()
    if mask is None:       # read once, at import (before any thread of ours runs), by setting it back
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


_UMASK_AT_IMPORT = _import_umask()


def current_umask() -> int:
    """The umask that a new output file honours (mode 0666 & ~umask, as a plain open() gives): the
    system's current value where it reports one, else the value at import; the umask is never changed."""
    mask = _status_umask()
    return _UMASK_AT_IMPORT if mask is None else mask


class HeldSignals:
    """A context in which Ctrl-C (SIGINT) and SIGTERM only set a flag; on leaving it, the handlers are put
    back and each signal that came is raised again, once.  Outside the main thread (where no handler can
    be set) it holds nothing back."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __enter__(self) -> "HeldSignals":
        self.caught: list[int] = []
        self.saved: dict = {}
        for sig in self.SIGNALS:
            try:
                self.saved[sig] = signal.signal(sig, self._hold)
            except ValueError:          # not the main thread
                break
        return self

    def _hold(self, signum, frame) -> None:
        self.caught.append(signum)

    def __exit__(self, *exc) -> None:
        saved, self.saved = self.saved, {}
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        caught, self.caught = self.caught, []
        for sig in dict.fromkeys(caught):
            signal.raise_signal(sig)


def cache_dir() -> Path:
    """Where the tool keeps what it computes once (the bear-off databases, the note of a first run):
    ``$NARDY_ANALYZE_CACHE``, else ``$XDG_CACHE_HOME/nardy-analyze``, else ``~/.cache/nardy-analyze``."""
    own = os.environ.get("NARDY_ANALYZE_CACHE")
    if own:
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nardy-analyze"


class Progress:
    """A progress bar on standard error, shown only on a terminal and only for runs that last.  ``note``: a
    function asked once, when the bar is first shown, for a text shown after the count for the rest of
    the run (None: nothing), e.g. which core a first run uses (:func:`nardy_analyze.cores.first_run_note`)."""

    WIDTH = 30
    DELAY = 0.5         # seconds before a bar is first shown: a quick run shows none

    def __init__(self, unit: str | None = None) -> None:
        self.start = time.monotonic()
        self.shown = False
        self.last = 0.0
        self.unit = unit
        self.note: Callable[[], str | None] | None = None
        self.noted = ""

    @classmethod
    def on_terminal(cls, unit: str | None = None) -> "Progress | None":
        return cls(unit) if sys.stderr.isatty() else None

    def step(self, path: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.start < self.DELAY or now - self.last < 0.1 and done < total:
            return
        self.last = now
        fill = self.WIDTH * done // max(total, 1)
        bar = "#" * fill + "-" * (self.WIDTH - fill)
        # TRANSLATORS: the progress bar: {done} of {total} files done (the count is {total})
        unit = self.unit or ngettext("files", "files", total)
        if not self.shown and self.note is not None:
            said = self.note()
            self.noted = f" ({said})" if said else ""
        sys.stderr.write(f"\r\x1b[K[{bar}] {done}/{total} {unit}{self.noted}  "
                         f"{visible(os.path.basename(path))[:40]}")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
