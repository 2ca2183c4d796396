"""The batch pool (solver.commands.batch.ordered_map, --jobs N): answers in order, every line
answered, work shared among the workers however few the lines."""

from __future__ import annotations

import os
import time

from solver.commands.batch import ordered_map


def test_a_pool_shares_a_few_slow_lines_among_its_workers():
    """Chunks start at one item and grow to about 50 ms of work once items are timed: four slow
    lines used to go in one chunk of eight, to one worker, the other idle."""

    def slow(item):
        time.sleep(0.3)
        return item, os.getpid()

    answers = list(ordered_map(slow, range(4), jobs=2))
    assert [item for item, _ in answers] == [0, 1, 2, 3]
    assert len({pid for _, pid in answers}) == 2


def test_a_pool_keeps_the_order_of_many_quick_lines():
    answers = list(ordered_map(lambda item: item * item, range(500), jobs=2))
    assert answers == [item * item for item in range(500)]


def test_a_line_that_kills_its_worker_is_answered_and_the_rest_go_on():
    def fatal(item):
        if item == 2:
            os._exit(1)  # as the kernel's out-of-memory killer would end it
        return item

    answers = list(ordered_map(fatal, range(6), jobs=2, died=lambda item: ("died", item)))
    assert answers == [0, 1, ("died", 2), 3, 4, 5]
