"""Replays a solved turn step by step, independently of the solver.

Each step of an answer is applied to a plain model of the hand and the table: what the
operation may play and must take, where, and whether the meld it leaves is legal *in its table
layout* by the brute-force oracle (tests/oracle.py), under the field phase; the restrictions
before one's own first meld (forbidden operations, cards to meld at once), a 鳴き turn's first
meld, kind changes of other players' melds; finally the discard, the cards kept and the score.
Returns a list of problems (empty when the turn is sound).
"""

from __future__ import annotations

from collections import Counter

import oracle


def _layout_readings(rs, faces, phase):
    """Every (kind, chosen options in layout order) reading of a table meld, by brute force."""
    out = []
    v = oracle.verdict(rs, list(faces), phase=phase, ordered=True)
    if not v.legal:
        return out, v
    family = next(iter(v.families))
    for kind in rs.kinds:
        if kind.family != family or (phase is not None and kind.phase not in (None, phase)):
            continue
        for chosen in oracle.readings(rs, kind, list(faces), ordered=True)[0]:
            out.append((kind, chosen))
    return out, v


def _position_roles(rs, faces, chosen):
    """Map each layout position to its option (chosen is in window order; a layout may be the
    window reversed)."""
    cards = list(chosen)
    by_face: dict = {}
    for o in cards:
        by_face.setdefault(o.face, []).append(o)
    return [by_face[f].pop(0) for f in faces]


def layout_points(rs, faces, phase=None) -> int | None:
    readings, v = _layout_readings(rs, faces, phase)
    if not readings:
        return None
    best = 0
    for kind, chosen in readings:
        best = max(best, oracle.reading_points(kind, chosen))  # a sequence's cards in window order
    return best


def replay(problem, answer) -> list[str]:
    rs = problem.ruleset
    phase = problem.phase
    problems: list[str] = []
    hand = Counter(problem.hand)
    table = [(list(m.faces), list(m.buried), m.mine, m.owner) for m in problem.table]
    own = problem.has_melded
    pending: Counter = Counter()
    rule = rs.turn_rule(problem.turn)
    claim = problem.claimed if problem.turn == "claimed" and rule.claimed_in_new_meld else None
    start_points = {i: layout_points(rs, m.faces) for i, m in enumerate(problem.table) if m.mine}
    made_points = 0
    cache: dict = {}
    fail = problems.append

    for number, step in enumerate(answer.steps, 1):
        where = f"step {number} ({step.action})"
        played = Counter(step.played)
        if played - hand:
            fail(f"{where}: plays cards not in hand: {played - hand}")
            return problems
        if step.action == "meld":
            value = oracle.meld_value(rs, list(step.played), phase, cache)
            if value is None:
                fail(f"{where}: not a legal meld")
            made_points += value or 0
            if claim is not None and claim not in step.played:
                fail(f"{where}: the claimed card must be in the first meld")
            if pending and not (set(pending) & set(step.played)):
                fail(f"{where}: the cards taken must be melded at once")
            pending -= Counter(step.played)
            claim = None
            own = True
            hand -= played
            continue
        if claim is not None:
            fail(f"{where}: a 鳴き turn melds the claimed card first")
        if pending:
            fail(f"{where}: cards taken by an exchange were not melded at once")
        op = step.op
        if not own and op.before_own_meld == "forbidden":
            fail(f"{where}: {op.name} is forbidden before a meld of one's own")
        taken = _operation_taken(rs, phase, step, table, where, fail)
        if taken is None:
            return problems
        hand -= played
        hand += Counter(taken)
        if not own and op.before_own_meld == "meld-taken-at-once" and taken:
            pending = Counter(taken)
    if pending:
        fail("cards taken by an exchange were never melded")
    if claim is not None:
        fail("the claimed card was never melded")
    gain = 0
    for i, before in start_points.items():
        after = layout_points(rs, table[i][0])
        if before is None or after is None:
            fail("a meld of one's own on the table is no legal meld")
            return problems
        gain += after - before
    _check_end(problem, answer, hand, (made_points, gain), fail)
    return problems


def _operation_taken(rs, phase, step, table, where, fail) -> list | None:
    """The cards a table operation takes into the hand, its problems told to ``fail``; the table
    meld it touches replaced by the one it leaves. None when the step cannot be followed further
    (the meld touched or left is not legal, or the operation changes more than one place)."""
    op = step.op
    faces, buried, mine, owner = table[step.table]
    before, bv = _layout_readings(rs, faces, None)
    if not before:
        fail(f"{where}: the table meld was not legal")
        return None
    if any(kind.phase not in (None, phase) for kind, _ in before):
        fail(f"{where}: touches a meld of another phase")
    new_faces = list(step.result.faces)
    new_buried = list(step.result.buried)
    c = step.played[0]
    taken: list = []
    effect = op.effect
    if op.card_classes is not None and c.cls not in op.card_classes:
        fail(f"{where}: {op.name} cannot play a {c.cls} card")
    if effect == "add":
        if new_faces not in (faces + [c], [c] + faces):
            fail(f"{where}: a lay-off adds one card at an end")
    elif effect in _ONE_PLACE:
        diff = [i for i in range(len(faces)) if (faces[i], buried[i]) != (new_faces[i], new_buried[i])]
        if len(new_faces) != len(faces) or len(diff) != 1 or new_faces[diff[0]] != c:
            fail(f"{where}: {op.name} changes exactly one place, with the played card")
            return None
        i = diff[0]
        wild_here = [_position_roles(rs, faces, ch)[i].role_entry.role.wild for _, ch in before]
        taken = _place_taken(op, faces, buried, new_buried, i, wild_here, where, fail)
    elif effect == "add-and-take-far-end":
        if new_faces == faces[1:] + [c]:
            taken = [faces[0]] + ([buried[0]] if buried[0] else [])
        elif new_faces == [c] + faces[:-1]:
            taken = [faces[-1]] + ([buried[-1]] if buried[-1] else [])
        else:
            fail(f"{where}: 付け抜き札 adds at one end and takes the far end")
    if Counter(taken) != Counter(step.taken):
        fail(f"{where}: takes {step.taken}, the operation takes {taken}")
    after, av = _layout_readings(rs, new_faces, phase)
    if not after:
        fail(f"{where}: leaves an illegal meld {new_faces}")
        return None
    if effect in _ONE_PLACE:
        roles_now = [_position_roles(rs, new_faces, ch)[diff[0]].role_entry.role.wild for _, ch in after]
        want_wild = effect in ("replace-natural", "replace-buried")
        if want_wild not in roles_now:
            fail(f"{where}: the played card does not act as {'a wild' if want_wild else 'a natural'}")
    if bv.families != av.families and not (mine and op.kind_change == "own"):
        fail(f"{where}: changes the kind of another player's meld")
    table[step.table] = (new_faces, new_buried, mine, owner)
    return taken


_ONE_PLACE = ("replace-wild", "bury-wild", "replace-natural", "replace-buried")  # effects on one place of a meld


def _place_taken(op, faces, buried, new_buried, i, wild_here, where, fail) -> list:
    """What an operation on place ``i`` of a meld takes (``wild_here``: whether the card there is
    a wild in each reading of the meld), its problems told to ``fail``."""
    effect = op.effect
    if effect in ("replace-wild", "bury-wild"):
        if buried[i] is not None or not any(wild_here):
            fail(f"{where}: no wild at that place")
        if effect == "bury-wild" and new_buried[i] != faces[i]:
            fail(f"{where}: the wild must lie under the card")
        return [faces[i]] if effect == "replace-wild" else []
    if effect == "replace-natural":
        if buried[i] is not None or all(wild_here):
            fail(f"{where}: no natural card at that place")
        if op.taken_classes is not None and faces[i].cls not in op.taken_classes:
            fail(f"{where}: {op.name} takes only {sorted(op.taken_classes)} cards")
        return [faces[i]]
    if buried[i] is None:
        fail(f"{where}: no buried pair at that place")
    return [faces[i], buried[i]]


def _check_end(problem, answer, hand, made, fail) -> None:
    """The turn's end: its discard (the hand less it), the cards kept, the meld points (``made``:
    the points of the melds made and those gained on one's own table melds) and the hand's points."""
    rs = problem.ruleset
    rule = rs.turn_rule(problem.turn)
    if answer.discard is not None:
        if hand[answer.discard] < 1:
            fail("the discard is not in hand")
        hand[answer.discard] -= 1
        if (
            rule.claimed_not_discarded
            and problem.turn == "claimed"
            and answer.discard == problem.claimed
            and Counter(problem.hand)[problem.claimed] == 1
        ):
            fail("the claimed card was discarded")
    if rule.discard == "required" and answer.discard is None:
        fail("the turn must end with a discard")
    if rule.discard == "none" and answer.discard is not None:
        fail("this turn has no discard")
    if +hand != Counter(answer.kept):
        fail(f"kept cards differ: {+hand} vs {Counter(answer.kept)}")
    made_points, gain = made
    if "meld_points" in answer.score and answer.score["meld_points"] != made_points + gain:
        fail(f"meld points {answer.score['meld_points']} != {made_points} + {gain}")
    if "hand_points" in answer.score and answer.score["hand_points"] != sum(rs.points(f) for f in answer.kept):
        fail("hand points do not add up")
