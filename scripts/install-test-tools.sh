#!/usr/bin/env bash
# Installs what the whole test suite needs beyond npm ci: Neovim (the third-party LSP client test)
# from Debian's packages, then code-server, Node 24, Playwright and Chromium for the editor tests
# (.ci/install-code-server.sh, cached outside the clone). Idempotent; fails loudly.
set -euo pipefail
if ! command -v nvim >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-test-tools: nvim is missing; install Debian's neovim package (apt-get install neovim) as root" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq neovim >/dev/null
fi
nvim --version | head -1
bash "$(dirname "$0")/../.ci/install-code-server.sh"
