"""Run `pnpgen ARGS` in a process of its own without starting Python each time: one server
process imports pnpgen.cli once, then forks a child per run. The child is a process as
`python -c RUNNER ARGS` would be once it has imported pnpgen.cli (the same interpreter, the
same modules loaded, nothing run yet), with its own limit on address space, its own working
folder, stdin from /dev/null and its stdout and stderr in files; it exits as that process
would (SystemExit, atexit handlers and all). The server measures its CPU time (its children's
too) and kills it when it runs past a wall-clock limit.

Starting Python and importing pnpgen takes a few tenths of a second of CPU; the hostile-input
tests run pnpgen some fifty times, each in a limited process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SERVER = r"""
import json, os, resource, sys, time
from pnpgen.cli import main

def child(job):
    resource.setrlimit(resource.RLIMIT_AS, (job["limit"], job["limit"]))
    os.chdir(job["cwd"])
    for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, job["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                            (2, job["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
        opened = os.open(path, flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.argv = ["pnpgen", *job["args"]]
    main()          # raises SystemExit: the interpreter ends as `python -c RUNNER` would
    sys.exit(0)

while True:
    line = sys.stdin.readline()
    if not line:
        break
    job = json.loads(line)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        child(job)
    deadline, hung = time.monotonic() + job["wall"], False
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline and not hung:
            os.kill(pid, 9)
            hung = True
        time.sleep(0.002)
    print(json.dumps({"status": os.waitstatus_to_exitcode(status), "hung": hung,
                      "cpu": usage.ru_utime + usage.ru_stime}), flush=True)
"""


@dataclass
class Finished:
    """How a run ended: exit status, stdout, stderr, CPU seconds, and whether it was killed at
    the wall-clock limit."""

    returncode: int
    stdout: str
    stderr: str
    cpu: float
    hung: bool


class ForkServer:
    """A server process (started on first use) that runs `pnpgen ARGS` in forked children."""

    def __init__(self, root: Path):
        self.root = root
        self.proc: subprocess.Popen | None = None
        self.files: Path | None = None     # (made on the first run: importing this makes nothing)

    def run(self, cwd: Path, args, limit_bytes: int, wall: float) -> Finished:
        if self.files is None:
            self.files = Path(tempfile.mkdtemp(prefix="pnpgen-forkrun-"))
        if self.proc is None or self.proc.poll() is not None:
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(self.root), os.environ.get("PYTHONPATH", "")])}
            self.proc = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         env=env, text=True, cwd=self.root)
        out, err = self.files / "stdout", self.files / "stderr"
        job = {"cwd": str(cwd), "args": [str(a) for a in args], "limit": limit_bytes, "wall": wall,
               "stdout": str(out), "stderr": str(err)}
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, "the fork server ended"
        result = json.loads(answer)
        return Finished(result["status"], out.read_text(errors="replace"), err.read_text(errors="replace"),
                        result["cpu"], result["hung"])

    def close(self) -> None:
        """End the server (it is started again if run once more)."""
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
            self.proc.stdout.close()
            self.proc = None
        if self.files is not None:
            for name in ("stdout", "stderr"):
                (self.files / name).unlink(missing_ok=True)
            self.files.rmdir()
            self.files = None
