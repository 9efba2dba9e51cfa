import type { ServerState } from '../state.js';
import { createServiceAccountController, type ObservingController } from './service-account-controller.js';

/** The controllers that follow the lifecycle's store watch beside the namespace controller and GC. */
export function createObservingControllers(state: ServerState): ObservingController[] {
  return [createServiceAccountController(state)];
}
