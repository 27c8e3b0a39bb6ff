#!/usr/bin/env bash
# Installs what the runtime matrix (test/runtimes, in the `package` test project; test/setup/package.ts
# runs this) needs, where it is missing:
# Node 20.0/20/22/24, workerd, playwright-core and TypeScript 5.5 from npm into
# test/runtimes/node_modules (pinned by test/runtimes/package-lock.json), and Debian's
# Chromium (as root; CHROMIUM_PATH points elsewhere if yours lives there). Bun and Deno are
# the root's devDependencies.
set -euo pipefail
cd "$(dirname "$0")/../test/runtimes"

stamp=node_modules/.installed-from-lock
if ! cmp -s package-lock.json "$stamp" 2>/dev/null; then
  echo "runtime matrix: installing the matrix's runtimes (test/runtimes/package-lock.json)"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    echo "runtime matrix: installing Debian's chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium > /dev/null
  else
    echo "runtime matrix: $chromium not found: run 'apt-get install -y chromium' as root, or set CHROMIUM_PATH" >&2
    exit 1
  fi
fi
