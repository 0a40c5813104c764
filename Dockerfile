FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    # The source tree (with templates/ and static/) comes before the installed copy.
    PYTHONPATH=/app \
    DJANGO_SETTINGS_MODULE=config.settings.production \
    # Word Heist's word lists, made at build below and read back by every start
    # (games/word/party/listcache.py): a restarted web process does not remake them.
    HEIST_CACHE_DIR=/app/cache

# DejaVu: the fonts the printables embed in their PDFs (printables/fonts.py); Hunspell's
# dictionaries: Word Heist's proper nouns (games/word/party/propernouns.py).
RUN apt-get update && apt-get install -y --no-install-recommends fonts-dejavu-core \
    hunspell-en-us hunspell-es hunspell-de-de \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Everything .dockerignore does not leave out: the Python packages (games/ with them),
# templates/, static/, locale/ and manage.py. tests/test_image.py lays out this very
# tree, installs it as below and serves a party from it.
COPY . .
RUN pip install .

# collectstatic needs settings to load, not a live database or secret.
RUN DJANGO_SECRET_KEY=collectstatic-only-never-used-to-sign-anything-0123456789abcdef DATABASE_URL=postgres://build@localhost/build \
    python manage.py collectstatic --noinput

RUN python -c "from games.registry import warm; warm()"

RUN useradd --system --uid 10001 heist && chown -R heist /app/staticfiles /app/cache
USER heist

EXPOSE 8000
# --ping-interval 5: an open socket is never quiet for nginx's 10 s (deploy/nginx.conf)
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "--ping-interval", "5", "--websocket-max-frame-size", "4096", "--websocket-max-message-size", "262144", "config.asgi:application"]
