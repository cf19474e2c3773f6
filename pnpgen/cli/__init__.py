"""The `pnpgen` command line: click commands over the pipeline.

Commands raise; one handler prints errors and sets the exit status."""

from .commands import main

__all__ = ["main"]
