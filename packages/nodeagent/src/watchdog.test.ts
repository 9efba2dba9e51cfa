import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@orchard/testing';
import { describe, expect, it } from 'vitest';
import { startWatchdog, WatchdogError, watchdogIntervalMs } from './watchdog.js';

const has = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('watchdogIntervalMs (WATCHDOG_USEC)', () => {
  it.each([
    [{}, undefined],
    [{ WATCHDOG_USEC: '0' }, undefined],
    [{ WATCHDOG_USEC: '15000000' }, 15_000],
    [{ WATCHDOG_USEC: '1500000' }, 1_500],
    [{ WATCHDOG_USEC: '15000000', WATCHDOG_PID: '1' }, undefined],
    [{ WATCHDOG_USEC: '15000000', WATCHDOG_PID: String(process.pid) }, 15_000],
  ])('%j → %s', (env, want) => {
    expect(watchdogIntervalMs(env)).toBe(want);
  });

  it('refuses intervals under 1 s and garbage', () => {
    expect(() => watchdogIntervalMs({ WATCHDOG_USEC: '999999' })).toThrow(WatchdogError);
    expect(() => watchdogIntervalMs({ WATCHDOG_USEC: '999999' })).toThrow(
      'intervals under 1 s are not supported',
    );
    expect(() => watchdogIntervalMs({ WATCHDOG_USEC: '15s' })).toThrow('not a number of microseconds');
  });
});

describe('startWatchdog', () => {
  it('is off without WATCHDOG_USEC', () => {
    expect(startWatchdog({})).toBeUndefined();
  });

  it('sends WATCHDOG=1 every half interval while the loops progress, and stops when they are stuck', async () => {
    const sent: string[] = [];
    const wd = startWatchdog(
      { WATCHDOG_USEC: '1000000' },
      { send: async (m) => void sent.push(m), maxSilenceMs: 60_000 },
    );
    expect(wd?.keepAliveMs).toBe(500);
    await waitFor('two keep-alives', () => sent.length >= 2, 20_000);
    expect(new Set(sent)).toEqual(new Set(['WATCHDOG=1']));
    wd?.stop();
    // A stuck loop: nothing heard for longer than maxSilenceMs.
    const stuck: string[] = [];
    const wd2 = startWatchdog(
      { WATCHDOG_USEC: '1000000' },
      { send: async (m) => void stuck.push(m), maxSilenceMs: 50 },
    );
    await new Promise((r) => setTimeout(r, 1_600));
    wd2?.stop();
    expect(stuck).toEqual([]);
  });

  it.skipIf(!has('systemd-notify', ['--help']) || !has('python3', ['--version']))(
    'reaches a fake NOTIFY_SOCKET (a unix datagram socket) through systemd-notify',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'nodeagent-notify-'));
      const socket = join(dir, 'notify.sock');
      const receiver = spawn('python3', [
        '-c',
        `import socket\ns=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)\ns.bind(${JSON.stringify(socket)})\nprint('bound', flush=True)\nprint(s.recv(4096).decode(), flush=True)`,
      ]);
      let out = '';
      receiver.stdout.on('data', (d) => {
        out += d;
      });
      try {
        await waitFor('the receiver to bind', () => out.includes('bound'), 20_000);
        const wd = startWatchdog({ WATCHDOG_USEC: '1000000', NOTIFY_SOCKET: socket });
        await waitFor('WATCHDOG=1 on the socket', () => out.includes('WATCHDOG=1'), 20_000);
        wd?.stop();
      } finally {
        receiver.kill();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    30_000,
  );
});
