"""melds replay's command line as a new user meets it: ``--dask`` before a folder takes the
folder as a log, a scheduler is named with ``--dask=ADDRESS`` or ``--scheduler``, and the summary
table's columns line up with Japanese names in them (a wide character takes two cells)."""

from __future__ import annotations

import unicodedata

from solver.commands.replay import replay_cmd
from solver.core.replay import GameReport, HandReport, Summary
from solver.present.replay import hand_lines, summary_lines


def _params(*args: str) -> dict:
    return replay_cmd.make_context("replay", list(args)).params


def test_dask_alone_is_a_local_cluster_and_leaves_the_folder_a_log():
    params = _params("--dask", "records/")
    assert params["logs"] == ("records/",)
    assert params["local_dask"] is True and params["scheduler"] is None


def test_a_scheduler_is_named_with_an_equals_sign_or_its_own_option():
    assert _params("--dask=tcp://127.0.0.1:8786", "records/")["scheduler"] == "tcp://127.0.0.1:8786"
    assert _params("--dask=tcp://127.0.0.1:8786", "records/")["logs"] == ("records/",)
    params = _params("records/", "--scheduler", "127.0.0.1:8786", "more/")
    assert params["scheduler"] == "127.0.0.1:8786" and params["logs"] == ("records/", "more/")


def _cells(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def test_the_summary_columns_line_up_with_wide_names():
    summary = Summary(files=1)
    report = GameReport("x.json", "tenhou-json")
    for tags in [("立直", "断ヤオ九"), ("門前清模和",), ("dora",), ("役牌 場風", "一気通貫")]:
        report.hands.append(HandReport("東1局 0本場", tags=tags))
    summary.add(report)
    rows = summary_lines(summary)
    table = rows[rows.index("") + 1 :]
    ends = {_cells(line) for line in table}
    assert len(ends) == 1, table  # every row as wide as the header, as a terminal draws it
    hands = {_cells(line[: line.index(" 1 ") + 2]) for line in table[1:]}  # the first count column's end
    assert hands == {_cells(table[0][: table[0].index("hands") + 5])}, table
    head, values = rows[0], rows[1]
    assert _cells(head) == _cells(values)


def test_a_hand_line_pads_its_round_name_by_cells():
    lines = [hand_lines(HandReport(name, deltas=[0, 0, 0, 0]))[0] for name in ("東1局 0本場", "hand 3")]
    assert len({_cells(line[: line.index("agree")]) for line in lines}) == 1, lines
