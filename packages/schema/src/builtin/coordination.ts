/** coordination/v1 Lease. */

import { kindSchema } from './core.js';
import { int32, obj, str } from './dsl.js';

const microTime = (description: string) => ({ type: 'string' as const, format: 'date-time', description });

export const leaseSchema = kindSchema('Lease defines a lease concept.', {
  spec: obj('spec contains the specification of the Lease.', {
    holderIdentity: str('holderIdentity contains the identity of the holder of a current lease.'),
    leaseDurationSeconds: int32(
      'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.',
    ),
    acquireTime: microTime('acquireTime is a time when the current lease was acquired.'),
    renewTime: microTime(
      'renewTime is a time when the current holder of a lease has last updated the lease.',
    ),
    leaseTransitions: int32('leaseTransitions is the number of transitions of a lease between holders.'),
    strategy: str('Strategy indicates the strategy for picking the leader for coordinated leader election.'),
    preferredHolder: str(
      'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.',
    ),
  }),
});
