# wordsolver: the HTTP service in a small image.
#   docker build -t wordsolver .
#   docker run -p 8000:8000 -e WORDSOLVER_WORKERS=4 wordsolver
# Own word lists: mount a directory of *.txt files on /app/user-lexicons.

# --- build: the dependencies (pinned by constraints.txt), then the project, in a virtual
# environment; a C compiler for the compiled move generator and lexicon builder, which must build here
FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# Versions follow the base image's release.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
RUN python -m venv /opt/venv
# Dependencies first, in their own layer: rebuilt only when pyproject.toml or constraints.txt change.
COPY pyproject.toml constraints.txt ./
# hadolint ignore=SC2046
RUN /opt/venv/bin/pip install --no-cache-dir -c constraints.txt \
    $(python -c "import tomllib; print(' '.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))")
COPY setup.py ./
COPY engine ./engine
COPY app ./app
RUN /opt/venv/bin/pip install --no-cache-dir --no-deps . \
    # the image must have the compiled cores (move generator, lexicon builder): fail the build
    # if either did not compile. Checked from /: in /src the source tree's engine/ (no .so)
    # would shadow the installed package
    && cd / && /opt/venv/bin/python -c "import engine._fastgen, engine._fastlex; from engine import search; assert search.implementation() == 'compiled'"
# The move generator rebuilt with profile-guided optimisation (tools/pgo.py: GCC, a fixed
# self-play workload, the answers checked equal; the search takes about 0.9x the time). Here
# it must succeed; the word list is only its workload's (the runtime stage compiles its own).
COPY tools/pgo.py ./tools/pgo.py
COPY lexicons ./lexicons
RUN cd / && /opt/venv/bin/python /src/tools/pgo.py --require

# --- runtime: the environment, the shipped word list compiled once, a non-root user; no compiler
FROM python:3.11-slim
LABEL org.opencontainers.image.title="wordsolver" \
      org.opencontainers.image.description="Best plays and exact scores for Crossplay, Scrabble, Words With Friends and Upwords, over HTTP" \
      org.opencontainers.image.version="0.1.0" \
      org.opencontainers.image.documentation="README.md"
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
