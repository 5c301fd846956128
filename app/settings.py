"""Settings from ``CARDROOM_*`` environment variables (see the contract's table)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.logs import LogFormat

# The key is made once and kept here, so sessions survive restarts without any set-up.
SECRET_KEY_FILE = Path("data") / "secret_key"
# A shorter key could be guessed, and then anyone could sign a cookie naming any session.
MIN_SECRET_KEY_BYTES = 32
# A table's event stream not heard of for this many heartbeats went with its process.
STALE_HEARTBEATS = 3


def _strong_enough(key: str) -> bool:
    return len(key.encode()) >= MIN_SECRET_KEY_BYTES


def stored_secret_key(path: Path) -> str:
    """The key kept in ``path``, made first if there is none.

    Workers that start together must agree on one key, and none may read a half-written file:
    each writes a complete private temporary file, then links it to ``path``, which only the
    first one manages (a link never replaces a file); the others read the winner's key.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_urlsafe(32))
                out.flush()
                os.fsync(out.fileno())
            os.link(temporary, path)
        except FileExistsError:
            pass
        finally:
            temporary.unlink()
    key = path.read_text().strip()
    if not _strong_enough(key):
        raise ValueError(
            f"the secret key in {path} is shorter than {MIN_SECRET_KEY_BYTES} bytes:"
            " delete it to have a new one made (sessions signed with it end)"
        )
    return key


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CARDROOM_")

    store_url: str = "sqlite:///./data/cardroom.sqlite3"
    secret_key: str = Field(default="", repr=False)
    secure_cookies: bool = False
    game_ttl_days: int = Field(default=30, ge=1)
    # Where players reach the site, for links they copy elsewhere; "" gives relative links.
    public_url: str = ""
    # Tables (app/web/hearts/tables/service.py, Waits): how often an open event stream tells the
    # store so, and how long a seat may have none open before the Normal bot plays it.
    table_heartbeat_seconds: float = Field(default=4.0, gt=0)
    table_away_grace_seconds: float = Field(default=12.0, gt=0)
    # Multiplies every rate-limit budget (app/web/limits.py); 0 turns the limits off, for a
    # proxy in front that limits already, or many players behind one address.
    rate_limit_scale: float = Field(default=1.0, ge=0, allow_inf_nan=False)
    # /metrics in Prometheus' format (app/metrics.py); off, it is a 404 and requests are not
    # timed. Logs: "text" lines for a person at a terminal, "json" for a log collector.
    metrics: bool = False
    log_format: LogFormat = "text"

    @field_validator("secret_key")
    @classmethod
    def _long_enough(cls, key: str) -> str:
        if key and not _strong_enough(key):
            raise ValueError(
                f"CARDROOM_SECRET_KEY must be at least {MIN_SECRET_KEY_BYTES} bytes long;"
                " make one with: python3 -c 'import secrets; print(secrets.token_urlsafe(32))'"
            )
        return key

    @field_validator("public_url")
    @classmethod
    def _a_site(cls, url: str) -> str:
        if not url:
            return url
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or (
            parts.fragment or url.endswith(("?", "#"))
        ):
            raise ValueError(
                f"CARDROOM_PUBLIC_URL must be the site's address, like https://cards.example,"
                f" not {url!r}"
            )
        return url.rstrip("/")

    @model_validator(mode="after")
    def _grace_outlasts_a_dead_stream(self) -> Settings:
        # A stream whose process died is taken for closed after STALE_HEARTBEATS heartbeats;
        # a shorter grace would find its player away while the stream still counts as open.
        if self.table_away_grace_seconds < STALE_HEARTBEATS * self.table_heartbeat_seconds:
            raise ValueError(
                "CARDROOM_TABLE_AWAY_GRACE_SECONDS must be at least"
                f" {STALE_HEARTBEATS} × CARDROOM_TABLE_HEARTBEAT_SECONDS"
            )
        return self

    def public_link(self, path: str) -> str:
        """A link to ``path`` (``/hearts/deal/…``) to be pasted elsewhere: absolute under
        ``public_url`` when it is set, else relative (the page makes it absolute when it copies
        it). Never built from the request's Host header, which the client chooses."""
        return self.public_url + path

    @model_validator(mode="after")
    def _fill_secret_key(self) -> Settings:
        if not self.secret_key:
            self.secret_key = stored_secret_key(SECRET_KEY_FILE)
        return self
