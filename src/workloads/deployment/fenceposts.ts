// maxSurge and maxUnavailable as numbers of pods (deploymentutil.ResolveFenceposts): a percentage of the desired
// replicas, surge rounded up and unavailability rounded down; both 0 would deadlock, so unavailability is then 1.
import type { Deployment, IntOrString } from '../../apimachinery/api/index.ts';

export class IntOrPercentError extends Error {
  override readonly name = 'IntOrPercentError' as const;
}

/** intstr.GetScaledValueFromIntOrPercent. */
export function scaledValue(value: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (value === undefined) return 0;
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value);
  if (!match) throw new IntOrPercentError(`invalid value for IntOrString: invalid value ${JSON.stringify(value)}`);
  const scaled = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

export function resolveFenceposts(deployment: Deployment): { surge: number; unavailable: number } {
  const desired = deployment.spec.replicas ?? 1;
  const rolling = deployment.spec.strategy?.rollingUpdate;
  const surge = scaledValue(rolling?.maxSurge ?? '25%', desired, true);
  const unavailable = scaledValue(rolling?.maxUnavailable ?? '25%', desired, false);
  return surge === 0 && unavailable === 0 ? { surge, unavailable: 1 } : { surge, unavailable };
}

function isRollingUpdate(deployment: Deployment): boolean {
  return (deployment.spec.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

export function maxSurge(deployment: Deployment): number {
  return isRollingUpdate(deployment) ? resolveFenceposts(deployment).surge : 0;
}

export function maxUnavailable(deployment: Deployment): number {
  const desired = deployment.spec.replicas ?? 1;
  if (!isRollingUpdate(deployment) || desired === 0) return 0;
  return Math.min(resolveFenceposts(deployment).unavailable, desired);
}
