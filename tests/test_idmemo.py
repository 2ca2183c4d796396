"""solver.core.idmemo: values kept by their owners' identities, not their equality."""

import gc
import weakref

from solver.core.idmemo import IdentityMemo


class Counting:
    def __init__(self) -> None:
        self.made = 0

    def make(self, value):
        def made():
            self.made += 1
            return value

        return made


def test_equal_owners_are_told_apart_by_identity():
    memo: IdentityMemo[str] = IdentityMemo(10)
    count = Counting()
    first, second = [1, 2], [1, 2]  # equal, unhashable, not the same object
    assert memo.get((first,), "k", count.make("a")) == "a"
    assert memo.get((first,), "k", count.make("ignored")) == "a"
    assert memo.get((second,), "k", count.make("b")) == "b"
    assert memo.get((first, second), "k", count.make("c")) == "c"
    assert memo.get((first,), "other", count.make("d")) == "d"
    assert count.made == 4


class Owner:
    pass


def test_an_owner_is_held_while_its_value_is_kept():
    memo: IdentityMemo[int] = IdentityMemo(10)
    owner = Owner()
    seen = weakref.ref(owner)
    memo.get((owner,), None, lambda: 1)
    del owner
    gc.collect()
    assert seen() is not None  # still alive: no newer object can take its id while the value stands
    memo.get((Owner(),), None, lambda: 2)
    assert len(memo) == 2


def test_the_memo_starts_afresh_when_full():
    memo: IdentityMemo[int] = IdentityMemo(3)
    owners = [object() for _ in range(4)]
    for i, owner in enumerate(owners):
        memo.get((owner,), None, lambda i=i: i)
    assert len(memo) == 1  # cleared at three, then the fourth kept
    count = Counting()
    assert memo.get((owners[0],), None, count.make(9)) == 9 and count.made == 1


def test_one_owner_alone_is_kept_by_identity_and_held():
    memo: IdentityMemo[int] = IdentityMemo(10)
    made: list[object] = []

    def make(owner) -> int:
        made.append(owner)
        return len(made)

    first, second = [1], [1]  # equal, not the same object
    assert memo.of(first, make) == 1 and memo.of(first, make) == 1
    assert memo.of(second, make) == 2
    assert memo.of(None, make) == 3 and memo.of(None, make) == 3  # None is an owner like another
    assert made == [first, second, None]
    owner = Owner()
    seen = weakref.ref(owner)
    memo.of(owner, make)
    del owner
    gc.collect()
    assert seen() is not None  # held while its value is kept, as get's owners are
