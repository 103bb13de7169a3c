# OneStep TTS server image (CPU, ONNX Runtime). Build and run:
#   docker build -t onestep:cpu .
#   docker run --rm -p 8000:8000 onestep:cpu                 # http://localhost:8000/ (page), /v1/audio/speech
#   docker run --rm -p 10200:10200 onestep:cpu wyoming --uri tcp://0.0.0.0:10200
# Settings: ONESTEP_* variables or a mounted TOML file (docs/SERVER.md), e.g.
#   docker run -e ONESTEP_API_KEY=... -e ONESTEP_WORKERS=2 -v $PWD/onestep.toml:/etc/onestep.toml -e ONESTEP_CONFIG=/etc/onestep.toml ...
# The CUDA variant (engine torch-cuda-graphs) and the daemon-less build (.ci/container) are in docs/DEPLOY.md. Any Debian 12 image with
# python3 (3.11) and python3-venv works as BASE; .ci/container builds one with debootstrap where no registry
# is reachable.
ARG BASE=docker.io/library/debian:bookworm-slim
FROM ${BASE}

# PIP_CERT: only for builds behind a TLS-inspecting proxy (the CA file, mounted for the build; not kept in the image)
ARG PIP_CERT
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
 && rm -rf /var/lib/apt/lists/*

ENV VIRTUAL_ENV=/opt/onestep PATH=/opt/onestep/bin:$PATH PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 ONESTEP_CACHE=/var/cache/onestep
COPY . /src
RUN python3 -m venv /opt/onestep \
 && pip install -c /src/constraints.txt "/src[server]" \
 && rm -rf /src \
 && useradd --create-home --uid 10001 onestep \
 && mkdir -p /var/cache/onestep && chown onestep /var/cache/onestep
USER onestep
# Build the frontend's cached tables once, here, not at every start.
RUN onestep say "Hello world. 你好，世界。" -o /tmp/warm.wav && rm /tmp/warm.wav

ENV ONESTEP_HOST=0.0.0.0 ONESTEP_PORT=8000
EXPOSE 8000 10200
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD python3 -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ.get(\"ONESTEP_PORT\", \"8000\")}/health', timeout=2)"
ENTRYPOINT ["onestep"]
CMD ["serve"]
