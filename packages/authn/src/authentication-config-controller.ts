import {
  type AuthenticationConfiguration,
  type ParseAuthenticationConfigurationOptions,
  parseAuthenticationConfiguration,
} from './authentication-config.js';
import type { AuthenticationResult, TokenAuthenticator } from './authenticator.js';
import { noOpinion } from './authenticator.js';
import { createConfigFileReloader, createReloadMetrics, type ReloadOutcome } from './config-file-reloader.js';
import { invalidConfiguration } from './errors.js';
import type { Gauge } from './gauge.js';
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

export type { ReloadOutcome } from './config-file-reloader.js';

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
}

/**
 * Loads the file (a bad file throws `AuthnError('InvalidConfiguration')` naming file and field: a
 * start-up error) and returns the controller; call `start()` for automatic reload.
 */
export function createAuthenticationConfigController(
  options: AuthenticationConfigControllerOptions,
): AuthenticationConfigController {
  const o = { ...defaultAuthenticationConfigControllerOptions, ...options };
  const log = options.log ?? ((m: string) => console.error(m));
  const metrics = createReloadMetrics(
    'apiserver_authentication_config_controller',
    'authentication configuration',
  );
  const reloader = createConfigFileReloader<Loaded>({
    path: o.path,
    what: 'authentication config',
    metrics,
    log,
    ...(options.now ? { now: options.now } : {}),
    fail: invalidConfiguration,
    build(text, previous) {
      const configuration = parseAuthenticationConfiguration(text, { ...o.parse, file: o.path });
      const authenticators = configuration.jwt.map((j) => createJwtAuthenticator(j, o.jwt));
      if (
        previous &&
        JSON.stringify(configuration.anonymous) !== JSON.stringify(previous.configuration.anonymous)
      )
        log('authentication config: the anonymous section changed; it takes effect after a restart');
      return { configuration, authenticators };
    },
    describe: (loaded) => `reloaded ${o.path} (${loaded.configuration.jwt.length} jwt authenticators)`,
  });

  return {
    get configuration() {
      return reloader.current.configuration;
    },
    metrics,
    async authenticateToken(token): Promise<AuthenticationResult> {
      // Every authenticator ignores the tokens of other issuers, so at most one has an opinion.
      for (const a of reloader.current.authenticators) {
        const r = await a.authenticateToken(token);
        if (r.kind === 'user') return r;
      }
      return noOpinion;
    },
    check: () => reloader.check(),
    start: () => reloader.start(o.pollIntervalMs),
    stop: () => reloader.stop(),
  };
}
