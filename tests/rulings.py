"""Helpers for the rulings tests: melds through the command line, and a game played on through
`melds move`, each state written to a file and read back the way a user's script would."""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from clirun import run


def cli_json(*args):
    """(exit code, JSON) of melds ARGS --json."""
    result = run(*args, "--json")
    return result.exit_code, json.loads(result.stdout)  # an error's message goes to stderr as well


def write_state(folder: Path, name: str, data: dict) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump({"format": 1, **data}, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


class Play:
    """A game played on with melds move: each legal action's state becomes the next state file."""

    def __init__(self, folder: Path, state: dict):
        self.folder = folder
        self.steps = 0
        self.path = write_state(folder, "state0", state)

    def judge(self, action: str) -> dict:
        code, data = cli_json("move", str(self.path), action)
        assert code in (0, 1), data
        return data

    def legal(self, action: str) -> bool:
        return self.judge(action)["legal"]

    def do(self, action: str) -> dict:
        data = self.judge(action)
        assert data["legal"], (action, data["reasons"])
        self.steps += 1
        self.path = write_state(self.folder, f"state{self.steps}", data["state"])
        return data["state"]

    def moves(self) -> list[str]:
        code, data = cli_json("moves", str(self.path))
        assert code == 0, data
        return data["actions"]
