#!/usr/bin/env bash
# Builds local stand-ins of the three public images deploy/compose.yaml starts from (node,
# postgres, redis), for a machine whose Docker cannot reach Docker Hub but can reach Debian's
# mirror: a minimal Debian made with debootstrap, then Debian's PostgreSQL and Redis, and this
# machine's Node.js. Then `run-compose.sh` runs the compose file with them. Needs root, a running
# dockerd and debootstrap (apt-get install docker.io docker-compose debootstrap).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if ! docker image inspect local/debian:bookworm >/dev/null 2>&1; then
  rootfs="$(mktemp -d)"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb
  tar -C "$rootfs" -c . | docker import - local/debian:bookworm
  rm -rf "$rootfs"
fi

context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT
cp "$here"/*.Dockerfile "$here"/postgres-entrypoint.sh "$context"/
cp "$(readlink -f "$(command -v node)")" "$context/node"
cp "${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}" "$context/ca-certificates.crt"
cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$context/npm"
docker build -q -f "$context/node.Dockerfile" -t local/node:bookworm "$context"
docker build -q -f "$context/postgres.Dockerfile" -t local/postgres:15 "$context"
docker build -q -f "$context/redis.Dockerfile" -t local/redis:7 "$context"
