"""Serve MathJax from the built site itself, so math renders with no network.

Sphinx loads MathJax from a CDN by default. This extension takes the MathJax 3 files
shipped by the PyPI package ``sphinx-mathjax-offline`` (installed from requirements.txt,
nothing is downloaded at build time), copies them to ``<site>/mathjax/`` through
``html_extra_path`` and points ``mathjax_path`` at them.

They are deliberately *not* put in a ``_static/`` source folder: Jupyter Book injects
every ``.js`` file found there into every page.
"""

from importlib import metadata
from pathlib import Path

BUNDLE = (
    "tex-chtml.js"  # TeX input, HTML-CSS output; fonts and extensions load next to it
)


def mathjax_dir() -> Path:
    """The installed folder that holds ``mathjax/tex-chtml.js``."""
    dist = metadata.distribution("sphinx-mathjax-offline")
    for f in dist.files or ():
        if f.name == BUNDLE and f.parent.name == "mathjax":
            return Path(dist.locate_file(f)).parent
    raise RuntimeError("sphinx-mathjax-offline is installed without its MathJax files.")


def _configure(app, config):
    source = mathjax_dir()
    config.html_extra_path = [
        *config.html_extra_path,
        str(source.parent),
    ]  # -> <site>/mathjax/
    # relative paths are resolved against <site>/_static/
    config.mathjax_path = f"../{source.name}/{BUNDLE}"


def setup(app):
    app.connect("config-inited", _configure)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
