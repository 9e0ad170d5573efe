#!/usr/bin/env bash
# Sets up codify on a fresh Debian/Ubuntu machine with Node 20.19 or later: the system packages it
# needs (installed with apt-get only when missing), the npm packages, and the build.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v bwrap >/dev/null 2>&1 || need+=(bubblewrap)
# Debian's Chromium, driven headless by the web app's browser tests (test/web).
[ -x /usr/bin/chromium ] || need+=(chromium)
# The evaluation queue's tests start a real Redis (test/eval/queue.test.ts).
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
py=/usr/bin/python3
declare -A module_package=(
  [numpy]=python3-numpy [torch]=python3-torch [torchvision]=python3-torchvision
  [sklearn]=python3-sklearn [pandas]=python3-pandas [yaml]=python3-yaml
)
if [ -x "$py" ]; then
  for module in numpy torch torchvision sklearn pandas yaml; do
    "$py" -c "import $module" >/dev/null 2>&1 || need+=("${module_package[$module]}")
  done
else
  need+=(python3 python3-numpy python3-torch python3-torchvision python3-sklearn python3-pandas python3-yaml)
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing system packages: ${need[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# npm ci installs exactly what package-lock.json says and fails when the lock file and
# package.json disagree, so a drifted lock file fails here (and in CI) instead of being
# rewritten. It reinstalls only when the lock file differs from the one last installed.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
installed_stamp=node_modules/.codify-installed-lock
if [ "$(cat "$installed_stamp" 2>/dev/null)" != "$lock_hash" ]; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" >"$installed_stamp"
fi
echo "setup: building"
npm run --silent build
