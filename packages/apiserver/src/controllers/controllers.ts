import type { ServerState } from '../state.js';
import { createBootstrapTokenControllers } from './bootstrap-tokens.js';
import { createDeploymentController } from './deployment/deployment-controller.js';
import { createNodeLifecycleController } from './node-lifecycle.js';
import { createRootCaPublisher } from './root-ca-publisher.js';
import { createServiceAccountController, type ObservingController } from './service-account-controller.js';
import { createServiceAllocationController } from './service-allocation-controller.js';

/** The controllers that follow the lifecycle's store watch beside the namespace controller and GC:
 * default service accounts, Service allocation releases and repair, Deployments' ReplicaSets, the node health monitor, the root-CA ConfigMaps, the bootstrap token cleaner and signer. */
export function createObservingControllers(state: ServerState): ObservingController[] {
  const controllers = [createServiceAccountController(state)];
  if (state.serviceAllocator)
    controllers.push(createServiceAllocationController(state, state.serviceAllocator));
  if (
    state.options.deploymentController &&
    state.registry.get('apps', 'deployments') &&
    state.registry.get('apps', 'replicasets')
  )
    controllers.push(createDeploymentController(state));
  if (state.options.nodeLifecycle && state.registry.get('', 'nodes'))
    controllers.push(createNodeLifecycleController(state, state.options.nodeLifecycle));
  if (state.options.rootCaBundle) controllers.push(createRootCaPublisher(state, state.options.rootCaBundle));
  // As kubeadm runs them: the cleaner and signer go with bootstrap-token authentication.
  if (state.authentication && state.options.authentication?.bootstrapTokens)
    controllers.push(createBootstrapTokenControllers(state));
  return controllers;
}
