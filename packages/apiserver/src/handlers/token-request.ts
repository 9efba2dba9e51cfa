import { type ApiObject, errors, type StatusCause } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import type { RequestContext } from '../context.js';
import { nodeRestrictionOnTokenRequest } from '../node/node-restriction.js';
import { defineResource, type ResourceDefinition } from '../registry/resource.js';
import { writeObject } from '../response/write.js';
import { decodeBody, objectKey } from './common.js';

/** TokenRequest's bounds (upstream): at least 10 minutes, at most 2^32 seconds; default one hour. */
const minExpirationSeconds = 600;
const maxExpirationSeconds = 2 ** 32;
const defaultExpirationSeconds = 3600;

/** The kinds a token may be bound to, and where they are stored. */
const boundKinds = {
  Pod: { resource: 'pods', namespaced: true },
  Secret: { resource: 'secrets', namespaced: true },
  Node: { resource: 'nodes', namespaced: false },
} as const;
type BoundKind = keyof typeof boundKinds;

function invalid(ctx: RequestContext, causes: StatusCause[]): Error {
  return errors.invalid(ctx.server.flavor.group('authentication'), 'TokenRequest', ctx.info.name, causes);
}

const cause = (field: string, message: string, reason = 'FieldValueInvalid'): StatusCause => ({
  reason,
  field,
  message,
});

/**
 * `POST …/serviceaccounts/<name>/token` (TokenRequest, doc 2 §5.2; what `kubectl create token`
 * sends, Protobuf or JSON): signs a token for the live account with `spec.audiences` (default: the
 * API audiences), `spec.expirationSeconds` (default 3600, at least 600, capped by
 * `--service-account-max-token-expiration`) and an optional `spec.boundObjectRef` to a Pod, Secret
 * or Node whose uid, when given, must match the live object. 404 when the server has no signing key
 * (as upstream, where the sub-resource is then not served), or the account does not exist.
 */
export async function handleTokenRequest(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const authn = ctx.server.authentication;
  const signer = authn?.signer;
  if (!authn || !signer) throw errors.pathNotFound();
  const { value } = await decodeBody(ctx);
  if (!isJsonObject(value)) throw errors.badRequest('the request body is not a TokenRequest object');
  const flavor = ctx.server.flavor;
  const apiVersion = `${flavor.group('authentication')}/v1`;
  if (value.kind !== undefined && value.kind !== 'TokenRequest')
    throw errors.badRequest(`expected a TokenRequest, got kind ${JSON.stringify(value.kind)}`);
  const spec = value.spec === undefined || value.spec === null ? {} : value.spec;
  if (!isJsonObject(spec)) throw invalid(ctx, [cause('spec', 'must be an object')]);

  const causes: StatusCause[] = [];
  const rawAudiences = spec.audiences ?? [];
  let audiences: string[] = [];
  if (!Array.isArray(rawAudiences) || rawAudiences.some((a) => typeof a !== 'string'))
    causes.push(cause('spec.audiences', 'must be a list of strings'));
  else audiences = rawAudiences as string[];
  if (audiences.length === 0) audiences = [...authn.apiAudiences];
  let expirationSeconds = defaultExpirationSeconds;
  const rawExp = spec.expirationSeconds;
  if (rawExp !== undefined && rawExp !== null) {
    if (typeof rawExp !== 'number' || !Number.isInteger(rawExp))
      causes.push(
        cause('spec.expirationSeconds', `Invalid value: ${JSON.stringify(rawExp)}: must be an integer`),
      );
    else if (rawExp < minExpirationSeconds)
      causes.push(
        cause(
          'spec.expirationSeconds',
          `Invalid value: ${rawExp}: may not specify a duration less than 10 minutes`,
        ),
      );
    else if (rawExp > maxExpirationSeconds)
      causes.push(
        cause(
          'spec.expirationSeconds',
          `Invalid value: ${rawExp}: may not specify a duration larger than 2^32 seconds`,
        ),
      );
    else expirationSeconds = rawExp;
  }
  const ref = spec.boundObjectRef;
  let bound: { kind: BoundKind; name: string; uid: string; apiVersion: string } | undefined;
  if (ref !== undefined && ref !== null) {
    if (!isJsonObject(ref)) causes.push(cause('spec.boundObjectRef', 'must be an object'));
    else {
      const kind = ref.kind;
      if (kind !== 'Pod' && kind !== 'Secret' && kind !== 'Node')
        causes.push(
          cause(
            'spec.boundObjectRef.kind',
            `Unsupported value: ${JSON.stringify(kind ?? '')}: supported values: "Pod", "Secret", "Node"`,
            'FieldValueNotSupported',
          ),
        );
      if (ref.apiVersion !== undefined && ref.apiVersion !== 'v1' && ref.apiVersion !== '')
        causes.push(
          cause(
            'spec.boundObjectRef.apiVersion',
            `Invalid value: ${JSON.stringify(ref.apiVersion)}: must be v1`,
          ),
        );
      if (typeof ref.name !== 'string' || ref.name === '')
        causes.push(cause('spec.boundObjectRef.name', 'Required value', 'FieldValueRequired'));
      if (ref.uid !== undefined && typeof ref.uid !== 'string')
        causes.push(cause('spec.boundObjectRef.uid', 'must be a string'));
      if (causes.length === 0)
        bound = {
          kind: kind as BoundKind,
          name: ref.name as string,
          uid: (ref.uid as string | undefined) ?? '',
          apiVersion: 'v1',
        };
    }
  }
  if (causes.length > 0) throw invalid(ctx, causes);
  if (ctx.server.nodeRestriction)
    await nodeRestrictionOnTokenRequest(ctx.server, ctx.user, ctx.info, spec.boundObjectRef);
  if (authn.maxTokenExpirationSeconds !== undefined)
    expirationSeconds = Math.min(expirationSeconds, authn.maxTokenExpirationSeconds);

  const namespace = ctx.info.namespace;
  const name = ctx.info.name;
  const { object: account } = await ctx.server.objects.get(objectKey(ctx, def, name));
  if (!account || account.metadata.deletionTimestamp)
    throw errors.notFound({ group: '', resource: 'serviceaccounts' }, name);

  if (bound) {
    const where = boundKinds[bound.kind];
    if (!ctx.server.registry.get('', where.resource))
      throw errors.badRequest(
        `cannot bind a token to a ${bound.kind}: the server does not serve ${where.resource}`,
      );
    const key = ctx.server.objects.key(
      { group: '', resource: where.resource, namespace: where.namespaced ? namespace : '' },
      bound.name,
    );
    const { object } = await ctx.server.objects.get(key);
    if (!object || object.metadata.deletionTimestamp)
      throw errors.notFound({ group: '', resource: where.resource }, bound.name);
    if (bound.uid !== '' && bound.uid !== object.metadata.uid)
      throw errors.conflict(
        { group: '', resource: where.resource },
        bound.name,
        `the UID in the bound object reference (${bound.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    bound.uid = object.metadata.uid;
  }

  const out: ApiObject = {
    kind: 'TokenRequest',
    apiVersion,
    metadata: { name, namespace, creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') },
    spec: {
      audiences,
      expirationSeconds,
      boundObjectRef: bound
        ? { kind: bound.kind, apiVersion: bound.apiVersion, name: bound.name, uid: bound.uid }
        : null,
    },
  };
  if (!ctx.query.dryRun) {
    const { token, expiresAt } = await signer.sign({
      namespace,
      name,
      uid: account.metadata.uid,
      audiences,
      expirationSeconds,
      ...(bound ? { boundObject: { kind: bound.kind, name: bound.name, uid: bound.uid } } : {}),
    });
    out.status = { token, expirationTimestamp: new Date(expiresAt).toISOString().replace(/\.\d+Z$/, 'Z') };
  }
  // The request's context (its getters included) as TokenRequest v1's.
  const tokenCtx: RequestContext = Object.assign(Object.create(ctx) as RequestContext, {
    def: tokenRequestDefinition(apiVersion),
    version: 'v1',
  });
  await writeObject(tokenCtx, 201, out);
}

/** The kind the response is negotiated for (Protobuf knows TokenRequest, not ServiceAccount's shape). */
function tokenRequestDefinition(apiVersion: string): ResourceDefinition {
  return defineResource({
    group: apiVersion.slice(0, apiVersion.indexOf('/')),
    versions: ['v1'],
    resource: 'tokenrequests',
    kind: 'TokenRequest',
    namespaced: true,
    verbs: ['create'],
  });
}
