/** @orchard/apiserver/tls — generated CA, serving and client certificates, kubeconfig writing. */
export type { CertificateAuthority, GeneratedTls, KeyPairPem, SubjectAltNames } from './certs.js';
export {
  generateCa,
  generateServerTls,
  issueClientCert,
  issueServingCert,
  loadCa,
  toSubjectAltNames,
  webCryptoKeys,
} from './certs.js';
export type { KubeconfigInput } from './kubeconfig.js';
export { buildKubeconfig } from './kubeconfig.js';
export type { TlsDirResult } from './tls-dir.js';
export { loadOrCreateTls, tlsFiles } from './tls-dir.js';
