"""The page's requests: one table (freecell._web.protocol), the rest checked against it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from freecell._web import Session, warm_up
from freecell._web.protocol import REQUESTS, SLICE_SECONDS, Pending, Refusal, arguments, bind

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "web" / "src" / "app"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
NOT_REQUESTS = {"handle", "protocol", "think"}
"""Session's public methods that the page does not ask by name: the worker calls them."""


def docs_table() -> str:
    """Return docs/architecture.md's table of the requests, as the table in Python makes it."""
    lines = ["| request | arguments | reply | scheduling |", "|---|---|---|---|"]
    for name, request in REQUESTS.items():
        args = ", ".join(
            f"`{argument}`".replace("|", "\\|")  # a | in a table's cell, code or not
            for argument in arguments(getattr(Session, name))
        )
        scheduling = ("waits for its search" if request.waits else "") + (
            "; " if request.waits and request.ends else ""
        )
        if request.ends:
            scheduling += "ends " + ", ".join(f"`{end}`" for end in request.ends)
        lines.append(f"| `{name}` | {args} | `{request.reply.__name__}` | {scheduling} |")
    return "\n".join(lines) + "\n"


def fits(reply: dict[str, Any], shape: Any) -> bool:
    """Tell whether a reply has every key its TypedDict requires and no key it lacks."""
    keys = set(shape.__required_keys__) | set(shape.__optional_keys__)
    return set(shape.__required_keys__) <= set(reply) <= keys


class TestTable:
    """The table names every request the page can make, each a method of the session."""

    def test_every_request_is_a_session_method_with_json_arguments(self) -> None:
        """Each request calls the Session method of its name, whose parameters are JSON's."""
        for name in REQUESTS:
            assert callable(getattr(Session, name, None)), name
            arguments(getattr(Session, name))  # raises for a type the page cannot send

    def test_every_public_session_method_is_a_request(self) -> None:
        """A method added to Session for the page without a line in the table fails here."""
        public = {name for name in vars(Session) if not name.startswith("_")}
        assert public - NOT_REQUESTS == set(REQUESTS)

    def test_the_docs_list_the_table(self) -> None:
        """docs/architecture.md's table of requests is the table's, arguments and all."""
        text = ARCHITECTURE.read_text(encoding="utf-8")
        assert docs_table() in text, "docs/architecture.md's requests should read:\n" + (
            docs_table()
        )

    def test_the_worker_lists_no_request(self) -> None:
        """requests.js and worker.js name no request in their code: they forward any by name."""
        for module in ("requests.js", "worker.js"):
            code = (APP / "worker" / module).read_text(encoding="utf-8")
            named = [
                name
                for name in REQUESTS
                if re.search(rf"[\"'`]{name}[\"'`]|^\s*{name}\s*:|\.{name}\(", code, re.MULTILINE)
            ]
            assert named == [], f"{module} names {named}"

    def test_the_slice_is_python_s(self) -> None:
        """The worker thinks a slice as Python's default says: think() with no length given."""
        code = (APP / "worker" / "requests.js").read_text(encoding="utf-8")
        assert re.findall(r"\.think\(([^)]*)\)", code) == [""]
        assert Session.think.__defaults__ == (SLICE_SECONDS,)

    def test_every_request_the_page_makes_is_in_the_table(self) -> None:
        """Every request the page's modules ask for by name is one the table has."""
        asked = set()
        for module in (APP / "page").glob("*.js"):
            code = module.read_text(encoding="utf-8")
            asked |= set(re.findall(r'\b(?:call|act|find)\(\s*"(\w+)"', code))
            asked |= set(re.findall(r'\bop: "(\w+)"', code))
        assert asked, "the page's requests were not found: has the way they are made changed?"
        assert asked <= set(REQUESTS), asked - set(REQUESTS)


class TestHandle:
    """Session.handle checks a request against the table and answers it."""

    @pytest.mark.parametrize(
        ("request_name", "args", "error"),
        [
            ("cheat", "{}", "unknown request 'cheat'; the requests are new_game, play, "),
            ("seek", "[3]", "request seek: the arguments must be an object; seek takes (moves"),
            ("seek", "{", "Expecting property name"),
            ("seek", "{}", "request seek: moves is missing; seek takes (moves: int)"),
            ("seek", '{"moves": true}', "request seek: moves must be int, not bool (True)"),
            ("seek", '{"moves": 1, "x": 2}', "request seek: no argument 'x'; seek takes"),
            ("play", '{"source": 5, "target": "a"}', "request play: source must be str, not int"),
            ("x" * 1000, "{}", "unknown request 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"),
            ("seek", "[" * 100_000, "maximum recursion depth"),
        ],
    )  # fmt: skip
    def test_a_request_that_does_not_fit_is_refused_saying_what_fits(
        self, request_name: str, args: str, error: str
    ) -> None:
        """A request the table lacks, or arguments that do not fit it, get one short message."""
        reply = json.loads(Session().handle(request_name, args))
        assert reply["ok"] is False
        assert error in reply["error"]
        assert len(reply["error"]) < 400

    def test_a_missing_or_null_argument_takes_its_default(self) -> None:
        """Arguments left out, or null, take the method's defaults, as a direct call does."""
        session = Session()
        direct = json.loads(Session().new_game("617"))
        assert json.loads(session.handle("new_game", '{"text": "617", "moves": null}')) == direct

    def test_bind_gives_the_method_its_arguments_by_name(self) -> None:
        """bind passes what the request gave, by name, and leaves the defaults to the method."""
        play = Session.play
        assert bind("play", play, {"source": "1", "target": "a"}) == {"source": "1", "target": "a"}


class TestReplies:
    """Every reply has the shape the table declares for its request."""

    def test_warm_up_makes_every_request_and_each_reply_fits_its_shape(
        self, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """warm_up, which the worker and the build run, asks every request; each reply fits."""
        made: list[tuple[str, dict[str, Any]]] = []
        handle = Session.handle

        def recorded(self: Session, request: str, args: str = "{}") -> str:
            reply = handle(self, request, args)
            made.append((request, json.loads(reply)))
            return reply

        monkeypatch.setattr(Session, "handle", recorded)
        warm_up(617, 60)
        assert {name for name, _ in made} - set(REQUESTS) == {"no such request"}
        assert {name for name, _ in made} >= set(REQUESTS)
        for name, reply in made:
            if name not in REQUESTS:
                continue
            shape = REQUESTS[name].reply
            if reply["ok"] is False:
                assert fits(reply, Refusal), (name, reply)
            elif reply.get("pending"):
                assert fits(reply, Pending), (name, reply)
            else:
                assert fits(reply, shape), (name, sorted(reply))
