"""Sliders for the chapters (ipywidgets, imported lazily).

Usage in a notebook: draw the static figure once in a visible cell (it is what the web site
shows), then, in a cell tagged ``remove-cell``, make it live::

    from mlcourse.widgets import interact, slider
    interact(draw, threshold=slider(0.5, 0.0, 1.0, 0.01))

``draw`` must draw a complete figure for the given values (and may call ``plt.show()``).

Every widget :func:`interact` makes is also listed by :func:`made`, so that
``tests/test_sliders.py`` can move each slider in a live kernel and check that it redraws.
"""

from __future__ import annotations

__all__ = ["slider", "log_slider", "interact", "made"]

_MADE = []   # the ipywidgets.interactive objects made in this kernel, oldest first


def _ipywidgets():
    try:
        import ipywidgets
    except ImportError as exc:  # pragma: no cover - ipywidgets is in requirements.txt
        raise ImportError("The sliders need ipywidgets: pip install ipywidgets") from exc
    return ipywidgets


def slider(value: float, low: float, high: float, step: float | None = None,
           description: str | None = None):
    """A float slider from `low` to `high` starting at `value` (updates on release)."""
    w = _ipywidgets()
    step = (high - low) / 100 if step is None else step
    return w.FloatSlider(value=value, min=low, max=high, step=step, description=description or "",
                         continuous_update=False, readout_format=".3g")


def log_slider(value: float, low: float, high: float, description: str | None = None):
    """A slider over a positive hyperparameter on a log10 scale (e.g. a prior precision)."""
    import math
    w = _ipywidgets()
    return w.FloatLogSlider(value=value, base=10, min=math.log10(low), max=math.log10(high),
                            step=0.05, description=description or "", continuous_update=False,
                            readout_format=".3g")


def interact(func, **controls):
    """``ipywidgets.interact(func, **controls)``; each keyword is a slider (or fixed value).

    Returns what ipywidgets does (`func`, with the widget as ``func.widget``); the widget is also
    appended to :func:`made`.
    """
    live = _ipywidgets().interact(func, **controls)
    _MADE.append(live.widget)
    return live


def made() -> list:
    """The ``ipywidgets.interactive`` widgets :func:`interact` has made in this kernel, oldest
    first; ``w.kwargs_widgets`` are a widget's controls, and setting a control's ``value`` redraws
    its figure, as moving the slider does."""
    return list(_MADE)
