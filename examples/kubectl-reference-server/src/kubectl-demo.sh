#!/usr/bin/env bash
# Starts the reference server (`orchard-apiserver --flavor kubernetes --port 0`), reads the URL it
# prints, and drives it with stock kubectl through the admin kubeconfig it writes. Everything lives
# in a temporary directory that is removed on exit, and the server is stopped with SIGTERM.
#
#   bash src/kubectl-demo.sh            (or: npx --yes pnpm@10 --filter @orchard-examples/kubectl-reference-server start)
#   KUBECTL=/path/to/kubectl bash src/kubectl-demo.sh
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
kubectl_bin="${KUBECTL:-kubectl}"
work="$(mktemp -d)"
server_pid=""

cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# The bin comes from the @orchard/apiserver dependency; from a checkout it runs the TypeScript source.
"$here/node_modules/.bin/orchard-apiserver" --flavor kubernetes --port 0 \
  --data-dir "$work/data" --kubeconfig-out "$work/admin.kubeconfig" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!

# The CLI prints `listening on https://127.0.0.1:PORT` once the kubeconfig is written.
url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/^listening on //p' "$work/server.out")"
  [ -n "$url" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "orchard-apiserver exited:" >&2
    cat "$work/server.err" >&2
    exit 1
  fi
  sleep 0.1
done
[ -n "$url" ] || { echo "orchard-apiserver did not start within 30 s" >&2; exit 1; }
echo "# server: $url"

# Only the written kubeconfig, and a private discovery cache.
k() { "$kubectl_bin" --kubeconfig "$work/admin.kubeconfig" --cache-dir "$work/cache" "$@"; }
run() { echo "\$ kubectl $*"; k "$@"; }

run version
run create namespace demo
run -n demo create configmap settings --from-literal=color=red --from-literal=size=3
run -n demo get configmap settings -o yaml

# Server-side apply: a second field manager takes a field with --force-conflicts.
cat >"$work/settings.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: demo
data:
  color: blue
  owner: team-a
EOF
echo "\$ kubectl apply --server-side --field-manager=team-a -f settings.yaml   # conflicts on data.color"
if k apply --server-side --field-manager=team-a -f "$work/settings.yaml"; then
  echo "expected a conflict" >&2
  exit 1
fi
run apply --server-side --field-manager=team-a --force-conflicts -f "$work/settings.yaml"
run -n demo get configmap settings -o jsonpath='{.data}{"\n"}'
run -n demo get configmap settings --show-managed-fields \
  -o jsonpath='{range .metadata.managedFields[*]}{.manager}{" "}{.operation}{"\n"}{end}'

run get namespaces
run delete namespace demo --wait=true --timeout=20s
echo "# done"
