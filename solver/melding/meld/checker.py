"""Meld legality: is this multiset (or table layout) of cards a legal meld, and why (not)?

:class:`MeldChecker` holds one compiled :class:`~solver.melding.meld.encode.KindModel` per (kind, size) and
answers each query with assumptions. A meld is legal when exactly one *family* of kinds (組, 順,
相順, ...) can read it; two families make it ambiguous ("6,6,6か4,5,6か?"), and a kind's
``distinguish`` rule can veto it outright ("順と相順の区別がつかない"). Among the readings of the
one family, the reading with the fewest cards acting as wilds is shown (a rule document may read
a card at a run's end as one wild role rather than another: the fewest wilds decide).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from solver.core.deck import Face, rank_order
from solver.core.errors import MeldsError
from solver.core.notation import Notation
from solver.core.rules import MeldKind
from solver.core.ruleset import Ruleset
from solver.melding.meld.candidates import candidates
from solver.melding.meld.cycles import SuitSteps
from solver.melding.meld.diagnose import (
    Relaxation,
    ambiguity_reasons,
    blame,
    minimal_relaxation,
    not_a_meld,
    outranked,
    sizes_possible,
    surely_relaxed,
)
from solver.melding.meld.encode import KindModel, Reading
from solver.melding.meld.found import Found, always_wild, as_cards, decoded, in_this_order, open_ways, query_layouts
from solver.melding.meld.gate import RoleGate, gate_for
from solver.melding.meld.kept import kind_model
from solver.melding.meld.layouts import LayoutLines, params_key
from solver.melding.meld.looks import certainly_broken
from solver.melding.meld.phase import NO_PHASE, check_phase
from solver.melding.meld.plain import PlainReader, plain_kind
from solver.melding.meld.plays import KindPlays
from solver.melding.meld.points import meld_points
from solver.melding.meld.reasons import Reason
from solver.melding.meld.verdict import Verdict

COLD_WALKS = 8  # checks of one size that build models only for the kinds in play (see check)
MEMO_SIZE = 4096  # verdicts remembered (then forgotten all at once): memory stays bounded


class MeldChecker:
    """Compiles a ruleset's meld kinds lazily and checks melds against them."""

    shortcuts = True  # decide what a plain look at a model settles without SAT (tests compare both ways)

    def __init__(self, ruleset: Ruleset, gate: RoleGate | None = None):
        self.ruleset = ruleset
        self.gate = gate if gate is not None else gate_for(ruleset.parameters, ruleset.kinds)
        self.notation = Notation.for_deck(ruleset.deck)
        self.models: dict[tuple[str, int], KindModel] = {}
        self._steps: dict[str, SuitSteps] = {}
        self._walks: Counter = Counter()  # size -> checks that walked the frames (see check)
        self._broken_now: dict[tuple, set] = {}  # the rules no reading keeps, for recent melds
        self._queries: tuple[list | None, dict] = (None, {})  # the cards last asked of, and _query's answers
        self.plays = KindPlays(ruleset.deck)  # the faces each kind can hold
        self._memo: dict[tuple, Verdict] = {}  # (faces, phase, ordered, explain, params) -> verdict
        self._readings_memo: dict[tuple, tuple] = {}  # (faces, ordered, params) -> the kinds' readings
        # (kind, sorted face indices, params) -> what a kind that is no sequence reads in the cards
        self._order_free: dict[tuple, Found | Reading | None] = {}
        # (sequence kind, layout of distinct cards, params) -> no reading (None) or a vetoed one, either way
        self._unread_ways: dict[tuple, Reading | None] = {}
        self._fills: dict[tuple, int] = {}  # (layout, hole, family, phase) -> faces_that_may_fill
        self.layouts = LayoutLines(self.gate, self.steps)  # what a table layout of a sequence can read as
        self.plain = PlainReader(self.gate)  # what plain kinds read, counted (unordered, unexplained)
        self.plain_kinds = {kind.id: plain_kind(kind) for kind in ruleset.kinds}

    def __enter__(self) -> MeldChecker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for model in self.models.values():
            model.close()
        self.models.clear()
        self._queries = (None, {})
        self._memo.clear()
        self._readings_memo.clear()
        self._order_free.clear()
        self._unread_ways.clear()
        self._fills.clear()

    @property
    def sat_calls(self) -> int:
        return sum(m.sat_calls for m in self.models.values())

    def steps(self, kind: MeldKind) -> SuitSteps | None:
        cycle = kind.suit_step.cycle
        if cycle is None:
            return None
        if cycle not in self._steps:
            self._steps[cycle] = SuitSteps.from_cycle(self.ruleset.cycles[cycle])
        return self._steps[cycle]

    def model(self, kind: MeldKind, n: int) -> KindModel:
        key = (kind.id, n)
        if key not in self.models:
            self.models[key] = kind_model(self.ruleset, kind, n, self.steps(kind), self.gate)
        return self.models[key]

    # -- the query --------------------------------------------------------------------------

    def _query(self, kind: MeldKind, cards: list, ordered: bool, params=None):
        """(model, card indices, presence assumptions, layout alternatives) for the cards as
        ``kind``, or None when a card can play no role in it; remembered for the last list of cards
        asked of (a meld's readings and its diagnosis ask the same list). The lists are the callers'
        to read, not to change."""
        key_params = params_key(params)
        if key_params is False:
            return self._new_query(kind, cards, ordered, params)
        if cards is not self._queries[0]:  # (the list is held, so another cannot take its place)
            self._queries = (cards, {})
        known = self._queries[1]
        key = (kind.id, ordered, key_params)
        if key not in known:
            known[key] = self._new_query(kind, cards, ordered, params)
        return known[key]

    def _new_query(self, kind: MeldKind, cards: list, ordered: bool, params):
        if self.shortcuts and not self.plays.all_play(kind, [face for face, _ in cards]):
            return None  # a card no role gives a suit and rank of this kind: no model needed
        model = self.model(kind, len(cards))
        indices = model.card_indices(cards)
        if indices is None:
            return None
        return model, indices, model.presence(indices, params), query_layouts(model, indices, ordered)

    def _broken(self, model: KindModel, indices: list[int]) -> set[str]:
        """:func:`~solver.melding.meld.ruleholds.certainly_broken`, remembered for the meld at hand
        (check and its diagnosis ask it of the same cards)."""
        key = (model.kind.id, model.n, tuple(indices))
        if key not in self._broken_now:
            if len(self._broken_now) > 64:
                self._broken_now.clear()
            self._broken_now[key] = certainly_broken(model, indices)
        return self._broken_now[key]

    def _readable_kinds(self, faces: Sequence[Face], params) -> set[str]:
        """The kinds some frame of which the cards fill (:mod:`solver.melding.meld.candidates`, complete:
        every meld fills a frame of its kind). A kind no frame of which they fill cannot read them,
        so its model need not be built for them: a cold ``melds check`` compiles only the kinds in
        play. Once a kind's model is built, asking it is cheaper than this walk, so warm checks ask
        the models. (Reasons for an illegal meld come from :meth:`_diagnose`, which asks every kind.)"""
        whole = tuple(sorted(f.index for f in faces))
        # no limit: never None
        found = candidates(self.ruleset, list(faces), params=params, gate=self.gate, steps=self._steps) or []
        return {k for c in found if c.key == whole for k in c.kinds}

    def check_text(self, text: str | Iterable[str], **kwargs) -> Verdict:
        return self.check(self.notation.parse_many(text), **kwargs)

    def check(
        self,
        faces: Sequence[Face],
        phase: str | None = None,
        ordered: bool = False,
        explain: bool = True,
        params: Mapping | None = None,
    ) -> Verdict:
        """Judge ``faces`` as one meld.

        ``phase`` (a phase id of the ruleset) gates phase-bound kinds; ``ordered`` says the
        faces are in table order (a sequence must then read left to right or right to left);
        ``explain`` adds reasons for illegal melds and the other identities each wild could take;
        ``params`` are the ruleset's query parameters (a chosen card that makes wilds).

        The same question asked again (a batch repeats melds, a search re-checks them) gets the
        verdict it got the first time, from a bounded memo.
        """
        faces = tuple(faces)
        params = self._check_params(params)
        key_params = params_key(params)
        if key_params is False:  # a parameter value that cannot be a key: judged afresh
            return self._check(faces, phase, ordered, explain, params)
        key = (faces, phase, ordered, explain, key_params)
        verdict = self._memo.get(key)
        if verdict is None:
            verdict = _remember(self._memo, key, self._check(faces, phase, ordered, explain, params))
        return verdict

    def _check(self, faces: tuple, phase: str | None, ordered: bool, explain: bool, params: Mapping | None) -> Verdict:
        if not faces:
            raise MeldsError("no cards given")
        check_phase(self.ruleset, phase)
        self.notation.check_copies(faces)
        cards = as_cards(faces)
        n = len(cards)
        if not self._size_possible(n):
            return Verdict(False, faces, None, (not_a_meld(self.ruleset.kinds, n),))
        plain = self._plain_readings(cards, params) if self.shortcuts and not ordered and not explain else None
        found, vetoes = (plain, []) if plain is not None else self._kind_readings(faces, cards, ordered, params)
        all_readings = tuple(f.reading for f in found.values()) + tuple(vetoes)
        ambiguous = len({r.kind.family for r in all_readings}) > 1
        if self.ruleset.ambiguity_rule in ("prefer", "any"):
            ambiguous = False  # the first kind is shown (with the fewest wilds); "any": the others may stand
        if vetoes or ambiguous:
            reasons = ambiguity_reasons(self.ruleset, all_readings, vetoes, self.describe_reading)
            return Verdict(False, faces, None, reasons, all_readings)
        if not found:
            reasons = self._diagnose(cards, ordered, params) if explain else ()
            return Verdict(False, faces, None, reasons or (not_a_meld(self.ruleset.kinds, n),))
        allowed = {k: f for k, f in found.items() if phase is None or self.ruleset.kind(k).phase in (None, phase)}
        if not allowed:
            reading = next(iter(found.values())).reading
            kind = reading.kind
            assert kind.phase is not None, "only a kind's phase forbids its reading"
            phases = {p.id: p for p in self.ruleset.phases}
            now = phases[phase].name if phase in phases else "a field with no phase yet"
            reason = Reason(
                "phase",
                f"a {kind.label} may be melded only in {phases[kind.phase].name}, not in {now}",
                phases[kind.phase].source,
                kind.id,
            )
            return Verdict(False, faces, None, (reason,), (reading,), phase_required=kind.phase)
        order = [k.id for k in self.ruleset.kinds]
        best = min(allowed.values(), key=lambda f: (f.reading.wilds, order.index(f.reading.kind.id)))
        could_be = self._could_be(best) if explain else {}
        also: tuple[Reading, ...] = ()
        if self.ruleset.ambiguity_rule == "any":  # the player says which kind the meld is
            also = tuple(allowed[k].reading for k in order if k in allowed and allowed[k] is not best)
        return Verdict(True, faces, best.reading, (), (best.reading,), could_be, best.reading.kind.phase, also)

    def plain_reading(self, faces: Sequence[Face], kind: str, params: Mapping | None = None) -> Reading | None:
        """The reading of ``faces`` as ``kind`` that :meth:`check` gives when every kind reads the
        cards plainly (the kind's fewest-wilds reading, counted without SAT), without the rest of
        the verdict; None when the models would answer, or the kind reads them not."""
        if not self.shortcuts:
            return None
        found = self._plain_readings(as_cards(tuple(faces)), params)
        return found[kind].reading if found is not None and kind in found else None

    def _plain_readings(self, cards: list, params: Mapping | None) -> dict[str, Found] | None:
        """Per kind that reads the cards, its fewest-wilds reading, counted without SAT when every
        kind that could is plain (:mod:`solver.melding.meld.plain`); None: the models answer."""
        key = params_key(params)
        if key is False:
            return None
        found = {}
        for kind in self.ruleset.kinds:
            if not kind.size_ok(len(cards)):
                continue
            if not self.plain_kinds[kind.id]:
                return None
            reading = self.plain.read(kind, cards, params, key)
            if reading is False:
                return None
            if reading is not None:
                found[kind.id] = Found(reading, [], None, [])
        return found

    def _kind_readings(
        self, faces: tuple, cards: list, ordered: bool, params: Mapping | None
    ) -> tuple[dict[str, Found], list[Reading]]:
        """Per kind that reads the cards, its reading with the fewest wilds; and the readings a
        kind's distinction rule vetoes. Nothing here depends on the field phase (it only chooses
        among these afterwards), so a layout asked in two phases — a table search asks each
        layout it reaches in the turn's phase and then, to touch it, in none — is read once
        (a bounded memo, like the verdicts')."""
        key_params = params_key(params)
        key = None if key_params is False else (faces, ordered, key_params)
        known = self._readings_memo.get(key) if key is not None else None
        if known is not None:
            return known
        n = len(cards)
        found: dict[str, Found] = {}
        vetoes: list[Reading] = []
        # While a size is new, only the kinds whose frames the cards fill get a model; a size asked
        # again and again (a batch, a search) gets every kind's model, which is then cheaper to ask.
        cold = self._walks[n] < COLD_WALKS
        readable = None
        # a kind that is no sequence reads the cards whatever their order: its answer is the same for
        # every layout of them (a table search reaches hundreds of layouts of one multiset)
        cards_key = None if key_params is False else (tuple(sorted(f.index for f in faces)), key_params)
        for kind in self.ruleset.kinds:
            if not kind.size_ok(n):
                continue
            if cold and (kind.id, n) not in self.models:
                if self.shortcuts and not self.plays.all_play(kind, faces):
                    continue  # no model either way (see _query): no walk needed
                if readable is None:
                    readable = self._readable_kinds(faces, params)
                    self._walks[n] += 1
                if kind.id not in readable:
                    continue
            if kind.shape != "sequence" and cards_key is not None and self.shortcuts:
                memo_key = (kind.id, cards_key)
                if memo_key not in self._order_free:
                    _remember(self._order_free, memo_key, self._kind_reading(kind, faces, cards, ordered, params))
                outcome = in_this_order(self._order_free[memo_key], cards)
            elif ordered and key_params is not False and self.shortcuts and len(set(faces)) == n:
                outcome = self._either_way(kind, faces, cards, params, key_params)
            else:
                outcome = self._kind_reading(kind, faces, cards, ordered, params)
            if isinstance(outcome, Found):
                found[kind.id] = outcome
            elif outcome is not None:
                vetoes.append(outcome)

        if key is not None:
            _remember(self._readings_memo, key, (found, vetoes))
        return found, vetoes

    def _either_way(
        self, kind: MeldKind, faces: tuple, cards: list, params: Mapping | None, key_params: object
    ) -> Found | Reading | None:
        """:meth:`_kind_reading` of a sequence kind for a layout of distinct cards, which the kind reads
        left to right or right to left: a layout and its mirror image ask the model the same two
        ways (swapped), so when one of them no way reads, or only a vetoed reading does, the other
        is the same. (A reading is the first way's, so it is not shared: the mirror image's first
        way is the other.) A table search reaches both of many layouts."""
        mirror = (kind.id, faces[::-1], key_params)
        if mirror in self._unread_ways:
            return self._unread_ways[mirror]
        outcome = self._kind_reading(kind, faces, cards, True, params)
        if not isinstance(outcome, Found):
            _remember(self._unread_ways, (kind.id, faces, key_params), outcome)
        return outcome

    def _kind_reading(
        self, kind: MeldKind, faces: tuple, cards: list, ordered: bool, params: Mapping | None
    ) -> Found | Reading | None:
        """The kind's reading of the cards with the fewest wilds; or, when its distinction rule vetoes
        every reading, the vetoed one (a :class:`Reading`); None: the kind cannot read them."""
        ways = self.layouts.least_wilds_each_way(kind, faces, params) if ordered and self.shortcuts else None
        ranks = self.layouts.group_ranks(kind, faces, params) if self.shortcuts else None
        if ways == (None, None) or ranks == []:
            return None  # no start of the kind reads the layout, no rank the group: the query below is unsatisfiable
        query = self._query(kind, cards, ordered, params)
        if query is None:
            return None
        model, indices, base, layouts = query
        if self.shortcuts and self._broken(model, indices):
            return None  # a rule no reading keeps: the query below is unsatisfiable
        least, first = 0, None
        if ways is not None:
            readable = open_ways(layouts, ways)
            layouts, least = [lay for lay, _ in readable], min(way for _, way in readable)
            first = readable[0]
        elif ranks:  # a group's ranks bound its wilds the same way
            least = self.layouts.group_least_wilds(kind, faces, ranks, params)
            first = (layouts[0], least)
        if first is not None:
            settled = self._settled_at_once(model, indices, base, *first)
            if settled is not None:
                return settled
        relax_veto = model.selectors(relaxed={"distinguish"})
        layout = next((lay for lay in layouts if model.solve(base + relax_veto + lay)), None)
        if layout is None:
            return None
        if "distinguish" in model.rules:
            relaxed = model.reading(indices)  # the vetoed reading, should no layout keep the distinction
            full = model.selectors()
            distinguished = next((lay for lay in layouts if model.solve(base + full + lay)), None)
            if distinguished is None:
                return relaxed
            layout = distinguished
        assumptions = base + model.selectors() + layout
        return Found(self._fewest_wilds(model, indices, assumptions, least), assumptions, model, indices)

    def _settled_at_once(
        self, model: KindModel, indices: list[int], base: list[int], layout: list[int], least: int
    ) -> Found | None:
        """The usual case in one call: read the first way a window reads a table layout (a group:
        its one layout), with every rule (the distinction too) and no more wilds than that way's
        windows (the group's ranks) need. That way is then the first readable (relaxed or not),
        and its fewest wilds are ``least`` (a lower bound, :meth:`LayoutLines.least_wilds_each_way`,
        :meth:`LayoutLines.group_least_wilds`): the reading the three questions of :meth:`_check`
        would find. None: unsatisfiable, and those questions decide."""
        least = max(least, always_wild(model, indices))
        assumptions = base + model.selectors() + layout + model.at_most_wilds(least)
        if not model.solve(assumptions):
            return None
        return Found(decoded(model, indices), assumptions, model, indices)

    def reads_in_family(
        self,
        faces: Sequence[Face],
        family: str | None,
        phase: str | None = None,
        ordered: bool = True,
        surely: bool = True,
    ) -> bool:
        """Can a kind of ``family`` read these cards at all (ambiguity and vetoes aside)? A cheap
        first question for a search whose results must stay in a family (a table operation that
        may not change a meld's kind): most results are no meld, and this asks only the family's
        kinds, one SAT call each, before :meth:`check` asks them all. ``family`` None: any kind
        (for a result that may change its kind, most of them no meld all the same).

        ``surely=False``: a "perhaps" will do — a layout some window of a sequence kind reads, or
        whose cards may share a group's rank, is taken as read without the call. For a caller that
        judges every yes in full anyway (the table search checks it next) the call would be asked
        twice, and the solver refuses almost nothing the windows let through."""
        cards = as_cards(tuple(faces))
        for kind in self._kinds_of(family, len(cards), phase):
            ways = self.layouts.least_wilds_each_way(kind, tuple(faces), None) if ordered and self.shortcuts else None
            grouped = self.layouts.group_may_read(kind, faces, None) if self.shortcuts else None
            if ways == (None, None) or grouped is False:
                continue
            query = self._query(kind, cards, ordered)
            if query is None:
                continue
            model, indices, base, layouts = query
            if self.shortcuts and self._broken(model, indices):
                continue  # a rule no reading keeps (never the relaxed one): as in check
            if not surely and (ways is not None or grouped):
                return True
            if ways is not None:
                layouts = [lay for lay, _ in open_ways(layouts, ways)]
            relaxed = model.selectors(relaxed={"distinguish"})
            if any(model.solve(base + relaxed + layout) for layout in layouts):
                return True
        return False

    def faces_that_may_fill(
        self, layout: Sequence[Face | None], hole: int, family: str | None, phase: str | None = None
    ) -> int | None:
        """The faces (a bit per face index) that may make ``layout``, in table order with None at
        ``hole``, a meld of ``family`` (None: of any kind): every face for which
        :meth:`reads_in_family` could say yes is among them. A table search makes each meld's
        results by putting one card at a place — each card at each place, hundreds a layout, nearly
        all of them no meld: asked once per place, this leaves the few worth asking. None: every
        face may."""
        if not self.shortcuts:
            return None
        key = (tuple(layout), hole, family, phase)
        known = self._fills.get(key)
        if known is not None:  # a layout one card from another reaches the same holes (most asks)
            return known
        out = 0
        for kind in self._kinds_of(family, len(layout), phase):
            out |= self.layouts.faces_that_may_fill(kind, layout, hole, self.ruleset.deck.faces, self.plays.can_play)
        return _remember(self._fills, key, out)

    def _kinds_of(self, family: str | None, n: int, phase: str | None) -> Iterator[MeldKind]:
        """The kinds of ``family`` (None: every kind) a meld of ``n`` cards may be in ``phase``."""
        for kind in self.ruleset.kinds:
            if (
                (family is None or kind.family == family)
                and kind.size_ok(n)
                and (phase in (None, NO_PHASE) or kind.phase in (None, phase))
            ):
                yield kind

    def best_points(
        self, faces: Sequence[Face], phase: str | None = None, limit: int = 512, params: Mapping | None = None
    ) -> tuple[Verdict, int]:
        """The verdict, and for a legal meld the most meld points any of its readings earns (the
        player lays the meld out as they like). Without wilds the shown reading is the best."""
        verdict, points, _ = self.best_reading(faces, phase, limit, params)
        return verdict, points

    def best_reading(
        self,
        faces: Sequence[Face],
        phase: str | None = None,
        limit: int = 512,
        params: Mapping | None = None,
        worth: Callable[[Reading], int] | None = None,
    ):
        """(verdict, best points, the reading that earns them). ``worth``: what a reading is worth
        instead of its meld points — then every kind that reads the cards is weighed (a legal meld
        two families read may be laid out as either), and a reading without wilds is not taken
        for the best at once."""
        verdict = self.check(faces, phase=phase, explain=False, params=params)
        reading = verdict.reading
        if not verdict.legal or reading is None:  # (a legal verdict has its reading)
            return verdict, 0, None
        family = reading.kind.family
        if worth is None and (
            reading.wilds == 0 or all(k.score is None for k in self.ruleset.kinds if k.family == family)
        ):
            return verdict, meld_points(reading), reading  # no other reading earns more
        value = worth or meld_points
        cards = as_cards(tuple(faces))
        best, best_reading = -1, reading
        for kind in self.ruleset.kinds:
            if (
                (worth is None and kind.family != family)
                or not kind.size_ok(len(cards))
                or (phase is not None and kind.phase not in (None, phase))
            ):
                continue
            query = self._query(kind, cards, False, params)
            if query is None:
                continue
            model, indices, base, _ = query
            for reading in model.readings(indices, base + model.selectors(), limit):
                if value(reading) > best:
                    best, best_reading = value(reading), reading
        return verdict, max(best, 0), best_reading

    def _check_params(self, params: Mapping | None) -> Mapping | None:
        if not params:
            return None
        unknown = set(params) - set(self.ruleset.parameters)
        if unknown:
            known = ", ".join(self.ruleset.parameters) or "none"
            raise MeldsError(f"{self.ruleset.id} has no parameter {sorted(unknown)[0]!r} (parameters: {known})")
        return params

    def _fewest_wilds(self, model: KindModel, indices: list[int], assumptions: list[int], least: int = 0) -> Reading:
        """The reading with the fewest wild cards; ``assumptions`` (satisfiable) gain that bound.

        Cards that can only act as wilds in this kind give a lower bound, and ``least`` another
        (a table layout's, :meth:`LayoutLines.least_wilds`), so the first call usually succeeds.
        """
        least = max(least, always_wild(model, indices))
        for k in range(least, model.n + 1):
            bound = model.at_most_wilds(k)
            if model.solve(assumptions + bound):
                assumptions.extend(bound)  # later queries (could_be) keep the same preference
                return decoded(model, indices)
        raise AssertionError("a satisfiable query has a reading")

    def _could_be(self, found: Found) -> dict:
        out = {}
        for index, p in enumerate(found.reading.placements):
            if not p.wild:
                continue
            assert found.model is not None, "a plain reading (no model) has no wilds"
            c = found.model.index[(p.face, p.copy)]
            options = found.model.identity_options(c, found.assumptions)
            shown = found.reading.kind.shown
            others = sorted(
                {shown(ident) for _, ident in options} - {p.identity}, key=lambda i: (str(i[0]), rank_order(i[1] or ""))
            )
            if others:
                out[index] = others
        return out

    def _size_possible(self, n: int) -> bool:
        """Some kind could have n cards (models are never built for sizes no kind allows)."""
        lo, hi = sizes_possible(self.ruleset.kinds)
        return lo <= n <= hi

    def _diagnose(self, cards: list, ordered: bool, params: Mapping | None = None) -> tuple[Reason, ...]:
        """The rules that forbid the cards, for the kinds that come closest (:mod:`.diagnose`).
        The kinds whose sure-broken rules promise the fewest are searched first; a kind those found
        already outrank (:func:`~.diagnose.outranked`) is not searched: the blame is the same."""
        queries = []
        for kind in self.ruleset.kinds:
            query = self._query(kind, cards, ordered, params)
            if query is not None:
                queries.append((query, self._broken(query[0], query[1]) if self.shortcuts else set()))
        found: dict[int, Relaxation] = {}
        for surely, at in sorted((surely_relaxed(query[0], broken), at) for at, (query, broken) in enumerate(queries)):
            (model, indices, base, layouts), broken = queries[at]
            if outranked(surely, found.values()):
                continue
            relaxation = minimal_relaxation(model, indices, base, layouts, broken, self.shortcuts)
            if relaxation is not None:
                found[at] = relaxation
        return blame(self.notation, self.ruleset, [found[at] for at in sorted(found)], cards)

    def describe_reading(self, reading: Reading) -> str:
        fmt = self.notation.format_identity
        text = " ".join(fmt(p.identity) for p in reading.placements)
        return f"{text} ({reading.direction})" if reading.direction else text


def _remember(memo: dict, key, value):
    """``value`` into a bounded memo (forgotten all at once when full: memory stays bounded)."""
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value
