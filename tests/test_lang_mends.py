"""Messages and findings mended (issue 46): the true reason a group's cards are not distinct, an
ambiguity: rule with no source (no gap for the audit), impossible wild counts and hands larger
than the deal allows, refused with where they are."""

from __future__ import annotations

import json
import textwrap

import pytest
from clirun import run

from solver.audit.run import audit_ruleset
from solver.core.errors import SchemaError
from solver.core.ruleset import load_ruleset


def _reasons(*cards: str, options: tuple[str, ...] = ()) -> list[dict]:
    out = run("check", "-r", "basic-rummy", *options, *cards, "--json")
    return json.loads(out.output)["reasons"]


def test_two_hearts_in_a_group_are_named_as_such():
    """H4 S7 H6 is no group for its ranks and for its suits: the two hearts are named, not 'two
    cards would be the same card' (no two cards there would be)."""
    messages = [r["message"] for r in _reasons("H4", "S7", "H6") if r["code"] == "duplicate-identity"]
    assert messages == ["a グループ (group) needs a different suit for each card; H4 and H6 are both H"]


def test_two_cards_on_one_place_of_a_sequence_are_named():
    messages = [r["message"] for r in _reasons("H4", "S4", "H6") if r["kind"] == "sequence"]
    assert "a シークエンス (sequence) has one card in each place; H4 and S4 would stand in one place (H4 / S4)" in (
        messages
    )


def test_a_true_duplicate_still_names_the_card():
    messages = [r["message"] for r in _reasons("H4", "D4", "H4", options=("-o", "decks=2"))]
    assert messages == ["as a グループ (group): H4 and H4 would both be H4"]


def _child(tmp_path, extra: str):
    path = tmp_path / "planted.yaml"
    path.write_text(
        "format: 1\nid: planted\nname: planted\nextends: basic-rummy\n" + textwrap.dedent(extra), encoding="utf-8"
    )
    return path


TWO_GROUPS = """
melds:
  - {id: group, name: グループ, family: group, shape: group, size: {min: 3, max: 4}, roles: [natural],
     source: {quote: 3枚か4枚の同じランクのカードです。}}
  - {id: trio, name: trio, family: trio, shape: group, size: {min: 3, max: 3}, roles: [natural],
     source: {quote: 3枚か4枚の同じランクのカードです。}}
"""


@pytest.mark.parametrize("ambiguity", ["ambiguity: {rule: prefer}\n", "ambiguity: {rule: reject}\n"])
def test_an_ambiguity_rule_without_a_source_is_no_gap(tmp_path, ambiguity):
    """Stated without a source, the rule still decides such melds: the audit's ambiguity search
    reports no gap (it did, as if the section were missing)."""
    rs = load_ruleset(str(_child(tmp_path, TWO_GROUPS + ambiguity)))
    assert not [f for f in audit_ruleset(rs).findings if "/ambiguous/" in f.id]
    missing = load_ruleset(str(_child(tmp_path, TWO_GROUPS)))
    assert [f.id for f in audit_ruleset(missing).findings if "/ambiguous/" in f.id] == ["planted/ambiguous/group+trio"]


@pytest.mark.parametrize(
    ("wilds", "roles", "message"),
    [
        ("{min: 5}", "[natural, wild]", "wilds.min 5: a グループ (group) has at most 4 cards"),
        ("{min: 2, max: 1}", "[natural, wild]", "wilds.min 2 is more than wilds.max 1"),
        ("{min: 1}", "[natural]", "wilds.min 1: no role of a グループ (group) is wild"),
    ],
)
def test_impossible_wild_counts_are_refused_with_file_and_line(tmp_path, wilds, roles, message):
    path = _child(
        tmp_path,
        f"""
        roles:
          - {{id: natural, classes: [card], suit: own, rank: own}}
          - {{id: wild, classes: [card], wild: true, suit: [S, H, D, C], rank: [A, "2..10", J, Q, K]}}
        melds:
          - id: group
            name: グループ
            name_en: group
            shape: group
            size: {{min: 3, max: 4}}
            roles: {roles}
            wilds: {wilds}
        """,
    )
    with pytest.raises(SchemaError) as caught:
        load_ruleset(str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert message in str(caught.value)
    line = int(str(caught.value).split(f"{path}:")[1].split(":")[0])
    assert lines[line - 1].strip() == f"wilds: {wilds}"


def test_a_hand_larger_than_the_deal_allows_is_refused():
    """Basic Rummy deals at most ten cards and every turn ends with a discard: eleven at most."""
    eleven = "SA S2 S3 S4 H6 H7 H8 H9 H10 D9 C9"
    assert run("solve", "-r", "basic-rummy", "--hand", eleven).exit_code == 0
    refused = run("solve", "-r", "basic-rummy", "--hand", eleven + " S9", "--json")
    assert refused.exit_code == 2
    message = json.loads(refused.output.splitlines()[0])["error"]["message"]
    assert message.startswith("a hand of 12 cards: basic-rummy deals at most 10 cards a player (basic-rummy.yaml:")
    assert message.endswith("so a hand holds at most 11")
    # a game whose turn may end without a discard lets a hand grow: nothing bounds it
    assert load_ruleset("rummikub").largest_hand is None
    assert load_ruleset("basic-rummy", {"deal": "six-card"}).largest_hand[0] == 7  # six whatever the players
