import { createHmac } from 'node:crypto';
import type { ApiObject, StoredObject } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import { identityDomain } from '../authentication/identity-domain.js';
import { deleteObject } from '../lifecycle/deletion.js';
import { createWorkQueue } from '../lifecycle/work-queue.js';
import type { ServerState } from '../state.js';
import type { ObservingController } from './service-account-controller.js';

/** The ConfigMap in the public namespace that the bootstrap signer signs (doc 2 §2.4). */
export const clusterInfoName = 'cluster-info';
export const jwsKeyPrefix = 'jws-kubeconfig-';

const tokenIdPattern = /^[a-z0-9]{6}$/;
const tokenSecretPattern = /^[a-z0-9]{16}$/;
/** Longest timer Node accepts (a later expiration is re-checked then). */
const maxDelayMs = 2 ** 31 - 1;

function decoded(secret: StoredObject | ApiObject, key: string): string | undefined {
  const data = secret.data;
  if (!isJsonObject(data) || !Object.hasOwn(data, key)) return undefined;
  const v = data[key];
  if (typeof v !== 'string') return undefined;
  try {
    return Buffer.from(v, 'base64').toString('utf8');
  } catch {
    return undefined;
  }
}

/** Milliseconds until the token's `expiration` (negative when past); undefined without one; NaN when malformed. */
function msUntilExpiry(secret: StoredObject | ApiObject, now: number): number | undefined {
  const exp = decoded(secret, 'expiration');
  if (exp === undefined) return undefined;
  return Date.parse(exp) - now;
}

/**
 * The detached JWS the bootstrap signer writes (upstream `ComputeDetachedSignature`): protected
 * header `{"alg":"HS256","kid":"<id>"}`, the content as payload, HMAC-SHA256 with the whole token
 * `<id>.<secret>` as key, and the payload left out: `<header>..<signature>`.
 */
export function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: tokenId })).toString('base64url');
  const payload = Buffer.from(content, 'utf8').toString('base64url');
  const signature = createHmac('sha256', `${tokenId}.${tokenSecret}`)
    .update(`${header}.${payload}`)
    .digest('base64url');
  return `${header}..${signature}`;
}

/**
 * Upstream's `tokencleaner` and `bootstrapsigner` controllers (doc 2 §5.2), fed by the lifecycle's
 * store watch:
 * - the cleaner deletes a `bootstrap-token-*` Secret of type `bootstrap.<domain>/token` in the system
 *   namespace once its `expiration` has passed (precondition: the uid it saw);
 * - the signer keeps `data.jws-kubeconfig-<id>` on `cluster-info` in the public namespace for every
 *   unexpired token with `usage-bootstrap-signing: true`, removing signatures of tokens that are gone.
 *   It never creates `cluster-info` (as upstream: whoever publishes the kubeconfig does).
 */
export function createBootstrapTokenControllers(state: ServerState): ObservingController {
  const flavor = state.flavor;
  const secretType = `bootstrap.${identityDomain(flavor)}/token`;
  const systemNs = flavor.systemNamespace;
  const publicNs = flavor.publicNamespace;
  const objects = state.objects;
  const secretsDef = () => state.registry.get('', 'secrets');
  const signKey = '\u0000sign';
  const queue = createWorkQueue(
    (item) => (item === signKey ? sign() : clean(item)),
    {
      onError: (item, error, dropped) =>
        state.log.error(
          `bootstrap token controllers: ${item === signKey ? 'signer' : item}${dropped ? ' (dropped)' : ''}`,
          error,
        ),
      onOverflow: () => {},
    },
    { workers: 1 },
  );

  const isBootstrapSecret = (o: StoredObject | ApiObject) =>
    o.type === secretType && (o.metadata?.name ?? '').startsWith('bootstrap-token-');

  async function clean(name: string): Promise<void> {
    const def = secretsDef();
    if (!def) return;
    const key = objects.key({ group: '', resource: 'secrets', namespace: systemNs }, name);
    const { object } = await objects.get(key);
    if (!object || !isBootstrapSecret(object) || object.metadata.deletionTimestamp) return;
    const left = msUntilExpiry(object, Date.now());
    if (left === undefined || Number.isNaN(left)) return;
    if (left > 0) {
      queue.addAfter(name, Math.min(left + 1, maxDelayMs));
      return;
    }
    try {
      await deleteObject(
        state,
        { def, namespace: systemNs, name },
        { preconditions: { uid: object.metadata.uid } },
        object,
      );
      state.log.info(`token cleaner: deleted expired bootstrap token Secret ${systemNs}/${name}`);
    } catch (e) {
      const code = (e as { code?: number }).code;
      if (code !== 404 && code !== 409) throw e;
    }
  }

  async function sign(): Promise<void> {
    const cmKey = objects.key({ group: '', resource: 'configmaps', namespace: publicNs }, clusterInfoName);
    const { object: cm } = await objects.get(cmKey);
    if (!cm || cm.metadata.deletionTimestamp) return;
    const content =
      isJsonObject(cm.data) && typeof cm.data.kubeconfig === 'string' ? cm.data.kubeconfig : undefined;
    const signatures: Record<string, string> = {};
    let nextExpiry = Number.POSITIVE_INFINITY;
    if (content !== undefined) {
      const prefix = objects.prefix({ group: '', resource: 'secrets', namespace: systemNs });
      const now = Date.now();
      for (const s of (await objects.list(prefix)).items) {
        if (!isBootstrapSecret(s) || s.metadata.deletionTimestamp) continue;
        const id = decoded(s, 'token-id');
        const secret = decoded(s, 'token-secret');
        if (!id || !secret || !tokenIdPattern.test(id) || !tokenSecretPattern.test(secret)) continue;
        if (s.metadata.name !== `bootstrap-token-${id}`) continue;
        if (decoded(s, 'usage-bootstrap-signing') !== 'true') continue;
        const left = msUntilExpiry(s, now);
        if (left !== undefined && (Number.isNaN(left) || left <= 0)) continue;
        if (left !== undefined) nextExpiry = Math.min(nextExpiry, left);
        signatures[`${jwsKeyPrefix}${id}`] = computeDetachedSignature(content, id, secret);
      }
    }
    // An expiring token's signature goes when it expires, even if the cleaner has not run yet.
    if (Number.isFinite(nextExpiry)) queue.addAfter(signKey, Math.min(nextExpiry + 1, maxDelayMs));
    await objects.update(cmKey, (current) => {
      const data: Record<string, string> = {};
      if (isJsonObject(current.data))
        for (const [k, v] of Object.entries(current.data))
          if (!k.startsWith(jwsKeyPrefix) && typeof v === 'string')
            Object.defineProperty(data, k, {
              value: v,
              enumerable: true,
              writable: true,
              configurable: true,
            });
      for (const [k, v] of Object.entries(signatures)) data[k] = v;
      return { ...current, data };
    });
  }

  return {
    observe(ev) {
      if (ev.group !== '') return;
      if (ev.resource === 'secrets' && ev.namespace === systemNs && isBootstrapSecret(ev.object)) {
        if (ev.type === 'put') queue.add(ev.object.metadata.name);
        queue.add(signKey);
      } else if (
        ev.resource === 'configmaps' &&
        ev.namespace === publicNs &&
        ev.object.metadata.name === clusterInfoName &&
        ev.type === 'put'
      ) {
        queue.add(signKey);
      }
    },
    idle: () => queue.idle(),
    stop: () => queue.stop(),
  };
}
