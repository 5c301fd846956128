# syntax=docker/dockerfile:1
# Front-end assets come from the npm registry in a Node stage; the image that runs has no Node.

FROM node:20-bookworm-slim AS assets
WORKDIR /build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts \
 && mkdir -p static/vendor/swagger-ui \
 && cp node_modules/htmx.org/dist/htmx.min.js static/vendor/ \
 && cp node_modules/swagger-ui-dist/swagger-ui-bundle.js node_modules/swagger-ui-dist/swagger-ui.css \
       static/vendor/swagger-ui/

FROM python:3.11-slim-bookworm AS app
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1
WORKDIR /srv/cardroom
COPY pyproject.toml setup.py ./
COPY app ./app
# Only what serving needs, as `make run` installs it (no dev extra; tests/ops checks both).
# Editable, so the app finds templates/ and static/ beside it as in a checkout. The compiler
# builds the Hard bot's C core (app/bots/_search.c) and leaves with the same layer.
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev \
 && pip install -e . \
 && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/*
COPY templates ./templates
COPY static ./static
COPY --from=assets /build/static/vendor ./static/vendor
RUN useradd --create-home --uid 10001 cardroom \
 && mkdir -p data && chown cardroom:cardroom data
USER 10001
EXPOSE 8000
# Several containers behind one balancer: set CARDROOM_STORE_URL=redis://… and one CARDROOM_SECRET_KEY.
CMD ["uvicorn", "app.main:app", "--host", "0.0.0.0", "--port", "8000", "--proxy-headers"]
