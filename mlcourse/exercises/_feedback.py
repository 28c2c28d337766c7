"""What a check returns: :class:`Feedback`, which shows itself in Jupyter and as plain text."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from html import escape

# The plain text is what nbval compares, so it depends on nothing but the answer: no addresses,
# no timings, no file paths of temporary cells. Lines wrap at 88 columns, the width a chapter's
# output shows without scrolling.
WIDTH = 88

_SYMBOL = {
    "correct": "✓",
    "wrong": "✗",
    "not attempted": "○",
    "checker failed": "⚠",
}
_COLOUR = {  # the left border of the HTML box; readable on a light and a dark theme
    "correct": "#2e7d32",
    "wrong": "#c62828",
    "not attempted": "#757575",
    "checker failed": "#ef6c00",
}


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer to an exercise.

    Attributes
    ----------
    correct : bool
        Whether the answer agrees with the reference on every case.
    message : str
        What was found: "not attempted yet" for the starter; otherwise, for a wrong answer, the
        case that failed and what differs there (or the catalogued mistake it matches).
    exercise : str
        The exercise's name, e.g. ``"irls-step"``.
    status : {"correct", "wrong", "not attempted", "checker failed"}
    inputs : dict or None
        The failing case's arguments by parameter name (copies), to reproduce it:
        ``your_function(**feedback.inputs)``; None when no case failed.
    """

    correct: bool
    message: str
    exercise: str = ""
    status: str = "wrong"
    inputs: dict | None = field(default=None, repr=False, compare=False)

    def __bool__(self) -> bool:
        return self.correct

    def lines(self) -> list[str]:
        """The plain-text form, wrapped to 88 columns: a headline, then indented details."""
        head, *rest = self.message.split("\n")
        first = f"{_SYMBOL.get(self.status, '?')} {self.exercise}: {head}"
        out = textwrap.wrap(first, WIDTH, subsequent_indent="  ") or [first]
        for para in rest:
            if para.startswith("    "):  # a line of the student's code: never wrapped
                out.append(para)
            else:
                out += textwrap.wrap(
                    para, WIDTH, initial_indent="  ", subsequent_indent="  "
                ) or [""]
        return out

    def __repr__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        """The same text, unwrapped (the browser wraps it), the student's code in <code>."""
        head, *rest = self.message.split("\n")
        symbol = _SYMBOL.get(self.status, "?")
        body = "".join(
            f"<br><code>{escape(p.strip())}</code>"
            if p.startswith("    ")
            else f"<br>{escape(p)}"
            for p in rest
        )
        colour = _COLOUR.get(self.status, "#757575")
        kind = self.status.replace(" ", "-")
        return (
            f'<div class="mlcourse-feedback mlcourse-feedback-{kind}" style="border-left: '
            f'4px solid {colour}; padding: 0.2em 0.8em;">'
            f"{escape(symbol)} <strong>{escape(self.exercise)}</strong>: {escape(head)}"
            f"{body}</div>"
        )
