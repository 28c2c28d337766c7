"""Every chapter's sliders work in a live kernel: each move redraws its figure, with no error.

Each notebook in ``book/`` (found, not listed: a new chapter is covered when it lands) runs top to
bottom in a fresh kernel, as *Run All* in JupyterLab does (``tools/profile_notebooks.py``).
Right after each cell that makes sliders (``mlcourse.widgets.interact``, in a cell tagged
``remove-cell``), every slider is set to a value at 3/4 of its range, then 1/4, then back to
where it was, as a reader dragging it would; each move must display a new figure and raise
nothing. The test prints, per move, the time from the move to the new figure in the kernel (the
redraw and the PNG rendering included) and the notebook's Run All profile; it asserts nothing
about time (speed is the benchmarks' business, and this machine may be busy).

It runs every chapter, so it is marked ``sliders`` and deselected by default; CI runs it apart:

    pytest -m sliders tests/test_sliders.py -rP        # -rP prints the times
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import profile_notebooks  # noqa: E402

NOTEBOOKS = sorted((ROOT / "book").glob("*.ipynb"))

# How many widgets mlcourse.widgets.interact has made so far in the kernel.
COUNT = "len(__import__('mlcourse.widgets', fromlist=['made']).made())"

# Defined in the kernel before the first move: sets control j of widget i to the point `where` of
# its range (a fraction; another one if the control is there already), or with None back to its
# value before the first move, and returns the seconds the move took to redraw, wall and CPU (the
# observers run synchronously, inside the assignment), or None if there was nothing to move.
MOVE = """
def _slider_test_move(i, j, where, _start={}):
    import time
    from mlcourse.widgets import made
    s = made()[i].kwargs_widgets[j]
    start = _start.setdefault((i, j), s.value)

    def value_at(f):
        if hasattr(s, "options"):                     # a dropdown: another option
            option = s.options[int(f * (len(s.options) - 1) + 0.5)]
            return option[1] if isinstance(option, tuple) else option
        if isinstance(s.value, bool):                 # a checkbox: flip it
            return not s.value
        x = s.min + round(f * (s.max - s.min) / s.step) * s.step    # on the slider's grid
        return s.base ** x if hasattr(s, "base") else type(s.value)(x)

    if where is None:
        value = start
    else:                       # the first of these points of the range that moves the control
        value = next((v for v in map(value_at, (where, 1 - where, 0.5, 0.0, 1.0))
                      if v != s.value), s.value)
    if value == s.value:
        return None                                   # nothing to move (back where it started)
    t0, c0 = time.perf_counter(), time.process_time()
    s.value = value
    return (time.perf_counter() - t0, time.process_time() - c0, s.description or f"control {j}",
            str(value))
"""
MOVES = (0.75, 0.25, None)


@pytest.mark.sliders
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_slider_redraws(path):
    made, lines, failures = [0], [], []

    def move_sliders(kernel, index, source):
        n = int(kernel.run("pass", user_expressions={"n": COUNT}).expression("n"))
        assert n > made[0] or "interact(" not in source, (
            f"cell {index} calls interact( but mlcourse.widgets.interact made no widget: "
            f"make sliders with mlcourse.widgets.interact so that this test can drive them"
        )
        if n == made[0]:
            return
        assert kernel.run(MOVE).error is None
        for i in range(made[0], n):
            n_controls = int(
                kernel.run(
                    "pass",
                    user_expressions={
                        "c": (
                            f"len(__import__('mlcourse.widgets', fromlist=['made']).made()[{i}]"
                            f".kwargs_widgets)"
                        )
                    },
                ).expression("c")
            )
            for j in range(n_controls):
                for where in MOVES:
                    reply = kernel.run(
                        "pass",
                        user_expressions={"m": f"_slider_test_move({i}, {j}, {where})"},
                    )
                    if reply.user_expressions["m"].get("status") != "ok":
                        failures.append(
                            f"cell {index}, control {j}: "
                            f"{reply.user_expressions['m'].get('evalue')}"
                        )
                        continue
                    moved = ast.literal_eval(reply.expression("m"))
                    if moved is None:
                        continue
                    seconds, cpu, name, value = moved
                    errors = [
                        m["content"]["evalue"]
                        for m in reply.outputs
                        if m["msg_type"] == "error"
                    ]
                    figures = reply.count("image/png")
                    lines.append(
                        f"  cell {index:>3} {name:<12} -> {value:<10.10} "
                        f"{seconds * 1e3:7.1f} ms ({cpu * 1e3:5.0f} ms CPU), "
                        f"{figures} figure(s)"
                    )
                    if errors or figures == 0:
                        failures.append(
                            f"cell {index}, {name} = {value}: "
                            + (f"raised {errors}" if errors else "no new figure")
                        )
        made[0] = n

    result = profile_notebooks.profile(path, after_cell=move_sliders)
    print(profile_notebooks.report(result, top=5, budget=10.0))
    print(f"{path.name}: slider moves (from the move to the new figure, in the kernel)")
    print("\n".join(lines) if lines else "  (no sliders)")
    assert result.error is None, f"{path.name}: {result.error}"
    assert not failures, "\n".join(failures)
