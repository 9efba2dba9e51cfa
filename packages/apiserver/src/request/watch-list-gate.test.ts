import { isApiError, kubernetesFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { checkWatchListGate } from './watch-list-gate.js';

describe('the WatchList gate on watch sendInitialEvents', () => {
  it('lets every watch through while the gate is on (the 1.32 default)', () => {
    expect(() => checkWatchListGate(true, {}, kubernetesFlavor)).not.toThrow();
    expect(() => checkWatchListGate(false, { WatchList: true }, kubernetesFlavor)).not.toThrow();
  });

  it('with the gate off, rejects sendInitialEvents (true or false) with upstream 422, and nothing else', () => {
    expect(() => checkWatchListGate(undefined, { WatchList: false }, kubernetesFlavor)).not.toThrow();
    for (const value of [true, false]) {
      let err: unknown;
      try {
        checkWatchListGate(value, { WatchList: false }, kubernetesFlavor);
      } catch (e) {
        err = e;
      }
      expect(isApiError(err)).toBe(true);
      expect(err).toMatchObject({
        code: 422,
        reason: 'Invalid',
        message:
          'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        details: {
          group: 'meta.k8s.io',
          kind: 'ListOptions',
          causes: [
            {
              reason: 'FieldValueForbidden',
              field: 'sendInitialEvents',
              message:
                'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
            },
          ],
        },
      });
    }
  });
});
