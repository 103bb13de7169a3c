"""One server process of ``onestep serve --processes N`` (``python -m onestep.commands.serve_process``).

The supervisor (:class:`onestep.server.supervisor.Supervisor`) starts this module with the parsed ``serve``
options, the server config and the process's :class:`~onestep.server.server_process.ProcessSpec` pickled on
stdin; it serves until a signal drains it (exit status as :func:`onestep.commands.serve.serve_one`, 2 when the
process could not start for a reason of the user's).
"""

from __future__ import annotations

import pickle
import sys

from onestep.errors import UserError
from onestep.server.server_process import ProcessSpec, watch_parent


def main() -> int:
    """Read the pickled settings on stdin and serve."""
    from onestep.commands.serve import serve_one

    payload = pickle.load(sys.stdin.buffer)
    spec: ProcessSpec = payload["spec"]
    watch_parent(spec.parent_pid)
    try:
        return serve_one(payload["args"], payload["config"], process=spec)
    except UserError as e:
        print(f"onestep: error: server process {spec.index}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
