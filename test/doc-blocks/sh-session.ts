import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@orchard/testing';
import { type DocBlock, where } from './blocks.js';

/**
 * Shell blocks run with bash, one directory per markdown file (the file's blocks in order share it,
 * as a reader's terminal would), with `set -eo pipefail`: every command of a block must succeed.
 * The prelude makes the commands a reader types work unattended:
 * - `orchard-apiserver …` and `npx --yes pnpm@10 exec orchard-apiserver …` start the real CLI with
 *   the block's flags in the background (a trailing `&` is dropped), on the session's port
 *   (`6443`/`8443` in the block are replaced by it), and wait until it serves; a new start stops the
 *   session's previous server. `npx --yes pnpm@10 install` is a no-op (the checkout is installed).
 * - `kubectl … -w` and `curl -N …watch=1` stop after 3 s (a watch never ends by itself).
 * A block that starts no server gets one if the session has none: an in-process test server
 * (kubernetes flavor) whose admin kubeconfig is written to `.orchard/admin.kubeconfig`. `KUBECONFIG`
 * names that file in every block, as the guide's `export` does.
 */
export interface ShSession {
  run(block: DocBlock, timeoutMs: number): Promise<void>;
  /** Writes a data block (`yaml file=NAME`) into the session directory. */
  writeFile(name: string, text: string): void;
  close(): Promise<void>;
}

const prelude = `
set -eo pipefail
__doc_stop_servers() {
  if [ -f "$ORCHARD_DOC_SESSION/server.pids" ]; then
    local p; for p in $(cat "$ORCHARD_DOC_SESSION/server.pids"); do kill "$p" 2>/dev/null || true; done
    for p in $(cat "$ORCHARD_DOC_SESSION/server.pids"); do
      local i; for i in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    done
    rm -f "$ORCHARD_DOC_SESSION/server.pids"
  fi
}
orchard-apiserver() {
  local a skip= args=()
  for a in "$@"; do
    if [ -n "$skip" ]; then skip=; continue; fi
    case "$a" in --port) skip=1; continue;; --port=*) continue;; esac
    args+=("$a")
  done
  __doc_stop_servers
  local log; log="$ORCHARD_DOC_SESSION/server-$(date +%s%N).log"
  $ORCHARD_DOC_CLI "${'$'}{args[@]}" --port "$ORCHARD_DOC_PORT" >"$log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >> "$ORCHARD_DOC_SESSION/server.pids"
  local i
  for i in $(seq 1 1800); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$ORCHARD_DOC_PORT") 2>/dev/null && grep -q kubeconfig "$log"; then cat "$log"; return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then cat "$log" >&2; echo "doc-blocks: orchard-apiserver exited before serving" >&2; return 1; fi
    sleep 0.1
  done
  cat "$log" >&2; echo "doc-blocks: orchard-apiserver did not serve within 180 s" >&2; return 1
}
npx() {
  case "$*" in
    "--yes pnpm@10 exec orchard-apiserver"*) shift 4; orchard-apiserver "$@";;
    "--yes pnpm@10 install") ;;
    *) echo "doc-blocks: 'npx $*' is not run by the doc test: tag the block no-run" >&2; return 97;;
  esac
}
__doc_no_registry() { echo "doc-blocks: '$*' installs from a registry, which the doc test does not: tag the block no-run" >&2; return 97; }
pnpm() { __doc_no_registry pnpm "$@"; }
npm() { __doc_no_registry npm "$@"; }
yarn() { __doc_no_registry yarn "$@"; }
kubectl() {
  case " $* " in
    *" -w "*|*" --watch "*|*" --watch=true "*) local rc=0; timeout 3 /usr/bin/kubectl "$@" || rc=$?; [ "$rc" = 124 ] || return "$rc";;
    *) command "${'$'}{KUBECTL:-/usr/bin/kubectl}" "$@";;
  esac
}
curl() {
  case " $* " in
    *" -N "*|*watch=1*|*watch=true*) local rc=0; command curl --max-time 3 "$@" || rc=$?; [ "$rc" = 28 ] || return "$rc";;
    *) command curl "$@";;
  esac
}
`;

/** A free loopback port (closed again; the server binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Whether a block starts a server itself. */
export const startsServer = (b: DocBlock) => /(^|[\s;&|(])orchard-apiserver(\s|$)/m.test(b.text);

/** The block as run: ports replaced, a background `&` after a server start dropped. */
export function prepareScript(b: DocBlock, port: number): string {
  return b.text
    .replace(/\b(6443|8443)\b/g, String(port))
    .replace(/^(.*\borchard-apiserver\b.*?)\s*&(\s*#.*)?$/gm, '$1$2');
}

/** Opens a session in `dir` running the server command `cli` (argv prefix). */
export function openShSession(dir: string, cli: string): ShSession {
  mkdirSync(dir, { recursive: true });
  let implicit: TestServer | undefined;
  let port = 0;
  const stopImplicit = async () => {
    await implicit?.stop();
    implicit = undefined;
  };
  const serverAlive = () => {
    const pids = join(dir, 'server.pids');
    if (!existsSync(pids)) return false;
    return readFileSync(pids, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .some((p) => {
        try {
          process.kill(Number(p), 0);
          return true;
        } catch {
          return false;
        }
      });
  };
  return {
    writeFile(name, text) {
      writeFileSync(join(dir, name), text);
    },
    async run(block, timeoutMs) {
      if (startsServer(block)) {
        await stopImplicit();
        port = await freePort();
      } else if (!implicit && !serverAlive()) {
        implicit = await startTestServer({ flavor: 'kubernetes' });
        port = Number(new URL(implicit.url).port);
        mkdirSync(join(dir, '.orchard'), { recursive: true });
        writeFileSync(join(dir, '.orchard', 'admin.kubeconfig'), implicit.kubeconfig, { mode: 0o600 });
      }
      const script = `${prelude}\n${prepareScript(block, port)}`;
      const out = await new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn('bash', ['-c', script], {
          cwd: dir,
          env: {
            ...process.env,
            ORCHARD_DOC_SESSION: dir,
            ORCHARD_DOC_PORT: String(port),
            ORCHARD_DOC_CLI: cli,
            KUBECONFIG: join(dir, '.orchard', 'admin.kubeconfig'),
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (c: Buffer) => (output += c));
        child.stderr.on('data', (c: Buffer) => (output += c));
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      });
      if (out.code !== 0)
        throw new Error(
          `${where(block)}: the sh block failed (exit ${out.code ?? 'killed after the time limit'}); tag it \`\`\`sh no-run if it cannot run in a test. Output:\n${out.output.slice(-3000)}`,
        );
    },
    async close() {
      const pids = join(dir, 'server.pids');
      if (existsSync(pids))
        for (const p of readFileSync(pids, 'utf8').split(/\s+/).filter(Boolean)) {
          try {
            process.kill(Number(p), 'SIGTERM');
          } catch {}
        }
      await stopImplicit();
    },
  };
}
