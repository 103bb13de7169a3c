"""``onestep export``: write a voice directory (three ONNX graphs, the INT8 vocoder, ``voice.json``).

Either from a training checkpoint (``--checkpoint``) or randomly initialised (``--random``, a placeholder
voice for development that speaks noise).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from onestep.cli import CLIError
from onestep.languages import language_codes
from onestep.model.mel_box import WIDTH


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("export", help="export a voice (ONNX graphs + voice.json) from a checkpoint or at random")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--checkpoint", type=Path, help="checkpoint directory, or a run directory (its latest checkpoint)")
    source.add_argument("--random", action="store_true", help="random weights (placeholder voice)")
    p.add_argument("--name", required=True, help="voice name (letters, digits, '_' or '-')")
    p.add_argument("--language", choices=language_codes(), required=True, help="language this voice speaks")
    p.add_argument("--out", type=Path, required=True, help="output voice directory")
    p.add_argument("--teacher", default="", help="teacher description stored in voice.json")
    p.add_argument("--version", dest="voice_version", default="0.1.0", help="voice version string")
    p.add_argument("--tiny", action="store_true", help="with --random: the tiny test configuration")
    p.add_argument("--seed", type=int, default=0, help="with --random: initialisation seed")
    p.add_argument(
        "--no-int8-vocoder", dest="int8_vocoder", action="store_false",
        help="skip vocoder.int8.onnx (the CPU engine's faster vocoder, written by default)",
    )
    p.add_argument(
        "--default", default="",
        help="multi-speaker checkpoints: comma-separated voices that are their language's default "
        "(default: each language's first voice)",
    )  # fmt: skip
    p.add_argument(
        "--mel-sharpen", type=_mel_sharpen, default=None, metavar="STRENGTH[:WIDTH]",
        help="fold a mel sharpening postfilter into the vocoder (onestep.model.mel_sharpen): "
        "mel + STRENGTH * (mel - its WIDTH-bin moving average across the mel bins; default width 5)",
    )  # fmt: skip
    p.set_defaults(func=run)


def _mel_sharpen(value: str) -> tuple[float, int]:
    """``STRENGTH[:WIDTH]`` -> (strength, width), checked as :func:`onestep.model.mel_sharpen.sharpening_matrix`
    checks them."""
    strength, _, width = value.partition(":")
    try:
        parsed = float(strength), int(width or WIDTH)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected STRENGTH[:WIDTH], e.g. 1.0:5, got {value!r}") from None
    if parsed[0] <= 0 or parsed[1] < 3 or parsed[1] % 2 == 0:
        raise argparse.ArgumentTypeError(f"STRENGTH must be > 0 and WIDTH an odd number >= 3, got {value!r}")
    return parsed


def _speakers(args: argparse.Namespace, n: int) -> tuple:
    """The named voices of a multi-speaker checkpoint (its meta.json's teacher voice list, in table order);
    each voice's native language's first listed voice is that language's default unless ``--default`` names
    others."""
    from onestep.config import SpeakerInfo
    from onestep_dev.teacher.voices import student_speaker
    from onestep_dev.train.checkpoint import read_meta, resolve_checkpoint

    teachers = read_meta(resolve_checkpoint(args.checkpoint)).get("speakers") or []
    if len(teachers) != n:
        raise CLIError(f"{args.checkpoint}: meta.json lists {len(teachers)} speakers for a table of {n}")
    infos = [student_speaker(t) for t in teachers]
    defaults = set(args.default.split(",")) if args.default else set()
    if not defaults:
        for language in dict.fromkeys(i["language"] for i in infos):
            defaults.add(next(i["name"] for i in infos if i["language"] == language))
    unknown = defaults - {i["name"] for i in infos}
    if unknown:
        raise CLIError(f"--default names unknown voices {sorted(unknown)}")
    return tuple(SpeakerInfo(**info, default=info["name"] in defaults) for info in infos)


def run(args: argparse.Namespace) -> int:
    try:
        import torch  # noqa: F401
    except ModuleNotFoundError as e:
        raise CLIError("export needs PyTorch: pip install './dev[train]'") from e
    from onestep.config import DEFAULT_FILES, VoiceConfig
    from onestep.model_config import TINY, ModelConfig
    from onestep.model.export import SPEAKERS_FILE, export_voice
    from onestep.model.voice_models import build_models

    if args.random:
        models = build_models(TINY if args.tiny else ModelConfig(), seed=args.seed)
        extra: dict[str, object] = {}
    else:
        from onestep_dev.train.checkpoint import load_generator

        if args.tiny:
            raise CLIError("--tiny only applies to --random")
        models, extra = load_generator(args.checkpoint)
    if args.mel_sharpen is not None:
        from onestep.model.mel_sharpen import fold_mel_sharpening

        strength, width = args.mel_sharpen
        fold_mel_sharpening(models.vocoder, strength, width)
        extra = {**extra, "mel_sharpen": {"strength": strength, "width": width}}
    speakers = _speakers(args, models.config.n_speakers) if models.config.multi_speaker else ()
    voice = VoiceConfig(
        name=args.name,
        language=args.language,
        version=args.voice_version,
        teacher=args.teacher,
        placeholder=bool(args.random),
        extra=extra,
        model=models.config,
        speakers=speakers,
        **({"files": {**DEFAULT_FILES, "speakers": SPEAKERS_FILE}} if speakers else {}),
    )
    written = export_voice(models, voice, args.out, int8_vocoder=args.int8_vocoder)
    counts = models.parameter_counts()
    total = sum(p.stat().st_size for p in Path(args.out).iterdir() if p.is_file())
    print(
        f"exported voice {written.name!r} to {args.out} ({total / 1e6:.1f} MB; parameters "
        + ", ".join(f"{k} {v / 1e6:.2f} M" for k, v in counts.items())
        + f"; vocoder_context {written.vocoder_context})"
    )
    return 0
