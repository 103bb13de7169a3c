"""Audio formats, the one encoder module of the server and the CLI (and ``Audio.save``), encoded incrementally so a response can stream while audio is produced.

``wav`` and ``pcm`` are written here (a 44-byte header and int16 samples); ``flac``, ``mp3`` and ``opus``
(in Ogg) go through libsndfile (``soundfile``, in every install). ``aac`` (ADTS), and ``mp3``/``opus`` at a
chosen bitrate, go through PyAV (FFmpeg's aac, LAME and libopus encoders; the ``audio`` extra, imported only
when used): libsndfile has no AAC encoder and no bitrate setting in kbit/s, and FFmpeg's encoders are the
field's standard, so nothing is written by hand. A format that needs PyAV where it is missing is refused
with an error naming the extra (:func:`check_format`). libsndfile writes to a seekable file and, on close,
goes back to fill in header fields it only knows at the end (FLAC total samples and MD5, the MP3
Xing/LAME frame). A stream cannot take bytes back, so :class:`_ForwardOnlySink` forwards every byte as
soon as it is written and drops rewrites of bytes already sent: the result is a standard *streamed* file
(FLAC STREAMINFO with "unknown" length, an MP3 whose first frame is a blank info frame), as any
streaming encoder produces. Whole-file responses (``encode_file``) keep the final headers.
"""

from __future__ import annotations

import io
import struct
from functools import lru_cache
from typing import Protocol

import numpy as np
import soundfile as sf

from onestep.runtime.formats import (  # noqa: F401 - part of this module's interface
    BITRATE_FORMATS,
    EXTENSION_FORMATS,
    MEDIA_TYPES,
    UnsupportedFormatError,
    check_bitrate,
    format_for_path,
)
from onestep.runtime.pcm import to_pcm16

#: response_format -> (libsndfile format, subtype) for the formats libsndfile encodes.
_SNDFILE_FORMATS: dict[str, tuple[str, str]] = {
    "flac": ("FLAC", "PCM_16"),
    "mp3": ("MP3", "MPEG_LAYER_III"),
    "opus": ("OGG", "OPUS"),
}

#: The compressed formats (libsndfile's own encoders: no ffmpeg needed).
ENCODED_FORMATS: tuple[str, ...] = tuple(_SNDFILE_FORMATS)

#: response_format -> (FFmpeg muxer, FFmpeg encoder) for the formats PyAV encodes.
_AV_FORMATS: dict[str, tuple[str, str]] = {
    "aac": ("adts", "aac"),
    "mp3": ("mp3", "libmp3lame"),
    "opus": ("ogg", "libopus"),
}
#: How to get PyAV (doctor names the same extra).
AV_HINT = "pip install 'onestep-tts[audio]'"


#: Sample rates the Opus codec takes (it has no 22050 or 44100 mode).
OPUS_RATES = frozenset({8000, 12000, 16000, 24000, 48000})


def check_rate(fmt: str, sample_rate: int) -> None:
    """Raise :class:`UnsupportedFormatError` when ``fmt`` cannot carry ``sample_rate`` (Opus: see OPUS_RATES)."""
    if fmt == "opus" and sample_rate not in OPUS_RATES:
        rates = ", ".join(map(str, sorted(OPUS_RATES)))
        raise UnsupportedFormatError(f"opus cannot carry {sample_rate} Hz; use one of {rates}, or another format")


#: Formats whose whole-file encoding is a plain int16 copy (fast enough to do on the event loop).
INLINE_FORMATS = frozenset({"pcm", "wav"})

_OGG_PAGE_LATENCY_MS = 60.0  # flush an Ogg page every 60 ms of audio instead of libsndfile's ~1 s
_SFC_SET_OGG_PAGE_LATENCY_MS = 0x1302  # sndfile.h command id (libsndfile >= 1.2)


def wav_header(sample_rate: int, data_bytes: int | None = None) -> bytes:
    """44-byte RIFF header for mono int16 PCM.

    ``data_bytes``: size of the PCM that follows, bytes; None for a stream of unknown length (both sizes are
    then 0xFFFFFFFF, as OpenAI does).
    """
    riff_size = 0xFFFFFFFF if data_bytes is None else 36 + data_bytes
    data_size = 0xFFFFFFFF if data_bytes is None else data_bytes
    return b"".join(
        (
            b"RIFF",
            struct.pack("<I", riff_size),
            b"WAVEfmt ",
            struct.pack("<IHHIIHH", 16, 1, 1, sample_rate, sample_rate * 2, 2, 16),
            b"data",
            struct.pack("<I", data_size),
        )
    )


class StreamEncoder(Protocol):
    """Turns float32 chunks into the bytes of one response, in order."""

    media_type: str

    def encode(self, samples: np.ndarray) -> bytes:
        """Bytes to send for one more float32 [n] chunk (may be empty while the codec buffers)."""
        ...

    def finish(self) -> bytes:
        """Bytes that end the stream."""
        ...


class _PcmEncoder:
    """Raw int16 little-endian mono (``pcm``), optionally preceded by a streaming WAV header (``wav``)."""

    def __init__(self, sample_rate: int, *, with_header: bool) -> None:
        self.media_type = MEDIA_TYPES["wav" if with_header else "pcm"]
        self._pending = wav_header(sample_rate) if with_header else b""

    def encode(self, samples: np.ndarray) -> bytes:
        out, self._pending = self._pending + to_pcm16(samples), b""
        return out

    def finish(self) -> bytes:
        out, self._pending = self._pending, b""
        return out


class _ForwardOnlySink:
    """A write-only "file" for libsndfile that hands out each byte once, in order.

    Writes at or after the forwarded mark are buffered until :meth:`take`; writes that land before it
    (libsndfile's header rewrites on close) are dropped.
    """

    def __init__(self) -> None:
        self._taken = 0  # absolute offset of the first byte not yet handed out
        self._buf = bytearray()  # bytes from offset self._taken on
        self._pos = 0
        self._end = 0

    def write(self, data: bytes) -> int:
        data = bytes(data)
        n = len(data)
        start, end = self._pos, self._pos + n
        if end > self._taken:
            lo = max(start, self._taken)
            chunk = data[lo - start :]
            rel = lo - self._taken
            if rel > len(self._buf):
                self._buf.extend(b"\0" * (rel - len(self._buf)))
            self._buf[rel : rel + len(chunk)] = chunk
        self._pos = end
        self._end = max(self._end, end)
        return n

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._end}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def read(self, size: int = -1) -> bytes:
        return b""

    def take(self) -> bytes:
        """Everything written since the last call."""
        out = bytes(self._buf)
        self._taken += len(out)
        self._buf.clear()
        return out


class _SndfileEncoder:
    """flac / mp3 / opus through libsndfile, streamed with :class:`_ForwardOnlySink`."""

    def __init__(self, fmt: str, sample_rate: int) -> None:
        container, subtype = _SNDFILE_FORMATS[fmt]
        self.media_type = MEDIA_TYPES[fmt]
        self._sink = _ForwardOnlySink()
        self._file = sf.SoundFile(
            self._sink, mode="w", samplerate=sample_rate, channels=1, format=container, subtype=subtype
        )
        if container == "OGG":
            _set_ogg_page_latency(self._file, _OGG_PAGE_LATENCY_MS)

    def encode(self, samples: np.ndarray) -> bytes:
        if samples.size:
            self._file.write(np.clip(samples, -1.0, 1.0).astype(np.float32))
        return self._sink.take()

    def finish(self) -> bytes:
        self._file.close()
        return self._sink.take()


def _set_ogg_page_latency(f: sf.SoundFile, ms: float) -> None:
    """Make libsndfile emit an Ogg page every ``ms`` of audio (soundfile has no wrapper for this command)."""
    value = sf._ffi.new("double*", ms)
    sf._snd.sf_command(f._file, _SFC_SET_OGG_PAGE_LATENCY_MS, value, sf._ffi.sizeof("double"))


class _AvEncoder:
    """aac (ADTS), mp3 or opus (Ogg) through PyAV, streamed with :class:`_ForwardOnlySink` (none of these
    muxers needs to seek back; the MP3 muxer's Xing frame stays blank, as in any streamed MP3).

    ``bitrate``: kbit/s, None for the encoder's default. PyAV cuts the float32 chunks into the codec's frame
    size (1024 for AAC, 1152 for MP3, 20 ms for Opus) and converts the sample format."""

    def __init__(self, fmt: str, sample_rate: int, bitrate: int | None = None) -> None:
        import av

        muxer, codec = _AV_FORMATS[fmt]
        self.media_type = MEDIA_TYPES[fmt]
        self._rate = sample_rate
        self._pts = 0
        self._sink = _ForwardOnlySink()
        options = {"page_duration": str(int(_OGG_PAGE_LATENCY_MS * 1000))} if muxer == "ogg" else {}
        self._out = av.open(self._sink, mode="w", format=muxer, options=options)
        self._stream = self._out.add_stream(codec, rate=sample_rate, layout="mono")
        if bitrate is not None:
            self._stream.bit_rate = bitrate * 1000
        self._frame = av.AudioFrame

    def encode(self, samples: np.ndarray) -> bytes:
        if samples.size:
            chunk = np.clip(samples, -1.0, 1.0).astype(np.float32).reshape(1, -1)
            frame = self._frame.from_ndarray(chunk, format="flt", layout="mono")
            frame.sample_rate = self._rate
            frame.pts = self._pts
            self._pts += chunk.shape[1]
            for packet in self._stream.encode(frame):
                self._out.mux(packet)
        return self._sink.take()

    def finish(self) -> bytes:
        for packet in self._stream.encode(None):
            self._out.mux(packet)
        self._out.close()
        return self._sink.take()


@lru_cache(maxsize=1)
def _av_formats() -> tuple[str, ...]:
    """The formats of :data:`_AV_FORMATS` this installation's PyAV encodes (none without PyAV)."""
    import importlib.util

    if importlib.util.find_spec("av") is None:
        return ()
    out = []
    for fmt in _AV_FORMATS:
        try:
            enc = _AvEncoder(fmt, 24000, 64)
            enc.encode(np.zeros(2400, dtype=np.float32))
            enc.finish()
        except Exception:  # noqa: BLE001 - an FFmpeg build without this encoder (any error of PyAV's)
            continue
        out.append(fmt)
    return tuple(out)


def _uses_av(fmt: str, bitrate: int | None) -> bool:
    return fmt == "aac" or (bitrate is not None and fmt in _AV_FORMATS)


def check_format(fmt: str, bitrate: int | None = None) -> None:
    """Raise :class:`UnsupportedFormatError` unless ``fmt`` (at ``bitrate`` kbit/s, None: the default) can be
    encoded here; where PyAV is what is missing, the message names the extra that installs it."""
    check_bitrate(fmt, bitrate)
    if _uses_av(fmt, bitrate):
        if fmt not in _av_formats():
            what = "aac" if fmt == "aac" else f"{fmt} at a chosen bitrate"
            raise UnsupportedFormatError(f"{what} needs PyAV (FFmpeg's encoders), not installed here: {AV_HINT}")
        return
    if fmt not in supported_formats():
        raise UnsupportedFormatError(f"format {fmt!r} is not supported; supported: {', '.join(supported_formats())}")


def make_encoder(fmt: str, sample_rate: int, bitrate: int | None = None) -> StreamEncoder:
    """A fresh streaming encoder for ``fmt`` (one of :func:`supported_formats`); ``bitrate``: kbit/s for
    mp3/aac/opus (None: the encoder's default)."""
    check_format(fmt, bitrate)
    check_rate(fmt, sample_rate)
    if fmt in ("wav", "pcm"):
        return _PcmEncoder(sample_rate, with_header=fmt == "wav")
    if _uses_av(fmt, bitrate):
        return _AvEncoder(fmt, sample_rate, bitrate)
    return _SndfileEncoder(fmt, sample_rate)


def encode_file(fmt: str, samples: np.ndarray, sample_rate: int, bitrate: int | None = None) -> bytes:
    """A complete file (final headers: WAV sizes, FLAC length) of float32 [n] samples; ``bitrate`` as for
    :func:`make_encoder`."""
    check_format(fmt, bitrate)
    check_rate(fmt, sample_rate)
    if fmt in ("pcm", "wav"):  # the same samples as the streamed forms (and ~10x faster than libsndfile)
        pcm = to_pcm16(samples)
        return pcm if fmt == "pcm" else wav_header(sample_rate, len(pcm)) + pcm
    if _uses_av(fmt, bitrate):
        encoder = _AvEncoder(fmt, sample_rate, bitrate)
        return encoder.encode(samples) + encoder.finish()
    buf = io.BytesIO()
    container, subtype = _SNDFILE_FORMATS[fmt]
    sf.write(buf, np.clip(samples, -1.0, 1.0).astype(np.float32), sample_rate, format=container, subtype=subtype)
    return buf.getvalue()


@lru_cache(maxsize=1)
def supported_formats() -> tuple[str, ...]:
    """Formats this installation can produce: wav and pcm always; flac/mp3/opus when libsndfile encodes them;
    aac when PyAV is installed (the ``audio`` extra).

    Each format is probed by encoding a few milliseconds of silence at 24 kHz.
    """
    out = ["wav", "pcm"]
    for fmt in _SNDFILE_FORMATS:
        try:
            enc = _SndfileEncoder(fmt, 24000)
            enc.encode(np.zeros(480, dtype=np.float32))
            enc.finish()
        except (sf.LibsndfileError, RuntimeError, TypeError, ValueError, AttributeError):
            continue
        out.append(fmt)
    if "aac" in _av_formats():
        out.append("aac")
    return tuple(out)
