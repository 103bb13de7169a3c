"""Shared memory segments: audio handed between the host pool's processes without pickling it.

A segment is a file in ``/dev/shm`` (the OS's shared memory; the temporary folder where there is none, or where
it has no room left for the segment: a container's ``/dev/shm`` is often 64 MB, and a write past a full tmpfs
kills the process with SIGBUS) named ``onestep-shm-<creator pid>-<n>-<random>``, mapped by every process that uses it.
Its :attr:`Segment.name` is the file's whole path. Its creator unlinks the name
once the other processes are done with it; the memory itself lives on while any mapping (and so any numpy view
of :meth:`Segment.array`) does: a result can keep pointing into the segment after its name is gone, and the
last view dropped frees it. No ``multiprocessing.shared_memory``: its resource tracker unlinks a segment when
any process that merely attached to it exits (Python < 3.13), and its ``close`` fails while views exist.

A creator killed outright (SIGKILL, the OOM killer) unlinks nothing: its host pool's workers, which end when
it does, unlink what it left (:func:`remove_dead_owners`, called by the worker that finds its parent gone:
:mod:`onestep.runtime.host_workers`). When the workers die with it (the whole process group or container
killed), the next pool to start sweeps the leftovers (:func:`remove_orphaned_segments`). A creator holds a shared
``flock`` on each segment it created until it unlinks it; the kernel drops the lock with the process, so a
segment nobody holds has lost its creator, even one in another PID namespace sharing this ``/dev/shm``.

The creator maps a new segment with ``MAP_POPULATE`` (its pages are allocated in the kernel, in one call that
releases the GIL, instead of one page fault at a time while the samples are copied in).
"""

from __future__ import annotations

import fcntl
import itertools
import mmap
import os
import re
import secrets
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

PREFIX = "onestep-shm-"
_NAME = re.compile(rf"{PREFIX}(\d+)-\d+-[0-9a-f]+")  # the whole name of a segment: its creator's pid first
_counter = itertools.count()
_created: dict[str, int] = {}  # names this process created and has not unlinked yet -> the fd holding its flock
_lock = threading.Lock()


def shm_dir(nbytes: int = 0) -> Path:
    """Where a segment of ``nbytes`` goes: ``/dev/shm`` when it is there with room for it (and a quarter more),
    else the temporary folder."""
    dev = Path("/dev/shm")
    if dev.is_dir() and os.access(dev, os.W_OK):
        try:
            st = os.statvfs(dev)
            if st.f_bavail * st.f_frsize >= nbytes + nbytes // 4:
                return dev
        except OSError:
            pass
    return Path(tempfile.gettempdir())


def _dirs() -> list[Path]:
    return list(dict.fromkeys([shm_dir(), Path(tempfile.gettempdir())]))


class Segment:
    """One mapped segment of ``size`` bytes (see the module docstring).

    Args:
        name: the segment file's path.
        size: bytes.
        create: make it (fails if the name exists) rather than attach to an existing one.
    """

    def __init__(self, name: str, size: int, create: bool = False) -> None:
        self.name = name
        self.size = size
        self.creator = create
        path = Path(name)
        fd = os.open(path, os.O_RDWR | (os.O_CREAT | os.O_EXCL if create else 0), 0o600)
        try:
            if create:
                try:  # held (fd kept open) until unlink: "its creator is alive"
                    fcntl.flock(fd, fcntl.LOCK_SH)
                except OSError:  # a file system without flock: a sweep then skips this segment (it cannot lock it)
                    pass
                with _lock:
                    _created[name] = fd
                os.ftruncate(fd, max(size, 1))
            flags = mmap.MAP_SHARED | (getattr(mmap, "MAP_POPULATE", 0) if create else 0)
            self.mm = mmap.mmap(fd, max(size, 1), flags=flags)
        except BaseException:
            if create:
                self.unlink()
            else:
                os.close(fd)
            raise
        if not create:
            os.close(fd)

    @classmethod
    def create(cls, size: int) -> Segment:
        """A new segment of ``size`` bytes, named after this process."""
        name = f"{PREFIX}{os.getpid()}-{next(_counter)}-{secrets.token_hex(4)}"
        return cls(str(shm_dir(size) / name), size, create=True)

    @classmethod
    def attach(cls, name: str) -> Segment:
        """The existing segment ``name`` (all of it)."""
        return cls(name, Path(name).stat().st_size)

    def array(self, offset: int, count: int, dtype: type = np.float32) -> np.ndarray:
        """A writable view of ``count`` items of ``dtype`` from byte ``offset`` (it keeps the mapping alive)."""
        return np.frombuffer(self.mm, dtype=dtype, count=count, offset=offset)

    def unlink(self) -> None:
        """Remove the segment's name (mappings and views stay valid); idempotent."""
        with _lock:
            fd = _created.pop(self.name, None)
        try:
            os.unlink(self.name)
        except FileNotFoundError:
            pass
        if fd is not None:
            os.close(fd)

    def close(self) -> None:
        """Unmap now if no view is left (else the mapping goes with the last view)."""
        try:
            self.mm.close()
        except BufferError:
            pass


def unlink_all_created() -> int:
    """Unlink every segment this process created and has not unlinked (a pool's last resort); returns how many."""
    with _lock:
        created = dict(_created)
        _created.clear()
    for name, fd in created.items():
        try:
            os.unlink(name)
        except FileNotFoundError:
            pass
        os.close(fd)
    return len(created)


def leftover_segments(pid: int | None = None) -> list[str]:
    """Paths of segments still linked that process ``pid`` (default: any) created: what a leak leaves."""
    stem = PREFIX if pid is None else f"{PREFIX}{pid}-"
    return sorted(str(p) for d in _dirs() for p in d.glob(f"{stem}*"))


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (a zombie, not yet reaped, counts: its pid is not free for reuse)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def remove_dead_owners(pid: int, *, dead: bool = False) -> list[str]:
    """Unlink the segments left by process ``pid`` once it has ended (killed before it could unlink them);
    returns their paths. Only files named like a segment (``onestep-shm-<pid>-<n>-<hex>``) and owned by this
    user are touched, and nothing while ``pid`` still exists, unless ``dead`` says the caller knows it ended
    (a worker reparented away from it: its parent may still be an unreaped zombie, whose locks are gone)."""
    if pid == os.getpid() or (not dead and pid_alive(pid)):
        return []
    return _unlink_unheld([path for path in leftover_segments(pid) if _creator(path) == pid], min_age_s=0.0)


def remove_orphaned_segments(min_age_s: float = 5.0) -> list[str]:
    """Unlink every segment whose creator has ended without unlinking it (its workers gone with it: a whole
    process group or container killed); returns their paths. A segment is left alone while its creator's pid
    exists, while any process holds its ``flock`` (every live creator does, whatever its PID namespace), when it
    was made less than ``min_age_s`` seconds ago (a creator between ``open`` and ``flock``), or when another user
    owns it. Called once per process by the first host pool that maps shared memory."""
    gone = [path for path in leftover_segments()
            if (pid := _creator(path)) is not None and pid != os.getpid() and not pid_alive(pid)]  # fmt: skip
    return _unlink_unheld(gone, min_age_s)


def _creator(path: str) -> int | None:
    """The pid in a segment's name, None for a file not named like a segment."""
    match = _NAME.fullmatch(os.path.basename(path))
    return None if match is None else int(match.group(1))


def _unlink_unheld(paths: list[str], min_age_s: float) -> list[str]:
    """Unlink each of ``paths`` that this user owns (not a link), that is at least ``min_age_s`` seconds old and
    whose ``flock`` no process holds; returns those unlinked."""
    removed = []
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:  # gone already (another worker), or a link
            continue
        try:
            st = os.fstat(fd)
            if st.st_uid != os.getuid() or time.time() - st.st_mtime < min_age_s:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(path)
            removed.append(path)
        except OSError:  # held by a live creator, or gone already
            continue
        finally:
            os.close(fd)
    return removed


_swept = False


def sweep_orphans_once() -> None:
    """:func:`remove_orphaned_segments`, the first time this process calls it."""
    global _swept
    with _lock:
        if _swept:
            return
        _swept = True
    remove_orphaned_segments()


class SegmentRing:
    """``slots`` reusable segments: a producer takes a free one (:meth:`acquire`), fills it, and gives it back
    when its readers are done (:meth:`release`). Reusing them spares allocating fresh shared pages for every
    chunk (on a 2-core VM, ~0.7 ms of kernel time per MB; a copy into pages already there, ~0.02 ms per MB).
    A slot too small for a request is replaced by a larger one. :meth:`close` unlinks every segment."""

    def __init__(self, slots: int = 3) -> None:
        self._segments: list[Segment | None] = [None] * slots
        self._free = list(range(slots))
        self._cond = threading.Condition()

    def acquire(self, nbytes: int, timeout: float | None = None) -> tuple[int, Segment]:
        """A free slot of at least ``nbytes`` bytes: (its index, its segment); waits for one to be released."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._free, timeout):
                raise TimeoutError("no shared memory slot came free")
            fits = [i for i in self._free if (s := self._segments[i]) is not None and s.size >= nbytes]
            index = fits[0] if fits else self._free[0]  # else one to replace by a larger one
            self._free.remove(index)
            seg = self._segments[index]
            largest = max((s.size for s in self._segments if s is not None), default=0)
        if seg is None or seg.size < nbytes:
            if seg is not None:
                seg.unlink()
                seg.close()
            try:  # as large as the largest so far (chunks differ in audio), with room to grow
                seg = Segment.create(max(nbytes + nbytes // 2, largest, 1 << 20))
            except BaseException:
                self.release(index)
                raise
            self._segments[index] = seg
        return index, seg

    def release(self, index: int) -> None:
        """Give slot ``index`` back (its readers are done with it)."""
        with self._cond:
            self._free.append(index)
            self._cond.notify()

    def close(self) -> None:
        """Unlink every segment (mappings still viewed stay valid)."""
        with self._cond:
            segments, self._segments = self._segments, [None] * len(self._segments)
        for seg in segments:
            if seg is not None:
                seg.unlink()
                seg.close()
