// The landscaper-side DeployItem controller (pickup timeout) and the timeout helpers deployers use.
export { registerDeployItemController, reconcilePickup, type DeployItemControllerOptions } from './controller.ts';
export {
  DEFAULT_PICKUP_TIMEOUT,
  PICKUP_TIMEOUT_OPERATION,
  PICKUP_TIMEOUT_REASON,
  PROGRESSING_TIMEOUT_OPERATION,
  PROGRESSING_TIMEOUT_REASON,
  TIMEOUT_DISABLED,
  InvalidTimeoutError,
  checkProgressingTimeout,
  formatDuration,
  hasUnfinishedJob,
  isPickedUp,
  parseTimeout,
  pickupRemainingMs,
  progressingDeadline,
  progressingTimeout,
  type ProgressingCheck,
  type Timeout,
  type TimeoutFailure,
} from './timeouts.ts';
export { applyPickupTimeout, pickupTimeoutMessage } from './pickup.ts';
