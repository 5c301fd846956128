"""Settings from ``CARDROOM_*`` environment variables (see the contract's table)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# The key is made once and kept here, so sessions survive restarts without any set-up.
SECRET_KEY_FILE = Path("data") / "secret_key"


def _stored_secret_key(path: Path) -> str:
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    # O_EXCL: when two processes start together, the second reads what the first wrote.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(key)
    return key


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CARDROOM_")

    store_url: str = "sqlite:///./data/cardroom.sqlite3"
    secret_key: str = Field(default="", repr=False)
    secure_cookies: bool = False
    game_ttl_days: int = Field(default=30, ge=1)

    @model_validator(mode="after")
    def _fill_secret_key(self) -> Settings:
        if not self.secret_key:
            self.secret_key = _stored_secret_key(SECRET_KEY_FILE)
        return self
