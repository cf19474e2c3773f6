"""The `pnpgen` command line: click commands over the pipeline, one module per command
(or pair of commands).

Commands raise; one handler (main.PnpgenGroup) prints errors and sets the exit status."""

from .main import main

__all__ = ["main"]
