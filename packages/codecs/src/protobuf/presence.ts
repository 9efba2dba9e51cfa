/**
 * Go's `omitempty` on the decode path. Upstream decodes Protobuf into Go structs, whose
 * non-pointer fields are always on the wire (gogo writes `""`, `0`, `false`) and vanish again
 * when the struct is printed as JSON with `omitempty`. We decode straight to the JSON form, so a
 * zero scalar is dropped unless its field is listed here: pointer fields (`*int32`, `*bool`:
 * written only when set, zero is meaningful) and the few fields without `omitempty`.
 * Keys are `<Message>.<field>`.
 */
export const keepZeroFields: ReadonlySet<string> = new Set([
  // meta/v1
  'ObjectMeta.deletionGracePeriodSeconds',
  'ListMeta.remainingItemCount',
  'OwnerReference.controller',
  'OwnerReference.blockOwnerDeletion',
  'DeleteOptions.gracePeriodSeconds',
  'DeleteOptions.orphanDependents',
  'DeleteOptions.ignoreStoreReadErrorWithClusterBreakingPotential',
  'Condition.status',
  // core/v1
  'ConfigMap.immutable',
  'Secret.immutable',
  'ServiceAccount.automountServiceAccountToken',
  // authentication/v1
  'TokenRequestSpec.expirationSeconds',
  'TokenRequestStatus.token',
  // authorization/v1
  'SubjectAccessReviewStatus.allowed',
  'SubjectRulesReviewStatus.incomplete',
]);
