"""The daily deal and a random deal of a grade (freecell._search.daily), and `freecell daily`."""

import datetime as dt
import hashlib
import json
import subprocess
import sys
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell import (
    DAILY_GRADES,
    DIFFICULTY_GRADES,
    MICROSOFT_DEALS,
    DateError,
    GradedDealSearch,
    GradeError,
    daily_deal,
    daily_grade,
    deal_candidates,
    difficulty,
    graded_deal,
    parse_date,
    solve,
)
from freecell._web import Session

FREECELL = [sys.executable, "-m", "freecell"]
MONDAY = dt.date(2026, 11, 30)
WEEK = [MONDAY + dt.timedelta(days) for days in range(7)]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m freecell ARGS` and capture its output."""
    command = [*FREECELL, *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)


class TestRule:
    def test_grades_rise_through_the_week(self) -> None:
        """Monday is grade 1 and Sunday 5; no day is easier than the day before."""
        assert [daily_grade(day) for day in WEEK] == list(DAILY_GRADES)
        assert DAILY_GRADES[0] == DIFFICULTY_GRADES[0]
        assert DAILY_GRADES[-1] == DIFFICULTY_GRADES[-1]
        assert list(DAILY_GRADES) == sorted(DAILY_GRADES)
        assert set(DAILY_GRADES) == set(DIFFICULTY_GRADES)

    def test_candidates_are_the_documented_hash(self) -> None:
        """Candidate i is the first 8 bytes of SHA-256 of "SEED:i", mod 1,000,000, plus 1."""
        for seed in ("2026-11-30", "x", "日"):
            wanted = [
                int.from_bytes(hashlib.sha256(f"{seed}:{i}".encode()).digest()[:8], "big")
                % 1_000_000
                + 1
                for i in range(50)
            ]
            assert list(islice(deal_candidates(seed), 50)) == wanted

    def test_candidates_are_microsoft_deals(self) -> None:
        """Every candidate is one of Windows FreeCell's million deals."""
        assert all(n in MICROSOFT_DEALS for n in islice(deal_candidates("range"), 2000))

    @pytest.mark.slow
    @pytest.mark.parametrize("day", WEEK, ids=str)
    def test_the_day_s_deal_has_the_weekday_s_grade(self, day: dt.date) -> None:
        """The daily deal is solved by freecell solve with the grade of its weekday."""
        assert difficulty(solve(daily_deal(day))) == daily_grade(day)

    @pytest.mark.parametrize("day", WEEK[:4], ids=str)
    def test_it_is_the_first_candidate_of_that_grade(self, day: dt.date) -> None:
        """Every candidate before the deal has another grade (a full solve of each says so)."""
        number = daily_deal(day)
        for candidate in deal_candidates(day.isoformat()):
            if candidate == number:
                break
            assert difficulty(solve(candidate)) != daily_grade(day)

    def test_deterministic_and_text_equals_date(self) -> None:
        """The same date gives the same deal, as a date, as text or as a datetime."""
        first = daily_deal(MONDAY)
        assert daily_deal("2026-11-30") == first
        assert daily_deal(dt.datetime(2026, 11, 30, 23, 59, tzinfo=dt.UTC)) == first
        assert daily_deal(MONDAY) == first

    @pytest.mark.slow
    def test_dates_differ(self) -> None:
        """A week of dates gives seven deals, each found from its own date."""
        assert len({daily_deal(day) for day in WEEK}) == len(WEEK)


class TestGradedDeal:
    @settings(max_examples=5, deadline=None)
    @given(st.text(max_size=20), st.sampled_from(list(DIFFICULTY_GRADES)[:4]))
    def test_any_seed_gives_a_deal_of_the_grade(self, seed: str, grade: int) -> None:
        """graded_deal's deal has the grade asked for, whatever the seed."""
        assert difficulty(solve(graded_deal(seed, grade))) == grade

    def test_slices_do_not_change_the_answer(self) -> None:
        """A search worked in tiny slices finds graded_deal's deal, with solve's own solution."""
        finder = GradedDealSearch("slices", 4)
        steps = 0
        while (number := finder.step(0.0001)) is None:
            steps += 1
        assert steps > 1
        assert number == graded_deal("slices", 4) == finder.found
        assert finder.solution is not None
        assert finder.solution.states == solve(number).states
        assert finder.solution.moves == solve(number).moves

    @pytest.mark.parametrize("grade", [0, 6, -1, "x", "", "4.0", " 9"])
    def test_bad_grade(self, grade: object) -> None:
        """A grade out of 1..5 raises GradeError naming the valid grades."""
        with pytest.raises(GradeError, match="from 1 to 5") as raised:
            GradedDealSearch("seed", grade)  # type: ignore[arg-type]
        assert raised.value.code == "grade-invalid"


class TestParseDate:
    @given(st.dates())
    def test_round_trip(self, day: dt.date) -> None:
        """Every date's ISO text reads back as that date."""
        assert parse_date(day.isoformat()) == day

    @pytest.mark.parametrize(
        "text", ["", "2026-1-1", "2026-02-30", "20261130", "2026-11-30T00:00", "30/11/2026",
                 "today", " 2026-11-30", "2026-13-01", "\uff12\uff10\uff12\uff16-11-30"],
    )  # fmt: skip
    def test_bad_dates(self, text: str) -> None:
        """Anything but YYYY-MM-DD of a real date raises DateError quoting it."""
        with pytest.raises(DateError, match="YYYY-MM-DD") as raised:
            parse_date(text)
        assert raised.value.params == {"text": text}


class TestCommand:
    @pytest.mark.slow
    def test_dates_print_the_library_s_deals(self) -> None:
        """`freecell daily DATE...` prints a line a date: the deal, its grade, date, weekday."""
        result = run("daily", *(day.isoformat() for day in WEEK))
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        assert len(lines) == len(WEEK)
        for line, day in zip(lines, WEEK, strict=True):
            number, word, grade, date, weekday = line.split()
            assert (int(number), word, int(grade)) == (daily_deal(day), "grade", daily_grade(day))
            assert (date, weekday) == (day.isoformat(), day.strftime("%A"))

    @pytest.mark.slow
    def test_today_is_utc(self) -> None:
        """With no date, the deal is today's (UTC) (the test allows for midnight passing)."""
        before = dt.datetime.now(dt.UTC).date()
        result = run("daily")
        after = dt.datetime.now(dt.UTC).date()
        assert result.returncode == 0
        assert result.stdout.split()[3] in {before.isoformat(), after.isoformat()}
        day = parse_date(result.stdout.split()[3])
        assert int(result.stdout.split()[0]) == daily_deal(day)

    @pytest.mark.parametrize("args", [["2026-02-30"], ["tomorrow"], ["2026-11-30", "x"], ["-x"]])
    def test_bad_input(self, args: list[str]) -> None:
        """A bad date (or option) is one line on stderr, status 2, nothing on stdout."""
        result = run("daily", *args)
        assert result.returncode == 2
        assert result.stdout == ""
        assert len(result.stderr.splitlines()) == 1
        assert result.stderr.startswith("freecell daily: ")

    def test_help(self) -> None:
        """-h tells the rule: the weekdays' grades and the candidates' hash."""
        result = run("daily", "-h")
        assert result.returncode == 0
        assert "Sunday 5" in result.stdout
        assert "SHA-256" in result.stdout


def until_done(session: Session, request: str, *args: str) -> dict[str, object]:
    """Ask the session, thinking in 5 ms slices while it says pending; return the answer."""
    while (answer := json.loads(getattr(session, request)(*args))).get("pending"):
        while session.think(0.005) == "thinking":
            pass
    reply: dict[str, object] = answer
    return reply


class TestSession:
    def test_daily_is_the_library_s(self) -> None:
        """Session.daily answers the library's deal and grade for each weekday."""
        session = Session()
        for day in WEEK[:3]:
            reply = until_done(session, "daily", day.isoformat())
            assert reply["number"] == daily_deal(day)
            assert reply["difficulty"] == daily_grade(day)
            assert reply["date"] == day.isoformat()

    def test_random_deal_of_a_grade(self) -> None:
        """Session.random_deal's deal has the grade, and is graded_deal's for the seed."""
        reply = until_done(Session(), "random_deal", "3", "abc")
        assert reply["number"] == graded_deal("abc", 3)
        assert difficulty(solve(graded_deal("abc", 3))) == 3

    def test_the_found_deal_is_graded_at_once(self) -> None:
        """Opening the deal found, its grade comes without another search."""
        session = Session()
        number = until_done(session, "random_deal", "2", "seed")["number"]
        session.new_game(str(number))
        assert json.loads(session.grade())["difficulty"] == 2

    def test_the_game_goes_on_while_it_searches(self) -> None:
        """Requests about the game answer between the finder's slices, and share the time."""
        session = Session()
        session.new_game("617")
        assert json.loads(session.random_deal("5", "busy"))["pending"]
        assert json.loads(session.hint())["pending"]
        assert json.loads(session.play("8", "2"))["ok"]
        assert json.loads(session.check())["pending"]
        while session.think(0.002) == "thinking":
            pass
        # the guard's search of the game ends first: the finder of grade 5 has more to do
        assert json.loads(session.check())["solvable"] == "yes"
        assert json.loads(session.random_deal("5", "busy")).get("pending")

    def test_a_new_game_ends_the_search(self) -> None:
        """Opening a deal drops the search for another one: think has nothing left."""
        session = Session()
        assert json.loads(session.daily("2026-12-06"))["pending"]
        assert session.think(0.001) == "thinking"
        session.new_game("1")
        assert session.think(0.001) == "idle"

    @pytest.mark.parametrize(("request_", "args", "code"), [
        ("daily", ("2026-02-30",), "date-invalid"),
        ("daily", ("x" * 60,), "date-invalid"),
        ("random_deal", ("0", "s"), "grade-invalid"),
        ("random_deal", ("<b>9</b>", "s"), "grade-invalid"),
    ])  # fmt: skip
    def test_refusals(self, request_: str, args: tuple[str, ...], code: str) -> None:
        """Bad dates and grades are refused with their code; a grade's params name 1..5."""
        reply = json.loads(getattr(Session(), request_)(*args))
        assert (reply["ok"], reply["code"]) == (False, code)
        if code == "grade-invalid":
            assert (reply["params"]["min"], reply["params"]["max"]) == (1, 5)
