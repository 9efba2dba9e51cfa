import { request } from 'node:https';

/** The answer of the agent's port. */
export interface Reply {
  readonly status: number;
  readonly text: string;
  readonly headers: Record<string, string | string[] | undefined>;
}

/** How `agentCall` authenticates and which method it sends. */
export interface CallOptions {
  readonly token?: string;
  readonly method?: string;
  readonly cert?: { readonly cert: string; readonly key: string };
  /** The CA the serving certificate is checked against. */
  readonly ca?: string;
}

/**
 * One request to an agent's HTTPS port at `base` (`https://host:port`); the path is sent as written
 * (no client-side normalization of `..` or percent-escapes). The serving certificate is checked for
 * `localhost` against `ca`.
 */
export function agentCall(base: string, path: string, o: CallOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: o.method ?? 'POST',
        ...(o.ca ? { ca: o.ca } : {}),
        servername: 'localhost',
        ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}),
        headers: o.token ? { Authorization: `Bearer ${o.token}` } : {},
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A pod bound to `nodeName` with containers `app` and `sidecar` and init container `setup`. */
export function checkpointPod(podName: string, nodeName: string): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: podName },
    spec: {
      nodeName,
      containers: [
        { name: 'app', image: 'nginx:1' },
        { name: 'sidecar', image: 'busybox:1' },
      ],
      initContainers: [{ name: 'setup', image: 'busybox:1' }],
    },
  };
}

/** A container status as the agent reports it: running (with a containerID) or waiting. */
export function containerStatus(
  name: string,
  containerID: string,
  running: boolean,
): Record<string, unknown> {
  return {
    name,
    image: 'nginx:1',
    imageID: '',
    ready: running,
    restartCount: 0,
    containerID,
    state: running
      ? { running: { startedAt: '2026-11-26T12:00:00Z' } }
      : { waiting: { reason: 'ContainerCreating' } },
  };
}
