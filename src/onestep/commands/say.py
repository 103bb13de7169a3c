"""``onestep say``: synthesize text to an audio file, to raw PCM on stdout, or a file of lines to a directory.

    onestep say "你好，世界。" -o hello.wav
    onestep say "Hello there." -o hello.mp3 --sample-rate 16000 --gain -3     # wav, flac, mp3, ogg/opus, aac
    onestep say "Hello there." -o hello.aac --bitrate 96                       # aac/bitrates: onestep-tts[audio]
    onestep say '<speak>Wait<break time="1s"/> now.</speak>' -o pause.wav --timestamps words.srt
    echo "Hello there." | onestep say -o - | aplay -r 24000 -f S16_LE -c 1
    onestep say --input lines.txt --out-dir wavs/        # wavs/0001.wav, wavs/0002.wav, ...
    onestep say --input lines.txt --out-dir d/ --timestamps .srt --captions sentences   # d/0001.srt beside d/0001.wav
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from onestep.captions import CUE_UNITS, caption_format
from onestep.cli import CLIError, add_engine_option
from onestep.config import SPEED_MAX, SPEED_MIN
from onestep.errors import UserError
from onestep.runtime.formats import (
    BITRATE_RANGE_KBPS,
    EXTENSION_FORMATS,
    MEDIA_TYPES,
    format_for_path,
    format_name,
)
from onestep.runtime.output import SAMPLE_RATES
from onestep.languages import language_codes
from onestep.runtime.voices import voice_ref
from onestep.work_limits import NothingToSpeakError

if TYPE_CHECKING:  # pragma: no cover
    from onestep.api import TTS, Audio


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("say", help="synthesize text to a WAV file or raw PCM on stdout")
    p.add_argument("text", nargs="?", help="text to speak (default: read stdin)")
    p.add_argument(
        "-o", "--output",
        help="output file, format by extension (.wav .flac .mp3 .ogg/.opus .pcm), or '-' for raw 16-bit "
        "little-endian PCM on stdout",
    )  # fmt: skip
    p.add_argument(
        "--format", choices=sorted(set(MEDIA_TYPES) | set(EXTENSION_FORMATS)),
        help="audio format, overrides the extension (ogg = opus in Ogg; raw = pcm; aac needs onestep-tts[audio])",
    )  # fmt: skip
    p.add_argument(
        "--bitrate", type=int, metavar="KBPS",
        help="mp3/aac/opus bitrate in kbit/s, {}-{} (default: the encoder's; needs onestep-tts[audio])".format(
            *BITRATE_RANGE_KBPS
        ),
    )  # fmt: skip
    p.add_argument(
        "--sample-rate", type=int, choices=SAMPLE_RATES, help="output sample rate in Hz (default: the voice's, 24000)"
    )
    p.add_argument("--gain", type=float, default=0.0, help="volume change in dB, with clipping prevention (default 0)")
    p.add_argument(
        "--timestamps", type=Path, metavar="FILE",
        help="also write word timestamps: .json (times, offsets into the input), .srt or .vtt (captions); "
        "with --input, one file per line beside its audio (OUT_DIR/0001.srt), named by this extension",
    )  # fmt: skip
    p.add_argument(
        "--captions", choices=CUE_UNITS, default="words",
        help="what one .srt/.vtt cue holds: a word (default, for lip sync) or a sentence (for subtitles)",
    )  # fmt: skip
    p.add_argument("--characters", action="store_true", help="timestamps per Chinese character, not per word")
    p.add_argument(
        "--ssml", action="store_true",
        help="read the text as SSML (docs/SSML.md; text starting with <speak is SSML anyway)",
    )  # fmt: skip
    p.add_argument("--input", type=Path, help="batch mode: a text file, one utterance per non-empty line")
    p.add_argument("--out-dir", type=Path, help="batch mode: directory for 0001.wav, 0002.wav, ... (one per line)")
    add_voice_arguments(p)
    p.add_argument("--speed", type=float, default=1.0, help=f"speaking rate, {SPEED_MIN}-{SPEED_MAX} (default 1.0)")
    p.add_argument(
        "--lang", "--language", dest="lang", choices=language_codes(), metavar="CODE",
        help=f"read the text in this language ({', '.join(language_codes())}; default: the voice's, else the "
        "script's): Latin-script text in es/fr/it/pt, Han characters as ja",
    )
    p.add_argument("--lexicon", type=Path, help="user pronunciation lexicon (JSON)")
    p.set_defaults(func=run)


def add_voice_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by commands that synthesize: voice choice, voice search path, engine, threads."""
    p.add_argument("--voice", help="voice name, or a path to a voice directory (default: by the text's language)")
    p.add_argument("--voices-dir", type=Path, action="append", help="extra directory to search for voices")
    add_engine_option(p)
    p.add_argument("--threads", type=int, help="CPU threads per graph (default: one per physical core)")


def make_tts(args: argparse.Namespace, preload: bool | None = False) -> TTS:
    """Build the :class:`onestep.TTS` described by :func:`add_voice_arguments`' options. ``preload`` as
    :class:`onestep.TTS` takes it; default False: a one-off command loads only what its texts need."""
    from onestep.api import TTS

    if args.threads is not None and args.threads < 1:
        raise CLIError(f"--threads must be >= 1, got {args.threads}")
    tts = TTS(
        voice=voice_ref(args.voice),
        engine=args.engine,
        threads=args.threads,
        lexicon=getattr(args, "lexicon", None),
        voices_dir=args.voices_dir,
        preload=preload,
    )
    tts.frontend()  # reads and checks the lexicon now (the G2Ps still load on first use)
    return tts


def run(args: argparse.Namespace) -> int:
    if not SPEED_MIN <= args.speed <= SPEED_MAX:
        raise CLIError(f"--speed must be between {SPEED_MIN} and {SPEED_MAX}, got {args.speed}")
    batch = args.input is not None or args.out_dir is not None
    if batch:
        if args.input is None or args.out_dir is None:
            raise CLIError("batch mode needs both --input FILE and --out-dir DIR")
        if args.text is not None or args.output is not None:
            raise CLIError("give either TEXT/-o or --input/--out-dir, not both")
        if args.timestamps is not None:
            _timestamps_format(args.timestamps)
        _check_encoding(format_name(args.format) if args.format else "wav", args.bitrate)
        lines = _read_lines(args.input)
        return _run_batch(make_tts(args), lines, args)
    if args.output is None and args.timestamps is None:
        raise CLIError("no output: give -o FILE.wav, or -o - for raw PCM on stdout (or --timestamps FILE alone)")
    if args.output == "-" and args.format not in (None, "pcm", "raw"):
        raise CLIError("-o - writes raw PCM; --format applies to files")
    if args.output == "-" and args.bitrate is not None:
        raise CLIError("-o - writes raw PCM; --bitrate applies to mp3, aac and opus files")
    if args.output not in (None, "-"):  # an unknown extension or an encoder missing here fails now, before synthesis
        _check_encoding(format_name(args.format) if args.format else format_for_path(args.output), args.bitrate)
    if args.timestamps is not None:
        _timestamps_format(args.timestamps)
    text = args.text if args.text is not None else _read_stdin()
    if not text.strip():
        raise CLIError("no text to speak")
    tts = make_tts(args)
    _load_frontend_beside_engine(tts, text, args)
    if args.output == "-":
        return _run_stdout(tts, text, args)
    return _run_file(tts, text, None if args.output is None else Path(args.output), args)


def _load_frontend_beside_engine(tts: TTS, text: str, args: argparse.Namespace) -> None:
    """Start reading the text's first sentence on a thread, so that its language's frontend loads (imports,
    lexicons, ~0.1 s) while the synthesis call loads the voice's engine (ONNX sessions, ~0.2 s): a one-off
    command pays the larger of the two, not their sum. The call then finds the tools loaded (built once, under
    the frontend's lock); an error here is left to the call itself to report."""
    import threading

    first = text[:200]

    def warm() -> None:
        try:  # read as the call will: in the requested language, else the voice's
            language = tts.voice_language(voice_ref(args.voice), first, getattr(args, "lang", None))
            next(iter(tts.frontend().sentences(first, language=language)), None)
        except Exception:  # noqa: BLE001 - the real call raises it with its context
            pass

    threading.Thread(target=warm, name="onestep-say-frontend", daemon=True).start()


def _check_encoding(fmt: str, bitrate: int | None) -> None:
    """A CLIError naming the fix when ``fmt`` at ``bitrate`` cannot be encoded here (aac without PyAV, ...)."""
    from onestep.runtime.encoders import check_format

    try:
        check_format(fmt, bitrate)
    except UserError as e:
        raise CLIError(str(e)) from None


def _timestamps_format(path: Path) -> str:
    """``json``, ``srt`` or ``vtt`` from ``--timestamps``' extension (a bare ``.srt`` too), or a CLIError."""
    name = path.name
    try:
        return caption_format(f"x{name}" if name.startswith(".") else name)
    except ValueError as e:
        raise CLIError(str(e)) from None


def _read_stdin() -> str:
    if sys.stdin.isatty():
        raise CLIError("no TEXT given and stdin is a terminal; pass TEXT or pipe text in")
    return sys.stdin.read()


def _read_lines(path: Path) -> list[str]:
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise CLIError(f"cannot read {path}: {e}") from e
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise CLIError(f"{path} has no non-empty lines")
    return lines


def _output_options(args: argparse.Namespace) -> dict[str, object]:
    """Keywords shared by ``synthesize`` and ``stream``: output rate, gain, SSML (forced or by detection)."""
    return {
        "sample_rate": args.sample_rate, "gain_db": args.gain, "ssml": True if args.ssml else None,
        "language": getattr(args, "lang", None),
    }  # fmt: skip


def _synthesize(tts: TTS, text: str, args: argparse.Namespace) -> Audio:
    return tts.synthesize(
        text, voice=voice_ref(args.voice), speed=args.speed, characters=args.characters, **_output_options(args)
    )


def _write_timestamps(
    path: Path, words: list, text: str, captions: str, fmt: str | None = None, quiet: bool = False
) -> None:
    """Write ``words`` (times, offsets into ``text``) to ``path`` as JSON/SRT/VTT (``fmt``, default by the
    extension); ``captions``: ``words`` or ``sentences`` per SRT/VTT cue."""
    from onestep.captions import render

    try:
        path.write_text(render(fmt or caption_format(path), words, text, captions), encoding="utf-8")
    except OSError as e:
        raise CLIError(f"cannot write {path}: {e}") from e
    if not quiet:
        print(f"wrote {path}: {len(words)} words", file=sys.stderr)


def _run_file(tts: TTS, text: str, output: Path | None, args: argparse.Namespace) -> int:
    """Synthesize ``text`` into ``output`` (None: only the ``--timestamps`` file is written)."""
    t0 = time.perf_counter()
    audio = _synthesize(tts, text, args)
    elapsed = time.perf_counter() - t0
    if audio.samples.size == 0:
        raise CLIError("nothing to speak in the text (no phonemes)")
    if output is None:
        _write_timestamps(args.timestamps, audio.words, text, args.captions)
        print(f"no audio file written ({audio.duration:.2f} s of audio; -o FILE keeps it)", file=sys.stderr)
        return 0
    try:
        audio.save(output, args.format and format_name(args.format), args.bitrate)
    except UserError:
        raise
    except (OSError, RuntimeError, TypeError, ValueError) as e:  # soundfile's errors for bad paths/formats
        raise CLIError(f"cannot write {output}: {e}") from e
    if args.timestamps is not None:
        _write_timestamps(args.timestamps, audio.words, text, args.captions)
    print(
        f"wrote {output}: {audio.duration:.2f} s of audio, voice {audio.voice}, in {elapsed:.2f} s (loading included)",
        file=sys.stderr,
    )
    return 0


def _run_stdout(tts: TTS, text: str, args: argparse.Namespace) -> int:
    """Stream raw PCM to stdout chunk by chunk, so a player starts after the first chunk."""

    out = sys.stdout.buffer
    written = 0
    words: list = []
    stamps = args.timestamps is not None
    try:
        chunks = tts.stream(
            text, voice=voice_ref(args.voice), speed=args.speed, timestamps=stamps, characters=args.characters,
            **_output_options(args),
        )  # fmt: skip
        for chunk in chunks:
            words += chunk.words
            out.write(chunk.pcm16)
            out.flush()
            written += len(chunk.pcm16)
    except BrokenPipeError:  # the reader (e.g. aplay) went away: stop quietly, as shell tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if written == 0:
        raise CLIError("nothing to speak in the text (no phonemes)")
    if stamps:
        _write_timestamps(args.timestamps, words, text, args.captions)
    return 0


def _run_batch(tts: TTS, lines: list[str], args: argparse.Namespace) -> int:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    args.out_dir.mkdir(parents=True, exist_ok=True)
    fmt = format_name(args.format) if args.format else "wav"
    extension = {"opus": "ogg"}.get(fmt, fmt)
    stamps = None if args.timestamps is None else _timestamps_format(args.timestamps)
    width = max(4, len(str(len(lines))))
    empty = []
    with Progress(
        TextColumn("[bold]say"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=False
    ) as progress:
        task = progress.add_task("say", total=len(lines))
        for number, line in enumerate(lines, start=1):
            try:
                audio = _synthesize(tts, line, args)
            except NothingToSpeakError:
                empty.append(number)
            else:
                audio.save(args.out_dir / f"{number:0{width}d}.{extension}", fmt, args.bitrate)
                if stamps is not None:
                    path = args.out_dir / f"{number:0{width}d}.{stamps}"
                    _write_timestamps(path, audio.words, line, args.captions, stamps, quiet=True)
            progress.advance(task)
    written = len(lines) - len(empty)
    also = "" if stamps is None else f" (and {written} .{stamps} timestamp files beside them)"
    print(f"wrote {written} .{extension} files to {args.out_dir}{also}", file=sys.stderr)
    if empty:
        print(f"error: lines {empty} had nothing to speak (no file written for them)", file=sys.stderr)
        return 1
    return 0
