/**
 * jose, imported on first use. Its ESM build is ~60 modules, which cost every process that imports
 * `@orchard/authn` ~30 ms (every test file that starts a server), while most processes never sign
 * or verify a token; the first token to sign or check waits for it once.
 */
let loading: Promise<typeof import('jose')> | undefined;

export function jose(): Promise<typeof import('jose')> {
  loading ??= import('jose');
  return loading;
}
