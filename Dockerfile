# wordsolver: the HTTP service in a small image.
#   docker build -t wordsolver .
#   docker run -p 8000:8000 -e WORDSOLVER_WORKERS=4 wordsolver
# Own word lists: mount a directory of *.txt files on /app/user-lexicons.

# --- build: install the project and its runtime dependencies into a virtual environment
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# A C compiler for the optional compiled move generator (engine/_fastgen.c, see setup.py);
# only the built environment reaches the runtime image. Versions follow the base image's release.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
RUN python -m venv /opt/venv
COPY pyproject.toml setup.py ./
COPY engine ./engine
COPY app ./app
RUN /opt/venv/bin/pip install --no-cache-dir .

# --- runtime: the environment, the shipped word list compiled once, a non-root user
FROM python:3.11-slim
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    WORDSOLVER_HOST=0.0.0.0 \
    WORDSOLVER_PORT=8000 \
    WORDSOLVER_WORKERS=2 \
    WORDSOLVER_SHIPPED_LEXICON_DIR=/app/lexicons \
    WORDSOLVER_CACHE_DIR=/app/cache \
    WORDSOLVER_LEXICON_DIR=/app/user-lexicons
RUN groupadd --system --gid 10001 wordsolver \
    && useradd --system --no-log-init --uid 10001 --gid wordsolver --no-create-home \
       --home-dir /app --shell /usr/sbin/nologin wordsolver
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY lexicons ./lexicons
# Compile the default lexicon now so every worker only loads the cached file at start.
RUN wordsolver compile \
    && mkdir -p /app/user-lexicons \
    && chown -R wordsolver:wordsolver /app/cache /app/user-lexicons
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["wordsolver", "healthcheck"]
CMD ["wordsolver", "serve"]
