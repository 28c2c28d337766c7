"""Running the student's function safely, and pointing at the student's own line.

Whatever the function does — raise, return None or ``...``, warn, modify its arguments — the
checker gets an :class:`Outcome` back and never a traceback. When it raises, the line shown is
the innermost line of the student's own code in the traceback (not NumPy's, not the checker's),
so the message points where the student can act.
"""

from __future__ import annotations

import copy
import dis
import inspect
import linecache
import os
import sysconfig
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_CHECKER = str(Path(__file__).resolve().parent)
_LIBRARY = tuple(
    str(Path(p).resolve())
    for p in {sysconfig.get_paths()[k] for k in ("stdlib", "platstdlib", "purelib")}
)
_PACKAGE = str(Path(__file__).resolve().parents[1])  # mlcourse/


@dataclass
class Outcome:
    """What one call of the student's function gave: a value, or a description of its error."""

    value: object = None
    error: str | None = None


def is_starter(function) -> bool:
    """Whether `function`'s body is empty: only ``...`` (or ``pass``) after an optional
    docstring, as in the starter cell.

    Such a body compiles to "return None" and nothing else. Read from the bytecode, so it works
    for functions defined in a notebook cell, in a file or by ``exec``, whether or not their
    source can be found.
    """
    code = getattr(function, "__code__", None)
    if code is None:
        return False
    ops = [
        (ins.opname, ins.argval)
        for ins in dis.get_instructions(code)
        if ins.opname not in ("RESUME", "NOP", "CACHE")
    ]
    return ops in (
        [("LOAD_CONST", None), ("RETURN_VALUE", None)],
        [("RETURN_CONST", None)],
    )


def call(function, args: tuple) -> Outcome:
    """Call ``function(*args)`` on deep copies of `args`, warnings silenced; never raises
    (except KeyboardInterrupt, so that the reader can still stop a function that hangs)."""
    args = copy.deepcopy(args)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return Outcome(value=function(*args))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # anything the student's code raises
            return Outcome(error=describe_error(exc, function))


def _is_students(filename: str) -> bool:
    """A frame of the student's code: not the checker, not mlcourse, not an installed library."""
    if filename.startswith("<") and not filename.startswith("<ipython-input"):
        return filename != "<frozen>" and not filename.startswith("<frozen ")
    path = str(Path(filename).resolve()) if os.path.exists(filename) else filename
    return not (
        path.startswith(_CHECKER)
        or path.startswith(_PACKAGE)
        or any(path.startswith(lib) for lib in _LIBRARY)
        or "site-packages" in path
    )


def _where(filename: str, lineno: int, name: str, function) -> str:
    """ "line 5 of irls_step" with the source line, or "line 5 of helper (file.py)"."""
    own = getattr(getattr(function, "__code__", None), "co_filename", None)
    place = f"line {lineno}, in {name}"
    if filename != own and not filename.startswith("<"):
        place += f" ({os.path.basename(filename)})"
    text = linecache.getline(filename, lineno).strip()
    return f"{place}:\n    {text}" if text else place


def describe_error(exc: BaseException, function) -> str:
    """The exception and the innermost line of the student's code that led to it."""
    what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    mine = [f for f in frames if _is_students(f[0])]
    if not mine:
        return f"Your function raised {what}"
    return f"Your function raised {what}\nat {_where(*mine[-1], function)}"


def source_line(function, wanted, last: bool = False) -> str | None:
    """The first (or `last`) line of `function`'s source for which ``wanted(line)`` holds, as
    "line 4, in f:\\n    code", or None when the source cannot be found."""
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        return None
    order = range(len(lines) - 1, -1, -1) if last else range(len(lines))
    for k in order:
        line = lines[k]
        if wanted(line):
            return f"line {first + k}, in {function.__name__}:\n    {line.strip()}"
    return None
