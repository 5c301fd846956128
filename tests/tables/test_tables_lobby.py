"""Issue 27, item 2: the table's lobby. A browser gives its name once (the creator too, before
the table opens) and every table knows it; the seats are drawn around the felt, each with its
player's name or "free"; what the table waits for is said in words; the room's settings are
groups of radio buttons the creator starts with."""

from __future__ import annotations

import re

SAME_SITE = {"origin": "http://testserver"}
EN = {"accept-language": "en"}


def seat_texts(page: str) -> dict[str, str]:
    """The lobby's seats by number: their text, tags and spaces dropped."""
    seats = re.findall(r'data-seat-row="(\d)"[^>]*>(.*?)</div>', page, re.S)
    return {n: " ".join(re.sub(r"<[^>]+>", " ", body).split()) for n, body in seats}


async def test_the_creator_gives_a_name_before_the_table_opens(new_client):
    creator = new_client(headers=EN)
    asked = await creator.post("/hearts/tables", headers=SAME_SITE)
    assert asked.status_code == 303 and asked.headers["location"] == "/hearts/tables/new"
    form = (await creator.get("/hearts/tables/new")).text
    assert 'name="name"' in form and "Your name at the table" in form
    assert not (await creator.get("/api/settings")).json().get("nickname")  # nothing opened

    bad = await creator.post("/hearts/tables", data={"name": "\u3164"}, headers=SAME_SITE)
    assert bad.status_code == 400
    opened = await creator.post("/hearts/tables", data={"name": "An"}, headers=SAME_SITE)
    assert opened.status_code == 303
    url = opened.headers["location"]
    page = (await creator.get(url)).text
    seats = seat_texts(page)
    assert seats["0"] == "South · host An (you)"  # never "South" as a name
    assert all("Free" in seats[n] for n in "123")
    assert "Waiting for friends: 3 seats are free." in page
    # The room's settings: radio groups, the table's values chosen.
    assert re.findall(r'name="level" value="(\w+)"( checked)?', page) == [
        ("easy", ""), ("normal", " checked"), ("hard", ""), ("expert", "")]
    assert ('none', '') in re.findall(r'name="seconds" value="(\w+)"( checked)?', page)
    assert 'name="seconds" value="30" checked' in page
    # The name is kept: the next table opens at once, under it.
    again = await creator.post("/hearts/tables", headers=SAME_SITE)
    assert again.status_code == 303 and again.headers["location"].startswith("/hearts/t/")
    page = (await creator.get(again.headers["location"])).text
    assert seat_texts(page)["0"] == "South · host An (you)"


async def test_a_guest_gives_a_name_once_for_every_table(new_client):
    creator, guest = new_client(headers=EN), new_client(headers=EN)
    first = (await creator.post("/hearts/tables", data={"name": "An"}, headers=SAME_SITE))
    url = first.headers["location"]
    page = (await guest.get(url)).text
    # Unknown yet: the name field is open, and each free seat's button sends it.
    assert '<details>' not in page.split('id="tb-name"')[1]
    assert page.count('form="tb-name"') == 3
    assert "Pick a free seat to play." in page
    sat = await guest.post(f"{url}/sit", data={"name": "Lan", "seat": "2"}, headers=SAME_SITE)
    assert sat.status_code == 303
    page = (await guest.get(url)).text
    # The guest sits at the bottom of their own screen; the creator's seat is across.
    assert re.search(r'data-seat="0" data-seat-row="2"', page)
    assert seat_texts(page)["2"] == "North Lan (you)"
    assert "Waiting for An to start the match." in page
    assert "An chooses the bots and the turn limit." in page
    assert 'data-action="start"' not in page
    assert "Waiting for friends: 2 seats are free." in (await creator.get(url)).text

    # Another table: the name is known, folded under "You: Lan"; a seat is one tap.
    other = (await creator.post("/hearts/tables", headers=SAME_SITE)).headers["location"]
    page = (await guest.get(other)).text
    assert "You: Lan" in page and "<details>" in page
    sat = await guest.post(f"{other}/sit", data={"seat": "3"}, headers=SAME_SITE)
    assert sat.status_code == 303
    assert seat_texts((await creator.get(other)).text)["3"] == "East Lan"


async def test_a_seated_player_changes_their_name(new_client):
    creator, guest = new_client(headers=EN), new_client(headers=EN)
    url = (await creator.post("/hearts/tables", data={"name": "An"}, headers=SAME_SITE)
           ).headers["location"]
    await guest.post(f"{url}/sit", data={"name": "Lan", "seat": "1"}, headers=SAME_SITE)
    renamed = await guest.post(f"{url}/name", data={"name": "Lan Anh"}, headers=SAME_SITE)
    assert renamed.status_code == 303
    assert seat_texts((await creator.get(url)).text)["1"] == "West Lan Anh"
    # Another player's name is refused and changes nothing.
    taken = await guest.post(f"{url}/name", data={"name": "an"}, headers=SAME_SITE)
    assert taken.status_code == 409
    assert seat_texts((await creator.get(url)).text)["1"] == "West Lan Anh"
    assert "You: Lan Anh" in (await guest.get(url)).text
    empty = await guest.post(f"{url}/name", data={"name": ""}, headers=SAME_SITE)
    assert empty.status_code == 400


async def test_the_lobby_in_vietnamese(new_client):
    creator = new_client(headers={"accept-language": "vi"})
    url = (await creator.post("/hearts/tables", data={"name": "An"}, headers=SAME_SITE)
           ).headers["location"]
    page = (await creator.get(url)).text
    assert "Gửi liên kết mời cho bạn bè" in page
    assert "Đang chờ bạn bè: còn 3 ghế trống." in page
    assert "Không giới hạn" in page and "Người máy" in page
