#!/usr/bin/env bash
# `npm test`: every test. Installs the tools it needs (scripts/install-test-tools.sh), then runs
# the unit and LSP tests (node's test runner, Neovim among them), the benchmark at its small
# size, then the editor suite inside a real VS Code (code-server) from the packaged .vsix, and
# the web extension's suite in that VS Code's web worker extension host. Fails if any part fails
# or cannot run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-tools.sh
status=0
npm run --silent test:unit || status=1
# The benchmark on small inputs: proves it still runs (it reports times, it does not judge them).
npm run --silent bench -- --size small || status=1
npm run --silent test:editor || status=1
# The web extension in the browser's web worker extension host (code-server + Chromium).
npm run --silent test:web || status=1
if [ "$status" != 0 ]; then
  echo "npm test: some tests failed (see above)" >&2
fi
exit "$status"
