"""Build the pruned Python 3.12 site-packages that the server needs on the GPU image (see server_wheels.sh).

Two steps:

``trace DIR``   write (as ``sitecustomize.py`` in DIR) a tracer that, in every Python process started with
                DIR on ``PYTHONPATH`` and ``ONESTEP_TRACE_OUT`` set, records the files the process opens and
                imports and the shared libraries it maps, into ``$ONESTEP_TRACE_OUT/<pid>.txt`` (every 2 s and
                at exit: Ray's workers and agents are often killed, and then run no exit handlers).
``build OUT TRACE_OUT [--extra OUT2 TRACE2] [--python-version X.Y]``  map the traced files to their
                distributions (minus what the GPU image has: torch, its dependencies, numpy, onnx), download
                those distributions' cpXY manylinux (or pure) wheels at the locally installed versions, and copy
                from them only the traced files (an extension module ``x.cpython-311-*.so`` becomes the wheel's
                ``x.cpython-312-*.so``), each distribution's metadata, and its bundled ``*.libs``. espeak-ng's
                data keeps English only; Ray keeps the programs it starts (raylet, gcs_server), which no Python
                tracer sees. With ``--extra``, TRACE2's files count too, but the distributions that no file of
                TRACE_OUT belongs to go to OUT2 instead: two sites that share no distribution (a package cannot
                be split over two ``sys.path`` entries), OUT for the plain server, OUT + OUT2 for Ray.
"""

from __future__ import annotations

import importlib.metadata as md
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

TRACER = r'''
import atexit, os, sys, threading, time
_out = os.environ.get("ONESTEP_TRACE_OUT")
if _out:
    _seen = set()

    def _hook(event, args):
        if event in ("open", "ctypes.dlopen") and args and isinstance(args[0], (str, bytes, os.PathLike)):
            _seen.add(os.fsdecode(args[0]))

    sys.addaudithook(_hook)

    def _dump():
        files = _seen.copy()
        try:
            for m in list(sys.modules.values()):
                f = getattr(m, "__file__", None)
                if isinstance(f, str):
                    files.add(f)
            with open("/proc/self/maps") as maps:
                files.update(line.split()[-1] for line in maps if ".so" in line and "/" in line)
        except (OSError, RuntimeError):
            pass
        path = os.path.join(_out, f"{os.getpid()}.txt")
        with open(path + ".tmp", "w") as fh:
            fh.write("\n".join(sorted(os.path.abspath(f) for f in files)))
        os.replace(path + ".tmp", path)

    def _every():
        while True:
            time.sleep(2)
            try:
                _dump()
            except Exception:
                pass

    threading.Thread(target=_every, daemon=True, name="onestep-trace").start()
    atexit.register(_dump)
'''

#: On the GPU image already (PyTorch 2.11 and its dependencies, numpy, onnx): never carried, so that the
#: carried site cannot shadow them. (typing-extensions is carried: pydantic needs a newer one than torch.)
IMAGE_HAS = {
    "torch", "numpy", "onnx", "onnxscript", "onnx-ir", "ml-dtypes", "protobuf", "sympy",
    "mpmath", "networkx", "jinja2", "markupsafe", "fsspec", "filelock", "setuptools", "triton", "pip",
    "onnxruntime", "onestep-tts", "pytest", "pluggy", "iniconfig",
}  # fmt: skip
#: Optional pieces that the trace touches (the server warms every encoder) but no GPU measurement needs, left out of
#: the carried site unless asked for (``--keep-optional``): PyAV (AAC and chosen bitrates) is 72 MB unpacked, 20 MB
#: of xz, which with a carried voice passes the device tool's 64 MiB.
OPTIONAL = frozenset({"av"})
ESPEAK_KEEP = re.compile(r"espeak-ng-data/(en_dict|phon\w+|intonations|lang/.*|voices/.*)$")
#: Files kept whole although no traced Python process opens them: the programs Ray starts (its node manager
#: and control store; jemalloc, which it may preload into them) and espeak-ng's English data.
KEEP_WHOLE = {
    "espeakng-loader": ESPEAK_KEEP,
    "ray": re.compile(r"^ray/core/(src/ray/raylet/raylet|src/ray/gcs/gcs_server|libjemalloc\.so)$"),
}
#: Distributions of which every module beside a traced one is kept too (~0.3 MB xz for Ray): the code paths that
#: only a GPU run takes (accelerator managers, GPU actors) import modules of the packages a CPU run imports.
SIBLINGS = {"ray"}
PLATFORMS = ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_5_x86_64",
             "manylinux1_x86_64", "linux_x86_64")  # fmt: skip


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


SITE = Path(sysconfig.get_paths()["purelib"]).resolve()


def traced_files(trace_out: Path) -> set[Path]:
    """Site-packages-relative paths of the traced files."""
    out: set[Path] = set()
    for f in trace_out.glob("*.txt"):
        for line in f.read_text().splitlines():
            p = Path(line)
            if p.is_file() and SITE in p.resolve().parents:
                rel = p.resolve().relative_to(SITE)
                if not rel.parts[0].endswith((".dist-info", ".egg-info")):  # metadata scans (entry points)
                    out.add(rel)
    return out


def owners() -> dict[Path, md.Distribution]:
    """Site-packages-relative path -> the distribution installed there that owns it."""
    table: dict[Path, md.Distribution] = {}
    for d in md.distributions(path=[str(SITE)]):
        for f in d.files or ():
            full = Path(d.locate_file(f)).resolve()
            if SITE in full.parents:
                table[full.relative_to(SITE)] = d
    return table


def strip_tag(rel: Path) -> str:
    """``pkg/x.cpython-311-x86_64-linux-gnu.so`` -> ``pkg/x`` (extension modules); other paths unchanged."""
    s = rel.as_posix()
    m = re.match(r"(.*?)\.(cpython-\d+[^.]*|abi3)\.so$", s)
    return m.group(1) if m else s


def download(name: str, version: str, wheels: Path, python: str) -> Path:
    """The cpXY manylinux wheel of ``name==version`` (or of the newest ``name`` if that version has none)."""
    cp = "cp" + python.replace(".", "")
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--python-version",
           python, "--implementation", "cp", "--abi", cp, "--abi", "abi3", "--abi", "none", "-d", str(wheels)]  # fmt: skip
    for plat in PLATFORMS:
        cmd += ["--platform", plat]
    for spec in (f"{name}=={version}", name):
        before = set(wheels.glob("*.whl"))
        if subprocess.run([*cmd, spec], capture_output=True, text=True).returncode == 0:
            got = [w for w in wheels.glob("*.whl") if norm(w.name.split("-")[0]) == name]
            exact = [w for w in got if w.name.split("-")[1] == version]
            if spec == name:
                print(f"note: {name}=={version} has no {cp} wheel; carrying {got[-1].name}", file=sys.stderr)
            return (exact or sorted(set(got) - before) or got)[-1]
    raise SystemExit(f"no {cp} wheel for {name}")


Wanted = dict[str, tuple[md.Distribution, set[Path]]]


def wanted_distributions(
    files: set[Path],
    table: dict[Path, md.Distribution],
    image_has: frozenset[str] = frozenset(),
    left_out: frozenset[str] = OPTIONAL,
) -> tuple[Wanted, Wanted]:
    """Distribution name -> (the installed distribution, its traced files): (to carry, what the image has);
    the distributions of ``left_out`` in neither."""
    wanted: Wanted = {}
    image: Wanted = {}
    unowned = []
    for rel in sorted(files):
        d = table.get(rel)
        if d is None:
            unowned.append(rel)
            continue
        name = norm(d.metadata["Name"])
        if name in left_out:
            continue
        on_image = name in IMAGE_HAS or name in image_has or name.startswith("nvidia-")
        (image if on_image else wanted).setdefault(name, (d, set()))[1].add(rel)
    if unowned:
        print(f"note: {len(unowned)} traced files belong to no distribution, e.g. {unowned[:3]}", file=sys.stderr)
    return wanted, image


def untraced_requirements(carried: set[str], python: str, extras: tuple[str, ...] = ("server",)) -> list[str]:
    """onestep-tts's runtime requirements (its ``extras`` included; markers evaluated for ``python``) that are
    neither in ``carried`` nor on the image (:data:`IMAGE_HAS`) nor optional: a trace that missed a code path
    (session 15: the host workers' soxr, serve's check for wyoming) must not leave them out of the site."""
    from packaging.requirements import Requirement

    env = {"python_version": python, "python_full_version": f"{python}.0"}
    missing = []
    for text in md.distribution("onestep-tts").requires or []:
        req = Requirement(text)
        wanted = req.marker is None or any(req.marker.evaluate({**env, "extra": e}) for e in ("", *extras))
        name = norm(req.name)
        if wanted and name not in carried and name not in IMAGE_HAS and name not in OPTIONAL:
            missing.append(name)
    return missing


def is_elf(path: Path) -> bool:
    with path.open("rb") as f:
        return f.read(4) == b"\x7fELF"


def assemble(out: Path, wanted: Wanted, python: str, whole: bool = False) -> None:
    """Write the pruned site of ``wanted`` to ``out`` (wheels are downloaded to ``out``'s sibling ``wheels``);
    ``whole``: every file of their wheels."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    binary = {n: v for n, v in wanted.items() if whole or any(str(f).endswith(".so") for f in v[0].files or ())}
    for name, (d, rels) in sorted(wanted.items()):  # pure Python: the installed files serve any 3.x
        if name not in binary:
            meta = [Path(f) for f in d.files or () if Path(f).parts[0].endswith(".dist-info")]
            for rel in sorted(rels | {m for m in meta if m.name != "RECORD"}):
                src = Path(d.locate_file(rel))
                if src.is_file() and "__pycache__" not in rel.parts:
                    (out / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, out / rel)
    wheels = out.parent / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for name, (d, rels) in sorted(binary.items()):
        wheel = download(name, d.version, wheels, python)
        keys = {strip_tag(r) for r in rels}
        dirs = {r.parent for r in rels} if name in SIBLINGS else set()
        always = KEEP_WHOLE.get(name)
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                p = Path(info.filename)
                top = p.parts[0]
                keep = (
                    whole
                    or strip_tag(p) in keys
                    or (p.suffix == ".py" and p.parent in dirs)
                    or (top.endswith(".dist-info") and p.name != "RECORD")
                    or top.endswith(".libs")  # auditwheel's bundled shared libraries
                    or (always is not None and always.search(info.filename) is not None)
                )
                if keep and not info.is_dir():
                    z.extract(info, out)
                    mode = (info.external_attr >> 16) & 0o777
                    if mode & 0o111:  # zipfile drops the mode: Ray's raylet and gcs_server are run as programs
                        os.chmod(out / info.filename, mode)
    for f in out.rglob("*"):  # debug symbols are most of uvloop's, marisa-trie's and Ray's binaries' size
        if f.is_file() and (".so" in f.name or f.stat().st_mode & 0o111) and is_elf(f):
            subprocess.run(["strip", "--strip-unneeded", str(f)], check=False, capture_output=True)
    reqs = [f"{n}=={d.version}" for n, (d, _) in sorted(wanted.items())]
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    (out / "CARRIED.json").write_text(json.dumps(sorted(reqs), indent=0))
    print(f"{out}: {len(wanted)} distributions, {total / 1e6:.1f} MB: {', '.join(reqs)}")


def build(
    out: Path,
    trace_out: Path,
    python: str = "3.12",
    extra: tuple[Path, Path] | None = None,
    image_has: frozenset[str] = frozenset(),
    fallback: frozenset[str] = frozenset(),
    left_out: frozenset[str] = OPTIONAL,
) -> None:
    """``out``: the site of ``trace_out``'s distributions, with every traced file of them (``extra``'s trace
    included); ``extra[0]``: the distributions that only ``extra[1]``'s trace needs, not counting ``image_has``
    (more distributions that the image has, recorded with the versions traced here in ``IMAGE.json``) and,
    whole, in ``extra[0]-fallback``, those of ``fallback`` (image distributions that a run puts first when the
    image's version is too old, e.g. protobuf for newer generated code). ``left_out``: distributions not carried
at all (default :data:`OPTIONAL`)."""
    table = owners()
    base = traced_files(trace_out)
    more = traced_files(extra[1]) if extra else set()
    wanted, image = wanted_distributions(base | more, table, image_has, left_out)
    first = set(wanted_distributions(base, table, image_has, left_out)[0])
    for name in untraced_requirements(set(wanted) | set(image) | image_has, python):
        d = md.distribution(name)
        print(f"note: {name} (a runtime requirement) was opened by no traced process: carried whole", file=sys.stderr)
        wanted[name] = (d, {Path(f) for f in d.files or () if "__pycache__" not in Path(f).parts})
        first.add(name)
    assemble(out, {n: v for n, v in wanted.items() if n in first}, python)
    if extra:
        assemble(extra[0], {n: v for n, v in wanted.items() if n not in first}, python)
        versions = {n: d.version for n, (d, _) in sorted(image.items())}
        (extra[0] / "IMAGE.json").write_text(json.dumps(versions, indent=0))
        print(f"not carried (the image's): {versions}")
        if fallback:
            fb = extra[0].with_name(extra[0].name + "-fallback")
            assemble(fb, {n: v for n, v in image.items() if n in fallback}, python, whole=True)


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "trace":
        d = Path(sys.argv[2])
        d.mkdir(parents=True, exist_ok=True)
        (d / "sitecustomize.py").write_text(TRACER)
    elif len(sys.argv) >= 4 and sys.argv[1] == "build":
        ap = argparse.ArgumentParser(prog="server_site.py build", description=__doc__)
        ap.add_argument("out", type=Path)
        ap.add_argument("trace_out", type=Path)
        ap.add_argument("--extra", nargs=2, type=Path, metavar=("OUT2", "TRACE2"))
        ap.add_argument("--python-version", default="3.12", help="the wheels' Python (default 3.12: the image's)")
        ap.add_argument("--image-has", default="", help="more distributions the image has (NAME,NAME)")
        ap.add_argument("--fallback", default="", help="image distributions carried whole beside OUT2 (NAME,...)")
        ap.add_argument("--keep-optional", action="store_true", help=f"carry {', '.join(sorted(OPTIONAL))} too")
        a = ap.parse_args(sys.argv[2:])
        names = lambda v: frozenset(norm(n) for n in v.split(",") if n)  # noqa: E731
        build(a.out, a.trace_out, a.python_version, tuple(a.extra) if a.extra else None, names(a.image_has),
              names(a.fallback), frozenset() if a.keep_optional else OPTIONAL)  # fmt: skip
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
