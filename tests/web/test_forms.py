"""The hand-read forms of the hot page routes (app/web/forms.py) against the standard library's
``parse_qsl``, and bodies that come in several messages."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import ClientDisconnect, Request

from app.web.forms import parse_urlencoded, read_body

MAX_FIELDS = 8
PIECES = st.sampled_from(["&", "=", "%", "+", "%3A", "%zz", "%e1%bb%9d", "%e1", "target",
                          "version", "elapsed", "heart:3", "12", " ", "ạ", ";", "&&", "=="])
FORMS = st.lists(st.one_of(PIECES, st.text(max_size=3)), max_size=24).map("".join)


def standard(text: str) -> dict[str, str] | type[ValueError]:
    try:
        return dict(parse_qsl(text, max_num_fields=MAX_FIELDS))
    except ValueError:
        return ValueError


def by_hand(text: str) -> dict[str, str] | type[ValueError]:
    try:
        return parse_urlencoded(text, MAX_FIELDS)
    except ValueError:
        return ValueError


@given(FORMS)
def test_a_form_reads_as_parse_qsl_reads_it(text: str):
    assert by_hand(text) == standard(text)


@pytest.mark.parametrize("text", [
    "target=heart%3A3&version=12&elapsed=3.5", "version=4&elapsed=", "a=1&a=2", "=x&y",
    "a+b=c+d", "x=%zz", "&" * 7, "&" * 8, "v=1;w=2",
])
def test_forms_players_and_strangers_send(text: str):
    assert by_hand(text) == standard(text)


def request_sending(*messages: dict) -> Request:
    queue = list(messages)

    async def receive() -> dict:
        return queue.pop(0)

    return Request({"type": "http", "method": "POST", "headers": []}, receive)


async def test_a_body_in_several_messages_is_read_whole():
    request = request_sending(
        {"type": "http.request", "body": b"target=", "more_body": True},
        {"type": "http.request", "body": b"", "more_body": True},
        {"type": "http.request", "body": b"stock&version=3"},
    )
    assert await read_body(request) == b"target=stock&version=3"


async def test_a_client_gone_mid_body_is_a_disconnect():
    request = request_sending({"type": "http.request", "body": b"target=", "more_body": True},
                              {"type": "http.disconnect"})
    with pytest.raises(ClientDisconnect):
        await read_body(request)
