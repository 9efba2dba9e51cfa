import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody } from '../request/body.js';
import { backupName, createAuditLogWriter } from './log-writer.js';
import { attachAuditRecord, formatMicroTime } from './record.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('audit log writer', () => {
  it('writes lines in order, rotates by size and keeps maxBackups rotated files', async () => {
    dir = await mkdtemp(join(tmpdir(), 'orchard-audit-log-'));
    const path = join(dir, 'audit.log');
    let clock = Date.parse('2026-11-26T07:00:00Z');
    const w = createAuditLogWriter({
      path,
      maxSizeBytes: 1000,
      maxBackups: 2,
      onError: (m) => {
        throw new Error(m);
      },
      now: () => (clock += 1000),
    });
    const line = (i: number) => JSON.stringify({ i, pad: 'x'.repeat(80) });
    for (let i = 0; i < 60; i++) {
      w.write(line(i));
      if (i % 7 === 0) await w.flush();
    }
    await w.close();
    const files = (await readdir(dir)).sort();
    expect(files).toHaveLength(3);
    expect(files).toContain('audit.log');
    expect(files.filter((f) => /^audit-2026-11-26T07-\d\d-\d\d\.000\.log$/.test(f))).toHaveLength(2);
    const all: number[] = [];
    for (const f of files.filter((x) => x !== 'audit.log').concat('audit.log')) {
      const text = await readFile(join(dir, f), 'utf8');
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
      all.push(
        ...text
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as { i: number }).i),
      );
    }
    // The newest lines survive, in order, none twice.
    expect(all).toEqual([...all].sort((a, b) => a - b));
    expect(all.at(-1)).toBe(59);
    expect(new Set(all).size).toBe(all.length);
    w.write(line(99));
    expect(w.dropped).toBe(1);
  });

  it('names backups as lumberjack does, in UTC', () => {
    expect(backupName('/var/log/audit.log', Date.parse('2026-11-26T07:01:02.345Z'))).toBe(
      '/var/log/audit-2026-11-26T07-01-02.345.log',
    );
  });

  it('formats MicroTime with six fractional digits', () => {
    expect(formatMicroTime(Date.parse('2026-11-26T07:01:02.345Z') * 1000 + 678)).toBe(
      '2026-11-26T07:01:02.345678Z',
    );
  });

  it('keeps the very buffer the handler read (no second copy of the body)', async () => {
    const req = Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]) as unknown as IncomingMessage;
    (req as { headers: Record<string, string> }).headers = {};
    const record = {
      auditID: 'x',
      decision: { level: 'Request' as const, omitStages: new Set<never>(), omitManagedFields: false },
      user: undefined,
      receivedAt: 0,
      annotations: {},
    } as Parameters<typeof attachAuditRecord>[1];
    attachAuditRecord(req, record);
    const body = await readBody(req, 1024);
    expect(record.requestBody).toBe(body);
  });
});
