import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { getOwn, isJsonObject } from '@orchard/meta/internal';

/** A resolved syscall filter profile (spec doc 2 §2.9). */
export type SeccompProfile =
  | { readonly type: 'Unconfined' }
  | { readonly type: 'RuntimeDefault' }
  | { readonly type: 'Localhost'; readonly localhostProfile: string };

/** A container the agent cannot create; the Pod shows `reason` (`CreateContainerError`) and `message`. */
export class CreateContainerError extends Error {
  readonly reason = 'CreateContainerError';
  constructor(message: string) {
    super(message);
    this.name = 'CreateContainerError';
  }
}

type Obj = Record<string, unknown>;

const profileOf = (securityContext: unknown): Obj | undefined => {
  const p = isJsonObject(securityContext) ? getOwn(securityContext, 'seccompProfile') : undefined;
  return isJsonObject(p) ? p : undefined;
};

/**
 * The profile a container runs with: its own `securityContext.seccompProfile` wins, unset inherits
 * the Pod's `spec.securityContext.seccompProfile`, neither set gives `RuntimeDefault` with
 * `seccompDefault` (the agent's configuration) and `Unconfined` without; a privileged container is
 * always `Unconfined`. Works for containers, init containers and ephemeral containers alike.
 */
export function resolveSeccompProfile(
  podSpec: unknown,
  container: unknown,
  options: { seccompDefault?: boolean } = {},
): SeccompProfile {
  const containerContext = isJsonObject(container) ? getOwn(container, 'securityContext') : undefined;
  if (isJsonObject(containerContext) && getOwn(containerContext, 'privileged') === true)
    return { type: 'Unconfined' };
  const podContext = isJsonObject(podSpec) ? getOwn(podSpec, 'securityContext') : undefined;
  const chosen = profileOf(containerContext) ?? profileOf(podContext);
  const type = chosen ? getOwn(chosen, 'type') : undefined;
  if (type === 'Localhost') {
    const name = getOwn(chosen as Obj, 'localhostProfile');
    if (typeof name !== 'string' || name === '')
      throw new CreateContainerError('localhostProfile must be set when seccomp profile type is Localhost');
    return { type: 'Localhost', localhostProfile: name };
  }
  if (type === 'Unconfined' || type === 'RuntimeDefault') return { type };
  if (type !== undefined)
    throw new CreateContainerError(`unknown seccomp profile type ${JSON.stringify(type)}`);
  return { type: options.seccompDefault ? 'RuntimeDefault' : 'Unconfined' };
}

/** The actions a profile may name (the OCI runtime specification's). */
export const seccompActions: readonly string[] = Object.freeze([
  'SCMP_ACT_ERRNO',
  'SCMP_ACT_ALLOW',
  'SCMP_ACT_KILL_PROCESS',
  'SCMP_ACT_KILL_THREAD',
  'SCMP_ACT_KILL',
  'SCMP_ACT_TRAP',
  'SCMP_ACT_NOTIFY',
  'SCMP_ACT_TRACE',
  'SCMP_ACT_LOG',
]);

const argOps = new Set([
  'SCMP_CMP_NE',
  'SCMP_CMP_LT',
  'SCMP_CMP_LE',
  'SCMP_CMP_EQ',
  'SCMP_CMP_GE',
  'SCMP_CMP_GT',
  'SCMP_CMP_MASKED_EQ',
]);
const isUint = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * The errors of a profile document (`field: message`), empty when it is valid: `defaultAction` one of
 * the actions and never `SCMP_ACT_NOTIFY`, optional `defaultErrnoRet` a non-negative integer,
 * `syscalls[]` entries with non-empty `names`, an `action`, optional `errnoRet` and `args`
 * (`index` 0–5, `value`, optional `valueTwo`, `op`).
 */
export function validateSeccompProfile(doc: unknown): string[] {
  const errors: string[] = [];
  if (!isJsonObject(doc)) return ['<root>: must be a JSON object'];
  const defaultAction = getOwn(doc, 'defaultAction');
  if (defaultAction === undefined) errors.push('defaultAction: Required value');
  else if (typeof defaultAction !== 'string' || !seccompActions.includes(defaultAction))
    errors.push(`defaultAction: Unsupported value: ${JSON.stringify(defaultAction)}`);
  else if (defaultAction === 'SCMP_ACT_NOTIFY')
    errors.push('defaultAction: SCMP_ACT_NOTIFY cannot be the default action');
  const errnoRet = getOwn(doc, 'defaultErrnoRet');
  if (errnoRet !== undefined && !isUint(errnoRet))
    errors.push('defaultErrnoRet: must be a non-negative integer');
  const syscalls = getOwn(doc, 'syscalls');
  if (syscalls === undefined) return errors;
  if (!Array.isArray(syscalls)) return [...errors, 'syscalls: must be a list'];
  syscalls.forEach((s, i) => {
    const at = `syscalls[${i}]`;
    if (!isJsonObject(s)) {
      errors.push(`${at}: must be an object`);
      return;
    }
    const names = getOwn(s, 'names');
    if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string' || n === ''))
      errors.push(`${at}.names: must be a non-empty list of syscall names`);
    const action = getOwn(s, 'action');
    if (typeof action !== 'string' || !seccompActions.includes(action))
      errors.push(`${at}.action: Unsupported value: ${JSON.stringify(action)}`);
    const ret = getOwn(s, 'errnoRet');
    if (ret !== undefined && !isUint(ret)) errors.push(`${at}.errnoRet: must be a non-negative integer`);
    const args = getOwn(s, 'args');
    if (args === undefined) return;
    if (!Array.isArray(args)) {
      errors.push(`${at}.args: must be a list`);
      return;
    }
    args.forEach((a, j) => {
      const argAt = `${at}.args[${j}]`;
      if (!isJsonObject(a)) {
        errors.push(`${argAt}: must be an object`);
        return;
      }
      const index = getOwn(a, 'index');
      if (!isUint(index) || (index as number) > 5) errors.push(`${argAt}.index: must be 0 to 5`);
      if (!isUint(getOwn(a, 'value'))) errors.push(`${argAt}.value: must be a non-negative integer`);
      const two = getOwn(a, 'valueTwo');
      if (two !== undefined && !isUint(two)) errors.push(`${argAt}.valueTwo: must be a non-negative integer`);
      const op = getOwn(a, 'op');
      if (typeof op !== 'string' || !argOps.has(op))
        errors.push(`${argAt}.op: Unsupported value: ${JSON.stringify(op)}`);
    });
  });
  return errors;
}

/** Largest profile file read (1 MiB). */
export const maxSeccompProfileBytes = 1024 * 1024;

/**
 * Loads a `Localhost` profile from the profile directory (`<root>/seccomp`): the name must stay
 * inside it (no absolute path, no `..` escape), the file must exist and hold a valid profile;
 * otherwise `CreateContainerError` with the reason.
 */
export function loadLocalhostProfile(seccompDir: string, name: string): Record<string, unknown> {
  const base = resolve(seccompDir);
  const path = resolve(join(base, name));
  if (isAbsolute(name) || !path.startsWith(base + sep))
    throw new CreateContainerError(
      `seccomp profile ${JSON.stringify(name)} is outside the profile directory ${base}`,
    );
  let text: string;
  try {
    if (statSync(path).size > maxSeccompProfileBytes)
      throw new CreateContainerError(
        `cannot load seccomp profile ${JSON.stringify(path)}: larger than 1 MiB`,
      );
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof CreateContainerError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new CreateContainerError(
      `cannot load seccomp profile ${JSON.stringify(path)}: ${code === 'ENOENT' ? 'no such file or directory' : (e as Error).message}`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new CreateContainerError(
      `seccomp profile ${JSON.stringify(path)} is not JSON: ${(e as Error).message}`,
    );
  }
  const errors = validateSeccompProfile(doc);
  if (errors.length > 0)
    throw new CreateContainerError(
      `seccomp profile ${JSON.stringify(path)} is invalid: ${errors.join('; ')}`,
    );
  return doc as Record<string, unknown>;
}
