"""`python -m bench.profiled_serve OUT [serve args]`: `arena serve` under pyinstrument, for `bench gateway --profile`.

A sampling profile of the whole server process, taken in-process (py-spy needs ptrace rights the bench
machine may not grant). The event loop's idle time shows as its selector's wait, so the report says how
much of the run was work at all. The text report (an HTML one and the session beside it) is written when the server
stops (SIGTERM: uvicorn's clean stop, then back here).
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    from pyinstrument import Profiler

    from cli.main import main as arena

    out = Path(argv[0])
    profiler = Profiler(interval=0.0005, async_mode="disabled")  # every frame of the loop, not one task's
    profiler.start()
    try:
        return arena(["serve", *argv[1:]])
    finally:
        profiler.stop()
        out.write_text(profiler.output_text(unicode=True, show_all=False, short_mode=False))
        out.with_suffix(".html").write_text(profiler.output_html())
        profiler.last_session.save(str(out.with_suffix(".pyisession")))  # `pyinstrument --load` renders it again


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
