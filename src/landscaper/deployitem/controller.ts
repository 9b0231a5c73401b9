// The landscaper-side DeployItem controller (pkg/landscaper/controllers/deployitem): it fails deploy
// items whose job no deployer picked up within the pickup timeout. It sleeps until the exact moment
// a timeout can fire (requeueAfter), and any change of the item wakes it earlier. Until then, an item of a
// type no deployer of this process handles says so at once in its DeployerKnown condition.
import { NotFoundError } from '../../client/errors.ts';
import type { Action, Controller, EventRecorder, Manager, ReconcileContext } from '../../runtime/index.ts';
import { action, updateStatus } from '../../runtime/index.ts';
import type { KubeClient } from '../../client/client.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { deployItemsResource, targetsResource } from '../api/resources.ts';
import { applyPickupTimeout, pickupTimeoutMessage } from './pickup.ts';
import { formatGoDuration } from '../../apimachinery/duration.ts';
import { parseTimeout, type Timeout } from '../timeouts.ts';
import { CONDITION_DEPLOYER_KNOWN } from '../api/constants.ts';
import { setLsCondition } from '../status-helpers.ts';
import { DEFAULT_PICKUP_TIMEOUT, hasUnfinishedJob, isPickedUp, NO_DEPLOYER_REASON, pickupRemainingMs } from './timeouts.ts';

export interface DeployItemControllerOptions {
  name?: string;
  /** Go duration, "none" (disabled) or milliseconds; default 5m (landscaper.deployItemTimeouts.pickup). */
  pickupTimeout?: string | number;
  /** Extra wait after the computed expiry before re-checking, for clock skew; default 1000 ms. */
  recheckSlackMs?: number;
  concurrency?: number;
  now?: () => Date;
  /**
   * The deploy item types the deployers of this process handle; an item of another type gets the DeployerKnown
   * condition False at once. Undefined: nothing is said (the deployers run elsewhere).
   */
  knownTypes?: readonly string[];
}

interface DeployItemControllerData {
  client: KubeClient;
  recorder: EventRecorder;
  pickup: Timeout;
  slackMs: number;
  knownTypes: readonly string[] | undefined;
  now(): Date;
}

export function registerDeployItemController(mgr: Manager, options: DeployItemControllerOptions = {}): Controller<DeployItem, DeployItemControllerData> {
  const data: DeployItemControllerData = {
    client: mgr.client,
    recorder: mgr.recorder('landscaper-deployitem-controller'),
    pickup: parseTimeout(options.pickupTimeout, DEFAULT_PICKUP_TIMEOUT),
    slackMs: Math.max(0, options.recheckSlackMs ?? 1000),
    now: options.now ?? (() => new Date()),
    knownTypes: options.knownTypes,
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
  if (await reportUnknownType(di, d)) return action.awaitChange();
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

/**
 * Writes the DeployerKnown condition when it is due (returns true: the write wakes the item again): False while
 * an item of a type no deployer here handles waits for pickup, True once some deployer picked it up.
 */
async function reportUnknownType(di: DeployItem, d: DeployItemControllerData): Promise<boolean> {
  if (d.knownTypes === undefined || d.knownTypes.includes(di.spec.type)) return false;
  const due = (item: DeployItem): UnknownTypeCondition | undefined => {
    const current = item.status?.conditions?.find((c) => c.type === CONDITION_DEPLOYER_KNOWN);
    if (hasUnfinishedJob(item) && !isPickedUp(item)) {
      return current?.status === 'False' ? undefined : { status: 'False', reason: NO_DEPLOYER_REASON, message: unknownTypeMessage(item, d) };
    }
    return current?.status === 'False' && isPickedUp(item) ? { status: 'True', reason: 'PickedUp', message: `a deployer outside this Bosun picked up the item of type ${item.spec.type}` } : undefined;
  };
  if (due(di) === undefined) return false;
  try {
    await updateStatus(d.client, deployItemsResource, di, (draft) => {
      const condition = due(draft);
      if (condition === undefined) return;
      const status = (draft.status ??= { observedGeneration: 0 });
      setLsCondition((status.conditions ??= []), CONDITION_DEPLOYER_KNOWN, condition.status, condition.reason, condition.message, [], d.now());
    });
  } catch (err) {
    if (err instanceof NotFoundError) return true;
    throw err;
  }
  return true;
}

interface UnknownTypeCondition {
  status: 'True' | 'False';
  reason: string;
  message: string;
}

function unknownTypeMessage(di: DeployItem, d: DeployItemControllerData): string {
  const runs = `this Bosun runs deployers for ${[...(d.knownTypes ?? [])].sort().join(', ')}`;
  const until = d.pickup.disabled ? 'no pickup timeout is set' : `the item fails if none picks it up within the pickup timeout (${formatGoDuration(d.pickup.ms)})`;
  return `no deployer of this Bosun handles deploy item type ${JSON.stringify(di.spec.type)} (${runs}); a deployer running elsewhere may still pick it up: ${until}`;
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


