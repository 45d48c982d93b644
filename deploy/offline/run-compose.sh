#!/usr/bin/env bash
# Runs deploy/compose.yaml for real on this machine, with local stand-ins for the public images
# (build-images.sh), against a devnet listening on the Docker bridge (the chain is external to
# the compose file, as in production): 2 api processes, 2 workers, the indexer, PostgreSQL and
# Redis. Checks (check.ts): every api ready, a plain burn seen by the indexer container reaches a
# stream client of another api container through Redis and is counted by a read; then every
# service container stops on SIGTERM with exit code 0. Needs root and a running dockerd.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bridge="${BRIDGE_IP:-$(ip -4 -o addr show docker0 | awk '{print $4}' | cut -d/ -f1)}"
[ -n "$bridge" ] || { echo "no address on docker0: is dockerd running?"; exit 1; }
port="${DEVNET_PORT:-8546}"
export NODE_IMAGE=local/node:bookworm POSTGRES_IMAGE=local/postgres:15 REDIS_IMAGE=local/redis:7
compose=(docker-compose -p b2c-check -f "$root/deploy/compose.yaml")

"$here/build-images.sh"
# The devnet on the bridge address only (containers reach it; nothing outside this host does).
(cd "$root" && HOST="$bridge" DEVNET_RPC_PORT="$port" exec node --import tsx src/devnet/main.ts) > /tmp/b2c-compose-devnet.log 2>&1 &
devnet=$!
created_env=""
if [ ! -e "$root/deploy/.env" ]; then
  printf 'RPC_URL=http://%s:%s\nLOG_LEVEL=info\n' "$bridge" "$port" > "$root/deploy/.env"
  created_env=1
fi
cleanup() {
  "${compose[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  kill "$devnet" 2>/dev/null || true
  [ -n "$created_env" ] && rm -f "$root/deploy/.env"
}
[ -n "${KEEP:-}" ] || trap cleanup EXIT

"${compose[@]}" build
"${compose[@]}" up -d --scale api=2 --scale worker=2
# Healthy = /readyz answered 200 inside the container (the compose file's health check).
for _ in $(seq 1 60); do
  unhealthy="$("${compose[@]}" ps | grep -c -E 'starting|unhealthy|Exit' || true)"
  [ "$unhealthy" = 0 ] && break
  sleep 2
done
"${compose[@]}" ps
apis=()
for i in 1 2; do apis+=("http://127.0.0.1:$("${compose[@]}" port --index="$i" api 3000 | cut -d: -f2)"); done
(cd "$root" && node --import tsx deploy/offline/check.ts "http://$bridge:$port" "${apis[@]}")
"${compose[@]}" stop -t 30
codes="$("${compose[@]}" ps -q api worker indexer | xargs docker inspect -f '{{.Name}} {{.State.ExitCode}}')"
echo "$codes"
if echo "$codes" | grep -v ' 0$' >/dev/null; then echo "FAIL a service did not exit 0 on SIGTERM"; exit 1; fi
echo "ok   every api, worker and indexer container stopped on SIGTERM with exit code 0"
