"""Every exercise's checker: the reference passes, each catalogued mistake is named, generic
wrong answers are rejected with a message that says what differs, equivalent answers pass, and
nothing a student's function does escapes ``check``."""

import json
import linecache
from pathlib import Path

import numpy as np
import pytest

from mlcourse import exercises
from mlcourse.exercises import EXERCISES, Exercise, Feedback, check

ROOT = Path(__file__).resolve().parents[2]
NAMES = sorted(EXERCISES)


def wrap(exercise, transform):
    """An answer: the reference's result passed through `transform` (applied to the first
    part of a tuple result, the others unchanged)."""

    def answer(*args):
        result = exercise.reference(*args)
        if len(exercise.outputs) > 1:
            return (transform(np.asarray(result[0], float)), *result[1:])
        return transform(np.asarray(result, float))

    return answer


def first_part(exercise, args):
    result = exercise.reference(*args)
    return np.asarray(result[0] if len(exercise.outputs) > 1 else result, float)


# --- layout and contract -------------------------------------------------------------------


def test_public_names():
    assert exercises.__all__ == ["EXERCISES", "Exercise", "Feedback", "check"]


@pytest.mark.parametrize("name", NAMES)
def test_contract(name):
    ex = EXERCISES[name]
    assert isinstance(ex, Exercise) and ex.name == name
    assert (ROOT / "book" / f"{ex.chapter}.ipynb").exists(), ex.chapter
    assert ex.prompt and "\n" not in ex.prompt and len(ex.prompt) <= 100
    assert ex.prompt.endswith(".")
    assert len(ex.mistakes) >= 1
    assert len({m.message for m in ex.mistakes}) == len(ex.mistakes)
    assert ex.reference.__doc__ and "Parameters" in ex.reference.__doc__
    assert "Returns" in ex.reference.__doc__
    assert len(ex.cases) >= 3
    assert ex.section, "a section label to point the reader at"
    for case in ex.cases:
        assert len(case.args) == len(ex.parameters)


def test_every_chapter_has_two_coding_exercises():
    chapters = {p.stem for p in (ROOT / "book").glob("*.ipynb")} - {"sklearn"}
    count = {c: 0 for c in chapters}
    for ex in EXERCISES.values():
        count[ex.chapter] += 1
    assert all(n >= 2 for n in count.values()), count


def test_section_labels_exist_in_their_chapter():
    for ex in EXERCISES.values():
        nb = json.loads((ROOT / "book" / f"{ex.chapter}.ipynb").read_text())
        text = "".join("".join(c["source"]) for c in nb["cells"])
        assert f"({ex.section})=" in text, (ex.name, ex.section)


# --- the reference, the mistakes -----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_reference_passes(name):
    ex = EXERCISES[name]
    feedback = ex.check(ex.reference)
    assert feedback.correct, feedback
    assert feedback.status == "correct"
    assert repr(feedback).startswith(f"✓ {name}: correct on all {len(ex.cases)} cases")


@pytest.mark.parametrize(
    "name, k",
    [(name, k) for name in NAMES for k in range(len(EXERCISES[name].mistakes))],
)
def test_each_mistake_is_named(name, k):
    ex = EXERCISES[name]
    mistake = ex.mistakes[k]
    feedback = ex.check(mistake.function)
    assert not feedback.correct
    assert mistake.message in feedback.message, feedback
    assert feedback.inputs is not None and set(feedback.inputs) == set(ex.parameters)


# --- generic wrong answers -----------------------------------------------------------------


GENERIC = {
    "scaled by 1 + 1e-3": lambda a: a * (1 + 1e-3),
    "shifted": lambda a: a + 1e-3 * (1 + np.abs(a[np.isfinite(a)]).max()),
    "negated": lambda a: -a,
    # a matrix transposed; a vector as a column (N, 1) instead of (N,)
    "transposed": lambda a: a.T if a.ndim != 1 else a.reshape(-1, 1),
    "one entry too many": lambda a: np.r_[a.ravel(), 0.0],
}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("kind", list(GENERIC))
def test_generic_wrong_answers_are_rejected(name, kind):
    ex = EXERCISES[name]
    transform = GENERIC[kind]
    parts = [first_part(ex, case.args) for case in ex.cases]
    if kind == "transposed" and all(
        p.ndim == 0 or (p.ndim == 2 and np.allclose(p, p.T, rtol=1e-10, atol=0))
        for p in parts
    ):
        pytest.skip("no case has a vector or a non-symmetric matrix result")
    if kind == "negated" and name in SIGN_FREE:
        pytest.skip("the result is defined only up to sign")
    if kind == "negated" and all(np.all(p == 0) for p in parts):
        pytest.skip("zero results")
    feedback = ex.check(wrap(ex, transform))
    assert not feedback.correct, feedback
    assert feedback.status == "wrong"
    assert "wrong on case" in feedback.message


# Exercises whose result is defined only up to the sign of a direction: a negated answer is
# right (the checker aligns signs before comparing).
SIGN_FREE = {"pca-directions", "pls-direction", "ppca-ml"}


@pytest.mark.parametrize("name", NAMES)
def test_negated_is_accepted_where_the_sign_is_free(name):
    if name not in SIGN_FREE:
        pytest.skip("the sign matters")
    ex = EXERCISES[name]
    assert ex.check(wrap(ex, lambda a: -a)).correct


@pytest.mark.parametrize("name", NAMES)
def test_generic_messages_say_what_differs(name):
    ex = EXERCISES[name]
    scaled = ex.check(wrap(ex, lambda a: a * 1.5)).message
    named = any(m.message in scaled for m in ex.mistakes)
    assert "constant factor: 1.5" in scaled or ", expected " in scaled or named, scaled
    wrong_shape = ex.check(wrap(ex, lambda a: np.r_[a.ravel(), 0.0])).message
    assert "has shape" in wrong_shape, wrong_shape


@pytest.mark.parametrize("name", NAMES)
def test_none_exceptions_and_the_starter(name):
    ex = EXERCISES[name]
    params = ", ".join(ex.parameters)
    namespace = {"np": np}
    # a real file name, so that the traceback can show the student's line (as in a notebook)
    source = (
        f"def starter({params}):\n"
        '    """The docstring."""\n'
        "    ...\n"
        f"def forgot({params}):\n"
        "    result = 1.0\n"
        f"def raises({params}):\n"
        "    x = np.ones(3)\n"
        "    return x @ np.ones(4)\n"
        f"def placeholder({params}):\n"
        "    return ...\n"
    )
    filename = f"<student cell {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)

    starter = ex.check(namespace["starter"])
    assert starter.message == "not attempted yet" and not starter.correct
    assert repr(starter) == f"○ {name}: not attempted yet"
    assert starter.status == "not attempted"

    forgot = ex.check(namespace["forgot"])
    assert not forgot.correct and "returned None" in forgot.message
    assert "no `return` statement" in forgot.message
    assert "line 5, in forgot:\n    result = 1.0" in forgot.message

    raised = ex.check(namespace["raises"])
    assert not raised.correct
    assert "raised ValueError" in raised.message
    assert (
        "return x @ np.ones(4)" in raised.message
        and "line 8, in raises" in raised.message
    )
    assert "site-packages" not in raised.message and "mlcourse" not in raised.message

    dots = ex.check(namespace["placeholder"])
    assert not dots.correct and "`...` (Ellipsis)" in dots.message
    assert "return ..." in dots.message


@pytest.mark.parametrize("name", NAMES)
def test_lists_instead_of_arrays_are_accepted(name):
    ex = EXERCISES[name]

    def as_lists(*args):
        result = ex.reference(*args)
        if len(ex.outputs) > 1:
            return [np.asarray(r).tolist() for r in result]
        return np.asarray(result).tolist()

    assert ex.check(as_lists).correct


def test_students_mutating_inputs_do_not_change_the_cases():
    ex = EXERCISES["irls-step"]

    def vandal(Phi, t, w):
        result = ex.reference(Phi, t, w)
        Phi[:] = 0
        w[:] = np.nan
        return result

    assert ex.check(vandal).correct
    assert ex.check(ex.reference).correct


# --- nothing escapes -----------------------------------------------------------------------


class Strange(Exception):
    pass


@pytest.mark.parametrize(
    "answer",
    [
        lambda *a: (_ for _ in ()).throw(SystemExit(3)),
        lambda *a: (_ for _ in ()).throw(Strange()),
        lambda *a: "a string",
        lambda *a: {"a": 1},
        lambda *a: np.array([1 + 2j]),
        lambda *a: [[1, 2], [3]],
        lambda *a: object(),
        lambda: 1,  # wrong number of parameters
    ],
)
def test_nothing_escapes(answer):
    for ex in (EXERCISES["irls-step"], EXERCISES["rvm-posterior"]):
        feedback = ex.check(answer)
        assert isinstance(feedback, Feedback) and not feedback.correct
        assert feedback.status == "wrong"


def test_a_non_callable_and_an_unknown_name():
    feedback = EXERCISES["irls-step"].check(np.zeros(3))
    assert not feedback.correct and "your function itself" in feedback.message
    feedback = check("no-such-exercise", lambda: 0)
    assert not feedback.correct and "irls-step" in feedback.message


def test_a_bug_in_the_checker_is_reported_as_such():
    ex = EXERCISES["irls-step"]

    def broken_reference(*args):
        raise ZeroDivisionError("inside the reference")

    from dataclasses import replace

    broken = replace(ex, reference=broken_reference)
    feedback = broken.check(ex.reference)
    assert not feedback.correct and feedback.status == "checker failed"
    assert "checker itself failed" in feedback.message
    assert repr(feedback).startswith("⚠ irls-step:")


def test_check_by_name_is_the_method():
    ex = EXERCISES["auc-mann-whitney"]
    assert repr(check("auc-mann-whitney", ex.reference)) == repr(ex.check(ex.reference))


# --- the display ---------------------------------------------------------------------------


def test_feedback_displays_in_jupyter_and_as_text():
    ex = EXERCISES["irls-step"]
    good = ex.check(ex.reference)
    bad = ex.check(ex.mistakes[1].function)
    assert bool(good) and not bool(bad)
    assert all(len(line) <= 88 for line in repr(bad).splitlines())
    html = bad._repr_html_()
    assert html.startswith('<div class="mlcourse-feedback') and "&lt;" not in repr(bad)
    assert "weighting matrix R" in html
    # deterministic: the same text every time (nbval compares it)
    assert repr(ex.check(ex.reference)) == repr(good)
