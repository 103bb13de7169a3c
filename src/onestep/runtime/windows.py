"""Vocoder windows: which span of the mel each vocoder call sees and which of its samples are kept.

The vocoder is local (convolutions + an iSTFT head), so a window that carries ``context`` frames of real
neighbours on each side produces, for its core frames, the same samples as one call over the whole mel.
Where a window touches an edge of the whole mel (frame 0 or the last frame of the bucket) it needs no
context on that side: the vocoder's own edge handling is then identical to the one-shot call's. So all
windows are cut from the same bucket-sized mel and snapped to its edges, which makes streamed audio equal
to one-shot audio to float tolerance whenever ``context`` covers the vocoder's receptive field.

Every window has one of a few fixed lengths (the streaming lengths or the mel's own length), so the
vocoder only ever runs at shapes warmed at load.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Window:
    """One vocoder call.

    Attributes:
        start: first mel frame fed to the vocoder.
        length: number of mel frames fed (the vocoder input is ``mel[:, start:start + length]``).
        keep_start, keep_end: the core frames ``[keep_start, keep_end)`` whose samples are kept
            (absolute frame indices, inside ``[start, start + length)``).
    """

    start: int
    length: int
    keep_start: int
    keep_end: int

    def keep_slice(self, hop: int) -> slice:
        """Sample slice of this window's vocoder output that holds the core frames."""
        return slice((self.keep_start - self.start) * hop, (self.keep_end - self.start) * hop)


def plan_windows(n_frames: int, total: int, first: int, chunk: int, context: int) -> list[Window]:
    """Cut ``n_frames`` real frames of a ``total``-frame mel into vocoder windows.

    Args:
        n_frames: real (unpadded) frames to produce audio for, ``1 <= n_frames <= total``.
        total: frames of the whole mel (the frame bucket); windows never reach past it.
        first: core frames of the first window (small, for a fast first chunk).
        chunk: core frames of every later window.
        context: frames of context each window carries beyond its core (where not at an edge).
    Returns:
        windows in order; their cores tile ``[0, n_frames)`` exactly. A window's length is
        ``first + context`` for the first one, ``chunk + 2 * context`` for later ones, or ``total``
        when that fixed length would not fit inside the mel.
    """
    if not 1 <= n_frames <= total:
        raise ValueError(f"n_frames must be in [1, total={total}], got {n_frames}")
    if first < 1 or chunk < 1 or context < 0:
        raise ValueError(f"need first >= 1, chunk >= 1, context >= 0; got {first}, {chunk}, {context}")
    windows: list[Window] = []
    a = 0
    while a < n_frames:
        core = first if a == 0 else chunk
        b = min(a + core, n_frames)
        length = core + context if a == 0 else core + 2 * context
        if length >= total:
            windows.append(Window(0, total, a, b))
        else:
            start = max(0, min(a - context, total - length))
            windows.append(Window(start, length, a, b))
        a = b
    return windows


def window_lengths(first: int, chunk: int, context: int) -> tuple[int, int]:
    """The two fixed window lengths :func:`plan_windows` uses (the shapes to warm at load)."""
    return first + context, chunk + 2 * context
