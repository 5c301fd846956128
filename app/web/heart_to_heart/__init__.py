"""Heart to Heart on the web: service.py (what pages and API share), pages.py, api.py."""
