/** Registers every library of doc 2 §2.10 item 2 on a base environment. */
import type { Environment } from '@marcbachmann/cel-js';
import { registerAuthorizer } from './authorizer.js';
import { registerCore } from './core.js';
import { registerLists } from './lists.js';
import { registerOptionals } from './optionals.js';
import { registerQuantity } from './quantity.js';
import { registerRegex } from './regex.js';
import { registerUrls } from './urls.js';

export function registerLibraries(env: Environment, gates: { AuthorizeWithSelectors: boolean }): void {
  registerCore(env);
  registerLists(env);
  registerRegex(env);
  registerUrls(env);
  registerQuantity(env);
  registerOptionals(env);
  registerAuthorizer(env, gates);
}
