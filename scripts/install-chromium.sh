#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test (test/web/page.test.ts), which drives it
# through playwright-core. Playwright's own browser download needs the network at test time
# and a CDN; Debian's package comes from apt, which the CI machine reaches.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium
