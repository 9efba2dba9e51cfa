import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApiServer, ApiServerOptions, CustomResourceConverter, WatchCacheSettings } from './index.js';
import * as api from './index.js';

/** Every type a public signature uses is reachable from the index (tsc checks the type half). */
describe('public API', () => {
  it('exports what ApiServerOptions.watchCache and ApiServer.watchCaches are made of', () => {
    expectTypeOf<ApiServerOptions['watchCache']>().toEqualTypeOf<Partial<WatchCacheSettings>>();
    expectTypeOf<ApiServer['watchCaches']>().toEqualTypeOf<api.WatchCaches>();
    expect(api.WatchCaches).toBeTypeOf('function');
    expect(api.defaultWatchCacheSettings.windowMs).toBe(5 * 60_000);
  });

  it('exports the custom resource converter hook', () => {
    expect(api.setCustomResourceConverter).toBeTypeOf('function');
    expectTypeOf<Parameters<typeof api.setCustomResourceConverter>[3]>().toEqualTypeOf<
      CustomResourceConverter | undefined
    >();
  });
});
