"""The app as uvicorn serves it (app.main:app), its tables' matches ending after their second
hand (two_hands.py): ``servers(kind, two_hands=True)`` serves this one."""

from two_hands import TwoHandMatch

from app.main import app
from app.web.hearts.tables import service

service.HeartsMatch = TwoHandMatch  # type: ignore[misc]

__all__ = ["app"]
