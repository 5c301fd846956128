"""LatestGames (app/web/games.py): the games this process stored last, used only as its
invariants allow."""

from __future__ import annotations

from app.store import SECONDS_PER_DAY, StoredGame
from app.web.games import LatestGames, Loaded


def loaded(game_id: str, version: int, at: float) -> Loaded[str]:
    return Loaded(StoredGame(game_id, "heart_to_heart", version, {}, at), f"{game_id}@{version}")


def test_a_kept_game_is_found_only_for_its_session_id_and_version():
    latest = LatestGames()
    latest.keep("alice", loaded("g1", 4, 100.0))
    assert latest.at("alice", "g1", 4, 101.0).game == "g1@4"
    assert latest.at("alice", "g1", 3, 101.0) is None  # an older version: read it
    assert latest.at("alice", "g1", 5, 101.0) is None  # stored elsewhere since
    assert latest.at("alice", "g1", None, 101.0) is None  # "as it is now": read it
    assert latest.at("bob", "g1", 4, 101.0) is None  # another browser's request
    assert latest.at("alice", "g2", 4, 101.0) is None


def test_a_new_write_replaces_the_old_one():
    latest = LatestGames()
    latest.keep("alice", loaded("g1", 4, 100.0))
    latest.keep("alice", loaded("g1", 5, 102.0))
    assert latest.at("alice", "g1", 4, 103.0) is None
    assert latest.at("alice", "g1", 5, 103.0).game == "g1@5"
    assert len(latest) == 1


def test_a_day_old_game_is_not_used():
    """The shortest expiry is a day: after that the id may name a game dealt again."""
    latest = LatestGames()
    latest.keep("alice", loaded("g1", 4, 100.0))
    assert latest.at("alice", "g1", 4, 100.0 + SECONDS_PER_DAY - 1) is not None
    assert latest.at("alice", "g1", 4, 100.0 + SECONDS_PER_DAY) is None


def test_the_oldest_entries_go_first():
    latest = LatestGames(size=3)
    for number in range(5):
        latest.keep("alice", loaded(f"g{number}", 1, 100.0))
    latest.keep("alice", loaded("g2", 2, 100.0))  # written again: now the newest
    latest.keep("alice", loaded("g5", 1, 100.0))
    assert len(latest) == 3
    assert [latest.at("alice", f"g{n}", 1, 100.0) is not None for n in (0, 1, 3, 4, 5)] == [
        False, False, False, True, True]
    assert latest.at("alice", "g2", 2, 100.0) is not None
