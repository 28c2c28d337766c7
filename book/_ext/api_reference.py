"""What the API reference (book/reference/) needs of autodoc, besides numpydoc.

* Every parameter shows its default, as scikit-learn's pages do: a ``name : type``
  line of a Parameters section that states none gets ``, default=<value>`` from the
  signature (the class's ``__init__`` for a class), so the page and the code cannot
  disagree.
* A class page documents the methods mlcourse defines or inherits from its own bases,
  not those scikit-learn's ``BaseEstimator`` and mixins bring (``get_params``,
  ``set_output``, ``score`` …), whose docstrings are scikit-learn's and link to its
  site.
* The docstrings are plain text with Unicode maths (p(t | α), w*, Σ = WᵀW); their reST
  markup is limited to roles (:func:`…`) and double-backtick literals. Outside those,
  ``|`` and ``*`` become the same-width "∣" and "∗", which reST leaves alone (p(t ∣
  α), w∗), and a name that ends in ``_`` (``coef_``) is escaped, so that reST reads no
  substitutions, emphasis or link targets into them. Doctests and literal blocks are
  left as they are.
"""

from __future__ import annotations

import inspect
import re

_SECTION = re.compile(r"-{3,}")
# a role (:func:`name`) or a literal (``code``): kept whole
_MARKUP = re.compile(r"(:[\w:]+:`[^`]*`|``[^`]+``|`[^`]+`_?)")
_PARAM = re.compile(r"^(\w+)(?:\s*:\s*(.*))?$")


def _format(value) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, float):
        return re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", repr(value))  # 1e-06 -> 1e-6
    return repr(value)


def _plain(text: str, table: bool) -> str:
    """`text` with reST's inline markup characters defused (see the module docstring); a
    leading "* " stays a list's bullet."""
    bullet = re.match(r"\s*\* ", text)
    if bullet:
        return bullet.group(0) + _plain(text[bullet.end() :], table)
    parts = _MARKUP.split(text)
    for i in range(0, len(parts), 2):  # the text between roles and literals
        part = parts[i].replace("|", "∣").replace("*", "∗")
        if not table:
            part = re.sub(r"(\w)_(?=[\s,.;:)\]}]|$)", r"\1\\_", part)
        parts[i] = part
    return "".join(parts)


def plain_text(app, what, name, obj, options, lines):
    """Defuse reST markup in the docstring's prose (not in doctests, literal blocks)."""
    literal_indent = None  # inside a literal block: the indentation of its "::" line
    doctest = False
    table = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if stripped and indent <= literal_indent:
                literal_indent = None
            else:
                continue
        if stripped.startswith(">>>"):
            doctest = True
        if doctest:
            doctest = bool(stripped)
            continue
        if re.fullmatch(r"=+( +=+)+", stripped):  # a simple table's border: the table
            table = True  # runs to the next blank line
            continue
        table = table and bool(stripped)
        lines[i] = _plain(line, table)
        if stripped.endswith("::"):
            literal_indent = indent


def add_defaults(app, what, name, obj, options, lines):
    """``name : type`` → ``name : type, default=value`` in Parameters sections."""
    if what not in ("class", "exception", "function", "method"):
        return
    try:
        target = obj.__init__ if what in ("class", "exception") else obj
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return
    defaults = {
        p.name: p.default
        for p in signature.parameters.values()
        if p.default is not inspect.Parameter.empty
    }
    in_parameters = False
    for i, line in enumerate(lines):
        header = i + 1 < len(lines) and _SECTION.fullmatch(lines[i + 1].strip())
        if line.strip() and header:
            in_parameters = line.strip() in ("Parameters", "Other Parameters")
            continue
        if not in_parameters or not line or line[0].isspace():
            continue
        match = _PARAM.match(line)
        if match is None or match.group(1) not in defaults:
            continue
        kind = match.group(2) or ""
        if "default" in kind.lower():
            continue
        shown = f"default={_format(defaults[match.group(1)])}"
        lines[i] = f"{match.group(1)} : {kind + ', ' if kind else ''}{shown}"


def skip_scikit_learn_members(app, what, name, obj, skip, options):
    """Leave out what scikit-learn's base classes define."""
    target = obj.fget if isinstance(obj, property) else getattr(obj, "fn", obj)
    module = getattr(target, "__module__", None) or ""
    if module.startswith("sklearn"):
        return True
    return None


def setup(app):
    # before numpydoc (priority 500) turns the sections into reST
    app.connect("autodoc-process-docstring", plain_text, priority=300)
    app.connect("autodoc-process-docstring", add_defaults, priority=400)
    app.connect("autodoc-skip-member", skip_scikit_learn_members)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
