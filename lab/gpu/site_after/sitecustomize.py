"""Put the carried site(s) AFTER the image's site-packages (issue 22).

lab/gpu/server_wheels.sh carries a PRUNED site: only the files a traced CPU run opened. Put on PYTHONPATH (that
is, before the image's site-packages), its pruned copies shadowed the image's full packages: the GPU machine's
pytest failed with ``No module named 'pygments.formatters'`` (a pruned pygments/rich ahead of the image's).
With this directory on PYTHONPATH instead, every folder of ``$ONESTEP_SITE_AFTER`` (``os.pathsep``-separated)
is added with ``site.addsitedir`` after the interpreter's own site-packages (its ``.pth`` files run too), so
the carried site only supplies what the image lacks. The modules named in ``$ONESTEP_SITE_FIRST``
(comma-separated; default ``typing_extensions``: pydantic needs a newer one than the image's torch brings) are
imported from the carried site first. An image's own ``sitecustomize`` still runs afterwards.

    export ONESTEP_SITE_AFTER=/tmp/x/site PYTHONPATH=$PWD/src:$PWD/dev/src:$PWD/lab/gpu/site_after
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import site
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_AFTER = [d for d in os.environ.get("ONESTEP_SITE_AFTER", "").split(os.pathsep) if d and os.path.isdir(d)]
_FIRST = [m for m in os.environ.get("ONESTEP_SITE_FIRST", "typing_extensions").split(",") if m.strip()]

if _AFTER and _FIRST:
    _saved = list(sys.path)
    sys.path[:0] = _AFTER
    for _name in _FIRST:
        try:
            __import__(_name.strip())
        except ImportError:
            pass
    sys.path[:] = _saved
for _dir in _AFTER:
    site.addsitedir(_dir)  # appended: after the image's site-packages

# the image's own sitecustomize, if it has one (this module shadows it)
_spec = importlib.machinery.PathFinder.find_spec(
    "sitecustomize", [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
)
if _spec is not None and _spec.loader is not None:
    _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
