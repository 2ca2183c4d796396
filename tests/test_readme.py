"""The README's claims hold: its set-up block is what CI runs, and its examples are real output."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from clirun import runner

from cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def examples():
    """($ command, expected output) pairs from the README's ```text blocks."""
    for block in re.findall(r"```text\n(.*?)```", README, flags=re.S):
        for chunk in re.split(r"\n(?=\$ )", block.strip()):
            command, _, output = chunk.partition("\n")
            yield command[2:], output.rstrip()


def test_readme_opens_with_the_two_setup_commands():
    first_block = re.search(r"```sh\n(.*?)```", README, flags=re.S).group(1).strip().splitlines()
    assert first_block[0].startswith("pip install -e . && melds ")
    assert first_block[1].startswith("pip install -e '.[test]' && pytest")
    assert README.index("```sh") < 20


@pytest.mark.parametrize("command,expected", list(examples()))
def test_readme_examples_are_real_output(command, expected):
    args = shlex.split(command)
    assert args[0] == "melds"
    result = runner().invoke(main, args[1:])
    assert result.output.rstrip() == expected
