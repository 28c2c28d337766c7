"""An exercise that checks itself: :class:`Exercise`, with its :class:`Case` s and
:class:`Mistake` s.

``Exercise.check(answer)`` calls the student's function on each case, smallest first, and
compares the result with the reference's within the case's tolerance. On the first case that
fails it looks for a catalogued mistake the answer reproduces (a mutation of the reference, e.g.
the Hessian without its prior term) and names it in the lecture's terms; otherwise it says what
differs (:func:`~._compare.diagnose`). It never shows the reference's code, and nothing the
student's function does escapes it: an error in the student's code becomes a message with the
student's line, and an error in the checker itself a message that says the checker failed.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ._compare import close, diagnose, fit_shape, fmt, to_parts
from ._feedback import Feedback
from ._run import call, is_starter, source_line


def _short(arg) -> str | None:
    """A number or a short list as the message shows it; None for an array (shown by shape)."""
    if (
        isinstance(arg, (list, tuple))
        and len(arg) <= 10
        and not np.ndim(arg[0] if arg else 0)
    ):
        return "[" + ", ".join(_short(a) or "…" for a in arg) + "]"
    if np.ndim(arg) == 0 and isinstance(arg, (int, float, np.integer, np.floating)):
        return fmt(arg) if isinstance(arg, (float, np.floating)) else str(int(arg))
    return None


@dataclass(frozen=True)
class Case:
    """One set of arguments the answer is called with, and how closely it must agree.

    Attributes
    ----------
    label : str
        What the case tests, e.g. ``"a tied score"``; shown when the case fails.
    args : tuple
        The positional arguments, in the reference's order.
    rtol, atol : float or tuple of float
        Tolerances, one pair for every output part or a tuple with one per part; derived from
        the numerics where the case is built (the chapter modules say how).
    factors : dict
        Named constants of this case (``{"N/(N − 1)": 1.25}``) that a wrong answer may be off
        by; the diagnosis names them.
    """

    label: str
    args: tuple
    rtol: float | tuple = 0.0
    atol: float | tuple = 0.0
    factors: dict = field(default_factory=dict)

    def tolerance(self, part: int) -> tuple[float, float]:
        def pick(t):
            return float(t[part] if isinstance(t, tuple) else t)

        return pick(self.rtol), pick(self.atol)


@dataclass(frozen=True)
class Mistake:
    """A classic mistake, and how to recognise it.

    Attributes
    ----------
    message : str
        What the mistake is, in the lecture's terms, and where to look: "your Hessian is
        missing the prior term A: compare with Bishop (7.111)". Never solution code.
    function : callable
        The reference with this mistake made (same arguments): an answer whose output agrees
        with it on the failing case has made it. The tests also use it as an example answer.
    test : callable, optional
        ``test(got_parts, case, expected_parts) -> bool`` for a mistake that no single mutant
        reproduces (e.g. any order of breaking ties); it replaces the comparison with
        `function`'s output.
    """

    message: str
    function: Callable
    test: Callable | None = None


@dataclass(frozen=True, eq=False)
class Exercise:
    """A coding exercise with its reference result and its checker.

    Attributes
    ----------
    name : str
        Short name, the key in ``EXERCISES`` (``"irls-step"``).
    chapter : str
        The notebook it belongs to (``"linear_classifiers"`` for ``book/linear_classifiers.ipynb``).
    prompt : str
        One line: what to compute.
    reference : callable
        The reference implementation; it takes the same arguments as the student's function,
        and its docstring is the starter's.
    make_cases : callable
        ``make_cases() -> list[Case]``, seeded, smallest first; the edge cases that matter.
    mistakes : tuple of Mistake
        The catalogued mistakes, most specific first.
    outputs : tuple of str
        Names of the returned parts; more than one means the function returns a tuple.
    align : callable, optional
        ``align(got_parts, expected_parts) -> got_parts`` for results defined only up to a
        symmetry (the sign of an eigenvector, a rotation of PPCA's W): brings the answer to
        the representative closest to the expected one before comparing.
    section : str
        The book's label of the section it exercises (for ``{ref}`` links).
    """

    name: str
    chapter: str
    prompt: str
    reference: Callable
    make_cases: Callable = field(repr=False)
    mistakes: tuple = field(default=(), repr=False)
    outputs: tuple = ("result",)
    align: Callable | None = field(default=None, repr=False)
    section: str = ""

    @cached_property
    def cases(self) -> list[Case]:
        """The cases, built once (they are seeded, so always the same)."""
        return list(self.make_cases())

    @property
    def parameters(self) -> list[str]:
        """The names of the reference's (and so the student's) parameters."""
        return list(inspect.signature(self.reference).parameters)

    # --- checking ---------------------------------------------------------------------------

    def check(self, answer) -> Feedback:
        """Check the student's function `answer` on every case; see the module docstring.

        Returns
        -------
        Feedback
            ``correct`` and ``message``; it displays itself in Jupyter.
        """
        try:
            return self._check(answer)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a bug in the checker: say so, never a traceback
            return Feedback(
                False,
                f"the checker itself failed ({type(exc).__name__}: {exc}). This is not "
                "your mistake; please report it.",
                self.name,
                "checker failed",
            )

    def _check(self, answer) -> Feedback:
        if not callable(answer):
            return Feedback(
                False,
                "check needs your function itself, e.g. "
                f"check({self.reference.__name__}); got {type(answer).__name__}",
                self.name,
            )
        if is_starter(answer):
            return Feedback(False, "not attempted yet", self.name, "not attempted")
        cases = self.cases
        for k, case in enumerate(cases, start=1):
            expected = self._expected(case)
            outcome = call(answer, case.args)
            if outcome.error is not None:
                return self._wrong(k, case, outcome.error)
            problem = self._returned(outcome.value, answer)
            if problem is None:
                got, problem = to_parts(outcome.value, self.outputs)
                problem = problem and f"Your function's result {problem}."
            if problem is not None:
                return self._wrong(k, case, problem)
            verdict = self._compare(got, expected, case)
            if verdict is not None:
                return self._wrong(
                    k, case, self._recognise(got, expected, case) or verdict
                )
        labels = "; ".join(c.label for c in cases)
        return Feedback(
            True, f"correct on all {len(cases)} cases ({labels})", self.name, "correct"
        )

    def _expected(self, case: Case) -> list[np.ndarray]:
        parts, problem = to_parts(
            self.reference(*copy.deepcopy(case.args)), self.outputs
        )
        if problem is not None:
            raise RuntimeError(f"the reference's result {problem}")
        return parts

    def _wrong(self, k: int, case: Case, detail: str) -> Feedback:
        """The feedback on case `k`: which case, what is wrong, and where its inputs are."""
        shapes = ", ".join(
            f"{name} = {_short(arg)}" if _short(arg) else f"{name} {np.shape(arg)}"
            for name, arg in zip(self.parameters, case.args)
        )
        message = (
            f"wrong on case {k} of {len(self.cases)}: {case.label}\n{detail}\n"
            f"Inputs: {shapes} (in feedback.inputs)."
        )
        inputs = dict(zip(self.parameters, copy.deepcopy(case.args)))
        return Feedback(False, message, self.name, "wrong", inputs)

    @staticmethod
    def _returned(value, answer) -> str | None:
        """A message when the function returned None or ``...``, with the line to look at."""
        if value is None:
            line = source_line(answer, lambda s: s.lstrip().startswith("return"))
            if line is not None:
                return f"Your function returned None, at {line}"
            last = source_line(answer, lambda s: s.strip(), last=True)
            at = f" Its last line is {last}" if last else ""
            return f"Your function returned None: it has no `return` statement.{at}"
        if value is Ellipsis:
            line = source_line(
                answer, lambda s: "..." in s and not s.lstrip().startswith("#")
            )
            at = f", at {line}" if line else ""
            return (
                f"Your function returned `...` (Ellipsis){at}\nReplace the `...` "
                "placeholder with your result."
            )
        return None

    def _aligned(self, got, target):
        if self.align is None:
            return got
        shapes_match = all(np.shape(g) == np.shape(t) for g, t in zip(got, target))
        return self.align(got, target) if shapes_match else got

    def _compare(self, got, expected, case: Case) -> str | None:
        got = [fit_shape(g, e) for g, e in zip(got, expected)]
        got = self._aligned(got, expected)
        for i, (g, e) in enumerate(zip(got, expected)):
            verdict = diagnose(g, e, *case.tolerance(i), case.factors)
            if verdict is not None:
                return f"Your {self.outputs[i]} {verdict}."
        return None

    def _recognise(self, got, expected, case: Case) -> str | None:
        """The message of the first catalogued mistake that `got` reproduces on `case`."""
        got = [fit_shape(g, e) for g, e in zip(got, expected)]
        for mistake in self.mistakes:
            if mistake.test is not None:
                if mistake.test(got, case, expected):
                    return mistake.message
                continue
            outcome = call(mistake.function, case.args)
            if outcome.error is not None:
                continue
            wrong, problem = to_parts(outcome.value, self.outputs)
            if problem is not None:
                continue
            mine = self._aligned(got, wrong)
            if all(
                close(g, w, *case.tolerance(i))
                or close(g, w, max(case.tolerance(i)[0], 1e-9), case.tolerance(i)[1])
                for i, (g, w) in enumerate(zip(mine, wrong))
            ):
                return mistake.message
        return None
