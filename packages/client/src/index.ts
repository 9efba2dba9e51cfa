/**
 * @orchard/client — kubeconfig parsing, a minimal REST client over node:http(s) with TLS from the
 * kubeconfig, watch decoding, the client-side list pager, and a reflector/informer that lists, watches,
 * resumes and relists on 410 (spec doc 1 §4.6–4.7 client duties).
 */

export type { ClusterInfoConfigMap } from './cluster-info.js';
export { verifyClusterInfo } from './cluster-info.js';
export type { ClientErrorCode } from './errors.js';
export { ClientError, isClientError, isGone } from './errors.js';
export type {
  ExecClusterInfo,
  ExecConfig,
  ExecCredentialProvider,
  ExecCredentialProviderOptions,
  ExecCredentials,
  ExecInteractiveMode,
} from './exec-credential.js';
export {
  createExecCredentialProvider,
  defaultExecCredentialProviderOptions,
  execApiGroups,
  parseExecConfig,
  parseExecCredential,
} from './exec-credential.js';
export type { Informer, InformerHandlers, InformerOptions, InformerStats } from './informer.js';
export { createInformer } from './informer.js';
export type { Connection, Kubeconfig } from './kubeconfig.js';
export { loadKubeconfig, parseKubeconfig, resolveConnection } from './kubeconfig.js';
export type { ListPagerOptions, ListResult } from './list-pager.js';
export { listAll, listPages } from './list-pager.js';
export type {
  Query,
  RawResponse,
  RequestOptions,
  RestClient,
  RestClientOptions,
  StreamResponse,
} from './rest-client.js';
export { createRestClient, formatQuery } from './rest-client.js';
export { decodeWatchEvents } from './watch-decoder.js';
