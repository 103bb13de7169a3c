"""Build the pruned Python 3.12 site-packages that the server needs on the GPU image (see server_wheels.sh).

Two steps:

``trace DIR``   write (as ``sitecustomize.py`` in DIR) a tracer that, in every Python process started with
                DIR on ``PYTHONPATH`` and ``ONESTEP_TRACE_OUT`` set, records the files the process opens and
                imports and the shared libraries it maps, into ``$ONESTEP_TRACE_OUT/<pid>.txt`` at exit.
``build OUT TRACE_OUT``  map the traced files to their distributions (minus what the GPU image has: torch,
                its dependencies, numpy, onnx), download those distributions' cp312 manylinux (or pure)
                wheels at the locally installed versions, and copy from them only the traced files (an
                extension module ``x.cpython-311-*.so`` becomes the wheel's ``x.cpython-312-*.so``), each
                distribution's metadata, and its bundled ``*.libs``. espeak-ng's data keeps English only.
"""

from __future__ import annotations

import importlib.metadata as md
import json
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

TRACER = r'''
import atexit, os, sys
_out = os.environ.get("ONESTEP_TRACE_OUT")
if _out:
    _seen = set()

    def _hook(event, args):
        if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            _seen.add(os.fsdecode(args[0]))

    sys.addaudithook(_hook)

    def _dump():
        files = set(_seen)
        for m in list(sys.modules.values()):
            f = getattr(m, "__file__", None)
            if f:
                files.add(f)
        try:
            with open("/proc/self/maps") as maps:
                files.update(line.split()[-1] for line in maps if ".so" in line and "/" in line)
        except OSError:
            pass
        with open(os.path.join(_out, f"{os.getpid()}.txt"), "w") as fh:
            fh.write("\n".join(sorted(os.path.abspath(f) for f in files)))

    atexit.register(_dump)
'''

#: On the GPU image already (PyTorch 2.11 and its dependencies, numpy, onnx): never carried, so that the
#: carried site cannot shadow them. (typing-extensions is carried: pydantic needs a newer one than torch.)
IMAGE_HAS = {
    "torch", "numpy", "onnx", "onnxscript", "onnx-ir", "ml-dtypes", "protobuf", "sympy",
    "mpmath", "networkx", "jinja2", "markupsafe", "fsspec", "filelock", "setuptools", "triton", "pip",
    "onnxruntime", "onestep-tts", "pytest", "pluggy", "iniconfig",
}  # fmt: skip
ESPEAK_KEEP = re.compile(r"espeak-ng-data/(en_dict|phon\w+|intonations|lang/.*|voices/.*)$")
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


def download(name: str, version: str, wheels: Path) -> Path:
    """The cp312 manylinux wheel of ``name==version`` (or of the newest ``name`` if that version has none)."""
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--python-version",
           "3.12", "--implementation", "cp", "--abi", "cp312", "--abi", "abi3", "--abi", "none", "-d", str(wheels)]  # fmt: skip
    for plat in PLATFORMS:
        cmd += ["--platform", plat]
    for spec in (f"{name}=={version}", name):
        before = set(wheels.glob("*.whl"))
        if subprocess.run([*cmd, spec], capture_output=True, text=True).returncode == 0:
            got = [w for w in wheels.glob("*.whl") if norm(w.name.split("-")[0]) == name]
            exact = [w for w in got if w.name.split("-")[1] == version]
            if spec == name:
                print(f"note: {name}=={version} has no cp312 wheel; carrying {got[-1].name}", file=sys.stderr)
            return (exact or sorted(set(got) - before) or got)[-1]
    raise SystemExit(f"no cp312 wheel for {name}")


def build(out: Path, trace_out: Path) -> None:
    files = traced_files(trace_out)
    table = owners()
    wanted: dict[str, tuple[md.Distribution, set[Path]]] = {}
    unowned = []
    for rel in sorted(files):
        d = table.get(rel)
        if d is None:
            unowned.append(rel)
            continue
        name = norm(d.metadata["Name"])
        if name in IMAGE_HAS or name.startswith("nvidia-"):
            continue
        wanted.setdefault(name, (d, set()))[1].add(rel)
    if unowned:
        print(f"note: {len(unowned)} traced files belong to no distribution, e.g. {unowned[:3]}", file=sys.stderr)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    binary = {n: v for n, v in wanted.items() if any(str(f).endswith(".so") for f in v[0].files or ())}
    for name, (d, rels) in sorted(wanted.items()):  # pure Python: the installed files are the 3.12 files
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
        wheel = download(name, d.version, wheels)
        keys = {strip_tag(r) for r in rels}
        with zipfile.ZipFile(wheel) as z:
            for info in z.infolist():
                p = Path(info.filename)
                top = p.parts[0]
                keep = (
                    strip_tag(p) in keys
                    or (top.endswith(".dist-info") and p.name != "RECORD")
                    or top.endswith(".libs")  # auditwheel's bundled shared libraries
                    or (name == "espeakng-loader" and ESPEAK_KEEP.search(info.filename) is not None)
                )
                if keep and not info.is_dir():
                    z.extract(info, out)
    for lib in out.rglob("*.so*"):  # debug symbols are most of uvloop's and marisa-trie's size
        subprocess.run(["strip", "--strip-unneeded", str(lib)], check=False, capture_output=True)
    reqs = [f"{n}=={d.version}" for n, (d, _) in sorted(wanted.items())]
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    (out / "CARRIED.json").write_text(json.dumps(sorted(reqs), indent=0))
    print(f"{out}: {len(wanted)} distributions, {total / 1e6:.1f} MB: {', '.join(reqs)}")


def main() -> None:
    if len(sys.argv) >= 3 and sys.argv[1] == "trace":
        d = Path(sys.argv[2])
        d.mkdir(parents=True, exist_ok=True)
        (d / "sitecustomize.py").write_text(TRACER)
    elif len(sys.argv) == 4 and sys.argv[1] == "build":
        build(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
