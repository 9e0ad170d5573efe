#!/usr/bin/env bash
# Sets codify up (scripts/setup.sh) and runs every check CI runs: lint, format, types, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
npm run --silent lint
npm run --silent format:check
npm run --silent typecheck
npx vitest run
