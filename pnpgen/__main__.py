"""The `pnpgen` command as a process (`python -m pnpgen`, and the installed `pnpgen` script):
the command line of pnpgen.cli, run the way a short-lived command runs fastest.

- Python's cyclic garbage collector is held off while the modules load (start-up makes no
  garbage worth a collection, yet pays for a hundred passes over a growing heap), and what
  start-up made is then frozen out of later collections, since it lives to the end; after
  that the youngest generation is collected every 50,000 new objects, not every 700 (the
  build makes few cycles, and at 10,000 cards the default cost the build 0.14 s in 230
  passes, with no less memory at its peak).
- pydantic's search for plugins is turned off (pnpgen uses none, and the search reads the
  metadata of every installed distribution when the first model is made), by the switch
  pydantic documents, PYDANTIC_DISABLE_PLUGINS; a value the user set is kept. While it is
  off, pydantic's module that would search is not loaded either (it imports importlib.metadata,
  and with it email, zipfile and csv, some 8 ms): a stand-in answers as that module answers
  with the switch off, no plugins (tests/test_startup.py checks that it does, and that pydantic
  asks that module for nothing else).
- Once the command is done and its output flushed, the process ends at once with its exit
  status, rather than freeing every object and module one by one first. Every file a command
  writes is closed, renamed into place and its worker processes joined before it returns,
  so nothing is lost; a command that fails with a traceback still ends the ordinary way.

Tests and other callers use pnpgen.cli.main, in process, which does neither."""

import gc
import os
import sys

YOUNG = 50_000
"""New objects between two collections of the youngest generation (Python's default is 700)."""


def run() -> None:
    """Run the command line with sys.argv, then end the process with its exit status."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")     # (before the first model is made)
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] in PLUGINS_OFF:
        sys.modules.setdefault(PLUGIN_LOADER, _no_plugins())
    gc.disable()
    try:
        from .cli import main
    finally:
        gc.enable()
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])
    try:
        main()
    except SystemExit as exc:
        _exit(exc.code)
    _exit(0)


PLUGIN_LOADER = "pydantic.plugin._loader"
"""The module pydantic asks for its plugins (pydantic.plugin._schema_validator), for get_plugins."""
PLUGINS_OFF = ("__all__", "1", "true")
"""The values of PYDANTIC_DISABLE_PLUGINS with which get_plugins returns no plugins at all."""


def _no_plugins():
    """A stand-in for PLUGIN_LOADER with every plugin off: its get_plugins returns none."""
    import types
    module = types.ModuleType(PLUGIN_LOADER, "pnpgen's stand-in: every pydantic plugin is off")
    module.get_plugins = lambda: ()
    return module


def _exit(code) -> None:
    """End the process now, as `sys.exit(code)` would end it (a text is shown, and ends it with 1)."""
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):     # (a reader that went away, as `pnpgen list | head` has)
        code = code or 1
    os._exit(code or 0)


if __name__ == "__main__":
    run()
