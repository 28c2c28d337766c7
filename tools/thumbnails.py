"""The landing page's chapter thumbnails, made from the chapters' own figures.

Each chapter marks one figure cell with the cell tag ``thumbnail``. This tool takes the first
PNG that cell stored (the figure the chapter computed when it was last run), shrinks it by a
whole factor, averaging each ``k x k`` block of pixels (no resampling library, so the result
is the same on every machine), until it fits ``BOX``, and writes it to
``book/images/thumbnails/<chapter>.png``, where ``book/intro.md`` shows it at its natural size.
``tests/test_book.py`` checks that every thumbnail matches its chapter's stored figure.

Usage::

    python tools/thumbnails.py            # write the thumbnails of every chapter in _toc.yml
    python tools/thumbnails.py --check    # only say which are missing or stale (exit 1)
"""

from __future__ import annotations

import base64
import io
import json
import math
import sys
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "book" / "images" / "thumbnails"
TAG = "thumbnail"
BOX = (
    420,
    240,
)  # width, height in pixels: a card of the landing page's two-column grid


def chapters() -> list[Path]:
    """The notebooks of _toc.yml's "Chapters" part, in order."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    part = next(p for p in toc["parts"] if p.get("caption") == "Chapters")
    return [ROOT / f"{c['file']}.ipynb" for c in part["chapters"]]


def tagged_png(nb: dict, name: str = "notebook") -> bytes:
    """The first PNG stored by the one code cell tagged ``thumbnail``."""
    cells = [
        c
        for c in nb["cells"]
        if c["cell_type"] == "code" and TAG in c.get("metadata", {}).get("tags", [])
    ]
    if len(cells) != 1:
        raise ValueError(
            f"{name}: {len(cells)} code cells are tagged {TAG!r}; tag exactly one figure cell"
        )
    for out in cells[0].get("outputs", []):
        png = out.get("data", {}).get("image/png")
        if png:
            return base64.b64decode(png if isinstance(png, str) else "".join(png))
    raise ValueError(
        f"{name}: the cell tagged {TAG!r} has no stored PNG figure; run it"
    )


def read_png(data: bytes) -> np.ndarray:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as im:
        return np.asarray(im.convert("RGBA"))


def shrink(pixels: np.ndarray, box: tuple[int, int] = BOX) -> np.ndarray:
    """Average `pixels` (height x width x channels, uint8) over k x k blocks, with the smallest
    whole k that makes it fit `box`; the right and bottom edges left over are dropped."""
    h, w = pixels.shape[:2]
    k = max(1, math.ceil(max(w / box[0], h / box[1])))
    h, w = h // k * k, w // k * k
    blocks = pixels[:h, :w].astype(np.float64).reshape(h // k, k, w // k, k, -1)
    return np.rint(blocks.mean(axis=(1, 3))).astype(np.uint8)


def thumbnail(path: Path) -> np.ndarray:
    """The thumbnail of the chapter notebook at `path`, as RGBA pixels."""
    nb = json.loads(path.read_text())
    return shrink(read_png(tagged_png(nb, path.name)))


def target(path: Path) -> Path:
    return OUT / f"{path.stem}.png"


def write(path: Path) -> Path:
    from PIL import Image

    OUT.mkdir(parents=True, exist_ok=True)
    Image.fromarray(thumbnail(path)).save(target(path), optimize=True)
    return target(path)


def is_current(path: Path) -> bool:
    return target(path).exists() and np.array_equal(
        read_png(target(path).read_bytes()), thumbnail(path)
    )


def main(args: list[str]) -> int:
    stale = [p for p in chapters() if not is_current(p)]
    if "--check" in args:
        for p in stale:
            print(
                f"{target(p).relative_to(ROOT)} is missing or stale: python tools/thumbnails.py"
            )
        return 1 if stale else 0
    for p in stale:
        print(f"wrote {write(p).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
