# Shared steps of scripts/run, scripts/build and scripts/test. Each step is idempotent: it
# installs or rebuilds only what is missing or out of date. Sourced, not run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
TOOLS="$ROOT/.tools"
WASM_BINDGEN_VERSION=0.2.130   # must equal the wasm-bindgen crate pinned in Cargo.toml
WASM_SPLIT_VERSION=0.2.4        # splits the bundle where #[wasm_split] marks it (0.2.3 first reads wasm-bindgen 0.2.130)
BINARYEN_VERSION=132.0.0       # npm's wasm-opt; Debian's (108) silently breaks the WASM
export PATH="$TOOLS/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "need root for: $*" >&2; return 1; fi
}

ensure_rust() {
  if ! command -v cargo >/dev/null; then
    echo "cargo not found: install Rust with rustup first" >&2; exit 1
  fi
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32 target"
    rustup target add wasm32-unknown-unknown
  fi
  if ! wasm-bindgen --version 2>/dev/null | grep -q " $WASM_BINDGEN_VERSION"; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes, once)"
    # Not --locked: its lock file wants a webpki-roots version the registry here lacks.
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
  # The tool prints no version: cargo's list of installed packages says which.
  if ! command -v wasm-split-cli >/dev/null ||
    ! cargo install --list | grep -q "^wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
    say "installing wasm-split-cli $WASM_SPLIT_VERSION (about a minute, once)"
    cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
  fi
}

ensure_node() {
  if ! command -v npm >/dev/null; then
    say "installing Node.js and npm"
    as_root apt-get update -qq
    as_root apt-get install -y -qq nodejs npm
  fi
}

ensure_binaryen() {
  ensure_node
  if ! "$TOOLS/binaryen/node_modules/.bin/wasm-opt" --version >/dev/null 2>&1; then
    say "installing wasm-opt (npm binaryen $BINARYEN_VERSION)"
    mkdir -p "$TOOLS/binaryen"
    npm install --silent --no-audit --no-fund --prefix "$TOOLS/binaryen" "binaryen@$BINARYEN_VERSION"
  fi
}

ensure_chromium() {
  if ! command -v chromium >/dev/null; then
    say "installing Chromium (Debian package)"
    as_root apt-get update -qq
    as_root apt-get install -y -qq chromium
  fi
}

ensure_wrk() {
  if ! command -v wrk >/dev/null; then
    say "installing wrk (Debian package), the load generator"
    as_root apt-get update -qq
    as_root apt-get install -y -qq wrk
  fi
}

as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sudo -u postgres sh -c "$*"; fi
}

# Debian's PostgreSQL, running, with a role the database tests create their databases with.
# Sets SERVECOST_TEST_POSTGRES to its admin URL.
ensure_postgres() {
  if ! command -v pg_lsclusters >/dev/null || [ -z "$(ls /usr/lib/postgresql 2>/dev/null)" ]; then
    say "installing PostgreSQL (Debian package)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  local version
  version="$(ls /usr/lib/postgresql | sort -n | tail -1)"
  if ! pg_lsclusters -h | grep -q .; then
    as_root pg_createcluster "$version" main >/dev/null
  fi
  local cluster
  cluster="$(pg_lsclusters -h | head -1)"
  if ! echo "$cluster" | grep -q online; then
    say "starting PostgreSQL $(echo "$cluster" | awk '{print $1 "/" $2}')"
    as_root pg_ctlcluster "$(echo "$cluster" | awk '{print $1}')" "$(echo "$cluster" | awk '{print $2}')" start
  fi
  local port
  port="$(pg_lsclusters -h | head -1 | awk '{print $3}')"
  if ! as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname = 'servecost'\"" | grep -q 1; then
    as_postgres "psql -p $port -qc \"CREATE ROLE servecost LOGIN CREATEDB PASSWORD 'servecost'\""
  fi
  export SERVECOST_TEST_POSTGRES="postgres://servecost:servecost@127.0.0.1:$port/postgres"
}

SCHEMATHESIS_VERSION=4.32.5   # schemathesis.toml is written for its configuration format

# schemathesis from PyPI in a virtual environment of its own (never the system Python's).
ensure_schemathesis() {
  if ! "$TOOLS/schemathesis/bin/st" --version 2>/dev/null | grep -q " $SCHEMATHESIS_VERSION"; then
    say "installing schemathesis $SCHEMATHESIS_VERSION (PyPI, into .tools/schemathesis)"
    if ! python3 -m venv "$TOOLS/schemathesis" >/dev/null 2>&1; then
      as_root apt-get update -qq
      as_root apt-get install -y -qq python3-venv
      python3 -m venv "$TOOLS/schemathesis"
    fi
    "$TOOLS/schemathesis/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  fi
}

ensure_playwright() {
  ensure_node
  if [ ! -d end2end/node_modules/@playwright/test ] || [ end2end/package-lock.json -nt end2end/node_modules/.package-lock.json ]; then
    say "installing the browser-test packages (npm ci, no browser download)"
    (cd end2end && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
  fi
}

# The site: WASM bundle (release, wasm-bindgen, npm's wasm-opt), CSS and static files. The
# bundle is published under content-hashed names with brotli and gzip copies beside it
# (scripts/site-assets.mjs); the server reads their names from target/site/pkg/assets.json.
build_site() {
  say "building the browser bundle (WASM)"
  cargo build -p app --lib --target wasm32-unknown-unknown \
    --no-default-features --features hydrate --profile wasm-release --target-dir target/front
  local wasm=target/front/wasm32-unknown-unknown/wasm-release/app.wasm
  local built=target/front/bundle
  mkdir -p "$built" target/site/pkg
  if [ ! -f "$built/servecost_bg.wasm" ] || [ "$wasm" -nt "$built/servecost_bg.wasm" ]; then
    # What `#[wasm_split]` marks (the charts' drawing) goes into modules fetched when first
    # called; the rest is the first download. The split works on the linked module, before
    # wasm-bindgen. Made aside and moved in whole: a step that fails leaves no half bundle.
    local next="$built.next" module
    say "splitting the WASM (wasm-split-cli)"
    rm -rf "$next" && mkdir -p "$next/split"
    wasm-split-cli "$wasm" "$next/split" --target web --out-name servecost
    wasm-bindgen --target web --keep-lld-exports --out-dir "$next" --out-name servecost \
      "$next/split/servecost.wasm"
    mv "$next/split/__wasm_split.js" "$next/"
    say "optimising the WASM (wasm-opt -Oz)"
    for module in "$next/servecost_bg.wasm" "$next"/split/split_*.wasm "$next"/split/chunk_*.wasm; do
      [ -f "$module" ] || continue
      # Its own name subsection for labels is one wasm-opt does not know; it is dropped.
      wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int \
        "$module" -o "$next/$(basename "$module")" 2> >(grep -v "unknown name subsection" >&2)
    done
    rm -rf "$next/split" "$built" && mv "$next" "$built"
  fi
  cp style/main.css "$built/servecost.css"
  say "publishing the bundle under hashed names, precompressed (brotli, gzip)"
  node scripts/site-assets.mjs "$built" target/site/pkg
  cp -r public/. target/site/
}

build_server() {
  say "building the server (release)"
  cargo build -p server --release
}

build_all() {
  ensure_rust
  ensure_binaryen
  build_site
  build_server
}
