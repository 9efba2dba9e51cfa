#!/usr/bin/env bash
# Regenerates results.json (and random-results.json) from scenarios.json (random-scenarios.json,
# made by make-random.py) with upstream structured-merge-diff (Go).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/gen" && cp "$here/generator/main.go" "$here/generator/go.mod" "$work/src/gen/"
export GO111MODULE=off GOPATH="$work:/usr/share/gocode" GOFLAGS= GOPROXY=off GOCACHE="${GOCACHE:-$work/.gocache}"
cd "$work/src/gen" && go run . "$here" && go run . "$here" random-scenarios.json random-results.json
