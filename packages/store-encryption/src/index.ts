/**
 * @orchard/store-encryption — encryption at rest for any Store: upstream's EncryptionConfiguration
 * (aesgcm, aescbc, secretbox, identity; keys rotated by order; values prefixed
 * `k8s:enc:<provider>:v1:<key>:`) and `createTransformingStore()`, the wrapper that applies it
 * below every reader, so memory, SQLite and etcd behave alike.
 */

export type {
  EncryptionConfiguration,
  EncryptionKey,
  EncryptionProvider,
  EncryptionResourceRule,
  ParseEncryptionConfigurationOptions,
} from './encryption-config.js';
export {
  EncryptionConfigError,
  encryptionConfigVersions,
  isEncryptionConfigError,
  maxEncryptionConfigBytes,
  parseEncryptionConfiguration,
  parseGroupResource,
} from './encryption-config.js';
export type { KeyedProvider } from './providers.js';
export {
  aesCbcTransformer,
  aesGcmTransformer,
  encryptedValuePrefix,
  identityTransformer,
  keyedProviderPrefixes,
  keyTransformer,
  providerKeySizes,
  secretboxTransformer,
} from './providers.js';
export type { GroupResource, ResourceTransformers } from './resource-transformers.js';
export { createResourceTransformers } from './resource-transformers.js';
export type { TransformerForKey } from './transforming-store.js';
export { createTransformingStore } from './transforming-store.js';
export type { FromStorage, PrefixedTransformer, ValueTransformer } from './value-transformer.js';
export { createPrefixTransformers, isTransformError, TransformError } from './value-transformer.js';
