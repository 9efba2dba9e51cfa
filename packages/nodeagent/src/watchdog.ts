import { execFile } from 'node:child_process';
import type { HeartbeatEvent } from './lease.js';

/** A `WATCHDOG_USEC` the agent refuses (under 1 s, or not a number). */
export class WatchdogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WatchdogError';
  }
}

/**
 * The watchdog interval systemd asks for (ms), or undefined when it is off: `WATCHDOG_USEC` unset or
 * 0, or `WATCHDOG_PID` naming another process (sd_watchdog_enabled). Intervals under 1 s are refused
 * (spec doc 2 §2.9).
 */
export function watchdogIntervalMs(env: NodeJS.ProcessEnv, pid = process.pid): number | undefined {
  const usec = env.WATCHDOG_USEC;
  if (usec === undefined || usec === '' || usec === '0') return undefined;
  if (!/^\d+$/.test(usec))
    throw new WatchdogError(`WATCHDOG_USEC=${JSON.stringify(usec)}: not a number of microseconds`);
  if (env.WATCHDOG_PID !== undefined && env.WATCHDOG_PID !== '' && env.WATCHDOG_PID !== String(pid))
    return undefined;
  const ms = Number(usec) / 1000;
  if (ms < 1000)
    throw new WatchdogError(`WATCHDOG_USEC=${usec}: watchdog intervals under 1 s are not supported`);
  return ms;
}

/** Sends one sd_notify message over `NOTIFY_SOCKET` (through `systemd-notify`: Node has no AF_UNIX datagram socket). */
export function systemdNotify(env: NodeJS.ProcessEnv): (message: string) => Promise<void> {
  return (message) =>
    new Promise((resolve, reject) => {
      execFile('systemd-notify', [message], { env, timeout: 5_000 }, (e) => (e ? reject(e) : resolve()));
    });
}

/** Options of `startWatchdog`. */
export interface WatchdogOptions {
  /** How a keep-alive is sent. Default `systemdNotify(env)` (the unit needs `NotifyAccess=all`). */
  readonly send?: (message: string) => Promise<void>;
  /** A heartbeat loop silent (no success, no retry) for longer than this is stuck. Default 30 s. */
  readonly maxSilenceMs?: number;
  /** Called when a keep-alive fails to send. */
  readonly onError?: (e: unknown) => void;
}

/** A running watchdog. */
export interface Watchdog {
  /** The keep-alive interval (half of `WATCHDOG_USEC`), ms. */
  readonly keepAliveMs: number;
  /** Records progress of a heartbeat loop (pass every `HeartbeatEvent`). */
  heartbeat(e?: HeartbeatEvent): void;
  stop(): void;
}

/**
 * The systemd watchdog (spec doc 2 §2.9, beta): with `WATCHDOG_USEC` set, `WATCHDOG=1` every half
 * interval while the heartbeat loops make progress; a stuck loop (silent for `maxSilenceMs`) stops
 * the keep-alives, so systemd kills and restarts the agent. Undefined when the watchdog is off.
 */
export function startWatchdog(env: NodeJS.ProcessEnv, options: WatchdogOptions = {}): Watchdog | undefined {
  const interval = watchdogIntervalMs(env);
  if (interval === undefined) return undefined;
  const send = options.send ?? systemdNotify(env);
  const maxSilenceMs = options.maxSilenceMs ?? 30_000;
  let lastProgress = Date.now();
  const keepAliveMs = interval / 2;
  const timer = setInterval(() => {
    if (Date.now() - lastProgress > maxSilenceMs) return;
    send('WATCHDOG=1').catch((e) => options.onError?.(e));
  }, keepAliveMs);
  timer.unref?.();
  return {
    keepAliveMs,
    heartbeat() {
      lastProgress = Date.now();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
