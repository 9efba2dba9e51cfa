import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { type AddressInfo, connect, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AuditedResponse } from './audited-response.js';
import { send } from './write.js';

/** The raw response bytes (the Date line dropped) of one GET answered by `answer`. */
async function rawResponse(
  responseClass: typeof ServerResponse | typeof AuditedResponse,
  answer: (res: ServerResponse) => void,
): Promise<string> {
  const server = createServer({ ServerResponse: responseClass as typeof ServerResponse }, (_req, res) => {
    if (res instanceof AuditedResponse) res.setAuditId('id-1');
    else res.setHeader('Audit-ID', 'id-1');
    answer(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () =>
        socket.end('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => {
        text += d;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text.replace(/^Date: .*\r\n/m, '')));
    });
  } finally {
    server.close();
  }
}

const warning = '299 - "a warning"';
const cases: [string, (res: ServerResponse) => void][] = [
  ['send, no extra headers', (res) => send(res, 200, 'application/json', '{"a":1}')],
  [
    'send with repeated Warning values and gzip headers',
    (res) =>
      send(res, 201, 'application/json', new Uint8Array([1, 2, 3]), {
        Warning: [warning, '299 - "another"'],
        'Content-Encoding': 'gzip',
        Vary: 'Accept-Encoding',
      }),
  ],
  [
    'send replacing one of its own headers',
    (res) => send(res, 200, 'text/plain', 'x', { 'Cache-Control': 'public, immutable', ETag: '"e"' }),
  ],
  [
    'a header set before send',
    (res) => {
      res.setHeader('Warning', warning);
      send(res, 200, 'application/json', '{}', { Warning: ['299 - "replaced"'] });
    },
  ],
  ['a HEAD-style send', (res) => send(res, 200, 'application/json', '{"a":1}', {}, true)],
  ['end without writeHead', (res) => res.end('plain')],
  [
    'writeHead with an object, then writes',
    (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{');
      res.end('}');
    },
  ],
  [
    'flushHeaders (a watch)',
    (res) => {
      res.statusCode = 200;
      res.setHeader('Transfer-Encoding', 'chunked');
      res.flushHeaders();
      res.end('{}');
    },
  ],
  [
    'Connection: close set, then send',
    (res) => {
      res.shouldKeepAlive = false;
      res.setHeader('Connection', 'close');
      send(res, 408, 'application/json', '{}');
    },
  ],
];

describe('AuditedResponse', () => {
  it.each(cases)('%s: the same bytes as setting Audit-ID first with setHeader', async (_name, answer) => {
    const before = await rawResponse(ServerResponse, answer);
    const after = await rawResponse(AuditedResponse, answer);
    expect(after).toBe(before);
    expect(after).toMatch(/^HTTP\/1\.1 \d{3} [^\r]*\r\nAudit-ID: id-1\r\n/);
  });

  it('reports the pending Audit-ID through the header getters', () => {
    const req = new IncomingMessage(new Socket());
    req.method = 'GET';
    const res = new AuditedResponse(req);
    res.setAuditId('id-2');
    expect(res.untouchedHeaders).toBe(true);
    expect(res.getHeader('audit-id')).toBe('id-2');
    expect(res.untouchedHeaders).toBe(false);
    expect(res.getHeaderNames()).toEqual(['audit-id']);
  });
});
