"""The API reference (book/reference/, written by tools/reference_pages.py): every public name has
its page and the pages on disk are what the tool writes; the table of contents holds every
module's page; every estimator's docstring has an Examples section (pytest runs them as
doctests, ``--doctest-modules``) and documents each of its parameters."""

import inspect
import re
import sys
from pathlib import Path

import pytest
import yaml

from mlcourse.utils.discovery import all_estimators

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import reference_pages  # noqa: E402


def test_reference_pages_are_up_to_date():
    want = reference_pages.pages()
    have = {p: p.read_text() for p in reference_pages.OUT.rglob("*.md")}
    stale = sorted(str(p.relative_to(ROOT)) for p in want if have.get(p) != want[p])
    extra = sorted(str(p.relative_to(ROOT)) for p in have if p not in want)
    assert not stale and not extra, (
        f"run `python tools/reference_pages.py`: stale or missing {stale}, extra {extra}"
    )


def test_every_public_name_has_a_page():
    table = reference_pages.collect()
    for mod, rows in table.items():
        for name, _, home, _ in rows:
            assert (reference_pages.OUT / home / f"{name}.md").exists(), f"{mod}.{name}"


def test_the_table_of_contents_lists_every_module_page():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    part = next(p for p in toc["parts"] if p["caption"] == "Reference")
    index = part["chapters"][0]
    assert index["file"] == "book/reference/index"
    listed = [s["file"] for s in index["sections"]]
    assert listed == [f"book/reference/{m}" for m in reference_pages.MODULES]
    for section in index["sections"]:
        assert section["sections"] == [{"glob": section["file"] + "/*"}]


def test_the_chapters_linked_back_exist():
    for nb in {
        **reference_pages.DERIVED_IN,
        **reference_pages.DERIVED_IN_NAME,
    }.values():
        assert (ROOT / "book" / f"{nb}.ipynb").exists(), nb
    for nb in reference_pages.FIRST_USED_IN.values():
        assert (ROOT / "book" / f"{nb}.ipynb").exists(), nb


@pytest.mark.parametrize("name, cls", all_estimators(), ids=lambda x: str(x))
def test_estimator_docstring_has_examples_and_every_parameter(name, cls):
    doc = inspect.getdoc(cls)
    assert re.search(r"^Examples\n-{8}\n\n?>>> ", doc, re.M), (
        f"{name}: no Examples section"
    )
    params = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    section = doc.split("Parameters\n----------\n", 1)[-1]
    documented = set(re.findall(r"^(\w+)(?:,\s*\w+)*\s*:", section, re.M))
    documented |= {
        n
        for line in re.findall(r"^([\w, ]+) :", section, re.M)
        for n in re.split(r",\s*", line)
    }
    missing = [p for p in params if p not in documented]
    assert not missing, f"{name}: parameters without a docstring entry: {missing}"
