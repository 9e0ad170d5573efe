#!/usr/bin/env bash
# Sets codify up (scripts/setup.sh) and runs the demo, with no API key: `codify implement`
# on the YONA example, the model's answers replayed from a session recorded with a real
# model, everything else (agent loop, workspace, bubblewrap sandbox, Python) real.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
node bin/codify.js doctor || true
echo
node bin/codify.js implement examples/yona-digits \
  --model replay:examples/recordings/yona-digits.jsonl
