"""One error hierarchy: every exception class of the package (and of the development distribution,
``onestep_dev``) is an ``OnestepError``, names are unique, and each kind that ``onestep.errors`` declares is used
(read from the source with ``ast``, no module imported)."""

from __future__ import annotations

import ast
import builtins
from collections import defaultdict
from pathlib import Path

import onestep.errors as errors

SRC = Path(__file__).resolve().parents[1] / "src" / "onestep"
DEV_SRC = Path(__file__).resolve().parents[1] / "dev" / "src" / "onestep_dev"
BUILTIN_EXCEPTIONS = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}


def exception_classes(src: Path = SRC, *more: Path) -> dict[str, list[tuple[str, list[str]]]]:
    """Class name -> [(file, base names)] for every class of ``src`` (and ``more``; default: ``onestep`` and
    ``onestep_dev``) that derives from an exception; files of ``more`` are named from the folder above."""
    classes: dict[str, list[tuple[str, list[str]]]] = defaultdict(list)
    roots = [(src, src)] + [(root, root.parent) for root in (more if more or src != SRC else (DEV_SRC,))]
    for root, base in roots:
        for path in sorted(root.rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    bases = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
                    classes[node.name].append((str(path.relative_to(base)), bases))
    found: dict[str, list[tuple[str, list[str]]]] = {}
    changed = True
    while changed:
        changed = False
        for name, defs in classes.items():
            if name not in found and any(b in BUILTIN_EXCEPTIONS or b in found for _, bases in defs for b in bases):
                found[name] = defs
                changed = True
    return found


def under_onestep_error(name: str, found: dict[str, list[tuple[str, list[str]]]]) -> bool:
    if name == "OnestepError":
        return True
    return any(b in found and under_onestep_error(b, found) for _, bases in found.get(name, []) for b in bases)


def test_every_exception_class_is_a_onestep_error() -> None:
    found = exception_classes()
    outside = sorted(f"{name} ({defs[0][0]})" for name, defs in found.items() if not under_onestep_error(name, found))
    assert not outside, f"exception classes outside OnestepError: {outside}"
    assert len(found) > 20  # the scan sees the package's errors (ConfigError, SsmlError, VoiceNotFoundError, ...)
    assert {"ConfigError", "SsmlError", "VoiceNotFoundError", "QueueFullError", "InputError"} <= set(found)


def test_exception_names_are_unique() -> None:
    twice = {name: [f for f, _ in defs] for name, defs in exception_classes().items() if len(defs) > 1}
    assert not twice, f"exception classes defined twice: {twice}"


def test_every_kind_of_error_is_used() -> None:
    """No kind in onestep.errors that nothing raises or refines (an ``InternalError`` nobody raised was one)."""
    found = exception_classes()
    refined = {b for defs in found.values() for path, bases in defs if path != "errors.py" for b in bases}
    kinds = [n for n, v in vars(errors).items() if isinstance(v, type) and issubclass(v, errors.OnestepError)]
    unused = [k for k in kinds if k != "OnestepError" and k not in refined and not _raised_directly(k)]
    assert not unused, f"error kinds nothing raises or refines: {unused}"


def _raised_directly(name: str) -> bool:
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None and name in ast.unparse(node.exc):
                return True
    return False
