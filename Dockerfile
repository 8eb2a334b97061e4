# cascadia-bot: the Discord bot, its database on the /data volume.
#   docker build -t cascadia-bot .
#   docker run -d -e DISCORD_TOKEN -v cascadia-data:/data cascadia-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Pillow's wheel shapes Arabic and Hebrew names with its libraqm, which loads FriBiDi from
# the system; without it names are still drawn right to left, only less well.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY i18n ./i18n
COPY render ./render
COPY bot ./bot
# The same install as the README's pip route.
RUN pip install .

RUN groupadd --gid 10001 cascadia \
    && useradd --no-log-init --create-home --uid 10001 --gid 10001 cascadia \
    && mkdir /data \
    && chown 10001:10001 /data
# Numeric, so that the host (and Kubernetes' runAsNonRoot) can tell it is not root.
USER 10001:10001
WORKDIR /home/cascadia

# DISCORD_TOKEN comes from the environment at run time, never from the image.
ENV CASCADIA_DB=/data/cascadia.sqlite3
VOLUME ["/data"]

# Exec form: the bot is PID 1 and gets SIGTERM from `docker stop` for a clean shutdown.
CMD ["cascadia-bot"]
