#!/usr/bin/env bash
# Builds the Go reference renderer from Debian's Go packages (GOPATH mode, no
# module proxy): apt-get install golang-go golang-github-masterminds-sprig-dev
# golang-k8s-sigs-yaml-dev. Prints the binary's path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${GOREF_OUT:-$here/.build}"
mkdir -p "$out/src/goref"
cp "$here/goref/main.go" "$out/src/goref/main.go"
export GOPATH="$out:/usr/share/gocode" GO111MODULE=off GOCACHE="$out/cache"
(cd "$out/src/goref" && go build -o "$out/goref" .)
echo "$out/goref"
