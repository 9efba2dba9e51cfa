/**
 * `--authorization-mode` (spec doc 2 §5.3): a comma-separated, ordered list of modes, turned into the
 * server's chain behind the `system:masters` bypass.
 */
import type { Authorizer } from './authorizer.js';
import { alwaysAllowAuthorizer, alwaysDenyAuthorizer } from './authorizer.js';
import { createAuthorizerChain, createPrivilegedGroupsAuthorizer } from './chain.js';

/** Every mode upstream names; `built` says which this package can construct. */
export const authorizationModes = Object.freeze([
  'AlwaysAllow',
  'AlwaysDeny',
  'ABAC',
  'RBAC',
  'Node',
  'Webhook',
] as const);
/**
 * One `--authorization-mode` entry upstream names; only `supportedAuthorizationModes` can be configured here.
 */
export type AuthorizationMode = (typeof authorizationModes)[number];

/** The modes that can be configured here: all of them. */
export const supportedAuthorizationModes: readonly AuthorizationMode[] = authorizationModes;

/**
 * Parses `--authorization-mode`; throws an Error naming the flag for an unknown, unsupported,
 * repeated or empty entry.
 */
export function parseAuthorizationModes(text: string): AuthorizationMode[] {
  const out: AuthorizationMode[] = [];
  for (const raw of text.split(',')) {
    const m = raw.trim();
    if (m === '') throw new Error(`--authorization-mode: empty mode in "${text}"`);
    if (!(authorizationModes as readonly string[]).includes(m))
      throw new Error(
        `--authorization-mode: unknown authorization mode "${m}" (known: ${authorizationModes.join(', ')})`,
      );
    const mode = m as AuthorizationMode;
    if (!supportedAuthorizationModes.includes(mode))
      throw new Error(`--authorization-mode: mode "${m}" is not implemented by this server`);
    if (out.includes(mode)) throw new Error(`--authorization-mode: mode "${m}" given more than once`);
    out.push(mode);
  }
  return out;
}

/** The pieces modes are built from; RBAC, ABAC, Node and Webhook need theirs. */
export interface AuthorizerChainOptions {
  readonly modes: readonly AuthorizationMode[];
  /** The RBAC authorizer (required with `RBAC`). */
  readonly rbac?: Authorizer;
  /** The ABAC authorizer from `--authorization-policy-file` (required with `ABAC`, refused without it). */
  readonly abac?: Authorizer;
  /** The webhook authorizer of `--authorization-webhook-config-file` (required with `Webhook`). */
  readonly webhook?: Authorizer;
  /** The Node authorizer (`createNodeAuthorizer`, required with `Node`). */
  readonly node?: Authorizer;
  /** Groups that bypass every mode. Default `['system:masters']`. */
  readonly privilegedGroups?: readonly string[];
}

/** The server's authorizer: the privileged-groups bypass, then each mode in order. */
export function createModeAuthorizer(options: AuthorizerChainOptions): Authorizer {
  if (options.modes.length === 0) throw new Error('--authorization-mode: at least one mode is required');
  if (options.abac && !options.modes.includes('ABAC'))
    throw new Error('--authorization-policy-file: given without mode ABAC in --authorization-mode');
  const chain: Authorizer[] = [createPrivilegedGroupsAuthorizer(options.privilegedGroups)];
  for (const mode of options.modes) {
    switch (mode) {
      case 'AlwaysAllow':
        chain.push(alwaysAllowAuthorizer);
        break;
      case 'AlwaysDeny':
        chain.push(alwaysDenyAuthorizer);
        break;
      case 'RBAC':
        if (!options.rbac) throw new Error('--authorization-mode: RBAC needs an RBAC evaluator');
        chain.push(options.rbac);
        break;
      case 'Node':
        if (!options.node) throw new Error('--authorization-mode: Node needs a node authorizer');
        chain.push(options.node);
        break;
      case 'ABAC':
        if (!options.abac) throw new Error('--authorization-mode: ABAC needs --authorization-policy-file');
        chain.push(options.abac);
        break;
      case 'Webhook':
        if (!options.webhook)
          throw new Error(
            "--authorization-mode: authorization-mode Webhook's authorization config file not passed",
          );
        chain.push(options.webhook);
        break;
      default:
        throw new Error(`--authorization-mode: mode "${mode}" is not implemented by this server`);
    }
  }
  return createAuthorizerChain(chain);
}
