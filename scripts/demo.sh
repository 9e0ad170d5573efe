#!/usr/bin/env bash
# Sets codify up (scripts/setup.sh) and runs the demo: no API key needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
node bin/codify.js doctor
