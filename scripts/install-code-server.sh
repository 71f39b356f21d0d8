#!/usr/bin/env bash
# Installs code-server 4.100.3 (VS Code 1.100.3, the last release that runs on Node 20) outside the
# clone, once: later calls find it and only print its version. Used by `npm start` and the e2e tests.
#   scripts/install-code-server.sh [DEST]     DEST defaults to ~/.cache/glasstorch/code-server-4.100.3
# Needs root (or the apt packages below already installed) and the npm registry the first time.
set -euo pipefail
CS_VERSION=4.100.3
DEST="${1:-${GLASSTORCH_CODE_SERVER_DIR:-$HOME/.cache/glasstorch/code-server-$CS_VERSION}}"

if [ -x "$DEST/node_modules/.bin/code-server" ]; then
  "$DEST/node_modules/.bin/code-server" --version | head -1
  exit 0
fi
echo "Installing code-server $CS_VERSION into $DEST (once; about 2 minutes)..." >&2

# Headers for code-server's native modules (kerberos, node-pty...), and ripgrep to stand in for
# the binary @vscode/ripgrep would download from GitHub.
PKGS="libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev pkg-config ripgrep python3 make g++"
if ! dpkg -s $PKGS >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "install-code-server: missing apt packages ($PKGS); run this script as root once." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $PKGS >/dev/null
fi

# @vscode/ripgrep@1.15.11's postinstall downloads rg from api.github.com unless its cache holds it.
RG_CACHE="${TMPDIR:-/tmp}/vscode-ripgrep-cache-1.15.11"
RG_TARBALL="$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
mkdir -p "$RG_CACHE"
if [ ! -f "$RG_TARBALL" ]; then
  tmp=$(mktemp -d)
  cp "$(command -v rg)" "$tmp/rg"
  tar czf "$RG_TARBALL" -C "$tmp" rg
  rm -rf "$tmp"
fi

# Installed into a staging folder and moved into place, so an interrupted install is never taken
# for a finished one.
STAGE="$DEST.partial"
rm -rf "$STAGE"
mkdir -p "$STAGE"
echo '{"name":"glasstorch-code-server","private":true}' > "$STAGE/package.json"
# npm_config_unsafe_perm: code-server's postinstall checks it when run as root (npm 11 dropped the
# option itself). npm_config_yes: node-pty's postinstall runs `npx node-gyp`. nodedir: the Node
# headers Debian installs, so node-gyp does not download them.
(cd "$STAGE" && npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir="${npm_config_nodedir:-/usr}" \
  npm install --no-save --no-audit --no-fund --loglevel=error "code-server@$CS_VERSION")
rm -rf "$DEST"
mv "$STAGE" "$DEST"
"$DEST/node_modules/.bin/code-server" --version | head -1
