"""Time each chapter's *Run All*, cell by cell, with one BLAS thread.

    python tools/profile_notebooks.py                      # every book/*.ipynb
    python tools/profile_notebooks.py book/pca.ipynb --top 3
    python tools/profile_notebooks.py --print-only         # report only; exit 0 whatever it finds

Each notebook runs top to bottom in a fresh kernel started in ``book/`` (as Jupyter and nbval
start it), with ``OPENBLAS_NUM_THREADS=1`` (the notebooks also call ``threadpool_limits(1)``) and
the inline matplotlib backend, so every figure is rendered as a reader's would be. A cell's time
is the wall time from the request to the kernel's reply, as JupyterLab's *Run All* sees it, and
beside it the kernel's CPU time, which a busy machine inflates much less; the kernel's start-up
is reported apart. For each notebook it prints the total and its slowest cells.

Exit status: 1 if a notebook takes longer than ``--budget`` seconds (default 10, the project's
rule: a chapter Runs All in under 10 s on 2 cores) or a cell raises; 0 otherwise, and always 0
with ``--print-only`` (to print the table without failing on a loaded machine's timings).

``tests/test_sliders.py`` runs every chapter through :func:`profile` too (moving its sliders
after the cells that make them) and prints the same report, so CI, which runs that test, shows
each chapter's profile without executing the notebooks once more for this script.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from queue import Empty

import psutil  # an ipykernel dependency

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"

# One BLAS/OpenMP thread in the kernel: the matrices are small, and extra threads on a 2-core
# (or Binder's 1-core) machine slow everything down.
ONE_THREAD = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


@dataclass
class Reply:
    """What one execute request produced."""

    seconds: float  # request to reply, wall time
    cpu_seconds: float = 0.0  # the kernel's CPU time (user + system)
    outputs: list = field(
        default_factory=list
    )  # iopub messages: stream, display_data, …
    error: str | None = None  # "EName: value" if the code raised
    user_expressions: dict = field(default_factory=dict)

    def count(self, mime: str) -> int:
        """Number of display_data / execute_result outputs carrying `mime` (e.g. a figure)."""
        return sum(
            1
            for m in self.outputs
            if m["msg_type"] in ("display_data", "execute_result")
            and mime in m["content"].get("data", {})
        )

    def expression(self, name: str) -> str:
        """The text/plain value of a user expression (raises if it failed)."""
        value = self.user_expressions[name]
        if value.get("status") != "ok":
            raise RuntimeError(f"{name}: {value.get('ename')}: {value.get('evalue')}")
        return value["data"]["text/plain"]


class LiveKernel:
    """A Python kernel of this environment, started in `cwd` with one BLAS thread.

    ``with LiveKernel(BOOK) as k: reply = k.run("x = 1")``. Each :meth:`run` waits until the
    kernel is idle again and collects the request's outputs.
    """

    def __init__(self, cwd: Path = BOOK, timeout: float = 300.0):
        self.cwd, self.timeout = Path(cwd), timeout
        self.manager = self.client = None
        self.start_seconds = 0.0

    def __enter__(self) -> LiveKernel:
        import ipykernel.kernelspec
        from jupyter_client.kernelspec import KernelSpecManager
        from jupyter_client.manager import KernelManager

        class _ThisPython(KernelSpecManager):  # this interpreter, as nbval's
            def get_kernel_spec(self, kernel_name):  # --nbval-current-env does
                return self.kernel_spec_class(
                    resource_dir=ipykernel.kernelspec.RESOURCES,
                    **ipykernel.kernelspec.get_kernel_dict(),
                )

        env = {
            k: v for k, v in os.environ.items() if k != "MPLBACKEND"
        }  # inline figures
        env.update(ONE_THREAD)
        t0 = time.perf_counter()
        self._sockets = tempfile.TemporaryDirectory(prefix="mlcourse-kernel-")
        # local (ipc) sockets, not TCP; their path absolute, as the kernel runs in another cwd
        self.manager = KernelManager(
            kernel_name="python3",
            kernel_spec_manager=_ThisPython(),
            transport="ipc",
            ip=str(Path(self._sockets.name) / "k"),
        )
        self.manager.start_kernel(cwd=str(self.cwd), env=env)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=60)
        self.start_seconds = time.perf_counter() - t0
        self.process = psutil.Process(self.manager.provisioner.pid)
        return self

    def cpu(self) -> float:
        """CPU seconds the kernel has used: unlike wall time, about the same on a busy machine."""
        times = self.process.cpu_times()
        return times.user + times.system

    def __exit__(self, *exc):
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)
        self._sockets.cleanup()

    def run(self, code: str, user_expressions: dict | None = None) -> Reply:
        """Execute `code`; return its outputs, its error (if any) and its wall time."""
        t0, cpu0 = time.perf_counter(), self.cpu()
        msg_id = self.client.execute(code, user_expressions=user_expressions or {})
        reply = Reply(0.0)
        deadline = t0 + self.timeout
        idle = False
        while not idle:
            try:
                msg = self.client.get_iopub_msg(
                    timeout=max(deadline - time.perf_counter(), 0.1)
                )
            except Empty:
                raise TimeoutError(f"no reply within {self.timeout:g} s") from None
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            if kind == "status":
                idle = msg["content"]["execution_state"] == "idle"
            elif kind == "error":
                reply.error = f"{msg['content']['ename']}: {msg['content']['evalue']}"
                reply.outputs.append(msg)
            elif kind in (
                "stream",
                "display_data",
                "execute_result",
                "clear_output",
                "update_display_data",
            ):
                reply.outputs.append(msg)
        reply.seconds, reply.cpu_seconds = time.perf_counter() - t0, self.cpu() - cpu0
        shell = self.client.get_shell_msg(timeout=self.timeout)
        while (
            shell["parent_header"].get("msg_id") != msg_id
        ):  # e.g. wait_for_ready's reply
            shell = self.client.get_shell_msg(timeout=self.timeout)
        content = shell["content"]
        if content.get("status") == "error" and reply.error is None:
            reply.error = f"{content.get('ename')}: {content.get('evalue')}"
        reply.user_expressions = content.get("user_expressions", {})
        return reply


def code_cells(path: Path):
    """(index, source) of each code cell of the notebook at `path`."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    return [(i, c.source) for i, c in enumerate(nb.cells) if c.cell_type == "code"]


@dataclass
class Profile:
    path: Path
    start_seconds: float
    cells: list  # (seconds, cpu seconds, index, first line)
    error: str | None = None

    @property
    def total(self) -> float:
        return sum(c[0] for c in self.cells)

    @property
    def cpu_total(self) -> float:
        return sum(c[1] for c in self.cells)


def profile(path: Path, after_cell=None) -> Profile:
    """Run the notebook at `path` top to bottom in a fresh kernel; time each code cell.

    ``after_cell(kernel, index, source)``, if given, is called after each cell that ran without
    error (``tests/test_sliders.py`` moves the sliders a cell made there).
    """
    with LiveKernel(path.parent) as kernel:
        result = Profile(path, kernel.start_seconds, [])
        for index, source in code_cells(path):
            reply = kernel.run(source)
            first = next(
                (
                    line
                    for line in source.splitlines()
                    if line.strip() and not line.startswith("# NBVAL")
                ),
                "",
            )
            result.cells.append((reply.seconds, reply.cpu_seconds, index, first))
            if reply.error:
                result.error = f"cell {index}: {reply.error}"
                break
            if after_cell is not None:
                after_cell(kernel, index, source)
    return result


def report(result: Profile, top: int, budget: float) -> str:
    name = (
        result.path.relative_to(ROOT)
        if result.path.is_relative_to(ROOT)
        else result.path
    )
    flag = "" if result.total < budget else f"  OVER {budget:g} s"
    lines = [
        f"{name}: Run All {result.total:.2f} s ({result.cpu_total:.2f} s CPU) in "
        f"{len(result.cells)} code cells (kernel start {result.start_seconds:.2f} s){flag}"
    ]
    for seconds, cpu, index, first in sorted(result.cells, reverse=True)[:top]:
        lines.append(
            f"  {seconds:6.2f} s {cpu:6.2f} s CPU  cell {index:>3}  {first[:60]}"
        )
    if result.error:
        lines.append(f"  ERROR in {result.error}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "notebooks",
        nargs="*",
        type=Path,
        help="notebooks to profile (default: every book/*.ipynb)",
    )
    parser.add_argument(
        "--top", type=int, default=5, help="slowest cells shown per notebook"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=10.0,
        help="seconds a Run All may take (default 10)",
    )
    parser.add_argument(
        "--print-only",
        action="store_true",
        help="only print; exit 0 even over budget or on an error",
    )
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or sorted(BOOK.glob("*.ipynb"))
    failed = False
    for path in paths:
        result = profile(path)
        print(report(result, args.top, args.budget), flush=True)
        failed |= result.error is not None or result.total >= args.budget
    return 0 if args.print_only else int(failed)


if __name__ == "__main__":
    sys.exit(main())
