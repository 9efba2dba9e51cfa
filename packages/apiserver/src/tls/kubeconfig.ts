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

/** YAML 1.1/1.2 words a plain scalar would turn into something other than a string. */
const yamlWords = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;

/**
 * A YAML scalar for `s`: plain when it can only read back as this string (URLs, base64, names),
 * otherwise JSON-quoted (JSON strings are YAML double-quoted scalars).
 */
function scalar(s: string): string {
  return /^[A-Za-z][\w./:+=@-]*$/.test(s) && !yamlWords.test(s) ? s : JSON.stringify(s);
}

/**
 * A kubeconfig (YAML) with one cluster, one user and one current context. Written from a template
 * (the same document a YAML library prints) because every test server start writes one.
 */
export function buildKubeconfig(input: KubeconfigInput): string {
  const name = scalar(input.name ?? 'orchard');
  const user = scalar(input.user ?? 'admin');
  const cluster = [`      server: ${scalar(input.server)}`];
  if (input.caPem) cluster.push(`      certificate-authority-data: ${b64(input.caPem)}`);
  const credentials =
    input.clientCertPem && input.clientKeyPem
      ? `\n      client-certificate-data: ${b64(input.clientCertPem)}\n      client-key-data: ${b64(input.clientKeyPem)}`
      : ' {}';
  return `apiVersion: v1
kind: Config
clusters:
  - name: ${name}
    cluster:
${cluster.join('\n')}
users:
  - name: ${user}
    user:${credentials}
contexts:
  - name: ${name}
    context:
      cluster: ${name}
      user: ${user}
current-context: ${name}
preferences: {}
`;
}
