// The landscaper-side DeployItem controller (pkg/landscaper/controllers/deployitem): it fails deploy
// items whose job no deployer picked up within the pickup timeout. It sleeps until the exact moment
// a timeout can fire (requeueAfter), and any change of the item wakes it earlier.
import { NotFoundError } from '../../client/errors.ts';
import { action, type Action } from '../../runtime/controller/action.ts';
import type { Controller } from '../../runtime/controller/controller.ts';
import type { ReconcileContext } from '../../runtime/controller/reconciler.ts';
import type { Manager } from '../../runtime/manager.ts';
import { updateStatus } from '../../runtime/status.ts';
import type { EventRecorder } from '../../runtime/event-recorder.ts';
import type { KubeClient } from '../../client/client.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { deployItemsResource, targetsResource } from '../api/resources.ts';
import { applyPickupTimeout, pickupTimeoutMessage } from './pickup.ts';
import { parseTimeout, type Timeout } from '../timeouts.ts';
import { DEFAULT_PICKUP_TIMEOUT, pickupRemainingMs } from './timeouts.ts';

export interface DeployItemControllerOptions {
  name?: string;
  /** Go duration, "none" (disabled) or milliseconds; default 5m (landscaper.deployItemTimeouts.pickup). */
  pickupTimeout?: string | number;
  /** Extra wait after the computed expiry before re-checking, for clock skew; default 1000 ms. */
  recheckSlackMs?: number;
  concurrency?: number;
  now?: () => Date;
}

interface DeployItemControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  pickup: Timeout;
  slackMs: number;
  now(): Date;
}

export function registerDeployItemController(mgr: Manager, options: DeployItemControllerOptions = {}): Controller<DeployItem, DeployItemControllerData> {
  const data: DeployItemControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('landscaper-deployitem-controller'),
    pickup: parseTimeout(options.pickupTimeout, DEFAULT_PICKUP_TIMEOUT),
    slackMs: Math.max(0, options.recheckSlackMs ?? 1000),
    now: options.now ?? (() => new Date()),
  };
  return mgr.controller<DeployItem, DeployItemControllerData>({
    name: options.name ?? 'landscaper-deployitem',
    for: deployItemsResource,
    data,
    concurrency: options.concurrency ?? 2,
    reconcile: reconcilePickup,
  });
}

export async function reconcilePickup(di: DeployItem, ctx: ReconcileContext<DeployItemControllerData>): Promise<Action> {
  const d = ctx.data;
  const remaining = pickupRemainingMs(di, d.pickup, d.now());
  if (remaining === undefined || d.pickup.disabled) return action.awaitChange();
  if (remaining > 0) return action.requeueAfter(remaining + d.slackMs);

  const missingTarget = await missingTargetOf(d.client, di);
  const message = pickupTimeoutMessage(di, d.pickup.ms, missingTarget);
  let timedOut = false;
  try {
    await updateStatus(d.client, deployItemsResource, di, (draft) => {
      // After a conflict the fresh item may show a deployer picked the job up meanwhile: then nothing fires.
      const left = pickupRemainingMs(draft, d.pickup, d.now());
      timedOut = left !== undefined && left <= 0;
      if (timedOut) applyPickupTimeout(draft, (draft.status ??= { observedGeneration: 0 }), message, d.now());
    });
  } catch (err) {
    if (err instanceof NotFoundError) return action.awaitChange();
    throw err;
  }
  if (timedOut) void d.recorder.warning(di, 'PickupTimeout', message);
  return action.awaitChange();
}

/** "<namespace>/<name>" of the item's Target when it does not exist. */
async function missingTargetOf(client: KubeClient, di: DeployItem): Promise<string | undefined> {
  const ref = di.spec.target;
  if (!ref?.name) return undefined;
  const namespace = ref.namespace || di.metadata.namespace || 'default';
  try {
    await client.get(targetsResource, ref.name, { namespace });
    return undefined;
  } catch (err) {
    if (err instanceof NotFoundError) return `${namespace}/${ref.name}`;
    throw err;
  }
}


