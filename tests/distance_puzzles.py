"""The distance puzzles (``puzzles/<game>/dNN-*.yaml``): their hands, and their expected answers
worked out by the brute force of distance_oracle.py, which imports nothing from ``solver/``.

A puzzle's distance is the oracle's: every swap of fewer cards tried and none going out, and a
swap of that many that does, found by the oracle's own search or, for a hand two swaps away in a
game whose brute force is slow, the puzzle's written way out (``via``) re-checked by it. A
``discards`` puzzle's table is the oracle's row for every discard. Run
``python tests/distance_puzzles.py`` to rewrite the files; tests/test_distance_puzzles.py runs them
through melds, and (slow) checks that the files hold what this module computes.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import distance_oracle as oracle
import rummikub_brute
import yaml

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Spec:
    ruleset: str
    stem: str
    title: str
    hand: str
    why: str  # what the puzzle shows, in a sentence
    question: str = "distance"
    visible: str = ""
    # indicator:, tiplu:, options: {phase: N} / {round: N} or (Fesca) turn: {phase: yang | yin}
    chosen: dict[str, Any] = field(default_factory=dict)
    via: tuple[str, str] | None = None  # a way out (let go, draw) the oracle re-checks, for slow games
    table: tuple[str, ...] = ()  # Rummikub: the sets on the table (their owner: all)
    melded: bool = False  # Rummikub: the player has made the initial meld

    @property
    def path(self) -> Path:
        return ROOT / "puzzles" / self.ruleset / f"{self.stem}.yaml"

    def game(self) -> oracle.Game:
        chosen = self.chosen.get("indicator") or self.chosen.get("tiplu")
        options = self.chosen.get("options", {})
        chosen = chosen or self.chosen.get("turn", {}).get("phase")
        return oracle.game(self.ruleset, chosen, options.get("phase", options.get("round")))


BR, GIN, IR, OK, P10, MAR, RK = "basic-rummy", "gin-rummy", "indian-rummy", "okey", "phase-10", "marriage", "rummikub"
CR, FE = "contract-rummy", "fesca"
YANG, YIN = {"turn": {"phase": "yang"}}, {"turn": {"phase": "yin"}}
TIPLU = {"tiplu": "C2"}


def PHASE(n: int) -> dict[str, Any]:  # noqa: N802 - reads as the puzzle's own words
    return {"options": {"phase": n}}


def ROUND(n: int) -> dict[str, Any]:  # noqa: N802 - reads as the puzzle's own words
    return {"options": {"round": n}}


def CUT(card: str) -> dict[str, Any]:  # noqa: N802 - reads as the puzzle's own words
    return {"indicator": card}


MAR_OUT = "SA S2 S3 H5 H6 H7 D9 D9 D9 CJ CQ CK S8 H8 D8 C4 C5 C6 HK SK DK S7"
MAR_ONE = "SA S2 S3 H5 H6 H7 D9 D9 D9 CJ CQ CK S8 H8 D8 C4 C5 C6 HK SK H10 S7"
MAR_DUBLEES = "SA SA H5 H5 D9 D9 CJ CJ S8 S8 C4 C4 HK HK DQ DQ S3 H2 D6 C8 CA DK"
MAR_SEVEN = "SA SA H5 H5 D9 D9 CJ CJ S8 S8 C4 C4 HK HK DQ S3 H2 D6 C8 CA DK S10"
MAR_JOKER = "SA S2 SJ H5 H6 H7 D9 D9 D9 CJ CQ CK S8 H8 D8 C4 C5 C6 HK SK S3 D2"
MAR_TWO = "SA S2 S3 H5 H6 H7 D9 D9 D9 CJ CQ CK S8 H8 D8 C4 C5 C10 HK SK H10 S7"
IR_NOW = "S4 S5 S6 H10 HJ C9 D7 C7 S7 CK DK HK SK C3"
IR_SEVEN = "S4 S5 S6 H10 HJ C9 D7 C7 CK DK HK SK C3 H2"
IR_IMPURE = "H5 H6 D4 C10 CJ S4 SK DK HK S8 S9 H4 D2 H2"
IR_ACES = "SQ SK SA H7 H8 CA D3 H3 C3 S3 DJ HJ CJ C6"
IR_KINGS = "SK SA S2 H3 H4 H5 D8 D9 JK C6 D6 S6 HQ D2"
IR_ACE_HIGH = "H7 H8 D5 SQ SK SA D9 D10 DJ C3 H3 S3 HA D2"
OK_NOW = "r12 r13 r1 y5 y6 y7 b5 k7 k8 k9 r3 y3 b3 k11 b1"
OK_PAIRS = "r5 r5 b6 b6 k9 k9 y1 y1 r11 r11 b12 b12 k3 y7 b2"
OK_FALSE = "k12 k13 k1 r1 y1 b1 y9 y10 y11 b4 b5 b6 r8 k6 FJ"
OK_WRAP = "k13 k1 k2 r1 y1 b1 y9 y10 y11 b4 b5 b6 r8 k6 FJ"
OK_TWO = "r1 r2 r3 y5 y6 y7 b9 r9 y9 k4 k5 k6 r11 r13 k10"
OK_WILD = "r1 r2 r3 y5 y6 y7 b9 r9 y9 k4 k5 k6 k7 r11 b11"
CR_SETS = "S5 H5 D5 C9 D9 JK CK HQ S3 H7 D4"
CR_RUNS = "S5 S6 S7 S8 H9 H10 HJ D2 CK C3 D4"
CR_SET_RUN = "S5 H5 C9 D9 H9 S2 S3 S4 H7 HK CK"
CR_THREE = "S5 H5 D5 C9 D9 H9 CK HK S3 S4 H6"
CR_FIVE = "S5 H5 D5 C9 D9 H2 CK HQ S3 S4 S6 S7 D10"
CR_SEVEN = "S3 S4 S5 S6 H8 H9 H10 HJ DQ DK DA C7 C8"
FE_SOUSEI = "木1 火2 土3 金4 土9 金9 水9 木11"
FE_SOKOKU = "水1 火2 金3 木4 土9 金9 水9 木11"
FE_SEAM = "木11 木12 木1 火5 土5 金5 水9"
FE_SHORT = "火5 金6 木7 土8 木9 火11 水3 金3"
FE_REVERSE = "金3 土4 火5 木6 水8 水9 水11 火1"
FE_SEVEN = "木2 火3 土4 金5 水6 木7 火8"
FE_SOUSEI_YIN = "土1 火2 木3 土9 金9 水9 水5"
FE_TAIJI = "木3 太極 木5 火9 土9 水1 金6"
FE_ZAT = "火11 火12 空無火 金5 土5 木2 水8"
FE_YINYANG = "陰陽3 陰陽4 木7 火8 金11 水1 土12"
FE_FAR = "木1 土4 水7 火10 金12 陰陽6"
FE_GW_RW = "陰陽5 太極 陰陽7 木2 木3 火8 金11"
FE_SW_RW = "木3 木4 陰陽5 空無火 水1"
FE_VOIDS = "陰陽3 陰陽4 空無木 空無火 金9 土2"
SPECS = [
    Spec(BR, "d01-out-now", "Nothing to swap", "S4 S5 S6 H9 D9 C9 S9 CK", "a run, a group of four and a discard."),
    Spec(BR, "d02-one-card-short", "One card short of a run", "S4 S5 H9 D9 C9 DK CQ S7", "S6 joins the run."),
    Spec(BR, "d03-ace-is-low", "The ace is low only", "SQ SK SA D9 H9 C2 C3 D5", "Q K A is no run."),
    Spec(BR, "d04-three-away", "Three swaps away", "S2 S3 D5 D6 H9 HJ CK C7", "two pairs of neighbours."),
    Spec(
        BR,
        "d05-discards-run-or-group",
        "Which card to let go",
        "H3 H4 H5 D8 S8 CJ CQ H10",
        "each discard's row: the run is made, the eights and the jack-queen are halves.",
        question="discards",
        visible="C8 CK",
    ),
    Spec(
        BR,
        "d06-seen-cards-count",
        "The cards seen are not there to draw",
        "H4 H5 D9 S9 CJ CQ C2 S7",
        "H3, H6 and C9 are seen: the run of hearts and the nines wait on fewer cards.",
        visible="H3 H6 C9",
    ),
    Spec(BR, "d07-group-of-four", "A group of four leaves a discard", "D7 H7 S7 C7 S9 S10 H2 DK", "SJ or S8 runs."),
    Spec(
        BR,
        "d08-near",
        "One away",
        "S7 S8 S9 D4 H4 C4 HJ HQ",
        "a run, a group and a pair of hearts: HK or H10 finishes it.",
    ),
    Spec(GIN, "d01-knock-now", "Knock now", "SA S2 S3 H4 H5 H6 D7 D8 D9 C10 CK", "let CK go: C10 is 10 of deadwood."),
    Spec(GIN, "d02-gin-is-not-needed", "A knock needs no gin", "SA S2 S3 H4 H5 H6 D7 D8 D9 C5 CK", "5 of deadwood."),
    Spec(GIN, "d03-faces-run", "The faces are a run", "SA S2 S3 H4 H5 H6 D7 D8 CJ CQ CK", "let D8 go: 7 of deadwood."),
    Spec(GIN, "d04-faces-cost", "Face cards weigh", "SK HK DQ CQ SJ HJ S2 S3 S4 H9 D10", "three pairs of faces."),
    Spec(GIN, "d05-low-cards", "Small pairs are no melds", "SA HA D2 C2 S3 H3 D4 C4 S5 HK DK", "small pairs."),
    Spec(GIN, "d06-two-runs", "Two runs and a spray", "S5 S6 S7 H8 H9 H10 DA C2 D3 CJ SQ", "CJ and SQ weigh 20."),
    Spec(GIN, "d07-sets", "Three sets of three", "S7 H7 D7 S8 H8 D8 S9 H9 D9 CK CQ", "CK or CQ stays."),
    Spec(GIN, "d08-four-twos", "Four twos", "S9 S10 SJ SQ H2 D2 C2 S2 HA DA C3", "a run, four twos, two aces."),
    Spec(P10, "d01-phase-1-now", "Phase 1 now", "r4 b4 y4 g9 r9 b9 y2 S", "two sets of three.", chosen=PHASE(1)),
    Spec(
        P10,
        "d02-phase-2-one-short",
        "One short of the run",
        "r4 b4 y4 g6 r7 b8 y12 g1 S",
        "a 9 or a wild.",
        chosen=PHASE(2),
    ),
    Spec(
        P10,
        "d03-wild-fills",
        "A wild fills the gap",
        "r3 b3 W g5 r6 y8 b8 g11 y1",
        "the wild is a 3 or a 7.",
        chosen=PHASE(2),
    ),
    Spec(P10, "d04-run-of-seven", "A run of seven", "r1 b2 y3 g4 r5 b6 g9 y11 S", "a 7 or a wild.", chosen=PHASE(4)),
    Spec(
        P10,
        "d05-skip-is-not-wild",
        "A skip is no wild",
        "r1 b2 y3 S S b6 g7 y11 r12",
        "4 and 5 missing.",
        chosen=PHASE(4),
    ),
    Spec(
        P10, "d06-colour", "Seven of a colour", "r1 r4 r6 r9 r11 b2 g3 y5 W", "five reds and a wild.", chosen=PHASE(8)
    ),
    Spec(
        P10,
        "d07-sets-of-four",
        "Two sets of four",
        "r7 b7 g7 y7 r10 b10 g10 y1 y2",
        "a fourth 10 is missing.",
        chosen=PHASE(7),
    ),
    Spec(
        P10,
        "d08-set-of-five",
        "A set of five and two",
        "r5 b5 g5 y5 W r3 b3 g8 y9",
        "five fives and two threes.",
        chosen=PHASE(9),
    ),
    Spec(MAR, "d01-out-now", "Seven combinations now", MAR_OUT, "three pure, four more, a discard.", chosen=TIPLU),
    Spec(MAR, "d02-one-short", "One card short", MAR_ONE, "H9 or a joker finishes the last sequence.", chosen=TIPLU),
    Spec(MAR, "d03-dublees", "Eight dublees", MAR_DUBLEES, "eight pairs: the dublee route.", chosen=TIPLU),
    Spec(MAR, "d04-seven-dublees", "Seven dublees", MAR_SEVEN, "a pair short of eight dublees.", chosen=TIPLU),
    Spec(
        MAR,
        "d05-joker-tiplu",
        "The tiplu's neighbours are wild",
        MAR_JOKER,
        "S3 and S5 are jokers.",
        chosen={"tiplu": "S4"},
    ),
    Spec(
        MAR,
        "d06-two-loose-ends",
        "Two loose ends, one swap",
        MAR_TWO,
        "C4 C5 C10 and H10 S7 look two short.",
        chosen=TIPLU,
    ),
    Spec(IR, "d01-declare-now", "Declare now", IR_NOW, "the cut joker C9 makes H10 HJ a sequence.", chosen=CUT("D9")),
    Spec(
        IR, "d02-a-seven-or-a-joker", "A seven or a joker", IR_SEVEN, "D7 C7 waits on a 7 or a wild.", chosen=CUT("D9")
    ),
    Spec(IR, "d03-no-pure-sequence", "No pure sequence", IR_IMPURE, "three impure sequences.", chosen=CUT("S4")),
    Spec(IR, "d04-aces-are-jokers", "A printed joker cut", IR_ACES, "the aces are wild.", chosen=CUT("JK")),
    Spec(IR, "d05-kings-wild", "Kings are jokers", IR_KINGS, "SK stands in SA S2.", chosen=CUT("HK")),
    Spec(IR, "d06-ace-high", "The ace is high", IR_ACE_HIGH, "SQ SK SA is pure.", chosen=CUT("C5")),
    Spec(
        IR,
        "d07-declare-now-discards",
        "Declared: which card to let go",
        IR_NOW,
        "C3 is the spare card; letting a melded card go needs its place filled again.",
        question="discards",
        chosen=CUT("D9"),
    ),
    Spec(OK, "d01-out-now", "Out now", OK_NOW, "12 13 1 runs; the okey b5 is wild.", chosen=CUT("b4")),
    Spec(
        OK,
        "d02-seven-pairs-discards",
        "Seven pairs: which tile to let go",
        OK_PAIRS,
        "six pairs and three strays: a stray's twin, or the okey y3, makes the seventh.",
        question="discards",
        chosen=CUT("y2"),
    ),
    Spec(OK, "d03-false-joker-is-the-okey", "The false joker is r8", OK_FALSE, "FJ plays r8.", chosen=CUT("r7")),
    Spec(OK, "d04-no-thirteen-one-two", "13 1 2 is no run", OK_WRAP, "13 1 2 does not wrap.", chosen=CUT("r7")),
    Spec(OK, "d05-two-away", "Two swaps away", OK_TWO, "two strays and a pair of reds.", chosen=CUT("k8")),
    Spec(OK, "d06-okey-in-a-run", "The okey in a run", OK_WILD, "b11, the okey, is r12: out now.", chosen=CUT("b10")),
    Spec(
        CR,
        "d01-two-sets-discards",
        "Two sets: which card to let go",
        CR_SETS,
        "two sets down now; each row counts the draws that keep the contract.",
        question="discards",
        chosen=ROUND(1),
    ),
    Spec(
        CR,
        "d02-two-runs-discards",
        "Two runs: which card to let go",
        CR_RUNS,
        "two runs of four, D2 wild; each row counts the draws that keep the contract.",
        question="discards",
        chosen=ROUND(3),
    ),
    Spec(CR, "d03-set-and-run-now", "A set and a run now", CR_SET_RUN, "S2 is wild.", chosen=ROUND(2)),
    Spec(CR, "d04-three-sets-one-short", "Three sets, one short", CR_THREE, "a third set is missing.", chosen=ROUND(4)),
    Spec(CR, "d05-set-and-two-runs", "Two sets and a run", CR_FIVE, "H2 is wild.", chosen=ROUND(5)),
    Spec(CR, "d06-round-seven", "Every card in three runs", CR_SEVEN, "round 7 uses every card.", chosen=ROUND(7)),
    Spec(
        FE, "d01-sousei-chain-out-now", "A 相生 chain in 陽場", FE_SOUSEI, "木1-金4 and the 9s; 木11 goes.", chosen=YANG
    ),
    Spec(
        FE, "d02-sokoku-chain-out-now", "A 相克 chain in 陰場", FE_SOKOKU, "水1-木4 and the 9s; 木11 goes.", chosen=YIN
    ),
    Spec(FE, "d03-no-seam-without-zat", "12 and 1 do not join", FE_SEAM, "木11 木12 木1 is no run.", chosen=YANG),
    Spec(FE, "d04-sokoku-chain-one-short", "One short of a 相克 chain", FE_SHORT, "火5-土8 in 陰場.", chosen=YIN),
    Spec(FE, "d05-reverse-chain-and-run", "A 相生降順 and a run", FE_REVERSE, "金3-木6; 水8 水9 waits.", chosen=YANG),
    Spec(FE, "d06-seven-in-a-cycle", "Seven cards round the cycle", FE_SEVEN, "two chains of three.", chosen=YANG),
    Spec(FE, "d07-sousei-in-yin", "No 相生 chain in 陰場", FE_SOUSEI_YIN, "土1 火2 木3 is 相生.", chosen=YIN),
    Spec(FE, "d08-taiji-fills-the-run", "太極 fills the run", FE_TAIJI, "木3 太極 木5; a third 9 waits.", chosen=YANG),
    Spec(FE, "d09-zat-after-twelve", "空無 as ZAT after 12", FE_ZAT, "火11 火12 空無火; a third 5 waits.", chosen=YIN),
    Spec(
        FE,
        "d10-yinyang-pair",
        "Two 陰陽 cards are a run",
        FE_YINYANG,
        "陰陽3 陰陽4 is a meld of two; 木7 火8 a 相生 chain two short.",
        chosen=YANG,
    ),
    Spec(
        FE,
        "d11-three-away",
        "Three swaps away",
        FE_FAR,
        "no two cards share a meld two draws can finish: a set of 7s and a 陰陽 run of two.",
        chosen=YIN,
        via=("土4 火10 金12", "木7 火7 陰陽7"),
    ),
    Spec(
        FE,
        "d12-taiji-in-a-yinyang-run",
        "太極 in a 陰陽 run",
        FE_GW_RW,
        "陰陽5 太極 陰陽7: the 太極 is the 陰陽 run's RW; 木2 木3 waits on 木1 or 木4.",
        chosen=YANG,
    ),
    Spec(
        FE,
        "d13-discards-sw-or-rw",
        "SW or RW: which card to let go",
        FE_SW_RW,
        "木3 木4 陰陽5 is a run with the 陰陽 as 木5; each row counts the draws that make the rest a meld.",
        question="discards",
        chosen=YANG,
    ),
    Spec(
        FE,
        "d14-discards-void-pair",
        "Two 空無 are a set: which card to let go",
        FE_VOIDS,
        "陰陽3 陰陽4 and 空無木 空無火 are melds of two; a third 空無 or a 陰陽 neighbour makes one of three.",
        question="discards",
        chosen=YIN,
    ),
    Spec(RK, "d01-out-now", "Out now", "r10 r11", "the run on the table takes both.", table=("r7 r8 r9",), melded=True),
    Spec(
        RK,
        "d02-one-tile-short",
        "One tile short",
        "k4 k5 k6 b9 o9",
        "a run, and two nines waiting on a third (k9, r9 or a joker).",
        table=("r1 r2 r3",),
        melded=True,
    ),
    Spec(RK, "d03-thirty-points", "The thirty points count", "k3 k4 k5 r3 r4", "one more red is 24 points: short."),
    Spec(
        RK,
        "d04-split-the-run",
        "Split the run",
        "k5 r12 r13",
        "the rack's k5 splits the table's run in two; the reds wait on r11 or a joker.",
        table=("k3 k4 k5 k6 k7",),
        melded=True,
    ),
    Spec(
        RK,
        "d05-seen-tiles",
        "Both k3s are seen",
        "k1 k2",
        "with no k3 left, a joker finishes the run.",
        table=("r5 r6 r7",),
        melded=True,
        visible="k3 k3",
    ),
    Spec(RK, "d06-two-jokers", "Two jokers make the initial meld", "J J k13", "as k11 k12 k13 they are 36 points."),
    Spec(
        RK,
        "d07-initial-not-from-the-table",
        "The initial meld is the rack's own",
        "r10 r11",
        "the table's run may not be used: r9 or r12 from the pool.",
        table=("r7 r8 r9",),
    ),
    Spec(
        RK,
        "d08-group-and-run",
        "A group and the table's run",
        "k8 b8 o8 r8 r9",
        "the rack's r8 r9 join the run below r10 and the eights are a group.",
        table=("r10 r11 r12",),
        melded=True,
    ),
]


def expected(spec: Spec) -> dict[str, Any]:
    """The puzzle's ``expect``, worked out by the oracle."""
    if spec.ruleset == RK:  # no discard: the fewest tiles drawn (rummikub_brute.py)
        drawn = rummikub_brute.draw_distance(spec.hand, spec.table, spec.melded, spec.visible, depth=2)
        assert drawn is not None, spec.stem
        return {"distance": drawn}
    g = spec.game()
    hand = spec.hand.split()
    left = oracle.left_of(g, hand + spec.visible.split())
    if spec.via:
        found: int | None = oracle.proved_distance(g, hand, left, spec.via[0].split(), spec.via[1].split())
    else:
        found = oracle.distance(g, hand, left, 3)
    assert found is not None, spec.stem
    out: dict[str, Any] = {"distance": found}
    if spec.question == "discards":
        rows = []
        for discard in sorted(set(hand)):
            row = oracle.discard_row(g, hand, left, discard, 3)
            assert row is not None, (spec.stem, discard)
            rows.append(
                {
                    "discard": discard,
                    "distance": row[0],
                    "draws_total": sum(left[c] for c in row[1]),
                    "draws": {c: left[c] for c in row[1]},
                }
            )
        out["discards"] = sorted(rows, key=lambda r: (r["distance"], -r["draws_total"], r["discard"]))
    return out


def document(spec: Spec, expect: dict[str, Any]) -> dict[str, Any]:
    if spec.ruleset == RK:
        return _rummikub_document(spec, expect)
    how = (
        "The expected answer is worked out by tests/distance_puzzles.py with the brute force of "
        "tests/distance_oracle.py: every swap of fewer cards tried, one of that many going out"
        + (" (the puzzle's way out, re-checked)" if spec.via else "")
        + (" (tests/fesca_oracle.py: the 78 cards, wild roles included)" if spec.ruleset == FE else "")
        + (", and each discard's row from every draw after it" if spec.question == "discards" else "")
        + "."
    )
    out: dict[str, Any] = {"format": 1, "ruleset": spec.ruleset, "title": spec.title, **spec.chosen}
    out.update(question=spec.question, hand=spec.hand)
    if spec.visible:
        out["visible"] = spec.visible
    out.update(notes=f"{spec.why[0].upper()}{spec.why[1:]} {how}", expect=expect)
    return out


def _rummikub_document(spec: Spec, expect: dict[str, Any]) -> dict[str, Any]:
    how = (
        "The expected answer is worked out by tests/distance_puzzles.py with the brute force of "
        "tests/rummikub_brute.py: every multiset of fewer tiles drawn tried, one of that many playing the rack out."
    )
    out: dict[str, Any] = {"format": 1, "ruleset": spec.ruleset, "title": spec.title, "hand": spec.hand}
    if spec.table:
        out["table"] = [{"owner": "all", "cards": cards} for cards in spec.table]
    out.update(turn={"has_melded": spec.melded}, question=spec.question)
    if spec.visible:
        out["visible"] = spec.visible
    out.update(notes=f"{spec.why[0].upper()}{spec.why[1:]} {how}", expect=expect)
    return out


def write(spec: Spec) -> None:
    text = yaml.safe_dump(document(spec, expected(spec)), allow_unicode=True, sort_keys=False, width=110)
    spec.path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    for spec in SPECS:
        if len(sys.argv) == 1 or any(a in f"{spec.ruleset}/{spec.stem}" for a in sys.argv[1:]):
            write(spec)
            print(spec.path.relative_to(ROOT), yaml.safe_load(spec.path.read_text())["expect"]["distance"])
