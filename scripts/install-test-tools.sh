#!/usr/bin/env bash
# Installs what the whole test suite needs beyond npm ci: Neovim and xmllint from Debian's
# packages, then code-server, Node 24, Playwright and Chromium for the editor tests
# (.ci/install-code-server.sh, cached outside the clone). Idempotent; fails loudly.
set -euo pipefail
# Neovim (the third-party LSP client test) and xmllint (the SVG and HTML of `paper-digest stats`
# are read back with it), from Debian's packages.
missing=()
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
command -v xmllint >/dev/null 2>&1 || missing+=(libxml2-utils)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-test-tools: missing Debian packages: ${missing[*]}; install them as root (apt-get install ${missing[*]})" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
nvim --version | head -1
bash "$(dirname "$0")/../.ci/install-code-server.sh"
