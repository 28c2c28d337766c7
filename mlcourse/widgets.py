"""Sliders for the chapters (ipywidgets, imported lazily).

Usage in a notebook: draw the static figure once in a visible cell (it is what the web site
shows), then, in a cell tagged ``remove-cell``, make it live::

    from mlcourse.widgets import interact, slider
    interact(draw, threshold=slider(0.5, 0.0, 1.0, 0.01))

``draw`` must draw a complete figure for the given values and display it: with
:func:`show`, which answers a slider move faster than ``plt.show()``. A figure that is
expensive to set up is built once, by a function that returns it with ``update(**values)``,
which changes its artists; :func:`interact_figure` then makes the sliders::

    fig, update = make_figure()
    interact_figure(fig, update, threshold=slider(0.5, 0.0, 1.0, 0.01))

Every widget :func:`interact` makes is also listed by :func:`made`, so that
``tests/test_sliders.py`` can move each slider in a live kernel and check that it redraws.
"""

from __future__ import annotations

__all__ = ["slider", "log_slider", "interact", "interact_figure", "made", "show"]

_MADE = []  # the ipywidgets.interactive objects made in this kernel, oldest first


def _ipywidgets():
    try:
        import ipywidgets
    except ImportError as exc:  # pragma: no cover - ipywidgets is in requirements.txt
        raise ImportError(
            "The sliders need ipywidgets: pip install ipywidgets"
        ) from exc
    return ipywidgets


def slider(
    value: float,
    low: float,
    high: float,
    step: float | None = None,
    description: str | None = None,
):
    """A float slider from `low` to `high` starting at `value` (updates on release)."""
    w = _ipywidgets()
    step = (high - low) / 100 if step is None else step
    return w.FloatSlider(
        value=value,
        min=low,
        max=high,
        step=step,
        description=description or "",
        continuous_update=False,
        readout_format=".3g",
    )


def log_slider(value: float, low: float, high: float, description: str | None = None):
    """A slider over a positive hyperparameter on a log10 scale (e.g. a prior precision)."""
    import math

    w = _ipywidgets()
    return w.FloatLogSlider(
        value=value,
        base=10,
        min=math.log10(low),
        max=math.log10(high),
        step=0.05,
        description=description or "",
        continuous_update=False,
        readout_format=".3g",
    )


def interact(func, **controls):
    """``ipywidgets.interact(func, **controls)``; each keyword is a slider (or fixed value).

    Returns what ipywidgets does (`func`, with the widget as ``func.widget``); the widget is also
    appended to :func:`made`.

    Before making the widget, the kernel's garbage is collected and the objects that survive
    are frozen (``gc.freeze()``: moved to a permanent generation, which the cyclic garbage
    collector no longer scans). A redraw leaves cyclic garbage behind (a figure's texts, paths
    and transforms), and every so often that triggers a full collection, which scanned every
    object of a kernel that has imported SciPy, scikit-learn and matplotlib: about 150 ms,
    added to whichever slider move it fell on. Frozen, the modules, the data and the fitted
    models are skipped, and a full collection scans only what was made since. A second
    ``gc.collect()`` then resets the collector's count of long-lived objects to the few left
    unfrozen (CPython starts a full collection when the objects promoted since the last one
    exceed a quarter of that count), so full collections stay small and frequent instead of
    waiting for the garbage of many moves. Nothing is frozen that was garbage already; an
    object alive now that becomes garbage later is still freed by reference counting, or, if
    it sits in a reference cycle, stays in memory until the kernel restarts.
    """
    import gc

    gc.collect()
    gc.freeze()
    gc.collect()
    live = _ipywidgets().interact(func, **controls)
    _MADE.append(live.widget)
    return live


def interact_figure(fig, update, **controls):
    """Sliders that redraw one figure built once: each move calls ``update(**values)``, which
    changes `fig`'s artists, then :func:`show` displays `fig`.

    `fig` is removed from pyplot first, so the cell does not display it as well. Returns what
    :func:`interact` does.
    """
    import matplotlib.pyplot as plt

    plt.close(fig)

    def redraw(**values):
        update(**values)
        show(fig)

    return interact(redraw, **controls)


def made() -> list:
    """The ``ipywidgets.interactive`` widgets :func:`interact` has made in this kernel, oldest
    first; ``w.kwargs_widgets`` are a widget's controls, and setting a control's ``value`` redraws
    its figure, as moving the slider does."""
    return list(_MADE)


def show(fig=None) -> None:
    """Display `fig` (default: the current figure) as a PNG, drawn once, and close it.

    For a slider's redraw. ``plt.show()`` under the inline backend crops the image to its tight
    bounding box, which lays the figure out and draws it a second time with a new renderer (so
    every text and formula is measured and parsed anew), and compresses the PNG at zlib level 6;
    together that is most of a move's time. Here the figure is drawn once, at its own size, by
    its canvas's Agg renderer, which keeps its cache of parsed formulas between moves (a
    constrained layout, if the figure has one, runs in that draw), and compressed at level 1 (a
    larger PNG, in a fraction of the time). The figure is then removed from pyplot, so the cell
    does not display it a second time; a figure kept for the next move can be passed again,
    its artists updated meanwhile.
    """
    import io

    import matplotlib.pyplot as plt
    from IPython.display import Image, display
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = plt.gcf() if fig is None else fig
    canvas = (
        fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    )
    buffer = io.BytesIO()
    canvas.print_png(buffer, pil_kwargs={"compress_level": 1})
    plt.close(fig)
    display(Image(data=buffer.getvalue(), format="png"))
