"""Streaming windows: which span of the frames each decoder / vocoder call sees and which output is kept.

The decoder and the vocoder are local (convolutions, and an iSTFT head): a window that carries ``context``
frames of real neighbours on each side produces, for its core frames, the same output as one call over the
whole bucket. Where a window touches an edge of the bucket (frame 0 or its last frame) it needs no context
on that side: the network's own edge handling is then identical to the one-shot call's. So all windows are
cut from the same bucket-sized input and snapped to its edges, which makes streamed audio equal to one-shot
audio to float tolerance whenever ``context`` covers the receptive field.

Every window has one of a few fixed lengths (the streaming lengths or the bucket's own length), so the
networks only ever run at shapes warmed at load.
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


def span(core_start: int, length: int, context: int, total: int) -> tuple[int, int]:
    """Start and length of a window of fixed ``length`` around a core that begins at ``core_start``.

    The window starts ``context`` frames before the core, shifted right/left to stay inside ``[0, total)``
    (at an edge it needs no context on that side); a ``length`` of ``total`` or more gives the whole range.
    """
    if length >= total:
        return 0, total
    return max(0, min(core_start - context, total - length)), length


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
        start, length = span(a, core + context if a == 0 else core + 2 * context, context, total)
        windows.append(Window(start, length, a, b))
        a = b
    return windows


def window_lengths(first: int, chunk: int, context: int) -> tuple[int, int]:
    """The two fixed window lengths :func:`plan_windows` uses (the shapes to warm at load)."""
    return first + context, chunk + 2 * context


def split_windows(total: int, pieces: int, context: int) -> list[Window]:
    """Cut a ``total``-frame input into ``pieces`` windows whose cores tile ``[0, total)`` in equal parts.

    Each window carries ``context`` frames beyond its core on each side, clipped at the input's own edges
    (where the network's edge handling is the one of a single call over the whole input). Used to run one
    long input as several calls at once; with ``context`` covering the receptive field the joined cores equal
    the single call's output.
    """
    if total < 1 or pieces < 1 or context < 0:
        raise ValueError(f"need total >= 1, pieces >= 1, context >= 0; got {total}, {pieces}, {context}")
    pieces = min(pieces, total)
    bounds = [total * i // pieces for i in range(pieces + 1)]
    windows = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        start, end = max(0, a - context), min(total, b + context)
        windows.append(Window(start, end - start, a, b))
    return windows
