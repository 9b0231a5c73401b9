// The landscaper-side DeployItem controller: the pickup timeout.
export { registerDeployItemController, reconcilePickup, type DeployItemControllerOptions } from './controller.ts';
export { DEFAULT_PICKUP_TIMEOUT, PICKUP_TIMEOUT_OPERATION, PICKUP_TIMEOUT_REASON, hasUnfinishedJob, isPickedUp, pickupRemainingMs } from './timeouts.ts';
export { applyPickupTimeout, pickupTimeoutMessage } from './pickup.ts';
