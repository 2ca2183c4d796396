"""melds — check rummy-family rules, solve go-out puzzles, audit rule documents.

The command line is a thin face over ``solver``: it parses arguments, loads the ruleset, asks the
engine and prints the answer (text by default, ``--json`` for scripts, ``--batch`` for JSON
Lines). Exit codes: 0 yes (legal / solvable / clean), 1 no, 2 bad input, 3 undecided.

Heavy modules (the SAT solver, NetworkX) are imported inside the commands, so that ``melds
--help`` and start-up stay quick.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

import click

EXIT_YES, EXIT_NO, EXIT_BAD_INPUT, EXIT_UNDECIDED = 0, 1, 2, 3


def _emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


def handle_errors(func: Callable) -> Callable:
    """Input errors become one message and exit code 2, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from solver.core.errors import MeldsError

        try:
            return func(*args, **kwargs)
        except MeldsError as exc:
            if kwargs.get("as_json"):
                _emit_json({"error": exc.to_json()})
            click.echo(f"melds: error: {exc}", err=True)
            sys.exit(exc.exit_code)

    return wrapper


def parse_options(pairs: Iterable[str]) -> dict[str, str]:
    from solver.core.errors import BadOption

    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise BadOption(f"an option is written KEY=VALUE, got {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def combine_exit(codes: Iterable[int]) -> int:
    """The exit code of a batch: bad input wins, then undecided, then no, else yes."""
    codes = set(codes)
    for code in (EXIT_BAD_INPUT, EXIT_UNDECIDED, EXIT_NO):
        if code in codes:
            return code
    return EXIT_YES


def run_batch(stream, handle: Callable[[dict], tuple[dict, int]]) -> int:
    """JSON Lines in, one JSON object per line out, a progress bar on stderr.

    ``handle`` maps one request object to (result object, exit code). A line that is not a
    JSON object, or whose request is bad, gives ``{"line": n, "error": {...}}`` and code 2.
    """
    from solver.core.errors import MeldsError

    lines = [(i, line) for i, line in enumerate(stream, start=1) if line.strip()]
    codes = []
    with click.progressbar(lines, label="checking", file=sys.stderr,
                           show_pos=True) as progress:
        for number, line in progress:
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise ValueError("each line must be a JSON object")
                result, code = handle(request)
                result = {"line": number, **result}
            except (ValueError, MeldsError) as exc:
                error = exc.to_json() if isinstance(exc, MeldsError) else {
                    "code": "bad-json", "message": str(exc)}
                result, code = {"line": number, "error": error}, EXIT_BAD_INPUT
            _emit_json(result)
            codes.append(code)
    return combine_exit(codes)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="melds")
def main() -> None:
    """Check the rules of rummy-family games, solve go-out puzzles, audit rule documents.

    Rulesets are YAML files (bundled ones by id: see `melds rulesets`). Exit codes: 0 yes,
    1 no, 2 bad input, 3 undecided within the solver budget.
    """


ruleset_option = click.option("-r", "--ruleset", "ruleset_ref", required=True,
                              help="Ruleset id (see `melds rulesets`) or path to a ruleset YAML.")
options_option = click.option("-o", "--option", "option_pairs", multiple=True, metavar="KEY=VALUE",
                              help="Set a ruleset option (repeatable), e.g. -o sojun=false.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")


def dictionary_options(func: Callable) -> Callable:
    """Word games: the dictionary a word is looked up in (the ruleset's default list, plus or
    instead of the user's)."""
    func = click.option("--exclude", "exclude_files", multiple=True, type=click.Path(dir_okay=False),
                        metavar="FILE", help="Word games: ban the words of FILE (repeatable).")(func)
    func = click.option("--no-default-dict", is_flag=True,
                        help="Word games: use only the --dict lists, not the ruleset's dictionary.")(func)
    return click.option("--dict", "dict_files", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
                        help="Word games: add a word list (UTF-8, one word a line, # comments, .gz "
                             "allowed; repeatable).")(func)


def _word_session(ruleset, words: dict):
    from solver.games.words.session import WordSession

    return WordSession(ruleset, tuple(Path(p) for p in words.get("dict_files", ())),
                       not words.get("no_default_dict", False),
                       tuple(Path(p) for p in words.get("exclude_files", ())))


@main.command("rulesets")
@json_option
@handle_errors
def rulesets_cmd(as_json: bool) -> None:
    """List the bundled rulesets."""
    from solver.melding.present import ruleset_json
    from solver.core.ruleset import bundled_rulesets, load_ruleset

    found = [load_ruleset(str(path)) for path in bundled_rulesets()]
    if as_json:
        _emit_json({"rulesets": [ruleset_json(r) for r in found]})
        return
    for r in found:
        kinds = ", ".join(k.name for k in r.kinds)
        click.echo(f"{click.style(r.id, bold=True):24} {r.label}")
        what = (f"{len(r.words.tile_kinds)} kinds of tile; words from {r.words.dictionary_name}" if r.words
                else f"{r.deck.size} cards; melds: {kinds}")
        click.echo(f"{'':16} document {r.document}; {what}; "
                   f"{len(r.options)} options, {len(r.assumptions)} assumptions")


@main.command("check")
@ruleset_option
@click.option("--phase", type=click.Choice(["yang", "yin"]),
              help="Field phase (陽場 yang / 陰場 yin) for phase-bound melds such as 相順.")
@click.option("--ordered", is_flag=True,
              help="The cards are given in table order (a sequence must read left to right "
                   "or right to left); by default they are a multiset.")
@click.option("--tiplu", metavar="CARD", help="Marriage: the tiplu (its maal are wild); none: no wilds.")
@click.option("--last-lap", is_flag=True, help="Word games: the last lap after the stock ran out (2 tiles do).")
@dictionary_options
@options_option
@json_option
@click.option("--batch", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help='JSON Lines of {"cards": "...", "phase": ..., "ordered": ..., "tiplu": ...}; '
                   'word games: {"words": [...]}; - for stdin.')
@click.argument("cards", nargs=-1)
@handle_errors
def check_cmd(ruleset_ref: str, phase: str | None, ordered: bool, tiplu: str | None, last_lap: bool,
              option_pairs: tuple, as_json: bool, batch, cards: tuple, **words) -> None:
    """Is CARDS one legal meld? Says which kind, what each wild stands for, or why not.

    For a mahjong ruleset CARDS is a hand of 14 tiles (declared melds in brackets): does it
    win, and how does it decompose?

    \b
    Examples:
      melds check -r fesca 木3 木4 太極
      melds check -r fesca wood3 wood4 taiji --json
      melds check -r basic-rummy S9 S10 SJ SQ
      melds check -r gensou-mahjong 123m456p789s11122z
      melds check -r gensou-mahjong "123m 456p 11z [東東東] (0555p)"
      melds check -r word-rummy がっこう ネコジタ か゛っき
    """
    from solver.core.errors import MeldsError
    from solver.melding.checker import MeldChecker
    from solver.melding.present import verdict_json, verdict_text
    from solver.core.ruleset import load_ruleset

    ruleset = load_ruleset(ruleset_ref, parse_options(option_pairs))
    if ruleset.hand_shapes:  # mahjong: CARDS is a hand of 14 tiles, checked for a winning shape
        sys.exit(_mahjong_check(ruleset, cards, as_json, batch))
    if ruleset.words:  # word games: each of CARDS is a word
        sys.exit(_word_check(_word_session(ruleset, words), cards, last_lap, as_json, batch))
    with MeldChecker(ruleset) as checker:
        if batch is not None:
            if cards:
                raise MeldsError("give cards on the command line or --batch, not both")

            def handle(request: dict) -> tuple[dict, int]:
                given = request.get("cards")
                if not isinstance(given, (str, list)) or not given:
                    raise MeldsError('each line needs "cards": a string or a list of cards')
                verdict = checker.check(checker.notation.parse_many(given),
                                        phase=request.get("phase", phase),
                                        ordered=bool(request.get("ordered", ordered)),
                                        params=_params(checker, request.get("tiplu", tiplu)))
                return verdict_json(verdict, checker), EXIT_YES if verdict.legal else EXIT_NO

            sys.exit(run_batch(batch, handle))
        if not cards:
            raise MeldsError("no cards given. " + checker.notation.describe())
        verdict = checker.check(checker.notation.parse_many(cards), phase=phase, ordered=ordered,
                                params=_params(checker, tiplu))
        if as_json:
            _emit_json(verdict_json(verdict, checker))
        else:
            click.echo(verdict_text(verdict, checker))
    sys.exit(EXIT_YES if verdict.legal else EXIT_NO)


def _word_check(session, words: tuple, last_lap: bool, as_json: bool, batch) -> int:
    from solver.core.errors import MeldsError
    from solver.games.words.present import check_text

    least = session.game.min_length["last_lap"] if last_lap else None
    if batch is not None:
        if words:
            raise MeldsError("give words on the command line or --batch, not both")

        def handle(request: dict) -> tuple[dict, int]:
            given = request.get("words", request.get("word"))
            given = [given] if isinstance(given, str) else given
            if not isinstance(given, list) or not all(isinstance(w, str) for w in given):
                raise MeldsError('each line needs "words": a list of words (or "word": one)')
            lap = session.game.min_length["last_lap"] if request.get("last_lap", last_lap) else None
            return session.check_words(given, min_tiles=lap)

        return run_batch(batch, handle)
    result, code = session.check_words(words, min_tiles=least)
    _emit_json(result) if as_json else click.echo(check_text(result))
    return code


_MAHJONG: dict = {}


def _mahjong_for(ruleset):
    """One Mahjong (its fast tables built once) per ruleset object, for a whole batch."""
    from solver.games.mahjong.hands import Mahjong

    if id(ruleset) not in _MAHJONG:
        _MAHJONG[id(ruleset)] = Mahjong(ruleset)
    return _MAHJONG[id(ruleset)]


def _hand_words(request: dict, *keys: str) -> str:
    from solver.core.errors import MeldsError

    for key in keys:
        value = request.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, list) and value:
            return " ".join(map(str, value))
    raise MeldsError(f'each line needs "{keys[0]}": the tiles, e.g. "123m456p789s11122z"')


def _mahjong_check(ruleset, cards: tuple, as_json: bool, batch) -> int:
    from solver.core.errors import MeldsError
    from solver.games.mahjong.present import check_json, check_text

    mj = _mahjong_for(ruleset)

    def answer(text: str) -> tuple[dict, int, Any]:
        hand = mj.parse_hand(text)
        mj.require_size(hand, mj.winning_size, "a winning hand", "For 13 tiles ask melds solve --waits.")
        decompositions = mj.decompositions(hand)
        discards = [] if decompositions else mj.tenpai_discards(hand)
        result = check_json(mj, hand, decompositions, discards)
        return result, EXIT_YES if decompositions else EXIT_NO, (hand, decompositions, discards)

    if batch is not None:
        if cards:
            raise MeldsError("give tiles on the command line or --batch, not both")
        return run_batch(batch, lambda request: answer(_hand_words(request, "hand", "cards"))[:2])
    if not cards:
        raise MeldsError("no tiles given: " + mj.describe_tiles())
    result, code, (hand, decompositions, discards) = answer(" ".join(cards))
    if as_json:
        _emit_json(result)
    else:
        click.echo(check_text(mj, result, hand, decompositions, discards))
    return code


def _mahjong_solve(ruleset, words: str, question: str, draw: str | None, as_json: bool) -> tuple[dict, int, str]:
    """Waits of a 13-tile hand, or the closed kans a riichi hand may declare after a draw:
    (JSON result, exit code, text)."""
    from solver.core.errors import MeldsError
    from solver.games.mahjong.present import kans_json, kans_text, waits_json, waits_text

    mj = _mahjong_for(ruleset)
    hand = mj.parse_hand(words)
    mj.require_size(hand, mj.winning_size - 1, "a waiting hand", "For 14 tiles ask melds check.")
    if question == "riichi-kan":
        if not draw:
            raise MeldsError("--riichi-kan needs --draw TILE: the tile drawn in riichi")
        drawn = mj.parse_tiles(draw)
        if len(drawn) != 1:
            raise MeldsError(f"--draw is one tile, got {draw!r}")
        mj.parse_hand(words + " " + draw)  # the drawn tile must still exist in the set
        verdicts = mj.riichi_kans(hand, drawn[0])
        result = kans_json(mj, hand, drawn[0], verdicts)
        code = EXIT_YES if any(v.doc_allowed for v in verdicts) else EXIT_NO
        return result, code, "" if as_json else kans_text(mj, hand, drawn[0], verdicts)
    waits = mj.waits(hand)
    by_wait = mj.decompositions_by_wait(hand, waits)
    result = waits_json(mj, hand, waits, by_wait)
    return result, EXIT_YES if waits else EXIT_NO, "" if as_json else waits_text(mj, result, hand, waits, by_wait)


def _params(checker, tiplu: str | None) -> dict | None:
    """Query parameters from the command line (Marriage's tiplu)."""
    if tiplu is None:
        return None
    from solver.core.errors import MeldsError

    if "tiplu" not in checker.ruleset.parameters:
        raise MeldsError(f"{checker.ruleset.id} has no tiplu")
    return {"tiplu": checker.notation.parse(tiplu)}


def _answer_code(answer) -> int:
    if answer.solvable is None:
        return EXIT_UNDECIDED
    return EXIT_YES if answer.solvable else EXIT_NO


def _inline_problem(ruleset, checker, hand: str, table: tuple, claimed: str | None,
                    has_melded: bool, phase: str | None, tiplu: str | None = None,
                    shown: tuple = ()):
    from solver.core.errors import MeldsError
    from solver.melding.puzzle import table_meld
    from solver.melding.turn import Problem

    notation = checker.notation
    melds = []
    for entry in table:
        owner, sep, cards = entry.partition(":")
        if not sep:
            owner, cards = "other", entry
        melds.append(table_meld(notation, owner.strip(), cards))
    claimed_face = notation.parse(claimed) if claimed else None
    faces = tuple(notation.parse_many(hand))
    if not faces:
        raise MeldsError("the hand is empty")
    return Problem(ruleset, faces, tuple(melds), "claimed" if claimed else "normal", claimed_face,
                   has_melded, phase, _params(checker, tiplu),
                   tuple(tuple(notation.parse_many(m)) for m in shown))


@main.command("solve")
@click.argument("puzzle", nargs=-1)
@click.option("-r", "--ruleset", "ruleset_ref", help="Ruleset for an inline --hand.")
@click.option("--hand", help='The hand, e.g. "S9 S10 SJ H4 D4 C4 C7".')
@click.option("--table", multiple=True, metavar='"OWNER: CARDS"',
              help="A meld on the table (repeatable); owner 'me' is the player's own.")
@click.option("--claimed", metavar="CARD", help="The turn claimed this discard (it is in the hand).")
@click.option("--has-melded", is_flag=True, help="The player already has a meld of their own.")
@click.option("--phase", type=click.Choice(["yang", "yin"]), help="Field phase (Fesca).")
@click.option("--tiplu", metavar="CARD", help="Marriage: the tiplu, when known (its maal are wild).")
@click.option("--shown", multiple=True, metavar='"CARDS"',
              help="Marriage: a meld of the player's already on the table (repeatable).")
@click.option("--see", is_flag=True, help="Marriage: can the hand show what it takes to see the tiplu?")
@click.option("--which-tiplu", is_flag=True, help="Marriage: which tiplus would let the hand go out?")
@click.option("--best", is_flag=True, help="The optimum of the ruleset's objective, going out or not.")
@click.option("--waits", is_flag=True, help="Mahjong: is the 13-tile hand tenpai, and on which tiles?")
@click.option("--riichi-kan", is_flag=True,
              help="Mahjong: which closed kans may a riichi hand declare after --draw TILE?")
@click.option("--draw", metavar="TILE", help="Mahjong: the tile drawn (with --riichi-kan).")
@click.option("--loose", metavar="TILES", help="Word games: loose tiles on the table (relief discards).")
@click.option("--last-lap", is_flag=True, help="Word games: the last lap after the stock ran out (2 tiles do).")
@click.option("--bonus", is_flag=True, help="Word games: the winner's best bonus words from a loser's --hand.")
@dictionary_options
@click.option("--all", "count_all", is_flag=True, help="Count the distinct ways to go out.")
@click.option("--limit", type=click.IntRange(1), default=1000, show_default=True,
              help="Stop counting at this many ways.")
@click.option("--max-seconds", type=click.FloatRange(0, min_open=True),
              help="Solver budget; exit 3 'undecided' when it runs out.")
@click.option("--stats", is_flag=True, help="Print the time taken and the SAT calls made.")
@options_option
@json_option
@click.option("--batch", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help='JSON Lines of {"puzzle": PATH} or {"hand": ..., "table": [...], ...}; - for stdin.')
@handle_errors
def solve_cmd(puzzle, ruleset_ref, hand, table, claimed, has_melded, phase, tiplu, shown, see,
              which_tiplu, best, waits, riichi_kan, draw, loose, last_lap, bonus, count_all, limit,
              max_seconds, stats, option_pairs, as_json, batch, **words) -> None:
    """Can this hand go out this turn? Shows how, the best turn, or why not.

    \b
    PUZZLE is a puzzle file or a folder of them; or give -r RULESET --hand "...".
    For mahjong, give the 13 tiles (as words or --hand) with --waits or --riichi-kan.
    Examples:
      melds solve -r basic-rummy --hand "S9 S10 SJ H4 D4 C4 C7"
      melds solve -r fesca --hand "木3 木4 太極 火7 土7 陰陽7 水1" --best
      melds solve puzzles/basic-rummy/
      melds solve -r gensou-mahjong --waits 1113456788999p
      melds solve -r gensou-mahjong --riichi-kan --draw 1p 1113456788999p
      melds solve -r word-rummy --hand ねこじたかいぬ --table がっこう --has-melded
      melds solve -r word-rummy --bonus --hand ねこいぬかさ
    """
    from solver.core.errors import MeldsError

    question = ("best" if best else "see" if see else "which-tiplu" if which_tiplu else
                "waits" if waits else "riichi-kan" if riichi_kan else "go-out")
    if sum([best, see, which_tiplu, waits, riichi_kan]) > 1:
        raise MeldsError("ask one question: --best, --see, --which-tiplu, --waits or --riichi-kan")
    if draw and not riichi_kan:
        raise MeldsError("--draw goes with --riichi-kan")
    budget = dict(count=count_all, limit=limit, max_seconds=max_seconds)
    if batch is not None:
        if puzzle or hand:
            raise MeldsError("give a puzzle, --hand or --batch, not several")
        sys.exit(_solve_batch(batch, ruleset_ref, option_pairs, question, budget, draw, words))
    if question in ("waits", "riichi-kan"):
        if not ruleset_ref:
            raise MeldsError(f"--{question} needs -r RULESET (a mahjong ruleset)")
        from solver.core.ruleset import load_ruleset

        ruleset = load_ruleset(ruleset_ref, parse_options(option_pairs))
        words = " ".join(([hand] if hand else []) + list(puzzle))
        if not words.strip():
            raise MeldsError("no tiles given: write them after the options or with --hand")
        result, code, text = _mahjong_solve(ruleset, words, question, draw, as_json)
        if as_json:
            _emit_json(result)
        else:
            click.echo(text)
        sys.exit(code)
    if len(puzzle) > 1:
        raise MeldsError(f"one puzzle file or folder at a time, got {len(puzzle)} arguments "
                         f"(for a hand use --hand \"...\")")
    puzzle = puzzle[0] if puzzle else None
    if puzzle and not Path(puzzle).exists():
        raise MeldsError(f"no such puzzle file or folder: {puzzle}")
    if puzzle and Path(puzzle).is_dir():
        sys.exit(_solve_folder(Path(puzzle), as_json, max_seconds))
    if puzzle:
        if hand or ruleset_ref:
            raise MeldsError("give either a puzzle file or -r RULESET --hand, not both")
        mahjong_row = _question_puzzle(Path(puzzle))
        if mahjong_row is not None:
            row, code = mahjong_row
            _emit_json(row) if as_json else click.echo(_question_puzzle_text(row))
            sys.exit(code)
        result, code = _solve_puzzle(Path(puzzle), question if question != "go-out" else None, budget)
        _print_answer(result, as_json, stats)
        sys.exit(code)
    if not (ruleset_ref and hand):
        raise MeldsError("give a puzzle file or folder, or -r RULESET --hand \"CARDS\"")
    from solver.melding.checker import MeldChecker
    from solver.core.ruleset import load_ruleset
    from solver.melding.turn import solve

    ruleset = load_ruleset(ruleset_ref, parse_options(option_pairs))
    if ruleset.words:
        facts = {"hand": hand, "table": list(table), "loose": loose or "", "has_word": has_melded,
                 "last_lap": last_lap, "bonus": bonus}
        sys.exit(_word_solve(_word_session(ruleset, words), facts, max_seconds, as_json))
    if loose or last_lap or bonus:
        raise MeldsError("--loose, --last-lap and --bonus are for word games")
    with MeldChecker(ruleset) as checker:
        problem = _inline_problem(ruleset, checker, hand, table, claimed, has_melded, phase,
                                  tiplu, shown)
        answer = solve(problem, question, checker=checker, **budget)
        _print_answer((answer, problem, checker, None), as_json, stats)
    sys.exit(_answer_code(answer))


def _score_words(session, cards: tuple, bonus_words: str | None, as_json: bool, batch) -> int:
    from solver.core.errors import MeldsError
    from solver.games.words.present import score_text

    if batch is not None:
        if cards:
            raise MeldsError("give a hand on the command line or --batch, not both")
        return run_batch(batch, session.score)
    if not cards:
        raise MeldsError("no hand given: the loser's revealed tiles, e.g. ねこいぬかさ")
    result, code = session.score({"hand": "".join(cards), "bonus_words": bonus_words or []})
    _emit_json(result) if as_json else click.echo(score_text(result))
    return code


def _word_solve(session, facts: dict, max_seconds: float | None, as_json: bool) -> int:
    from solver.games.words.present import bonus_text, turn_text

    result, code = session.solve(facts, seconds=max_seconds)
    if as_json:
        _emit_json({**result, "dictionary": session.dictionary_json()})
    else:
        click.echo((bonus_text if facts.get("bonus") else turn_text)(result))
    return code


def _print_answer(result, as_json: bool, stats: bool = False) -> None:
    from solver.melding.present import answer_json, answer_text

    answer, problem, checker, puzzle_info = result
    if as_json:
        out = answer_json(answer, problem, checker)
        if puzzle_info:
            out.update(puzzle_info)
        _emit_json(out)
        return
    if puzzle_info:
        click.echo(click.style(f"{puzzle_info['title']} ", bold=True) + f"({puzzle_info['puzzle']})")
    click.echo(answer_text(answer, problem, checker, stats))
    if puzzle_info and puzzle_info.get("matches") is not None:
        if puzzle_info["matches"]:
            click.echo(click.style("matches the puzzle's expected answer", fg="green"))
        else:
            click.echo(click.style("differs from the puzzle's expected answer:", fg="red"))
            for line in puzzle_info["mismatches"]:
                click.echo(f"  {line}")


_CHECKERS: dict = {}


def _checker_for(ruleset):
    """One checker per ruleset object, kept for a whole folder or batch run."""
    from solver.melding.checker import MeldChecker

    if id(ruleset) not in _CHECKERS:
        _CHECKERS[id(ruleset)] = MeldChecker(ruleset)
    return _CHECKERS[id(ruleset)]


def _solve_puzzle(path: Path, question: str | None, budget: dict):
    from solver.melding.puzzle import load_puzzle, mismatches
    from solver.melding.turn import solve

    puzzle = load_puzzle(path)
    checker = _checker_for(puzzle.ruleset)
    if puzzle.round is not None or puzzle.settlement is not None:
        from solver.core.errors import MeldsError

        flag = "--round" if puzzle.round is not None else "--settle"
        raise MeldsError(f"{path} is a round to settle: use melds score {flag} {path}")
    budget = {**budget, "count": budget.get("count") or puzzle.count}
    answer = solve(puzzle.problem, question or puzzle.question, checker=checker, **budget)
    info = {"puzzle": str(path), "title": puzzle.title}
    if puzzle.expect:
        problems = mismatches(puzzle, answer)
        info.update(matches=not problems, mismatches=problems)
    return (answer, puzzle.problem, checker, info), _answer_code(answer)


def _solve_folder(folder: Path, as_json: bool, max_seconds: float | None) -> int:
    from solver.core.errors import MeldsError

    from solver.core.state import is_state_file

    paths = sorted(p for p in folder.rglob("*.yaml") if not is_state_file(p))  # states are for melds move
    if not paths:
        raise MeldsError(f"no puzzle files (*.yaml) in {folder}")
    rows, codes = [], []
    with click.progressbar(paths, label="solving", file=sys.stderr, show_pos=True) as progress:
        for path in progress:
            try:
                settled = _settle_if_round(path)
                if settled is not None:
                    row, code = settled
                    rows.append(row if as_json else {**row, "puzzle": path.name})
                    codes.append(code)
                    continue
                result, code = _solve_puzzle(path, None, {"max_seconds": max_seconds})
            except MeldsError as exc:
                rows.append({"puzzle": str(path), "error": exc.to_json()})
                codes.append(EXIT_BAD_INPUT)
                continue
            answer, problem, checker, info = result
            if as_json:
                from solver.melding.present import answer_json

                rows.append({**answer_json(answer, problem, checker), **info})
            else:
                rows.append({"puzzle": path.name, "title": info["title"], "answer": answer,
                             "matches": info.get("matches"), "mismatches": info.get("mismatches", [])})
            if answer.solvable is None:
                codes.append(EXIT_UNDECIDED)
            elif info.get("matches") is False:
                codes.append(EXIT_NO)
            else:
                codes.append(EXIT_YES)
    if as_json:
        for row in rows:
            _emit_json(row)
    else:
        _print_summary(rows)
    return combine_exit(codes)


def _question_puzzle(path: Path):
    """For a mahjong puzzle (waits, best-discard, score) or a word puzzle (word-turn, word-bonus,
    word-check): (result row, exit code); else None. The code is 1 when the answer differs from
    the puzzle's expectation."""
    from solver.games.mahjong import puzzles as mahjong_puzzle
    from solver.games.words import puzzles as word_puzzle
    from solver.core.yamlload import load_file

    if path.suffix not in (".yaml", ".yml"):
        return None
    data = load_file(path)
    if mahjong_puzzle.is_mahjong_puzzle(data):
        row, code = mahjong_puzzle.solve_puzzle(path)
    elif word_puzzle.is_word_puzzle(data):
        row, code = word_puzzle.solve_puzzle(path)
    else:
        return None
    return row, (EXIT_NO if row.get("matches") is False else code)


def _question_puzzle_text(row: dict) -> str:
    q = row["question"]
    if q.startswith("word-"):
        from solver.games.words.present import bonus_text, check_text, turn_text

        answer = {"word-turn": turn_text, "word-bonus": bonus_text, "word-check": check_text}[q](row)
        answer = answer.replace("\n", "\n  ")
    elif q == "score":
        answer = f"{row['han']} han {row['fu']} fu, {row['points']['total']:,} points: " + ", ".join(
            y["name"] for y in row["yaku"])
    elif q == "best-discard":
        answer = f"discard {' or '.join(row['best_discard']) or '— (no discard leaves tenpai)'}, waits {' '.join(row['waits'])}"
    else:
        answer = f"waits {' '.join(row['waits'])}" if row["tenpai"] else "not tenpai"
    verdict = ("" if "matches" not in row else "  " + (click.style("ok", fg="green") if row["matches"] else
               click.style("MISMATCH: " + "; ".join(row["mismatches"]), fg="red")))
    return f"{row['title']}\n  {answer}{verdict}"


def _settle_if_round(path: Path):
    """For a round puzzle: (summary row, exit code); None for a hand to solve."""
    from solver.melding.puzzle import load_puzzle, round_mismatches
    from solver.melding.rounds import score_round

    mahjong_row = _question_puzzle(path)
    if mahjong_row is not None:  # in a folder, a puzzle is good when it matches its expectation
        row, code = mahjong_row
        return row, (code if "matches" not in row else EXIT_YES if row["matches"] else EXIT_NO)
    puzzle = load_puzzle(path)
    if puzzle.settlement is not None:
        from solver.melding.puzzle import settlement_mismatches
        from solver.games.marriage.settle import settle

        settled = settle(puzzle.settlement)
        problems = settlement_mismatches(puzzle, settled)
        row = {"puzzle": str(path), "title": puzzle.title, "systems": [settled],
               "matches": not problems, "mismatches": problems}
        return row, EXIT_YES if not problems else EXIT_NO
    if puzzle.round is None:
        return None
    systems = score_round(puzzle.round, _checker_for(puzzle.ruleset))
    problems = round_mismatches(puzzle, systems)
    row = {"puzzle": str(path), "title": puzzle.title, "systems": systems,
           "matches": not problems, "mismatches": problems}
    return row, EXIT_YES if not problems else EXIT_NO


def _print_summary(rows: list[dict]) -> None:
    width = max(len(r["puzzle"]) for r in rows)
    click.echo(f"{'puzzle':{width}}  {'answer':10}  {'seconds':>7}  check")
    for row in rows:
        if "error" in row:
            click.echo(f"{row['puzzle']:{width}}  {click.style('bad file', fg='red')}  {row['error']['message']}")
            continue
        if "systems" in row or "question" in row:
            verdict = (click.style("ok", fg="green") if row.get("matches") else
                       click.style("no expectation", dim=True) if "matches" not in row else
                       click.style("MISMATCH: " + "; ".join(row["mismatches"]), fg="red"))
            click.echo(f"{row['puzzle']:{width}}  {row.get('question', 'settled'):10}  {'':>7}  {verdict}")
            continue
        a = row["answer"]
        answer = {True: "goes out", False: "no", None: "undecided"}[a.solvable]
        if row["matches"] is None:
            verdict = click.style("no expectation", dim=True)
        elif row["matches"]:
            verdict = click.style("ok", fg="green")
        else:
            verdict = click.style("MISMATCH: " + "; ".join(row["mismatches"]), fg="red")
        click.echo(f"{row['puzzle']:{width}}  {answer:10}  {a.seconds:7.3f}  {verdict}")
    ok = sum(1 for r in rows if r.get("matches"))
    click.echo(f"{len(rows)} puzzles: {ok} match their expected answers, "
               f"{sum(1 for r in rows if r.get('matches') is False)} differ, "
               f"{sum(1 for r in rows if 'error' in r)} bad files")


def _solve_batch(stream, ruleset_ref, option_pairs, question, budget, draw=None, words=None) -> int:
    from solver.core.errors import MeldsError
    from solver.melding.present import answer_json
    from solver.core.ruleset import load_ruleset
    from solver.melding.turn import solve

    base_options = parse_options(option_pairs)
    sessions: dict = {}  # one dictionary per ruleset for the whole batch

    def handle(request: dict) -> tuple[dict, int]:
        if "puzzle" in request:
            result, code = _solve_puzzle(Path(request["puzzle"]), request.get("question"), budget)
            answer, problem, checker, info = result
            return {**answer_json(answer, problem, checker), **info}, code
        ref = request.get("ruleset", ruleset_ref)
        if not ref or not isinstance(request.get("hand"), (str, list)):
            raise MeldsError('each line needs "hand" and a ruleset ("ruleset" or -r)')
        ruleset = load_ruleset(ref, {**base_options, **request.get("options", {})})
        if ruleset.words:
            if id(ruleset) not in sessions:
                sessions[id(ruleset)] = _word_session(ruleset, words or {})
            return sessions[id(ruleset)].solve(request, seconds=budget.get("max_seconds"))
        if ruleset.hand_shapes:
            asked = request.get("question") or (
                "riichi-kan" if request.get("draw") or question == "riichi-kan" else "waits")
            if asked not in ("waits", "riichi-kan"):
                raise MeldsError('a mahjong line asks "question": "waits" or "riichi-kan" (with "draw")')
            result, code, _ = _mahjong_solve(ruleset, _hand_words(request, "hand"), asked,
                                             request.get("draw", draw), True)
            return result, code
        checker = _checker_for(ruleset)
        hand = request["hand"] if isinstance(request["hand"], str) else " ".join(request["hand"])
        turn = request.get("turn", {})
        problem = _inline_problem(ruleset, checker, hand, tuple(request.get("table", ())),
                                  turn.get("claimed"), bool(turn.get("has_melded")), turn.get("phase"),
                                  request.get("tiplu"), tuple(request.get("shown", ())))
        answer = solve(problem, request.get("question", question), checker=checker,
                       **{**budget, "count": bool(request.get("all", budget["count"]))})
        return answer_json(answer, problem, checker), _answer_code(answer)

    return run_batch(stream, handle)


@main.command("audit")
@click.argument("ruleset_ref", metavar="RULESET", required=False)
@click.option("--all", "all_rulesets", is_flag=True, help="Audit every bundled ruleset.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text", show_default=True,
              help="Text for the terminal, or Markdown (docs/audit-report.md).")
@json_option
@handle_errors
def audit_cmd(ruleset_ref, all_rulesets, fmt, as_json) -> None:
    """Find the contradictions, gaps and assumptions of a rule document, through its ruleset:
    its worked examples checked with the solver, meld sizes no meld can have, deals against the
    deck, every assumption with its quote. Exit 0 with no contradiction, 1 with one.

    \b
    Examples:
      melds audit basic-rummy
      melds audit --all --format markdown > docs/audit-report.md
      melds audit ./my-game.yaml --json
    """
    from solver.audit.engine import audit_ruleset
    from solver.core.errors import MeldsError
    from solver.audit.report import audit_markdown, audit_text, audits_json
    from solver.core.ruleset import bundled_rulesets, load_ruleset

    if bool(ruleset_ref) == bool(all_rulesets):
        raise MeldsError("give one RULESET (id or path) or --all")
    refs = [str(p) for p in bundled_rulesets()] if all_rulesets else [ruleset_ref]
    audits = [audit_ruleset(load_ruleset(ref)) for ref in refs]
    if as_json:
        _emit_json(audits_json(audits))
    else:
        click.echo(audit_markdown(audits) if fmt == "markdown" else audit_text(audits), nl=fmt != "markdown")
    sys.exit(EXIT_NO if any(a.contradictions for a in audits) else EXIT_YES)


@main.command("move")
@click.option("-r", "--ruleset", "ruleset_ref", help="Ruleset id or path (default: the state file's).")
@json_option
@click.argument("state_file", type=click.Path(dir_okay=False))
@click.argument("action", nargs=-1, required=True)
@handle_errors
def move_cmd(ruleset_ref, as_json, state_file, action) -> None:
    """Is ACTION legal now, in the game state STATE_FILE? The rule and quote that decide it, and
    the state after it.

    \b
    Examples:
      melds move -r basic-rummy puzzles/basic-rummy/moves/m01-draw-first.yaml draw stock
      melds move -r marriage puzzles/marriage/moves/m02-wild-to-seen-player.yaml draw discard
      melds move -r word-rummy puzzles/word-rummy/moves/m01-first-word.yaml word たぬき
    """
    from solver.present.moves import judgement_text

    state, moves = _state_and_moves(ruleset_ref, state_file)
    judgement = moves.judge(state, " ".join(action))
    _emit_json(judgement.to_json()) if as_json else click.echo(judgement_text(judgement))
    sys.exit(EXIT_YES if judgement.legal else EXIT_NO)


@main.command("moves")
@click.option("-r", "--ruleset", "ruleset_ref", help="Ruleset id or path (default: the state file's).")
@json_option
@click.argument("state_file", type=click.Path(dir_okay=False))
@handle_errors
def moves_cmd(ruleset_ref, as_json, state_file) -> None:
    """Every legal action in the game state STATE_FILE."""
    state, moves = _state_and_moves(ruleset_ref, state_file)
    legal = moves.legal_actions(state)
    if as_json:
        _emit_json({"turn": state.turn, "step": state.step, "actions": legal})
    else:
        click.echo(f"{state.turn} to play ({state.step}): {len(legal)} legal actions")
        for a in legal:
            click.echo(f"  {a}")
    sys.exit(EXIT_YES if legal else EXIT_NO)


def _state_and_moves(ruleset_ref, state_file):
    from solver.core.errors import MeldsError
    from solver.melding.moves import moves_for
    from solver.core.state import load_state

    if not Path(state_file).is_file():
        raise MeldsError(f"no state file {state_file!r}")
    state = load_state(state_file)
    if ruleset_ref:
        from solver.core.ruleset import resolve_path

        if resolve_path(ruleset_ref).resolve() != Path(state.ruleset.path).resolve():
            raise MeldsError(f"-r {ruleset_ref} but {state_file} is a {state.ruleset.id} state")
    return state, moves_for(state.ruleset)


@main.command("score")
@ruleset_option
@click.option("--penalty", is_flag=True, help="Score CARDS as a hand left at the end (罰点, deadwood).")
@click.option("--double", is_flag=True, help="With --penalty: the winner went out in one go (×2).")
@click.option("--ordered", is_flag=True, help="The meld is given in table order (its layout).")
@click.option("--phase", type=click.Choice(["yang", "yin"]), help="Field phase (Fesca).")
@click.option("--round", "round_arg", metavar="FILE|WIND",
              help="A round file to settle (puzzle format, round: section); for mahjong the round "
                   "wind, E or S.")
@click.option("--settle", "settle_file", type=click.Path(exists=True, dir_okay=False),
              help="Marriage: settle a round (settle: section) — maal points and payments.")
@click.option("--win", "win_tile", metavar="TILE", help="Mahjong: the winning tile.")
@click.option("--tsumo", is_flag=True, help="Mahjong: won by self-draw (default: ron).")
@click.option("--riichi", is_flag=True, help="Mahjong: the winner declared riichi.")
@click.option("--double-riichi", is_flag=True, help="Mahjong: riichi on the first turn (ダブル立直).")
@click.option("--ippatsu", is_flag=True, help="Mahjong: won within one go-around of riichi.")
@click.option("--haitei", is_flag=True, help="Mahjong: tsumo on the last tile (海底撈月).")
@click.option("--houtei", is_flag=True, help="Mahjong: ron on the last discard (河底撈魚).")
@click.option("--rinshan", is_flag=True, help="Mahjong: tsumo on a kan's replacement tile (嶺上開花).")
@click.option("--chankan", is_flag=True, help="Mahjong: ron on a tile added to a kan (槍槓).")
@click.option("--tenhou", is_flag=True, help="Mahjong: the dealer's first draw wins (天和).")
@click.option("--chiihou", is_flag=True, help="Mahjong: a non-dealer's first draw wins (地和).")
@click.option("--renhou", is_flag=True, help="Mahjong: ron before one's first draw (人和).")
@click.option("--seat", type=click.Choice(["E", "S", "W", "N"]), default="E", show_default=True,
              help="Mahjong: the winner's seat wind (E is the dealer).")
@click.option("--from", "discarder", type=click.Choice(["E", "S", "W", "N"]),
              help="Mahjong: the seat that dealt in (ron).")
@click.option("--dora-indicators", default="", metavar="TILES", help="Mahjong: the dora indicators.")
@click.option("--ura-indicators", default="", metavar="TILES", help="Mahjong: ura dora indicators (riichi).")
@click.option("--honba", type=click.IntRange(0), default=0, help="Mahjong: honba (積み棒).")
@click.option("--riichi-sticks", type=click.IntRange(0), default=0, help="Mahjong: riichi sticks on the table.")
@click.option("--dealer-streak", type=click.IntRange(0), default=0,
              help="Mahjong: the dealer's consecutive wins, this one included (八連荘 at 8).")
@click.option("--players", type=click.IntRange(3, 4), help="Mahjong: 3 or 4 players (3 picks the "
              "ruleset's three-player form).")
@click.option("--aotenjou", is_flag=True, help="Mahjong: 青天井 (no limits), the ruleset's aotenjou option.")
@click.option("--exhaustive-draw", is_flag=True,
              help="Mahjong: settle an exhaustive draw (不聴罰符, 流し満貫) with --tenpai and --nagashi.")
@click.option("--tenpai", default="", metavar="SEATS", help="Mahjong, --exhaustive-draw: seats in tenpai (E,S).")
@click.option("--nagashi", default="", metavar="SEATS", help="Mahjong, --exhaustive-draw: seats with 流し満貫.")
@click.option("--bonus-words", metavar="WORDS", help="Word games: the winner's bonus words from the loser's "
              "revealed CARDS, comma-separated (ねこ,いぬ); each tile in them scores -2 instead of -1.")
@dictionary_options
@options_option
@json_option
@click.option("--batch", type=click.File("r", encoding="utf-8"), metavar="FILE",
              help='JSON Lines of {"cards": "...", "penalty": bool, "double": bool, "ordered": bool}; '
                   'mahjong: {"hand", "win", "tsumo", "seat", ...} (docs/json-output.md).')
@click.argument("cards", nargs=-1)
@handle_errors
def score_cmd(ruleset_ref, penalty, double, ordered, phase, round_arg, settle_file, option_pairs,
              as_json, batch, cards, **mahjong) -> None:
    """Points of one meld (出来役加点), of a hand left at the end (--penalty), of a round, or of a
    winning mahjong hand (yaku, han, fu and payments).

    \b
    Examples:
      melds score -r fesca --ordered 土3 土4 土5 太極 土7
      melds score -r fesca --penalty 木1 木2 木3 空無土
      melds score -r fesca --round puzzles/fesca/r01-document-penalty-example.yaml
      melds score -r gensou-mahjong 234m567p345678s22p --win 8s --tsumo --riichi --seat S
      melds score -r gensou-mahjong --exhaustive-draw --tenpai E,S
      melds score -r word-rummy ねこいぬかさ --bonus-words ねこ,いぬ
    """
    from solver.core.errors import MeldsError
    from solver.melding.checker import MeldChecker
    from solver.core.ruleset import load_ruleset

    winds = ("E", "S", "W", "N")
    if round_arg and round_arg not in winds:
        if not Path(round_arg).is_file():
            raise MeldsError(f"--round {round_arg!r}: neither a round file nor a round wind (E, S)")
        sys.exit(_score_round(Path(round_arg), as_json))
    if settle_file:
        sys.exit(_score_settlement(Path(settle_file), as_json))
    word_options = {k: mahjong.pop(k) for k in ("bonus_words", "dict_files", "no_default_dict", "exclude_files")}
    ruleset = load_ruleset(ruleset_ref, parse_options(option_pairs))
    if ruleset.words is not None:
        sys.exit(_score_words(_word_session(ruleset, word_options), cards, word_options["bonus_words"],
                              as_json, batch))
    if word_options["bonus_words"]:
        raise MeldsError("--bonus-words is for word games")
    if ruleset.mahjong_scoring is not None:
        sys.exit(_score_mahjong_command(ruleset_ref, parse_options(option_pairs), cards, round_arg or "E",
                                        mahjong, as_json, batch))
    used = [f"--{k.replace('_', '-')}" for k, v in mahjong.items()
            if v and k not in ("seat",) and v != 0]
    if used or round_arg in winds:
        raise MeldsError(f"{' '.join(used) or '--round'} is for mahjong rulesets; {ruleset.id} has no "
                         f"mahjong_scoring")
    with MeldChecker(ruleset) as checker:
        def one(given, penalty, double, ordered, phase) -> tuple[dict, int]:
            faces = checker.notation.parse_many(given)
            if not faces:
                raise MeldsError("no cards given")
            return _score_cards(checker, faces, penalty, double, ordered, phase)

        if batch is not None:
            sys.exit(run_batch(batch, lambda r: one(r.get("cards") or "", bool(r.get("penalty", penalty)),
                                                    bool(r.get("double", double)),
                                                    bool(r.get("ordered", ordered)), r.get("phase", phase))))
        result, code = one(list(cards), penalty, double, ordered, phase)
        if as_json:
            _emit_json(result)
        else:
            click.echo(_score_text(result))
    sys.exit(code)


def _score_mahjong_command(ref: str, options: dict, words, round_wind: str, flags: dict, as_json: bool,
                           batch) -> int:
    """melds score for a mahjong ruleset: one hand from the flags, a batch, or a draw."""
    from solver.games.mahjong.present import draw_text

    base = {"round": round_wind, **{("win" if k == "win_tile" else k): v for k, v in flags.items()
                                    if v not in (None, "", False)}}
    if batch is not None:
        return run_batch(batch, lambda r: _score_mahjong(ref, options, {**base, **r}, True)[:2])
    if flags["exhaustive_draw"]:
        result = _settle_draw(ref, options, base)
        _emit_json(result) if as_json else click.echo(draw_text(result))
        return EXIT_YES
    result, code, text = _score_mahjong(ref, options, {**base, "hand": " ".join(words)}, as_json)
    _emit_json(result) if as_json else click.echo(text)
    return code


def _mahjong_ruleset(ref: str, options: dict, request: dict):
    """The ruleset for a scoring request: --players 3 picks the three-player form, --aotenjou
    sets the option."""
    from solver.core.errors import MeldsError
    from solver.core.ruleset import load_ruleset

    options = {**options, **request.get("options", {})}
    if request.get("aotenjou"):
        options["aotenjou"] = True
    ruleset = load_ruleset(ref, options)
    players = request.get("players")
    if players and ruleset.players and not ruleset.players[0] <= players <= ruleset.players[1]:
        variant = _player_variant(ruleset.id, players)
        if variant:
            return load_ruleset(variant, options)
        raise MeldsError(f"{ruleset.id} is for {ruleset.players[0]}–{ruleset.players[1]} players and has "
                         f"no {players}-player form")
    if "aotenjou" in options and "aotenjou" not in ruleset.options:
        raise MeldsError(f"{ruleset.id} has no aotenjou option")
    return ruleset


@functools.lru_cache(maxsize=None)
def _player_variant(ruleset_id: str, players: int) -> str | None:
    """The bundled ruleset that extends ``ruleset_id`` for this many players (read once)."""
    from solver.core.ruleset import bundled_rulesets
    from solver.core.yamlload import load_file

    for path in bundled_rulesets():
        raw = load_file(str(path))
        span = raw.get("players", {})
        if raw.get("extends") == ruleset_id and span.get("min", 0) <= players <= span.get("max", 0):
            return str(path)
    return None


_SCORERS: dict = {}


def _scorer_for(ruleset):
    from solver.games.mahjong.scoring import Scorer

    if id(ruleset) not in _SCORERS:
        _SCORERS[id(ruleset)] = (ruleset, Scorer(_mahjong_for(ruleset)))
    return _SCORERS[id(ruleset)][1]


def _score_mahjong(ref: str, options: dict, request: dict, as_json: bool) -> tuple[dict, int, str]:
    """Score one winning hand: (JSON result, exit code, text)."""
    from solver.core.errors import MeldsError
    from solver.games.mahjong.present import score_json, score_text
    from solver.games.mahjong.scoring import NotAWin, win_from_facts

    ruleset = _mahjong_ruleset(ref, options, request)
    scorer = _scorer_for(ruleset)
    mj = scorer.mj
    words = _hand_words(request, "hand", "cards")
    if not request.get("win"):
        raise MeldsError("--win TILE is needed: the winning tile (in the hand, or added to 13 tiles)")
    hand = mj.parse_hand(words)
    if mj.size(hand) == mj.winning_size - 1:
        hand = mj.parse_hand(words + " " + str(request["win"]))
    players = int(request.get("players") or (ruleset.players[1] if ruleset.players else 4))
    win = win_from_facts(scorer, str(request["win"]), request, players)
    try:
        score = scorer.score(hand, win)
    except NotAWin as exc:
        result = {"ruleset": ruleset.id, "hand": mj.format_hand(hand), "win": str(request["win"]),
                  "winning": False, "reason": str(exc), "han": 0, "fu": 0, "yaku": [], "points": None}
        return result, EXIT_NO, click.style("no win", fg="red", bold=True) + f": {exc}"
    result = score_json(scorer, hand, win, score)
    return result, EXIT_YES, "" if as_json else score_text(scorer, hand, win, score, result)


def _settle_draw(ref: str, options: dict, request: dict) -> dict:
    from solver.core.errors import MeldsError

    ruleset = _mahjong_ruleset(ref, options, request)
    scorer = _scorer_for(ruleset)
    players = int(request.get("players") or (ruleset.players[1] if ruleset.players else 4))

    def seats(text) -> list[str]:
        items = text if isinstance(text, list) else [x for x in str(text).replace(",", " ").split() if x]
        for x in items:
            if x not in "ESWN"[:players]:
                raise MeldsError(f"unknown seat {x!r}: {players} players sit {', '.join('ESWN'[:players])}")
        return items

    tenpai, nagashi = seats(request.get("tenpai", "")), seats(request.get("nagashi", ""))
    return {"ruleset": ruleset.id, "draw": True, "players": players, "tenpai": tenpai, "nagashi": nagashi,
            "payments": scorer.settle_draw(players, tenpai, nagashi)}


def _score_cards(checker, faces, penalty, double, ordered, phase) -> tuple[dict, int]:
    from solver.melding.present import verdict_json
    from solver.melding.points import hand_breakdown, hand_points, meld_breakdown

    rs, fmt = checker.ruleset, checker.notation
    if penalty:
        checker.notation.check_copies(faces)
        factor = 2 if double else 1
        return {"points": hand_points(rs, faces) * factor, "breakdown": hand_breakdown(rs, faces, fmt),
                "doubled": double, "cards": [fmt.format(f) for f in faces], "mode": "penalty",
                "ruleset": rs.id}, EXIT_YES
    if ordered:
        verdict = checker.check(faces, phase=phase, ordered=True)
        reading = verdict.reading
        from solver.melding.points import meld_points
        points = meld_points(reading) if verdict.legal else None
    else:
        verdict, points, reading = checker.best_reading(faces, phase=phase)
        if not verdict.legal:
            verdict = checker.check(faces, phase=phase)  # with the reasons
            points = None
    out = {"points": points, "breakdown": meld_breakdown(reading, fmt) if verdict.legal else [],
           "mode": "meld", "legal": verdict.legal, "kind": reading.kind.id if verdict.legal else None,
           "cards": verdict_json(verdict, checker)["cards"] if verdict.legal else [fmt.format(f) for f in faces],
           "reasons": [r.to_json() for r in verdict.reasons], "ruleset": rs.id}
    if verdict.legal:
        out["cards"] = [{"card": fmt.format(p.face), "as": fmt.format_identity(p.identity),
                         "role": p.role, "wild": p.wild} for p in reading.placements]
    return out, EXIT_YES if verdict.legal else EXIT_NO


def _score_text(result: dict) -> str:
    if result["mode"] == "penalty":
        lines = [f"hand points: {result['points']}" + (" (doubled)" if result["doubled"] else "")]
        for part in result["breakdown"]:
            lines.append(f"  {part['group']:8} {' '.join(part['cards'])}: {part['points']}")
        return "\n".join(lines)
    if not result["legal"]:
        lines = [click.style("not a legal meld", fg="red", bold=True) + ": no points"]
        lines += [f"  {r['code']}: {r['message']}" for r in result["reasons"]]
        return "\n".join(lines)
    cards = " ".join(c["card"] + (f"={c['as']}" if c["wild"] else "") for c in result["cards"])
    lines = [f"{result['points']} point{'s' * (result['points'] != 1)}: {cards} ({result['kind']})"]
    for part in result["breakdown"]:
        note = f" — {part['note']}" if part.get("note") else ""
        lines.append(f"  {' '.join(part['cards'])}: {part['counted']} counted, {part['points']} pt{note}")
    return "\n".join(lines)


def _score_settlement(path: Path, as_json: bool) -> int:
    from solver.core.errors import MeldsError
    from solver.melding.puzzle import load_puzzle, settlement_mismatches
    from solver.games.marriage.settle import settle

    puzzle = load_puzzle(path)
    if puzzle.settlement is None:
        raise MeldsError(f"{path} has no settle: section")
    settled = settle(puzzle.settlement)
    fmt = _checker_for(puzzle.ruleset).notation
    problems = settlement_mismatches(puzzle, settled) if puzzle.expect else None
    if as_json:
        out = {"settle": str(path), "tiplu": fmt.format(puzzle.settlement.tiplu),
               "winner": puzzle.settlement.winner, **settled}
        if problems is not None:
            out.update(matches=not problems, mismatches=problems)
        _emit_json(out)
    else:
        click.echo(click.style(puzzle.title, bold=True) + f" — tiplu {fmt.format(puzzle.settlement.tiplu)}, "
                   f"winner {puzzle.settlement.winner}")
        click.echo("maal points: " + ", ".join(f"{k} {v}" for k, v in settled["maal"].items())
                   + f" (total {settled['total']})")
        for name, row in settled["per_player"].items():
            click.echo(f"  {name} pays {puzzle.settlement.winner}: {row['game']} + {row['total']} − "
                       f"{row['own']} × {row['players']} = {row['pays']}")
        _echo_payments(settled["payments"], problems, "settlement")
    return EXIT_YES if not problems else EXIT_NO


def _echo_payments(payments: dict, problems: list | None, what: str) -> None:
    """Points received per player, then whether they match the puzzle's expectation."""
    for name, value in payments.items():
        click.echo(f"  {name:6} {value:+d}")
    if problems is not None:
        click.echo(click.style(f"matches the expected {what}", fg="green") if not problems
                   else click.style("differs: " + "; ".join(problems), fg="red"))


def _score_round(path: Path, as_json: bool) -> int:
    from solver.core.errors import MeldsError
    from solver.melding.puzzle import load_puzzle, round_mismatches
    from solver.melding.rounds import score_round

    puzzle = load_puzzle(path)
    if puzzle.round is None:
        raise MeldsError(f"{path} has no round: section to score")
    systems = score_round(puzzle.round, _checker_for(puzzle.ruleset))
    problems = round_mismatches(puzzle, systems) if puzzle.expect else None
    if as_json:
        out = {"round": str(path), "winner": puzzle.round.winner, "one_go": puzzle.round.one_go,
               "systems": systems}
        if problems is not None:
            out.update(matches=not problems, mismatches=problems)
        _emit_json(out)
    else:
        click.echo(click.style(puzzle.title, bold=True) + f" — winner {puzzle.round.winner}"
                   + (", in one go" if puzzle.round.one_go else ""))
        for system in systems:
            click.echo(f"{system['name']} ({system['id']}):")
            for player, value in system["payments"].items():
                click.echo(f"  {player:6} {value:+d}")
        _echo_payments({}, problems, "payments")
    return EXIT_YES if not problems else EXIT_NO


if __name__ == "__main__":
    main()
