"""The web layer: pages per game, the JSON API, sessions, security, templates."""
