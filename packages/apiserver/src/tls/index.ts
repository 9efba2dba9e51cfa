/** @orchard/apiserver/tls — generated CA, serving and client certificates, kubeconfig writing. */
export type { CertificateAuthority, KeyPairPem, GeneratedTls } from './certs.js';
export { generateCa, issueServingCert, issueClientCert, generateServerTls } from './certs.js';
export type { KubeconfigInput } from './kubeconfig.js';
export { buildKubeconfig } from './kubeconfig.js';
