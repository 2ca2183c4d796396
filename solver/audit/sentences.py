"""A rule document split into sentences, and the quotes of a ruleset found among them.

The documents are plain text with a little Markdown: paragraphs, list items (``- ``, ``・``,
``1.``, ``1)``, ``1.1``), tables (tab-separated or ``|`` rows), headings (``#``, a bold line),
and captions broken over lines with a Markdown hard break (two trailing spaces). A *sentence* is
what a reader points at: one piece of prose ended by 。 ！ ？ (or an English ``. ! ?`` before white
space), one list item, one table row, one heading or caption. Lines are joined where the text
plainly runs on (a hard break inside a caption, a Japanese line ending on a particle, English
prose wrapped mid-sentence).

Quotes are located the way :func:`solver.core.source.normalise_quote` compares them: on the
document NFKC-normalised without white space, each character of which remembers the sentence it
came from.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

TERMINATORS = "。．！？!?"
OPENERS, CLOSERS = "(（「『[【", ")）」』]】"
TRAILERS = CLOSERS + "*\"'”’"  # what may follow a sentence end and still belong to the sentence
LIST_MARK = re.compile(r"^(\s*)(?:[-*+•]\s+|・\s*|\d+(?:\.\d+)+\s+|\d+[.)．）]\s*|[)）](?=\S))")
HEADING = re.compile(r"^\s*#{1,6}\s+")
BOLD_LINE = re.compile(r"^\s*\*\*[^*]+\*\*\s*$")
JA_RUN_ON = ("については", "、")  # a Japanese line ending so continues on the next
EN_RUN_ON = re.compile(r"[A-Za-z,;]$")
ABBREVIATIONS = {"e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "dr", "no", "fig"}


@dataclass(frozen=True)
class Sentence:
    """One sentence of a document: its number (0-based), the line it starts on (1-based), its
    text (markers and emphasis removed, white space collapsed), its form, and where it lies in
    the document text (``start``/``end`` character offsets, the list or heading marker included)."""

    index: int
    line: int
    text: str
    form: str  # prose, item, row, heading
    start: int
    end: int
    block: int  # sentences of one paragraph, item or row share a block number


@dataclass(frozen=True)
class Document:
    name: str
    text: str
    sentences: tuple[Sentence, ...]
    normal: str  # NFKC, without white space
    owner: tuple[int, ...]  # sentence index of each character of ``normal`` (-1: none)

    def locate(self, quote: str) -> tuple[int, ...]:
        """The sentences a quote spans; () when the quote is not in the document. Where a quote
        occurs more than once, the occurrence that best fills whole sentences is taken (a short
        quote such as 「10点」 names the sentence that is only that, not a longer one holding it)."""
        q = _normal(quote)
        if not q:
            return ()
        best: tuple[int, ...] = ()
        best_score = None
        at = self.normal.find(q)
        while at >= 0:
            owners = tuple(dict.fromkeys(o for o in self.owner[at : at + len(q)] if o >= 0))
            if owners:
                whole = sum(len(_normal(self.sentences[o].text)) for o in owners)
                score = (len(q) / max(whole, 1), -at)
                if best_score is None or score > best_score:
                    best, best_score = owners, score
            at = self.normal.find(q, at + 1)
        return best

    def locate_all(self, quote: str, fill: float = 0.6) -> tuple[int, ...]:
        """The sentences the quote names wherever it occurs: each occurrence that fills at least
        ``fill`` of the sentences it touches (a list of sentences names whole sentences: 「門前役」
        names every heading that is only that, not a longer sentence holding the word)."""
        q = _normal(quote)
        found: dict[int, None] = {}
        at = self.normal.find(q) if q else -1
        while at >= 0:
            owners = [o for o in dict.fromkeys(self.owner[at : at + len(q)]) if o >= 0]
            whole = sum(len(_normal(self.sentences[o].text)) for o in owners)
            if owners and len(q) >= fill * whole:
                found.update((o, None) for o in owners)
            at = self.normal.find(q, at + 1)
        return tuple(found) or self.locate(quote)


def _normal(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def _clean(text: str) -> str:
    text = text.replace("**", "")
    return re.sub(r"\s+", " ", text).strip()


@lru_cache(maxsize=16)
def split_document(name: str, text: str) -> Document:
    sentences: list[Sentence] = []
    for block_no, pieces in enumerate(_blocks(text)):
        for form, start, end in pieces:
            at_line_start = not text[text.rfind("\n", 0, start) + 1 : start].strip()
            body = _clean(_strip_marker(text[start:end]) if at_line_start else text[start:end])
            if not body:
                continue
            line = text.count("\n", 0, start) + 1
            sentences.append(Sentence(len(sentences), line, body, form, start, end, block_no))
    normal, owner = _normal_index(text, sentences)
    return Document(name, text, tuple(sentences), normal, owner)


def _normal_index(text: str, sentences: list[Sentence]) -> tuple[str, tuple[int, ...]]:
    at = [-1] * len(text)
    for s in sentences:
        for i in range(s.start, s.end):
            at[i] = s.index
    chars, owner = [], []
    for i, ch in enumerate(text):
        for n in unicodedata.normalize("NFKC", ch):
            if not n.isspace():
                chars.append(n)
                owner.append(at[i])
    return "".join(chars), tuple(owner)


def _strip_marker(piece: str) -> str:
    piece = LIST_MARK.sub("", HEADING.sub("", piece), count=1)
    return HEADING.sub("", piece)


# -- lines into blocks ------------------------------------------------------------------------


def _line_form(line: str) -> str:
    if not line.strip():
        return "blank"
    if HEADING.match(line):
        return "heading"
    if BOLD_LINE.match(line):
        return "bold"  # an emphasised line: prose that stands alone
    if "\t" in line.strip() or line.lstrip().startswith("|"):
        return "row"
    if LIST_MARK.match(line):
        return "item"
    return "prose"


def _runs_on(line: str, form: str, following: str, next_form: str) -> bool:
    """Does this line's sentence continue on the next line?"""
    if form in ("blank", "heading", "row", "bold") or next_form in ("blank", "heading", "row", "item", "bold"):
        return False
    bare = line.replace("**", "").rstrip()
    if not bare or bare[-1] in TERMINATORS + CLOSERS:
        return False
    hard_break = line.endswith("  ") and ":" not in bare and "：" not in bare and form != "item"
    return hard_break or bare.endswith(JA_RUN_ON) or bool(EN_RUN_ON.search(bare) and bare.isascii())


def _blocks(text: str):
    """[(form, start, end) of each sentence] for each paragraph, item, row or heading."""
    lines = text.split("\n")
    offsets, pos = [], 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    forms = [_line_form(line) for line in lines]
    i = 0
    while i < len(lines):
        if forms[i] == "blank":
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and _runs_on(lines[j], forms[j], lines[j + 1], forms[j + 1]):
            j += 1
        start, end = offsets[i], offsets[j] + len(lines[j])
        form = "prose" if forms[i] == "bold" else forms[i]
        if form == "row":
            yield list(_row_pieces(text, start, end))
        elif form == "heading":
            yield [(form, start, end)]
        else:
            yield [(form, a, b) for a, b in _with_qualifiers(text, list(_prose_pieces(text, start, end)))]
        i = j + 1


def _row_pieces(text: str, start: int, end: int):
    """A table row is one sentence, unless a cell holds prose (a sentence end): then the cells
    before it are the row and the prose is split into its sentences."""
    cells, at = [], start
    for cell in text[start:end].split("\t"):
        cells.append((at, at + len(cell)))
        at += len(cell) + 1
    for k, (a, b) in enumerate(cells):
        if any(t in text[a:b] for t in "。．"):
            if k:
                yield "row", start, cells[k - 1][1]
            yield from (("prose", x, y) for x, y in _prose_pieces(text, a, end))
            return
    yield "row", start, end


def _prose_pieces(text: str, start: int, end: int):
    """Split prose at sentence ends outside brackets; what trails an end (a closing bracket,
    emphasis) stays with its sentence."""
    depth, piece, i = 0, start, start
    while i < end:
        ch = text[i]
        if ch in OPENERS:
            depth += 1
        elif ch in CLOSERS:
            depth = max(0, depth - 1)
        if ch in TERMINATORS or (ch == "." and _english_stop(text, i, end)):
            k = i + 1
            while k < end and (text[k] in TERMINATORS or text[k] in TRAILERS):
                if text[k] in CLOSERS:
                    if depth == 0:
                        break
                    depth -= 1
                k += 1
            if depth == 0 and (ch != "." or k >= end or text[k].isspace()):
                if text[piece:k].strip():
                    yield piece, k
                piece = k
            i = k
            continue
        i += 1
    if text[piece:end].strip():
        yield piece, end


def _with_qualifiers(text: str, pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A bracketed qualifier standing after a sentence (「…禁止。(救済措置は除く)」) belongs to it;
    a bracketed sentence of its own (one with a sentence end inside) stays apart."""
    out: list[tuple[int, int]] = []
    for a, b in pieces:
        body = text[a:b].strip().strip("*")
        if (
            out
            and body[:1] in OPENERS
            and body.rstrip("。．")[-1:] in CLOSERS
            and not any(t in body[1:-1] for t in TERMINATORS)
        ):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _english_stop(text: str, i: int, end: int) -> bool:
    """A full stop ends an English sentence when white space (or the end) follows and the word
    before it is not a number (``1.1``, ``4.``) or an abbreviation."""
    if i + 1 < end and not text[i + 1].isspace():
        return False
    word = re.search(r"(\S+)$", text[max(0, i - 12) : i])
    return word is not None and not word.group(1).isdigit() and word.group(1).lower() not in ABBREVIATIONS
