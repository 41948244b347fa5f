"""What a command reads: the inventory of the inputs (files, folders, standard input) and each record read
with the notation registry.  (The variant and rule options a record is judged under: ``judged.py`` and the
engine's rule set.)

Every command that reads records uses :func:`discover` and :func:`load` (through
:func:`nardy_analyze.analyze.map_records`; docs/architecture.md, "Inputs").  This module knows the
notations, nothing of the engine, the replay or the outputs.
"""
from __future__ import annotations

import errno
import enum
import os
import stat
import sys
from typing import Iterable, Iterator

from .shapes import dataclass
from .i18n import N_, _
from .notation import decode, decode_detail, name_for_path, read_text, record_suffixes, sniff
from .record import Loc, Match, Problem, sent_by_fields

RECORD = "record"              # an entry to read (Entry.status)
SKIPPED = "skipped"            # accounted for and not read, with the reason
UNREADABLE = "unreadable"      # cannot be read, with the reason
INTERNAL_ERROR = "internal-error"  # (an outcome of a run, not a status) a bug met as it was read or replayed


class InputError(Exception):
    """A path that cannot be read at all (missing, unreadable, not a file)."""


class NotARecord(InputError):
    """A file judged by its start as it is read (``Entry.judge``) that is no game record: skipped, with the
    reason (a :class:`SkipReason`) the discovery would have given it."""

    def __init__(self, reason: "SkipReason") -> None:
        super().__init__(str(reason))
        self.reason = reason


MAX_BYTES = 64 * 1024 * 1024
SNIFF_BYTES = 64 * 1024      # a file with an ambiguous suffix (.txt) is judged by this much of its start

# ----------------------------------------------------------------------------- discovery
#
# One inventory of the inputs, shared by every command that reads records (validate, stats, convert):
# ``discover(paths)`` accounts for every path given and every entry with a record suffix found in a
# folder, as a record, a skipped file (with the reason) or an unreadable entry (with the reason);
# ``load(entry)`` reads a record entry with the notation registry; ``map_records`` runs a per-file
# function over the records with an error boundary around each file and, optionally, worker processes.



@sent_by_fields
@dataclass(frozen=True, slots=True)
class Entry:
    """One input: a record file to read, or a path accounted for and not read.

    ``path`` is as given or as found while walking a folder (``-`` is standard input); ``status`` is
    :data:`RECORD`, :data:`SKIPPED` or :data:`UNREADABLE`; ``reason`` says why for the last two
    (for UNREADABLE it starts with the path, as a message on its own); ``explicit`` is True for a path
    named by the caller (read whatever its name); ``notation`` is the registry's notation name chosen
    by the suffix or by sniffing, None when it is chosen at reading time; ``source``, when set, is where
    the bytes are read from (the absolute path a Dask worker opens), ``path`` staying the name reported.
    """

    path: str
    status: str
    reason: str = ""
    explicit: bool = False
    notation: str | None = None
    source: str | None = None
    # found in a folder with an ambiguous suffix (.txt) and not read yet (``discover(..., judge_later=True)``):
    # a record only when its start looks like one, judged by :func:`load` as it reads the file (NotARecord)
    judge: bool = False

    @property
    def shown(self) -> str:
        """The name used in reports: ``<stdin>`` for ``-``."""
        return "<stdin>" if self.path == "-" else self.path


def _not_read(path: str, mode: int) -> str:
    """The reason an entry that is not a regular file is not read."""
    if stat.S_ISFIFO(mode):
        return _("{path}: a FIFO (named pipe), not read").format(path=path)
    if stat.S_ISSOCK(mode):
        return _("{path}: a socket, not read").format(path=path)
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("{path}: a device, not read").format(path=path)
    return _("{path}: not a regular file, not read").format(path=path)


def _oserror(path: str, e: OSError) -> str:
    if e.errno == errno.ELOOP:
        return _("{path}: symbolic link loop").format(path=path)
    if e.errno == errno.ENOENT:
        return _("{path}: no such file or folder").format(path=path)
    # TRANSLATORS: {reason}: the system's reason (its own text, in the system's language)
    return _("{path}: cannot read: {reason}").format(path=path, reason=e.strerror or e)


def _broken_link(path: str) -> str:
    return _("{path}: broken symbolic link (its target does not exist)").format(path=path)


def discover(paths: Iterable[str], judge_later: bool = False) -> Iterator[Entry]:
    """Account for every input, in order; folders are walked recursively in sorted order.

    * a path named by the caller is always a record (``explicit``), whatever its name, when it can be
      opened (a FIFO such as ``<(zcat x.mat.gz)`` included); a missing path is UNREADABLE;
    * in a folder, every entry whose suffix is one of the registry's :func:`record_suffixes` is
      accounted for: a file with a notation's own suffix (``.mat``...) is always a RECORD, even empty
      or binary (its reader reports what is wrong with it); a file with an ambiguous suffix (``.txt``)
      is sniffed from its first :data:`SNIFF_BYTES` bytes and SKIPPED when no notation recognises it;
      a hidden file (``.name``) is SKIPPED; a dangling link, a link loop, a file the system refuses to
      open, a FIFO or device, a sub-folder that cannot be listed or vanishes mid-walk are UNREADABLE;
    * hidden folders are not searched; a symbolic link to a folder is not followed (SKIPPED: it
      may lead out of the tree or back into it; name the folder to read it), so a walk never loops;
    * files with other suffixes (``README.md``, ``expected.tsv``) are not game records by their name
      and are not part of the inventory.

    ``judge_later``: a file found in a folder with an ambiguous suffix is not read here but given as a
    RECORD entry to judge (``Entry.judge``): :func:`load`, which reads it whole anyway, judges its start as
    this walk would and raises :class:`NotARecord` (skipped, with the same reason) when it is no record;
    :func:`judged` judges one here.  For the commands that read their records in worker processes: the
    walk then opens no file, and each file is opened once.
    """
    for e, _root in found_in(paths, judge_later):
        yield e


def found_in(paths: Iterable[str], judge_later: bool = False) -> Iterator[tuple[Entry, str | None]]:
    """:func:`discover`'s entries, each with the path named by the caller it was found in when that is a folder
    (None for a path named itself)."""
    suffixes = record_suffixes()
    for p in paths:
        if p == "-":
            yield Entry(p, RECORD, explicit=True), None
            continue
        try:
            st = os.stat(p)
        except OSError as e:
            if os.path.islink(p) and e.errno == errno.ENOENT:
                yield Entry(p, UNREADABLE, _broken_link(p), True), None
            else:
                yield Entry(p, UNREADABLE, _oserror(p, e), True), None
            continue
        if stat.S_ISDIR(st.st_mode):
            for e in _walk(p, suffixes, {(st.st_dev, st.st_ino): p}, judge_later):
                yield e, p
        else:
            n = name_for_path(p)
            why = archive_reason(os.path.basename(p)) if n is None and stat.S_ISREG(st.st_mode) else None
            if why is not None:       # named, but an archive: unreadable as a record, with what to do
                yield Entry(p, UNREADABLE, f"{p}: {why}", True), None
                continue
            yield Entry(p, RECORD, "", True, n), None


def _walk(folder: str, suffixes: tuple[str, ...], seen: dict[tuple[int, int], str],
          judge_later: bool = False) -> Iterator[Entry]:
    try:
        with os.scandir(folder) as it:
            items = sorted(it, key=lambda d: d.name)
    except OSError as e:
        yield Entry(folder, UNREADABLE, _oserror(folder, e) if e.errno != errno.ENOENT
                    else _("{path}: folder vanished while it was searched").format(path=folder))
        return
    for d in items:
        path = os.path.join(folder, d.name)
        try:
            is_dir = d.is_dir()                  # follows links
            is_link = d.is_symlink()
        except OSError:
            is_dir = is_link = False
        if is_dir:
            if d.name.startswith("."):
                continue                         # hidden folders (.git, .cache) are not searched
            if is_link:
                yield Entry(path, SKIPPED, SkipReason(_(_LINK), Skip.LINK))
                continue
            try:
                st = d.stat()
            except OSError as e:
                yield Entry(path, UNREADABLE, _oserror(path, e) if e.errno != errno.ENOENT
                            else _("{path}: folder vanished while the folders were searched").format(path=path))
                continue
            key = (st.st_dev, st.st_ino)
            if key in seen:                      # a bind mount or hard-linked folder seen before
                yield Entry(path, SKIPPED, SkipReason(_(_SEARCHED).format(folder=seen[key]), Skip.LINK))
                continue
            seen[key] = path
            yield from _walk(path, suffixes, seen, judge_later)
            continue
        suffix = os.path.splitext(d.name)[1].lower()
        if suffix not in suffixes:
            why = archive_reason(d.name)
            if why is not None:
                yield Entry(path, SKIPPED, why)
            continue
        yield _file_entry(path, d, judge_later)


class Skip(enum.Enum):
    """Why an input is skipped, as a value (the summaries count the skipped files by it)."""

    RECORD = "record"          # not a game record (empty, or its start matches no notation)
    HIDDEN = "hidden"          # a hidden file
    LINK = "link"              # a folder not searched again, or a link to a folder not followed
    ARCHIVE = "archive"        # an archive or a compressed file
    ALREADY = "already"        # convert: a file with the target notation's suffix
    INSIDE = "inside"          # convert: a file inside the --out-dir folder


class SkipReason(str):
    """A skipped entry's reason: its text, in the language of the run, that carries its :class:`Skip`
    kind (``kind``), decided where the input is skipped (never read back from the text)."""

    kind: Skip

    def __new__(cls, text: str, kind: Skip) -> "SkipReason":
        self = super().__new__(cls, text)
        self.kind = kind
        return self

    def __reduce__(self):
        return SkipReason, (str(self), self.kind)


def skip_kind(reason: str) -> Skip | None:
    """The kind of a SKIPPED entry's reason (:class:`SkipReason`); None for any other text."""
    return reason.kind if isinstance(reason, SkipReason) else None


_NOT_RECORD = (N_("not a game record: empty"), N_("not a game record: its start matches no known notation"))
_HIDDEN = N_("hidden file")
_LINK = N_("a link to a folder, not followed (name the folder to read it)")
_SEARCHED = N_("the folder {folder}, already searched")


# Archives and compressed files found in a folder: not read (the tool reads no archive), and said so with
# what to do; suffix -> (kind, the command that writes the content to standard output, or None)
_ARCHIVES = {".zip": ("zip", None), ".7z": ("7z", None), ".rar": ("rar", None), ".tar": ("tar", None),
             ".tgz": ("tar.gz", None), ".tbz2": ("tar.bz2", None), ".txz": ("tar.xz", None),
             ".gz": ("gzip", "zcat"), ".bz2": ("bzip2", "bzcat"), ".xz": ("xz", "xzcat"), ".zst": ("zstd", "zstdcat")}
_ENDS = frozenset(k[1:] for k in _ARCHIVES)       # the archives' suffixes without their dot
# TRANSLATORS: {kind}: zip, 7z, tar.gz...; a folder's archive is skipped with this reason
_ARCHIVE = N_("an archive ({kind}): records inside archives are not read; unpack it and name the folder it "
              "makes")
# TRANSLATORS: {kind}: gzip, bzip2...; {command}: zcat, bzcat...; {name}: the file's name
_COMPRESSED = N_("a compressed file ({kind}): records inside are not read; decompress it, or pipe it in as '-', "
                 "e.g. {command} {name} | nardy-analyze validate -")


def archive_reason(name: str) -> SkipReason | None:
    """Why a file named ``name`` is not read as a record when it is an archive or a compressed file (by its
    suffix: ``.zip``, ``.tar.gz``, ``.mat.gz``...), with what to do; None for any other name."""
    i = name.rfind(".")
    if i <= 0 or name[i - 1] == "." and not name[:i].strip(".") or name[i + 1:i + 5].lower() not in _ENDS:
        return None         # (nearly every name: no suffix of an archive, told without splitting the name)
    low = name.lower()
    suffix = os.path.splitext(low)[1]
    if suffix not in _ARCHIVES:
        return None
    kind, command = _ARCHIVES[suffix]
    if os.path.splitext(low[:-len(suffix)])[1] == ".tar":
        kind, command = "tar." + suffix[1:], None
    if command is None:
        return SkipReason(_(_ARCHIVE).format(kind=kind), Skip.ARCHIVE)
    return SkipReason(_(_COMPRESSED).format(kind=kind, command=command, name=name), Skip.ARCHIVE)


def _file_entry(path: str, d: os.DirEntry, judge_later: bool = False) -> Entry:
    if d.name.startswith("."):
        return Entry(path, SKIPPED, SkipReason(_(_HIDDEN), Skip.HIDDEN))
    try:
        st = os.stat(path)
    except OSError as e:
        if d.is_symlink() and e.errno == errno.ENOENT:
            return Entry(path, UNREADABLE, _broken_link(path))
        if e.errno == errno.ENOENT:
            return Entry(path, UNREADABLE, _("{path}: vanished while the folder was searched").format(path=path))
        return Entry(path, UNREADABLE, _oserror(path, e))
    if not stat.S_ISREG(st.st_mode):
        return Entry(path, UNREADABLE, _not_read(path, st.st_mode))
    n = name_for_path(path)
    if n is not None:
        return Entry(path, RECORD, notation=n)
    # an ambiguous suffix (.txt): read as a record only when its start looks like one
    if judge_later:
        return Entry(path, RECORD, judge=True)
    return judged(Entry(path, RECORD, judge=True))


def judged(entry: Entry) -> Entry:
    """An entry to judge (``Entry.judge``) as the discovery without ``judge_later`` gives it: its start read
    here, a RECORD of the notation it looks like, else SKIPPED (or UNREADABLE: the file cannot be read).
    Any other entry as it is."""
    if not entry.judge:
        return entry
    path = entry.path
    try:                                 # (the system's calls, as _read_file: no file object per file)
        fd = os.open(entry.source or path, _OPEN_FLAGS)
        try:
            head = _read_upto(fd, SNIFF_BYTES, SNIFF_BYTES, regular=True)
        finally:
            os.close(fd)
    except OSError as e:
        return Entry(path, UNREADABLE, _oserror(path, e), source=entry.source)
    why, name = _judge_start(head)
    if why is not None:
        return Entry(path, SKIPPED, why, source=entry.source)
    return Entry(path, RECORD, notation=name, source=entry.source)


def _judge_start(head: bytes) -> tuple[SkipReason | None, str | None]:
    """(why it is no record, None), or (None, the notation it looks like), of a file of an ambiguous suffix
    found in a folder, by its first :data:`SNIFF_BYTES` bytes (or fewer: all of it)."""
    if not head.strip():
        return SkipReason(_(_NOT_RECORD[0]), Skip.RECORD), None
    if len(head) == SNIFF_BYTES:
        head = head[:len(head) - len(head) % 4]      # whole UTF-16/32 code units
    n = sniff(decode(head))
    if n is None:
        return SkipReason(_(_NOT_RECORD[1]), Skip.RECORD), None
    return None, n.name


def _too_large(entry: Entry, size: int | None, limit: int) -> InputError:
    mib = f"{limit / (1024 * 1024):g}"
    if size is None:
        return InputError(_("{path}: larger than the limit of {limit} MiB per file; --max-file-size MIB raises "
                            "it").format(path=entry.shown, limit=mib))
    # TRANSLATORS: {size}, {limit}: sizes in MiB ("70.2", "64"); --max-file-size MIB is an option
    return InputError(_("{path}: {size} MiB, larger than the limit of {limit} MiB per file; --max-file-size MIB "
                        "raises it").format(path=entry.shown, size=f"{size / (1024 * 1024):.1f}", limit=mib))


def read_input(entry: Entry, max_bytes: int | None = None) -> bytes:
    """The bytes of a record entry (at most ``max_bytes``, default :data:`MAX_BYTES`); InputError when it
    cannot be read or is larger (the message names the limit and the option that raises it)."""
    limit = MAX_BYTES if max_bytes is None else max_bytes
    path = entry.path
    if path == "-":
        data = sys.stdin.buffer.read(limit + 1)
    else:
        try:
            data = _read_file(entry.source or path, entry, limit)
        except IsADirectoryError:
            raise InputError(_("{path}: is a folder").format(path=path)) from None
        except OSError as e:
            raise InputError(_oserror(path, e)) from None
    if len(data) > limit:
        raise _too_large(entry, None, limit)
    return data


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _read_file(name: str, entry: Entry, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the file ``name`` (a file over the limit by its size: InputError without
    reading it), read with the system's calls: no file object (its buffer, and the terminal check it makes
    when opened) for the thousands of small files of an archive."""
    fd = os.open(name, _OPEN_FLAGS)
    try:
        size, regular = _size_of(fd)
        if size > limit:                     # say so without reading it
            raise _too_large(entry, size, limit)
        return _read_upto(fd, limit + 1, size + 1 if size > 0 else 65536, regular)
    finally:
        os.close(fd)


def _size_of(fd: int) -> tuple[int, bool]:
    """(size, regular file) of the open file ``fd``; (0, False) when the system does not say."""
    try:
        st = os.fstat(fd)
    except OSError:
        return 0, False
    return st.st_size, stat.S_ISREG(st.st_mode)


def _read_upto(fd: int, most: int, want: int, regular: bool = False) -> bytes:
    """At most ``most`` bytes of the open file ``fd``, to its end: ``want`` asked first, then 64 KiB at a time (a
    file growing, one whose size says nothing, a short read).  ``regular``: ``fd`` is a regular file, whose read
    gives less than asked only at its end (no further read to find the end: one system call for a small file;
    a pipe, a terminal or a special file can give less before its end)."""
    chunks = []
    left = most
    want = min(want, left)
    while left > 0:
        chunk = os.read(fd, want)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
        if regular and len(chunk) < want:    # (the end of a regular file)
            break
        want = min(max(want, 65536), left)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_bytes(path: str) -> bytes:
    """The bytes of the file a command names (``show``, ``convert``): :func:`read_input` of it as an explicit
    record (``-``: standard input); raises InputError with a message."""
    return read_input(Entry(path, RECORD, explicit=True))


def _read_judged(entry: Entry, max_bytes: int | None) -> tuple[bytes, str]:
    """The bytes of an entry to judge (``Entry.judge``) and the notation its start looks like, the file opened
    once: its first :data:`SNIFF_BYTES` bytes judged before the rest is read (a large file that is no record,
    a server's log, is never read further); NotARecord when it looks like no record (as :func:`judged` says
    it), InputError as :func:`read_input` raises it."""
    limit = MAX_BYTES if max_bytes is None else max_bytes
    try:
        fd = os.open(entry.source or entry.path, _OPEN_FLAGS)
        try:
            size, regular = _size_of(fd)
            head = _read_upto(fd, SNIFF_BYTES, min(size + 1, SNIFF_BYTES) if size > 0 else SNIFF_BYTES, regular)
            why, name = _judge_start(head)
            if why is not None:
                raise NotARecord(why)
            if len(head) < SNIFF_BYTES:                # the whole file
                data = head
            else:
                if size > limit:                       # say so without reading it
                    raise _too_large(entry, size, limit)
                data = head + _read_upto(fd, limit + 1 - len(head),
                                         size + 1 - len(head) if size > len(head) else 65536, regular)
        finally:
            os.close(fd)
    except OSError as e:
        raise InputError(_oserror(entry.path, e)) from None
    if len(data) > limit:
        raise _too_large(entry, None, limit)
    return data, name


def load(entry: Entry, max_bytes: int | None = None) -> Match:
    """Read a RECORD entry: its bytes, the shared decoder, the reader of its notation (by the entry's
    notation, else the suffix, else sniffing, Jellyfish match text when nothing fits).

    Raises InputError when the file cannot be read, NotARecord (one) for an entry to judge
    (``Entry.judge``) whose start looks like no record; never raises for what the file contains (the
    reader turns that into problems with a line and column).  A file without any game and without
    any problem gets a "no game found" problem, so that no record passes as clean unread.
    """
    if entry.status != RECORD:
        raise InputError(entry.reason or f"{entry.path}: {entry.status}")     # (status: an interface word)
    notation = entry.notation
    if entry.judge:      # (found in a folder, of an ambiguous suffix: judged by its start as the walk does)
        data, notation = _read_judged(entry, max_bytes)
    else:
        data = read_input(entry, max_bytes)
    dec = decode_detail(data)
    match = read_text(dec.text, entry.shown, notation)
    match.encoding = dec.encoding
    if not match.games and not match.problems:
        match.problems.append(Problem(Loc(1, 1), _("not a game record: no game found")))
    return match
