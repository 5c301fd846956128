"""Issue 28, F9: one name per person at a table, and the nickname checks on its seats."""

from __future__ import annotations

import pytest

from tests.tables.test_tables_pages import SAME_SITE, open_table

TAKEN = {
    "en": "A player at this table already has that name: choose another one.",
    "vi": "Ở bàn chơi này đã có người dùng tên đó: hãy chọn tên khác.",
}


@pytest.mark.parametrize("lang", ["en", "vi"])
async def test_a_friends_name_is_refused_at_the_same_table(new_client, lang):
    creator = new_client()
    guest, other = new_client(headers={"accept-language": lang}), new_client()
    url = await open_table(creator)  # as "An"
    table_id = url.rsplit("/", 1)[1]
    api = f"/api/hearts/tables/{table_id}/seats"

    page = await guest.post(f"{url}/sit", data={"name": "an", "seat": "1"}, headers=SAME_SITE)
    assert page.status_code == 409 and TAKEN[lang] in page.text
    answer = await guest.post(api, json={"name": "ＡＮ", "seat": 2})
    assert answer.status_code == 409
    assert answer.json()["error"] == {"code": "name_taken", "message": TAKEN[lang]}
    seats = (await guest.get(f"/api/hearts/tables/{table_id}")).json()["seats"]
    assert [seat["name"] for seat in seats if seat["human"]] == ["An"]

    assert (await guest.post(api, json={"name": "Ân", "seat": 1})).status_code == 200
    assert (await other.post(api, json={"name": "ân"})).json()["error"]["code"] == "name_taken"
    # Sitting again under one's own name, or a new one, is not taking someone else's.
    assert (await guest.post(api, json={"name": "ÂN", "seat": 1})).status_code == 200
    assert (await creator.post(api, json={"name": "An Khang", "seat": 0})).status_code == 200
    assert (await other.post(api, json={"name": "An"})).status_code == 200


async def test_a_blank_looking_or_mixed_script_name_is_refused_at_a_table(new_client):
    creator, guest = new_client(), new_client(headers={"accept-language": "vi"})
    url = await open_table(creator)
    api = f"/api/hearts/tables/{url.rsplit('/', 1)[1]}/seats"
    for name, message in (("\u3164", "khoảng trống"), ("\u0410n", "bảng chữ")):
        answer = await guest.post(api, json={"name": name})
        assert answer.status_code == 422 and message in answer.json()["error"]["message"]
        page = await guest.post(f"{url}/sit", data={"name": name, "seat": "1"},
                                headers=SAME_SITE)
        assert page.status_code == 400 and message in page.text
