"""String-keyed dictionary tables as memory-mapped MARISA tries, built once into the onestep cache.

jieba's prefix dictionary (~500k keys), pypinyin's phrase dictionary (~47k phrases) and misaki's English
lexicons (~180k words each) are plain Python dicts in their libraries: each costs tens of MB of RSS and a few
hundred ms to build or unpickle on every start. :func:`open_table` builds such a dict once (with the
library's own code) into files under :func:`onestep.paths.cache_dir` (:func:`table_paths`): ``.marisa``
(the keys, a MARISA trie, PyPI ``marisa-trie``), ``.values`` (the values, indexed by the trie's key id) and
``.json`` (key count and the build's extra data, written last), and later memory-maps them: opening costs
~1 ms and the pages are shared by all processes and only read in as they are touched. :class:`CompactTable`
reads them as a ``MutableMapping``; writes (e.g. jieba's ``add_word``) go to a small in-memory overlay, never
to the files.

Value codecs: ``"u32"`` (unsigned 32-bit integers, stored as a flat array) and ``"marshal"`` (any
marshal-able value: strings, lists, dicts, None; stored as one ``marshal`` blob per key).
A missing, unreadable or truncated cache is rebuilt; an unwritable cache directory falls back to an
in-memory trie built from the dict (same lookups, no memory saving).
"""

from __future__ import annotations

import json
import logging
import marshal
import mmap
import os
import struct
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from pathlib import Path
from typing import Any, Literal

import marisa_trie

from onestep.paths import cache_dir

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1  # bump when the file layout changes
Codec = Literal["u32", "marshal"]
_MISSING = object()
_HEADER = struct.Struct("<8sQ")  # magic, number of keys
_MAGIC = {"u32": b"OSTBu32\0", "marshal": b"OSTBmar\0"}
_build_lock = threading.Lock()


class _Values:
    """The value file of a table: ``get(key_id)`` decodes one value."""

    def __init__(self, buf: memoryview, codec: Codec) -> None:
        magic, n = _HEADER.unpack_from(buf, 0)
        if magic != _MAGIC[codec]:
            raise ValueError(f"not a {codec} value file")
        self.n = n
        body = buf[_HEADER.size :]
        if codec == "u32":
            if len(body) != 4 * n:
                raise ValueError("truncated value file")
            self._ints = body.cast("I")
            self.get = self._ints.__getitem__
        else:
            if len(body) < 4 * (n + 1):
                raise ValueError("truncated value file")
            self._offsets = body[: 4 * (n + 1)].cast("I")
            self._blob = body[4 * (n + 1) :]
            if self._offsets[n] != len(self._blob):
                raise ValueError("truncated value file")
            self.get = self._get_marshal

    def _get_marshal(self, key_id: int) -> Any:
        return marshal.loads(self._blob[self._offsets[key_id] : self._offsets[key_id + 1]])


def encode_values(trie: marisa_trie.Trie, table: Mapping[str, Any], codec: Codec) -> bytes:
    """The value file for ``table``'s keys in ``trie``'s key-id order."""
    ordered = [table[key] for key, _ in sorted(trie.items(), key=lambda item: item[1])]
    header = _HEADER.pack(_MAGIC[codec], len(ordered))
    if codec == "u32":
        return header + struct.pack(f"<{len(ordered)}I", *ordered)
    blobs = [marshal.dumps(v) for v in ordered]
    offsets = [0]
    for b in blobs:
        offsets.append(offsets[-1] + len(b))
    return header + struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blobs)


class CompactTable(MutableMapping[str, Any]):
    """A ``str -> value`` mapping over a MARISA trie and a value file, with an in-memory overlay for writes.

    Reads look in the overlay first, then in the trie. Iteration order is the trie's (not insertion order).

    Args:
        trie: the keys (key ids index ``values``).
        values: the decoded value file.
    """

    def __init__(self, trie: marisa_trie.Trie, values: _Values) -> None:
        self._trie = trie
        self._values = values
        self._overlay: dict[str, Any] = {}
        self._deleted: set[str] = set()
        self._extra = 0  # overlay keys that are not in the trie

    def __getitem__(self, key: str) -> Any:
        value = self._overlay.get(key, _MISSING)
        if value is not _MISSING:
            return value
        key_id = self._trie.get(key) if isinstance(key, str) else None
        if key_id is None or (self._deleted and key in self._deleted):
            raise KeyError(key)
        return self._values.get(key_id)

    def get(self, key: str, default: Any = None) -> Any:  # faster than Mapping.get's try/except
        value = self._overlay.get(key, _MISSING)
        if value is not _MISSING:
            return value
        key_id = self._trie.get(key) if isinstance(key, str) else None
        if key_id is None or (self._deleted and key in self._deleted):
            return default
        return self._values.get(key_id)

    def __contains__(self, key: object) -> bool:
        if key in self._overlay:
            return True
        return isinstance(key, str) and key in self._trie and not (self._deleted and key in self._deleted)

    def __setitem__(self, key: str, value: Any) -> None:
        if not isinstance(key, str):
            raise TypeError(f"keys are strings, got {type(key).__name__}")
        if key not in self._overlay and (key not in self._trie or key in self._deleted):
            self._extra += 1
        self._deleted.discard(key)
        self._overlay[key] = value

    def __delitem__(self, key: str) -> None:
        if key not in self:
            raise KeyError(key)
        in_trie = key in self._trie
        self._overlay.pop(key, None)
        if in_trie:
            self._deleted.add(key)
        else:
            self._extra -= 1

    def __iter__(self) -> Iterator[str]:
        for key in self._trie.iterkeys():
            if key not in self._overlay and key not in self._deleted:
                yield key
        yield from self._overlay

    def __len__(self) -> int:
        return len(self._trie) - len(self._deleted) + self._extra

    def copy(self) -> CompactTable:
        """A new table over the same files, with a copy of the overlay (``dict.copy`` for libraries)."""
        other = CompactTable(self._trie, self._values)
        other._overlay = dict(self._overlay)
        other._deleted = set(self._deleted)
        other._extra = self._extra
        return other

    def has_prefix(self, prefix: str) -> bool:
        """Whether some key starts with ``prefix`` (the key itself counts)."""
        keys = self._trie.iterkeys(prefix)
        if not self._deleted:
            if next(keys, None) is not None:
                return True
        elif any(k not in self._deleted for k in keys):
            return True
        return any(key.startswith(prefix) for key in self._overlay)

    def __repr__(self) -> str:
        return f"CompactTable({len(self)} keys)"


def table_paths(stem: str) -> tuple[Path, Path, Path]:
    """``(<stem>-t<FORMAT_VERSION>.marisa, .values, .json)`` in the cache directory."""
    root = cache_dir()
    base = f"{stem}-t{FORMAT_VERSION}"
    return root / f"{base}.marisa", root / f"{base}.values", root / f"{base}.json"


def open_table(
    stem: str, build: Callable[[], tuple[Mapping[str, Any], dict[str, Any]]], codec: Codec
) -> tuple[CompactTable, dict[str, Any]]:
    """The cached table ``stem``, built with ``build`` when missing or unreadable.

    Args:
        stem: cache file name stem; must change whenever the content would (include the library version).
        build: returns ``(table, meta)``: the dict to store and JSON-able extra data kept with it.
        codec: how values are stored (``"u32"`` or ``"marshal"``).
    Returns:
        ``(table, meta)``.
    """
    try:
        return _open_files(stem, codec)
    except (OSError, ValueError, RuntimeError, struct.error, json.JSONDecodeError):
        pass
    with _build_lock:
        try:  # another thread may have built it meanwhile
            return _open_files(stem, codec)
        except (OSError, ValueError, RuntimeError, struct.error, json.JSONDecodeError):
            pass
        table, meta = build()
        trie = marisa_trie.Trie(table.keys())
        values = encode_values(trie, table, codec)
        try:
            _write_files(stem, trie, values, meta)
            return _open_files(stem, codec)
        except (OSError, ValueError, RuntimeError) as exc:
            logger.warning("cannot write the %s table cache (%s); using it from memory", stem, exc)
            return CompactTable(trie, _Values(memoryview(values), codec)), meta


def _open_files(stem: str, codec: Codec) -> tuple[CompactTable, dict[str, Any]]:
    keys_path, values_path, meta_path = table_paths(stem)
    meta = json.loads(meta_path.read_text(encoding="utf-8"))  # written last: its presence marks a full build
    trie = marisa_trie.Trie()
    trie.mmap(str(keys_path))
    with open(values_path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    values = _Values(memoryview(mapped), codec)
    if values.n != len(trie) or meta.get("keys") != len(trie):
        raise ValueError(f"table {stem}: key count mismatch")
    return CompactTable(trie, values), meta["meta"]


def _write_files(stem: str, trie: marisa_trie.Trie, values: bytes, meta: dict[str, Any]) -> None:
    keys_path, values_path, meta_path = table_paths(stem)
    meta_path.unlink(missing_ok=True)
    fd, tmp = tempfile.mkstemp(dir=keys_path.parent, prefix=keys_path.name, suffix=".tmp")
    os.close(fd)
    try:
        trie.save(tmp)
        os.chmod(tmp, 0o644)
        os.replace(tmp, keys_path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    write_atomically(values_path, values)
    write_atomically(meta_path, json.dumps({"keys": len(trie), "meta": meta}).encode("utf-8"))


def write_atomically(path: Path, blob: bytes) -> None:
    """Write ``blob`` to ``path`` through a temporary file in the same directory (readers never see a
    partial file; a failed write leaves nothing behind)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(blob)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; the cache is shared like any other
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
