/**
 * Health endpoints of spec doc 2 §4.1: `/livez`, `/readyz`, `/healthz` (deprecated), one path per
 * check (`/livez/<name>`), `?verbose` (one `[+]<name> ok` line per check and a summary line) and
 * `?exclude=<name>` (repeatable; printed as `excluded: ok`). Machines read only the status code.
 */
export interface HealthCheck {
  readonly name: string;
  /** Resolves when healthy; rejects (or resolves to an error string) when not. */
  check(): Promise<string | undefined> | string | undefined;
}

/** The three health endpoints of spec doc 2 §4.1. */
export type HealthEndpoint = 'livez' | 'readyz' | 'healthz';

/** The registry of health checks and post-start hooks behind `/livez`, `/readyz` and `/healthz`. */
export interface HealthChecks {
  /** Adds a check to the given endpoints. */
  add(check: HealthCheck, endpoints: readonly HealthEndpoint[]): void;
  /** Marks a post-start hook done (`poststarthook/<name>` reports ok from then on). */
  completeHook(name: string): void;
  addHook(name: string): void;
  /** Answers a request to `/<endpoint>[/<check>]`. */
  evaluate(
    endpoint: HealthEndpoint,
    single: string | undefined,
    query: URLSearchParams,
  ): Promise<{ code: number; body: string }>;
}

/** Options of `createHealthChecks`. Not mutated. */
export interface HealthChecksOptions {
  /**
   * `--livez-grace-period`: for this long after creation, `/livez` takes unfinished post-start hooks
   * as passing (upstream's delayed livez check), so a slow start is not a dead server. Default 0.
   */
  readonly livezGracePeriodMs?: number;
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** Creates the registry of checks and post-start hooks (see `HealthChecks`). */
export function createHealthChecks(options: HealthChecksOptions = {}): HealthChecks {
  const checks: { check: HealthCheck; endpoints: readonly HealthEndpoint[] }[] = [];
  const hooks = new Map<string, boolean>();
  const now = options.now ?? Date.now;
  const graceEnds = now() + (options.livezGracePeriodMs ?? 0);
  const hookNames = new Set<string>();
  const run = async (c: HealthCheck): Promise<string | undefined> => {
    try {
      const r = await c.check();
      return typeof r === 'string' && r !== '' ? r : undefined;
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  return {
    add(check, endpoints) {
      checks.push({ check, endpoints });
    },
    addHook(name) {
      hooks.set(name, false);
      hookNames.add(`poststarthook/${name}`);
      checks.push({
        check: { name: `poststarthook/${name}`, check: () => (hooks.get(name) ? undefined : 'not finished') },
        endpoints: ['livez', 'readyz', 'healthz'],
      });
    },
    completeHook(name) {
      hooks.set(name, true);
    },
    async evaluate(endpoint, single, query) {
      const grace = endpoint === 'livez' && now() < graceEnds;
      const mine = checks
        .filter((c) => c.endpoints.includes(endpoint))
        .map((c) =>
          grace && hookNames.has(c.check.name) ? { name: c.check.name, check: () => undefined } : c.check,
        );
      if (single !== undefined) {
        const c = mine.find((x) => x.name === single);
        if (!c) return { code: 404, body: `404 page not found\n` };
        const failure = await run(c);
        return failure === undefined
          ? { code: 200, body: 'ok' }
          : { code: 500, body: `internal server error: ${failure}\n` };
      }
      const excluded = new Set(
        query
          .getAll('exclude')
          .flatMap((e) => e.split(','))
          .map((e) => e.trim())
          .filter(Boolean),
      );
      const verbose = query.has('verbose') && query.get('verbose') !== 'false';
      const lines: string[] = [];
      let failed = false;
      const results = await Promise.all(
        mine.map(async (c) => ({ c, failure: excluded.has(c.name) ? undefined : await run(c) })),
      );
      for (const { c, failure } of results) {
        if (excluded.has(c.name)) {
          lines.push(`[+]${c.name} excluded: ok`);
          excluded.delete(c.name);
        } else if (failure === undefined) lines.push(`[+]${c.name} ok`);
        else {
          failed = true;
          lines.push(`[-]${c.name} failed: reason withheld`);
        }
      }
      if (excluded.size > 0)
        lines.push(
          `warn: some health checks cannot be excluded: no matches for ${[...excluded].map((e) => `"${e}"`).join(',')}`,
        );
      if (failed) return { code: 500, body: `${lines.join('\n')}\n${endpoint} check failed\n` };
      if (!verbose) return { code: 200, body: 'ok' };
      return { code: 200, body: `${lines.join('\n')}\n${endpoint} check passed\n` };
    },
  };
}
