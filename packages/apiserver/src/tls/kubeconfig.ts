import { stringify } from 'yaml';

/** What an admin kubeconfig is made of: server URL, CA, client certificate and entry names. */
export interface KubeconfigInput {
  readonly server: string;
  /** CA certificate (PEM); absent for plain HTTP. */
  readonly caPem?: string;
  /** Client certificate and key (PEM); absent = no credentials (insecure mode). */
  readonly clientCertPem?: string;
  readonly clientKeyPem?: string;
  /** Cluster, user and context name. Default `orchard`. */
  readonly name?: string;
  /** The user entry's name. Default `admin`. */
  readonly user?: string;
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** A kubeconfig (YAML) with one cluster, one user and one current context. */
export function buildKubeconfig(input: KubeconfigInput): string {
  const name = input.name ?? 'orchard';
  const user = input.user ?? 'admin';
  const cluster: Record<string, unknown> = { server: input.server };
  if (input.caPem) cluster['certificate-authority-data'] = b64(input.caPem);
  const userEntry: Record<string, unknown> = {};
  if (input.clientCertPem && input.clientKeyPem) {
    userEntry['client-certificate-data'] = b64(input.clientCertPem);
    userEntry['client-key-data'] = b64(input.clientKeyPem);
  }
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name: user, user: userEntry }],
    contexts: [{ name, context: { cluster: name, user } }],
    'current-context': name,
    preferences: {},
  });
}
