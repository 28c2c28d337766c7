"""Emit each inline ``<script>`` once per page (a workaround for a Sphinx < 8.2.2 bug).

``app.add_js_file(None, body=...)`` called after the HTML builder is initialised
(sphinx-thebe does it in ``env-before-read-docs``, sphinx-togglebutton in
``builder-inited``) hands the builder the filename ``None``; when the builder later
re-adds the registered files before writing, it passes ``''`` instead. ``None != ''``,
so its duplicate check misses and the script appears twice in every page. Twice ``const
THEBE_JS_URL = ...`` is a JavaScript error in the browser (``Uncaught SyntaxError:
Identifier 'THEBE_JS_URL' has already been declared``).

Sphinx fixed this upstream (sphinx-doc/sphinx#13402: ``None`` becomes ``''`` before it
reaches the builder); Jupyter Book 1.x pins Sphinx < 8. This extension applies the same
normalisation to the builder's ``add_js_file``; with a fixed Sphinx it changes nothing.
"""


def _normalise_inline_scripts(app):
    add = getattr(app.builder, "add_js_file", None)
    if add is None:  # not an HTML builder
        return

    def add_js_file(filename, **kwargs):
        add(filename or "", **kwargs)

    app.builder.add_js_file = add_js_file


def setup(app):
    # before the extensions' own builder-inited handlers (priority 500) add scripts
    app.connect("builder-inited", _normalise_inline_scripts, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
