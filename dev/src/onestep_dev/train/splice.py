"""Render a code-switched row in language runs, so that its English words sound English.

Rendered as one utterance, a Mandarin sentence with English words inside gets the English words in a Mandarin
voice's Mandarin prosody: Whisper base hears few of them as English (docs/EVAL.md, "Code-switch measure"). Here
the row is cut into language runs (the frontend's segments, carried in the phonemized JSONL as ``segments``),
runs are rendered separately by the teacher with the row's own style vector (the whole row's ``style_for``
choice: one voice, one timbre), and the pieces are put back together. The teacher's durations are per phoneme
id, one to one with ours, so every run's samples are known exactly: the row keeps its ids, every id keeps one
duration, and ``audio.size == durations.sum() * hop`` as for a plain render.

Modes (:data:`MODES`):

* ``"runs"``: every run rendered alone (``[0, *run, 0]``).
* ``"english"``: the whole row rendered once (its Mandarin keeps the sentence's prosody); each English run is
  rendered alone and replaces its span. The one to use: on the teacher it lifts the English words heard inside
  Mandarin sentences from 28.6 / 32.7 % to 63.3 / 77.6 % (zf_xiaoxiao / zm_yunxi; TRAINING.md §3b).
* ``"carrier"``: like ``"english"``, but each English run is rendered inside a short English carrier
  (``CARRIER_BEFORE + run + CARRIER_AFTER``) and only the run's own ids are cut out of that render.

The space id that joins two segments belongs to the run before it. Joins are cross-faded over
:data:`CROSSFADE` samples centred on the boundary (each side's render continues past the cut, so the total
length does not change).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from onestep.frontend.symbols import PAD_ID, phonemes_to_ids

MODES = ("runs", "english", "carrier")
CROSSFADE = 240  # samples (10 ms at 24 kHz) blended at each join
CARRIER_BEFORE = "ðə wˈɜɹd "  # "the word ..." (our English frontend's phonemes)
CARRIER_AFTER = " əɡˈɛn."  # "... again."

Synth = Callable[[list[int]], tuple[np.ndarray, np.ndarray]]
"""ids (with both pads) -> (audio float32 [N], units int [len(ids)]) with ``units.sum() * hop == N``."""


def language_runs(segments: Sequence[Sequence[str]], phonemes: str) -> list[tuple[str, list[int]]] | None:
    """The row's language runs ``[(lang, ids)]`` (ids without pads; adjacent segments of one language merged;
    the joining space kept at the end of the run before it), or None when the row holds one language only or
    its ``segments`` (``[[lang, phonemes], ...]``) do not join to its ``phonemes`` exactly."""
    segs = [(str(lang), str(ph)) for lang, ph in segments if ph]
    if len({lang for lang, _ in segs}) < 2 or " ".join(ph for _, ph in segs) != phonemes:
        return None
    runs: list[tuple[str, str]] = []
    for k, (lang, ph) in enumerate(segs):
        text = ph + (" " if k < len(segs) - 1 else "")
        if runs and runs[-1][0] == lang:
            runs[-1] = (lang, runs[-1][1] + text)
        else:
            runs.append((lang, text))
    out = [(lang, phonemes_to_ids(ph, pad=False)) for lang, ph in runs]
    joined = [PAD_ID, *(i for _, ids in out for i in ids), PAD_ID]
    if joined != phonemes_to_ids(phonemes) or any(not ids for _, ids in out):
        return None
    return out


def _pieces(runs: list[tuple[str, list[int]]], mode: str) -> list[tuple[tuple[int, ...], int, int, bool, int, int]]:
    """Per run: (the ids to render, first id of the run in them, end, whether it is an English render of its
    own, the run's first id in the row, end) - the row's pads go with the first and last run (their render
    starts / ends with a real pad)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    row = (PAD_ID, *(i for _, ids in runs for i in ids), PAD_ID)
    before = phonemes_to_ids(CARRIER_BEFORE, pad=False)
    after = phonemes_to_ids(CARRIER_AFTER, pad=False)
    out = []
    start = 1
    last = len(runs) - 1
    for k, (lang, ids) in enumerate(runs):
        a, b = start, start + len(ids)
        start = b
        own = mode == "runs" or lang == "en"
        if not own:
            src, lo, hi = row, a, b
        else:
            pre = before if mode == "carrier" and lang == "en" and k > 0 else []
            post = after if mode == "carrier" and lang == "en" and k < last else []
            src = (PAD_ID, *pre, *ids, *post, PAD_ID)
            lo, hi = 1 + len(pre), 1 + len(pre) + len(ids)
        out.append((src, lo - (k == 0), hi + (k == last), own and lang == "en", a, b))
    return out


def splice_render(synth: Synth, runs: list[tuple[str, list[int]]], mode: str = "english", hop: int = 600,
                  crossfade: int = CROSSFADE, english_speed: float = 1.0,
                  match_level_db: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Render ``runs`` (:func:`language_runs`) piece by piece with ``synth`` and join them: the audio and the
    units per id of ``[0, *all run ids, 0]``, exactly as one render of the row would return them.
    ``english_speed`` (!= 1) is passed as ``synth(ids, speed=...)`` for the English runs' own renders.
    ``match_level_db`` > 0 (modes english / carrier): each English run's own render is scaled towards the RMS
    level of the same run inside the row's render, by at most that many dB."""
    renders: dict[tuple[tuple[int, ...], bool], tuple[np.ndarray, np.ndarray]] = {}
    spans = []  # per piece: (audio of its render, first sample, end sample), units
    units_out = []
    pieces = _pieces(runs, mode)
    row = (PAD_ID, *(i for _, ids in runs for i in ids), PAD_ID)
    for src, lo, hi, english, _, _ in pieces:
        key = (src, english and english_speed != 1.0)
        if key not in renders:
            audio, units = synth(list(src), speed=english_speed) if key[1] else synth(list(src))
            units = np.asarray(units, dtype=np.int64).reshape(-1)
            audio = np.asarray(audio, dtype=np.float32).reshape(-1)
            n = int(units.sum()) * hop
            renders[key] = (audio[:n] if audio.size >= n else np.pad(audio, (0, n - audio.size)), units)
        audio, units = renders[key]
        spans.append((audio, int(units[:lo].sum()) * hop, int(units[:hi].sum()) * hop))
        units_out.append(units[lo:hi])
    if match_level_db > 0 and (row, False) in renders:
        row_audio, row_units = renders[(row, False)]
        for k, (src, lo, hi, english, a, b) in enumerate(pieces):
            audio, s, e = spans[k]
            ref = row_audio[int(row_units[:a].sum()) * hop : int(row_units[:b].sum()) * hop]
            if english and src != row and ref.size and e > s:
                gain_db = 10 * np.log10((np.mean(ref**2) + 1e-10) / (np.mean(audio[s:e] ** 2) + 1e-10))
                gain = 10 ** (np.clip(gain_db, -match_level_db, match_level_db) / 20)
                spans[k] = (audio * np.float32(gain), s, e)
    parts: list[np.ndarray] = []
    for k, (audio, s, e) in enumerate(spans):
        if k > 0:  # cross-fade the join with the piece before: both renders continue past the cut
            prev_audio, ps, pe = spans[k - 1]
            h = min(crossfade // 2, prev_audio.size - pe, s, (pe - ps) // 2, (e - s) // 2)
            if h > 0:
                fade = (0.5 - 0.5 * np.cos(np.linspace(0.0, np.pi, 2 * h, dtype=np.float32))).astype(np.float32)
                parts[-1] = parts[-1][: parts[-1].size - h]
                parts.append(prev_audio[pe - h : pe + h] * (1 - fade) + audio[s - h : s + h] * fade)
                s += h
        parts.append(audio[s:e])
    out = np.concatenate(parts) if parts else np.zeros(0, np.float32)
    units = np.concatenate(units_out)
    assert out.size == int(units.sum()) * hop, (out.size, int(units.sum()) * hop)
    return out.astype(np.float32), units
