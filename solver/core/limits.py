"""melds' limits on what it reads: every input is measured against these before it is built, so
that time and memory stay bounded whatever a file or a batch line holds (docs/errors.md).

They are far above any real game (the largest bundled ruleset is 33 kB, 2,400 nodes and 7 levels
deep; the largest deck 156 cards) and far below what would exhaust a machine.
"""

from __future__ import annotations

MIB = 1 << 20

# YAML documents: rulesets, puzzles, states, rounds
YAML_BYTES = 8 * MIB  # read at most this much of a file (a /dev/zero stops here)
YAML_NODES = 200_000  # scalars, mappings and lists, every alias counted as the nodes it expands to
YAML_DEPTH = 64  # mappings and lists nested in one another

# word lists (--dict, --exclude, a ruleset's dictionary), after decompression
TEXT_BYTES = 16 * MIB  # the bundled JMdict list is 7.5 MiB; a 16 MiB list of short words takes ~0.5 GiB

# --batch lines
BATCH_LINE_BYTES = 4 * MIB
JSON_DEPTH = 32  # objects and arrays nested in one request
REQUEST_TEXT = 64 * 1024  # characters in one string of a request (a hand, a word, a path)
REQUEST_ITEMS = 10_000  # items in one list of a request (cards, table melds, words)

# numbers a request or a file may give
MAX_SECONDS = 10**6  # --max-seconds (11 days): a larger budget is a typo, inf and nan are not budgets
MAX_COUNT = 10**6  # plain counts (--limit, honba, riichi sticks, a stock) beyond any game
DECK_COPIES = 64  # copies of one card a ruleset's deck may declare
DECK_CARDS = 1_000  # cards in a whole deck (after every option; the largest bundled has 156)
DECK_FACES = 1_000  # distinct faces a deck may declare
MELD_CARDS = 64  # cards in one meld (a kind's size.max)
RULESET_EXTENDS = 16  # rulesets one ruleset may stand on (extends: of extends: …)
