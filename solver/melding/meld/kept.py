"""A bundled ruleset's kind models kept across processes, beside its compiled form (solver.core.cache).

Compiling a kind at one meld size (:meth:`KindModel.build`) writes tens of thousands of clauses
in Python, and a batch of melds of four sizes asks a dozen models or more. A model is kept as
built, before any question, so the copy read back answers exactly as a fresh one would (the same
variables, the same clauses in the same order); its clauses reach the solver at its first
question. An entry is keyed by the ruleset's own (its files' bytes and melds' code), so a changed
ruleset or a new version of melds never reads a stale one; a ruleset read from a file of the
user's (no compiled form) has its models built afresh.
"""

from __future__ import annotations

import gc
import io
import marshal
import pickle
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from solver.core import cache
from solver.core.deck import Deck, Face
from solver.core.gcpause import keep_loaded
from solver.core.rules import KindRole, MeldKind, Role
from solver.core.ruleset import Ruleset
from solver.melding.meld.cycles import SuitSteps
from solver.melding.meld.encode import KindModel
from solver.melding.meld.gate import RoleGate


def kind_model(ruleset: Ruleset, kind: MeldKind, n: int, steps: SuitSteps | None, gate: RoleGate) -> KindModel:
    """The model of ``kind`` for melds of ``n`` cards: read back when kept, else built (and kept
    when the ruleset has a compiled form). Its tens of thousands of objects last as long as the
    checker that asked for it, in melds' own process to its end: they are moved out of the cyclic
    collector's walks (:func:`~solver.core.gcpause.keep_loaded`), which would otherwise go over
    them in the next young and middle collections (the collector is paused while they are made,
    and until then)."""
    with _collector_paused():
        model = _model(ruleset, kind, n, steps, gate)
        keep_loaded()
    return model


def _model(ruleset: Ruleset, kind: MeldKind, n: int, steps: SuitSteps | None, gate: RoleGate) -> KindModel:
    if ruleset.compiled is None or cache.cache_dir() is None:
        with _collector_paused():
            return KindModel(ruleset.deck, kind, n, steps, gate).build()
    shared = _Shared(ruleset.deck, kind, steps, gate)
    name = f"{ruleset.compiled[0]}.model.{kind.id}.{n}.{type(gate).__name__}"  # a game may have a gate of its own
    key = ruleset.compiled[1]
    with _collector_paused():  # tens of thousands of small lists at once: no collection between them
        entry = cache.load(name, key)
        model = _restored(entry, shared) if entry is not None else None
        if model is None:
            model = KindModel(ruleset.deck, kind, n, steps, gate).build()
            kept = _kept(model, shared)
            if kept is not None:
                cache.store(name, key, kept)
    return model


_PLAIN = frozenset({int, str, list, tuple, dict, bool, type(None)})


class _Shared:
    """The objects of the running process a kept model names instead of holding copies: the
    deck's faces, the kind and its role entries (compared by identity), the deck, the suit steps
    and the role gate. Any other ruleset object in a model is not kept (a copy could break an
    identity)."""

    def __init__(self, deck: Deck, kind: MeldKind, steps: SuitSteps | None, gate: RoleGate):
        self.deck, self.kind, self.steps, self.gate = deck, kind, steps, gate
        self.entries = {id(entry): at for at, entry in enumerate(kind.roles)}

    def name_of(self, obj: Any) -> Hashable | None:
        if type(obj) in _PLAIN:  # nearly every object a model holds: numbers, lists, keys
            return None
        if isinstance(obj, Face):
            return ("face", obj.index)
        at = self.entries.get(id(obj))
        if at is not None and self.kind.roles[at] is obj:
            return ("entry", at)
        for name in ("deck", "kind", "steps", "gate"):
            if obj is not None and obj is getattr(self, name):
                return name
        if isinstance(obj, (Deck, MeldKind, KindRole, Role)):
            raise TypeError(f"a kind model refers to a {type(obj).__name__} of its own")
        return None

    def named(self, name: Hashable) -> Any:
        if isinstance(name, tuple) and name[0] == "face":
            return self.deck.faces[name[1]]
        if isinstance(name, tuple) and name[0] == "entry":
            return self.kind.roles[name[1]]
        if name in ("deck", "kind", "steps", "gate"):
            return getattr(self, str(name))
        raise pickle.UnpicklingError(f"no object named {name!r}")


def _kept(model: KindModel, shared: _Shared) -> tuple[bytes, bytes] | None:
    """A model just built, as kept: its state with the shared objects named, and its clauses
    apart (lists of numbers, marshalled: read back fastest, and only for a model asked a question).
    None: it cannot be kept."""
    if model.live is not None or model.closed or model.packed is not None:
        return None  # asked already: only a model as built is kept
    clauses, model.clauses = model.clauses, []
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.persistent_id = shared.name_of  # type: ignore[method-assign]
    try:
        pickler.dump(model)
        return out.getvalue(), marshal.dumps(clauses)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError, ValueError):
        return None
    finally:
        model.clauses = clauses


def _restored(entry: Any, shared: _Shared) -> KindModel | None:
    """The model of a kept entry, its shared objects this process's own; None: not one."""
    try:
        state, clauses = entry
        unpickler = pickle.Unpickler(io.BytesIO(state))
        unpickler.persistent_load = shared.named  # type: ignore[method-assign]
        model = unpickler.load()
    except Exception:  # noqa: BLE001 - a broken entry is passed by, and the model built again
        return None
    if not isinstance(model, KindModel) or not isinstance(clauses, bytes):
        return None
    model.packed = partial(_unpacked, clauses, model)
    return model


def _unpacked(packed: bytes, model: KindModel) -> list[list[int]]:
    """A kept model's clauses, read back (for its solver, at its first question); a broken entry's
    built again (the same clauses: a build is deterministic)."""
    with _collector_paused():
        try:
            clauses = marshal.loads(packed)  # noqa: S302 - our own cache, keyed by our own code
        except (ValueError, EOFError, TypeError):
            clauses = None
        if not isinstance(clauses, list):
            clauses = KindModel(model.deck, model.kind, model.n, model.steps, model.gate).build().clauses
    return clauses


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection inside: making many small lists at once otherwise triggers
    collections that walk every object the process holds, for no garbage."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
