/**
 * One CustomResourceDefinition fixture for tests: the literal every CRD test used to paste, with
 * the few things tests vary (names, scope, schema, versions, per-version extras) as options.
 */
import { type Flavor, type FlavorName, flavorByName } from '@orchard/meta';
import type { TestServer } from './test-server.js';
import { waitFor } from './wait-for.js';

/**
 * What `crdFixture` builds: group, names, scope, versions and schema of a test
 * CustomResourceDefinition.
 */
export interface CrdFixtureOptions {
  /** API group of the custom resources (`example.com`). */
  readonly group: string;
  /** Plural resource name (`widgets`); the CRD is named `<plural>.<group>`. */
  readonly plural: string;
  readonly kind: string;
  /** Default: the kind in lower case. */
  readonly singular?: string;
  readonly listKind?: string;
  readonly shortNames?: readonly string[];
  /** Default `Namespaced`. */
  readonly scope?: 'Namespaced' | 'Cluster';
  /** The flavor whose apiextensions group the CRD's apiVersion names. Default `kubernetes`. */
  readonly flavor?: FlavorName | Flavor;
  /** Properties of `spec` (an object): the schema becomes `{type: object, properties: {spec: …}}`. */
  readonly spec?: Record<string, unknown>;
  /** The whole `openAPIV3Schema` of every version (instead of `spec`). */
  readonly schema?: Record<string, unknown>;
  /** Version names, all served. Default `['v1']`. */
  readonly versions?: readonly string[];
  /** The storage version. Default: the first. */
  readonly storageVersion?: string;
  /** Merged into every version entry (`subresources`, `additionalPrinterColumns`, …). */
  readonly versionFields?: Record<string, unknown>;
}

/** A CustomResourceDefinition object for tests, ready to POST. */
export interface CrdFixture {
  apiVersion: string;
  kind: 'CustomResourceDefinition';
  metadata: { name: string };
  spec: {
    group: string;
    scope: 'Namespaced' | 'Cluster';
    names: Record<string, unknown>;
    versions: Record<string, unknown>[];
  };
  /** So the fixture passes where an `ApiObject` is expected (codecs, kubectl input). */
  [field: string]: unknown;
}

function flavorOf(flavor: FlavorName | Flavor | undefined): Flavor {
  return typeof flavor === 'object' ? flavor : flavorByName(flavor ?? 'kubernetes');
}

/** The CustomResourceDefinition object (plain JSON, ready for a request body or kubectl). */
export function crdFixture(options: CrdFixtureOptions): CrdFixture {
  const flavor = flavorOf(options.flavor);
  const versions = options.versions ?? ['v1'];
  const storage = options.storageVersion ?? versions[0];
  const schema = options.schema ?? {
    type: 'object',
    properties: { spec: { type: 'object', properties: options.spec ?? {} } },
  };
  return {
    apiVersion: `${flavor.group('apiextensions')}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name: `${options.plural}.${options.group}` },
    spec: {
      group: options.group,
      scope: options.scope ?? 'Namespaced',
      names: {
        plural: options.plural,
        singular: options.singular ?? options.kind.toLowerCase(),
        kind: options.kind,
        ...(options.listKind ? { listKind: options.listKind } : {}),
        ...(options.shortNames ? { shortNames: [...options.shortNames] } : {}),
      },
      versions: versions.map((name) => ({
        name,
        served: true,
        storage: name === storage,
        ...options.versionFields,
        schema: { openAPIV3Schema: schema },
      })),
    },
  };
}

/** `/apis/apiextensions.<domain>/v1/customresourcedefinitions` of a flavor. */
export function crdCollectionPath(flavor?: FlavorName | Flavor): string {
  return `/apis/${flavorOf(flavor).group('apiextensions')}/v1/customresourcedefinitions`;
}

/**
 * Creates `crd` on `api` and waits until its storage version serves lists; rejects with the
 * server's answer when the create is not a 201.
 */
export async function installCrd(api: TestServer, crd: CrdFixture, timeoutMs = 5_000): Promise<void> {
  const group = crd.apiVersion.slice(0, crd.apiVersion.indexOf('/'));
  const r = await api.request('POST', `/apis/${group}/v1/customresourcedefinitions`, { body: crd });
  if (r.status !== 201) throw new Error(`creating CRD ${crd.metadata.name}: HTTP ${r.status} ${r.text}`);
  const storage = crd.spec.versions.find((v) => v.storage === true)?.name as string;
  const list = `/apis/${crd.spec.group}/${storage}/${crd.spec.names.plural as string}`;
  await waitFor(
    `${crd.metadata.name} served`,
    async () => (await api.request('GET', list)).status === 200,
    timeoutMs,
  );
}
