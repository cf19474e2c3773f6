"""Run a child process whose peak memory (ru_maxrss) is its own.

A child that the test process starts directly does not start from zero: Python's subprocess
starts it with vfork, and when the child execs, Linux folds the peak of the memory it was
started from (the test process's) into the child's ru_maxrss. So a child that measures its
own peak with getrusage(RUSAGE_SELF) measures at least the test process's peak: whatever
the tests run before it in the same process made it. Under pytest-xdist each worker runs a
different mix of tests first, so such a bound would fail (or pass blind) depending on the
order; run alone, it depended on the order of the files.

Started from a small launcher process instead, the child's ru_maxrss starts at the
launcher's few megabytes, whatever ran in this process before."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

LAUNCHER = """
import os, signal, subprocess, sys
code = subprocess.run(sys.argv[1:]).returncode
if code < 0:                     # killed by a signal: so is the launcher
    if -code != signal.SIGKILL:
        signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
sys.exit(code)
"""


def run_fresh(args, timeout: float | None = None, capture_output: bool = False,
              **kwargs) -> subprocess.CompletedProcess:
    """subprocess.run(args, timeout=..., **kwargs), the child started by a small launcher
    process: its exit status, stdin, stdout and stderr are the child's. On the timeout both
    are killed and TimeoutExpired raised, as subprocess.run does."""
    if capture_output:
        kwargs.update(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with subprocess.Popen([sys.executable, "-c", LAUNCHER, *map(str, args)], start_new_session=True,
                          **kwargs) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            raise
    return subprocess.CompletedProcess(list(args), proc.returncode, out, err)


def python_fresh(code: str, *args, **kwargs) -> subprocess.CompletedProcess:
    """`python -c code args...` through run_fresh."""
    return run_fresh([sys.executable, "-c", code, *args], **kwargs)
