import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import {
  type AuthenticationConfiguration,
  type ParseAuthenticationConfigurationOptions,
  parseAuthenticationConfiguration,
} from './authentication-config.js';
import type { AuthenticationResult, TokenAuthenticator } from './authenticator.js';
import { noOpinion } from './authenticator.js';
import { invalidConfiguration } from './errors.js';
import { createGauge, type Gauge } from './gauge.js';
import { createJwtAuthenticator, type JwtAuthenticatorOptions } from './jwt-authenticator.js';

/**
 * Name of the gauge set to the time (epoch seconds) of the last reload attempt of the authentication
 * configuration file, labelled `status` (`success` | `failure`); upstream's name.
 */
export const authenticationConfigReloadTimestampMetric =
  'apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds';
/**
 * Name of the counter of reload attempts of the authentication configuration file, labelled `status`
 * (`success` | `failure`); upstream's name.
 */
export const authenticationConfigReloadsMetric =
  'apiserver_authentication_config_controller_automatic_reloads_total';

/**
 * Options of `createAuthenticationConfigController`; only `path` is required, the rest default as each field
 * says (`defaultAuthenticationConfigControllerOptions`). Not mutated.
 */
export interface AuthenticationConfigControllerOptions {
  /** The `--authentication-config` file. */
  readonly path: string;
  /** Flavor, disallowed issuers, gates (the file name is `path`). */
  readonly parse?: Omit<ParseAuthenticationConfigurationOptions, 'file'>;
  /** Options of every JWT authenticator (fetch, caches, clock). */
  readonly jwt?: JwtAuthenticatorOptions;
  /** How often the file is checked for a change (mtime, size, then content hash), ms. Default 5 s. */
  readonly pollIntervalMs?: number;
  /** Where reloads and rejected edits are reported. Default `console.error`. */
  readonly log?: (message: string) => void;
  readonly now?: () => number;
}

/**
 * The defaults of `AuthenticationConfigControllerOptions` that are values: the file is polled every 5 s.
 * Frozen.
 */
export const defaultAuthenticationConfigControllerOptions: Readonly<
  Required<Pick<AuthenticationConfigControllerOptions, 'pollIntervalMs'>>
> = Object.freeze({ pollIntervalMs: 5_000 });

/**
 * What one check of the configuration file did: `unchanged` (same file), `reloaded` (a valid new
 * configuration is now in force) or `failed` (the edit was rejected and logged; the last good configuration
 * stays in force).
 */
export type ReloadOutcome = 'unchanged' | 'reloaded' | 'failed';

/**
 * The structured JWT authenticators of an `--authentication-config` file, reloaded when the file
 * changes (doc 2 §2.5). A token is tried against every `jwt[]` entry (each ignores other issuers).
 * A broken edit is logged and the last good configuration stays in force; each attempt sets the gauge
 * `apiserver_authentication_config_controller_automatic_reload_last_timestamp_seconds{status}` and
 * counts in `..._automatic_reloads_total{status}` (`success` | `failure`).
 */
export interface AuthenticationConfigController extends TokenAuthenticator {
  /** The configuration in force. */
  readonly configuration: AuthenticationConfiguration;
  /** The reload metrics, plain gauges until the server exports `/metrics`. */
  readonly metrics: { readonly lastReloadTimestamp: Gauge; readonly reloads: Gauge };
  /** Checks the file now (what the poll timer does). Never throws. */
  check(): ReloadOutcome;
  /** Starts polling (idempotent; the timer does not keep the process alive). */
  start(): void;
  stop(): void;
}

interface Loaded {
  readonly configuration: AuthenticationConfiguration;
  readonly authenticators: readonly TokenAuthenticator[];
  readonly hash: string;
}

/**
 * Loads the file (a bad file throws `AuthnError('InvalidConfiguration')` naming file and field: a
 * start-up error) and returns the controller; call `start()` for automatic reload.
 */
export function createAuthenticationConfigController(
  options: AuthenticationConfigControllerOptions,
): AuthenticationConfigController {
  const o = { ...defaultAuthenticationConfigControllerOptions, ...options };
  const now = options.now ?? Date.now;
  const log = options.log ?? ((m: string) => console.error(m));
  const lastReloadTimestamp = createGauge(
    authenticationConfigReloadTimestampMetric,
    'Timestamp of the last automatic reload of authentication configuration split by status.',
  );
  const reloads = createGauge(
    authenticationConfigReloadsMetric,
    'Total number of automatic reloads of authentication configuration split by status.',
  );

  function read(): { text: string; hash: string } {
    let text: string;
    try {
      text = readFileSync(o.path, 'utf8');
    } catch (e) {
      throw invalidConfiguration(`${o.path}: cannot read: ${(e as Error).message}`);
    }
    return { text, hash: createHash('sha256').update(text).digest('hex') };
  }

  function build(text: string, hash: string): Loaded {
    const configuration = parseAuthenticationConfiguration(text, { ...o.parse, file: o.path });
    const authenticators = configuration.jwt.map((j) => createJwtAuthenticator(j, o.jwt));
    return { configuration, authenticators, hash };
  }

  let lastSeen = fingerprint();
  const first = read();
  let current = build(first.text, first.hash);
  let rejectedHash: string | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;

  function fingerprint(): string {
    try {
      const s = statSync(o.path);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch {
      return 'missing';
    }
  }

  function record(status: 'success' | 'failure') {
    lastReloadTimestamp.set(now() / 1000, { status });
    reloads.set((reloads.get({ status }) ?? 0) + 1, { status });
  }

  function check(): ReloadOutcome {
    const fp = fingerprint();
    if (fp === lastSeen) return 'unchanged';
    lastSeen = fp;
    let next: { text: string; hash: string };
    try {
      next = read();
    } catch (e) {
      log(`authentication config: keeping the last good configuration: ${(e as Error).message}`);
      record('failure');
      return 'failed';
    }
    if (next.hash === current.hash || next.hash === rejectedHash) return 'unchanged';
    try {
      const loaded = build(next.text, next.hash);
      if (
        JSON.stringify(loaded.configuration.anonymous) !== JSON.stringify(current.configuration.anonymous)
      ) {
        log('authentication config: the anonymous section changed; it takes effect after a restart');
      }
      current = loaded;
      rejectedHash = undefined;
      record('success');
      log(
        `authentication config: reloaded ${o.path} (${loaded.configuration.jwt.length} jwt authenticators)`,
      );
      return 'reloaded';
    } catch (e) {
      rejectedHash = next.hash;
      record('failure');
      log(`authentication config: keeping the last good configuration: ${(e as Error).message}`);
      return 'failed';
    }
  }

  return {
    get configuration() {
      return current.configuration;
    },
    metrics: { lastReloadTimestamp, reloads },
    async authenticateToken(token): Promise<AuthenticationResult> {
      // Every authenticator ignores the tokens of other issuers, so at most one has an opinion.
      for (const a of current.authenticators) {
        const r = await a.authenticateToken(token);
        if (r.kind === 'user') return r;
      }
      return noOpinion;
    },
    check,
    start() {
      if (timer) return;
      timer = setInterval(check, o.pollIntervalMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
