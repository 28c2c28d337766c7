"""Plot helpers shared by the chapters (matplotlib only).

Each helper draws on an ``ax`` it is given (or a new one) and returns it, so notebook cells stay
one or two lines long and a widget can redraw the same picture for a new slider value.

Every figure of the book uses one style, ``house.mplstyle`` beside this module, which
:func:`use_house_style` applies (each chapter calls it in its first cell), and figures with
several panels get their size from :func:`subplots`, so that a figure is shown at its natural
size in the page's column and its text stays at least 10 pt.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np

from . import metrics
from .utils.validation import check_array

__all__ = [
    "HOUSE_STYLE",
    "COLUMN_WIDTH",
    "MAX_PANELS_IN_A_ROW",
    "use_house_style",
    "subplots",
    "grid_2d",
    "plot_probability_2d",
    "plot_roc",
    "plot_confusion",
    "plot_operating_point",
    "image_mosaic",
    "plot_image_grid",
    "plot_band",
]

POS_COLOR, NEG_COLOR = "tab:red", "tab:blue"


HOUSE_STYLE = Path(__file__).with_name("house.mplstyle")
# Inches at the style's 100 dpi: the page's text column (about 830 px at a 1400-px window),
# less room for the tight bounding box the inline backend adds around labels.
COLUMN_WIDTH = 7.8
# More panels than this in a row shrink every panel's text below legibility in the column.
MAX_PANELS_IN_A_ROW = 3


def use_house_style() -> None:
    """Apply the book's figure style (``house.mplstyle``) to every figure drawn afterwards."""
    plt.style.use(HOUSE_STYLE)


def subplots(nrows: int = 1, ncols: int = 1, *, height: float | None = None, **kwargs):
    """``plt.subplots`` sized for the page's column: full column width, at most three panels.

    Parameters
    ----------
    nrows, ncols : int
        The grid of panels; `ncols` at most :data:`MAX_PANELS_IN_A_ROW`.
    height : float, optional
        Height of one row of panels, in inches. Default: 3.6 for one panel in a row, 3.0 for
        two and 2.6 for three (panels about as tall as they are wide at three in a row).
    **kwargs
        Passed on to ``plt.subplots`` (``sharey``, ``width_ratios``, …); not ``figsize``.

    Returns
    -------
    fig : Figure
    axes : Axes or ndarray of Axes
        As ``plt.subplots`` returns them.
    """
    if not 1 <= ncols <= MAX_PANELS_IN_A_ROW:
        raise ValueError(
            f"ncols must be between 1 and {MAX_PANELS_IN_A_ROW} (panels in one row); got "
            f"{ncols}. Put more panels in further rows."
        )
    if "figsize" in kwargs:
        raise TypeError(
            "subplots sizes the figure for the page; give height=, not figsize="
        )
    if height is None:
        height = {1: 3.6, 2: 3.0, 3: 2.6}[ncols]
    return plt.subplots(nrows, ncols, figsize=(COLUMN_WIDTH, height * nrows), **kwargs)


def _ax(ax):
    return plt.subplots()[1] if ax is None else ax


def grid_2d(X, n: int = 200, margin: float = 0.1):
    """A regular grid covering 2-D data.

    Parameters
    ----------
    X : array_like of shape (n_samples, 2)
    n : int
        Grid points per axis.
    margin : float
        Padding as a fraction of each axis' range.

    Returns
    -------
    xx, yy : ndarray of shape (n, n)
        Meshgrid coordinates, for ``contour(xx, yy, values.reshape(xx.shape))``.
    points : ndarray of shape (n * n, 2)
        The grid as rows, to pass to ``predict_proba``.
    """
    X = check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"X must have 2 columns for a 2-D grid; got shape {X.shape}.")
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = margin * np.where(hi > lo, hi - lo, 1.0)
    xx, yy = np.meshgrid(
        np.linspace(lo[0] - pad[0], hi[0] + pad[0], n),
        np.linspace(lo[1] - pad[1], hi[1] + pad[1], n),
    )
    return xx, yy, np.column_stack([xx.ravel(), yy.ravel()])


def plot_probability_2d(
    proba_fn,
    X,
    y,
    ax=None,
    levels=(0.1, 0.3, 0.5, 0.7, 0.9),
    n=150,
    title=None,
    colorbar=True,
):
    """Contours of P(class 1 | x) over 2-D data, with the 0.5 boundary drawn bold.

    Parameters
    ----------
    proba_fn : callable
        Maps an array of shape (m, 2) to probabilities of class 1, shape (m,).
    X : array_like of shape (n_samples, 2)
    y : array_like of shape (n_samples,)
        0/1 labels, used for the colours of the points.
    ax : Axes, optional
    levels : sequence of float
        Probabilities at which thin contour lines are drawn (0.5 is always drawn, bold).
    n : int
        Grid points per axis (:func:`grid_2d`).
    title : str, optional
    colorbar : bool
        Whether to add a colour bar for P(class 1 | x) beside `ax`. The filled contours always
        use the same 11 levels from 0 to 1, so a slider that redraws into the same (cleared)
        axes makes the colour bar once and passes False afterwards.

    Returns
    -------
    ax : Axes
    """
    ax = _ax(ax)
    xx, yy, pts = grid_2d(X, n=n)
    p = np.asarray(proba_fn(pts)).reshape(xx.shape)
    cs = ax.contourf(xx, yy, p, levels=np.linspace(0, 1, 11), cmap="RdBu_r", alpha=0.35)
    ax.contour(
        xx,
        yy,
        p,
        levels=[lv for lv in levels if lv != 0.5],
        colors="k",
        linewidths=0.6,
        alpha=0.6,
    )
    ax.contour(xx, yy, p, levels=[0.5], colors="k", linewidths=2)
    y = np.asarray(y)
    ax.scatter(
        *np.asarray(X)[y == 1].T, s=14, c=POS_COLOR, edgecolor="k", linewidth=0.3
    )
    ax.scatter(
        *np.asarray(X)[y == 0].T, s=14, c=NEG_COLOR, edgecolor="k", linewidth=0.3
    )
    if title:
        ax.set_title(title)
    if colorbar:
        ax.figure.colorbar(cs, ax=ax, label="P(class 1 | x)")
    return ax


def plot_roc(fpr, tpr, ax=None, label=None, **kwargs):
    """Draw an ROC curve (FPR on x, TPR on y) with the chance diagonal."""
    ax = _ax(ax)
    ax.plot(fpr, tpr, label=label, **kwargs)
    ax.plot([0, 1], [0, 1], ls=":", c="grey", lw=1)
    ax.set(
        xlabel="false-positive rate",
        ylabel="true-positive rate",
        xlim=(-0.02, 1.02),
        ylim=(-0.02, 1.02),
        aspect="equal",
    )
    if label:
        ax.legend(loc="lower right")
    return ax


def plot_confusion(confusion, ax=None, title=None):
    """Draw a 2×2 confusion matrix in the lecture's layout (rows predicted, columns actual)."""
    ax = _ax(ax)
    c = np.asarray(confusion)
    ax.imshow(np.array([[1, 0], [0, 1]]), cmap="Greens", vmin=-1, vmax=3)
    names = [["TP", "FP"], ["FN", "TN"]]
    for i in range(2):
        for j in range(2):
            ax.text(
                j, i, f"{names[i][j]}\n{c[i, j]}", ha="center", va="center", fontsize=12
            )
    ax.set_xticks([0, 1], ["actual +", "actual −"])
    ax.set_yticks([0, 1], ["predicted +", "predicted −"])
    ax.tick_params(length=0)
    if title:
        ax.set_title(title)
    return ax


def plot_operating_point(y_true, y_score, threshold: float, axes=None):
    """ROC curve with the operating point "predict + if score ≥ threshold" and its confusion matrix.

    Returns
    -------
    axes : pair of Axes
    """
    if axes is None:
        _, axes = subplots(1, 2, height=3.6, width_ratios=[1.2, 1])
    fpr, tpr, _ = metrics.roc_curve(y_true, y_score)
    y_pred = np.asarray(y_score) >= threshold
    cm = metrics.confusion_matrix(y_true, y_pred)
    (tp, fp), (fn, tn) = cm
    plot_roc(fpr, tpr, ax=axes[0])
    axes[0].plot(fp / (fp + tn), tp / (tp + fn), "o", ms=10, c=POS_COLOR)
    axes[0].set_title(f"threshold {threshold:.2f}")
    plot_confusion(cm, ax=axes[1], title=f"accuracy {(tp + tn) / cm.sum():.3f}")
    return axes


def image_mosaic(images, image_shape, ncols=None, gap: int = 1):
    """Tile flattened images into one array, row by row, with `gap` NaN pixels between them.

    The array :func:`plot_image_grid` draws; a slider that shows new images in the same place
    passes a new mosaic to the ``set_data`` of the ``AxesImage`` drawn the first time, instead
    of drawing the grid anew.

    Parameters
    ----------
    images : array_like of shape (n, h·w)
        One image per row, e.g. digits or their reconstructions.
    image_shape : tuple (h, w)
    ncols : int, optional
        Images per mosaic row (default: all in one row).
    gap : int
        Pixels between neighbouring images (NaN: drawn in the colour map's "bad" colour).

    Returns
    -------
    mosaic : ndarray of shape (nrows·(h + gap) − gap, ncols·(w + gap) − gap)
        ``nrows = ceil(n / ncols)``; a place in the last row that no image fills is NaN.
    """
    images = np.asarray(images, dtype=float)
    h, w = image_shape
    if images.ndim != 2 or images.shape[1] != h * w:
        raise ValueError(
            f"images must have shape (n, {h * w}) for image_shape {image_shape}; "
            f"got {images.shape}."
        )
    n = len(images)
    ncols = n if ncols is None else ncols
    if ncols < 1:
        raise ValueError(
            f"ncols must be a positive number of images per row; got {ncols}."
        )
    if gap < 0:
        raise ValueError(f"gap must be a number of pixels >= 0; got {gap}.")
    nrows = -(-n // ncols)
    mosaic = np.full((nrows * (h + gap) - gap, ncols * (w + gap) - gap), np.nan)
    for k, img in enumerate(images):
        r, c = divmod(k, ncols)
        mosaic[r * (h + gap) : r * (h + gap) + h, c * (w + gap) : c * (w + gap) + w] = (
            img.reshape(h, w)
        )
    return mosaic


def plot_image_grid(
    images,
    image_shape,
    ncols=None,
    ax=None,
    row_labels=None,
    cmap="gray_r",
    vmin=None,
    vmax=None,
    gap: int = 1,
):
    """Draw flattened images (the rows of `images`) as one mosaic, row by row.

    The images are tiled into a single array (:func:`image_mosaic`) and drawn with one
    ``imshow`` (fast, also when a slider redraws it), separated by `gap` light-grey pixels.

    Parameters
    ----------
    images, image_shape, ncols, gap
        As in :func:`image_mosaic`.
    ax : Axes, optional
    row_labels : sequence of str, optional
        One label per mosaic row, shown on the left.
    vmin, vmax : float, optional
        Grey-scale limits (default: the range of all the images).

    Returns
    -------
    ax : Axes
    """
    mosaic = image_mosaic(images, image_shape, ncols, gap)
    images = np.asarray(images, dtype=float)
    h = image_shape[0]
    nrows = (mosaic.shape[0] + gap) // (h + gap)
    ax = _ax(ax)
    colormap = plt.get_cmap(cmap).with_extremes(bad="0.85")  # light grey gaps
    ax.imshow(
        mosaic,
        cmap=colormap,
        vmin=images.min() if vmin is None else vmin,
        vmax=images.max() if vmax is None else vmax,
    )
    ax.set_xticks([])
    ax.set_yticks(
        [] if row_labels is None else (np.arange(nrows) * (h + gap) + (h - 1) / 2),
        labels=row_labels,
    )
    ax.tick_params(length=0)
    ax.grid(False)  # the house style's grid would cross the images at the row labels
    for side in ax.spines.values():
        side.set_visible(False)
    return ax


def plot_band(
    x,
    mean,
    std,
    ax=None,
    x_train=None,
    y_train=None,
    n_std=2.0,
    label="mean",
    color="tab:blue",
    title=None,
):
    """A 1-D predictive mean with a ±`n_std`·std band, and the training data as crosses.

    Parameters
    ----------
    x : array_like of shape (m,)
        Sorted test inputs.
    mean, std : array_like of shape (m,)
        Predictive mean and standard deviation at `x`.
    x_train, y_train : array_like of shape (n,), optional
        Training data to overlay.
    """
    ax = _ax(ax)
    x, mean, std = (np.ravel(np.asarray(a, dtype=float)) for a in (x, mean, std))
    ax.fill_between(
        x,
        mean - n_std * std,
        mean + n_std * std,
        color=color,
        alpha=0.2,
        lw=0,
        label=f"±{n_std:g} std",
    )
    ax.plot(x, mean, c=color, lw=1.5, label=label)
    if x_train is not None:
        ax.plot(np.ravel(x_train), np.ravel(y_train), "k+", ms=7, mew=1.2, label="data")
    if title:
        ax.set_title(title)
    return ax
