// The injection status machine (upstream's TerminationStatus and updateInjectionStatus) as pure functions.
// NotInjected → PartiallyInjected → Injected while chaos pods run; Paused* when every chaos pod ended (or all
// are gone) before the end; Previously* once the disruption expired or is being deleted.
import { TARGET_LABEL, DISRUPTION_KIND_LABEL, type InjectionStatus } from '../api/constants.ts';
import type { TargetInjection } from '../api/types.ts';
import type { Pod } from '../../apimachinery/api/index.ts';
import { isReadyCondition } from './ready-condition.ts';

export type TerminationStatus = 'NotTerminated' | 'TemporarilyTerminated' | 'DefinitivelyTerminated';

export class UnknownInjectionStatusError extends Error {
  override readonly name = 'UnknownInjectionStatusError' as const;
}

const NEVER_INJECTED: readonly InjectionStatus[] = ['', 'NotInjected', 'PreviouslyNotInjected'];
/** Upstream's NotFullyInjected: the controller keeps watching closely while it holds. */
const NOT_FULLY_INJECTED: readonly InjectionStatus[] = ['', 'NotInjected', 'PartiallyInjected', 'PausedInjected', 'PausedPartiallyInjected'];

export function notFullyInjected(status: InjectionStatus | undefined): boolean {
  return NOT_FULLY_INJECTED.includes(status ?? '');
}

/**
 * Definitive once expired or deleting; with no chaos pod, temporary if it was ever injected; with chaos pods,
 * temporary only when every container of every pod exited 0. A pod with no container status yet (Pending) is not
 * terminated: upstream treats it as terminated, which paused a fresh disruption for a moment.
 */
export function terminationStatus(input: { expiredOrDeleting: boolean; status: InjectionStatus | undefined; chaosPods: readonly Pod[] }): TerminationStatus {
  if (input.expiredOrDeleting) return 'DefinitivelyTerminated';
  if (input.chaosPods.length === 0) return NEVER_INJECTED.includes(input.status ?? '') ? 'NotTerminated' : 'TemporarilyTerminated';
  for (const pod of input.chaosPods) {
    const statuses = pod.status?.containerStatuses ?? [];
    if (statuses.length === 0 && pod.status?.phase !== 'Succeeded') return 'NotTerminated';
    for (const s of statuses) if (s.state?.terminated === undefined || s.state.terminated.exitCode !== 0) return 'NotTerminated';
  }
  return 'TemporarilyTerminated';
}

export interface InjectionInput {
  status: InjectionStatus | undefined;
  termination: TerminationStatus;
  chaosPods: readonly Pod[];
  desiredTargetsCount: number;
  /** Target → kind → injection, before this pass. */
  targetInjections: Readonly<Record<string, Record<string, TargetInjection>>>;
  /** Kinds the spec sets, dns included (upstream's DisruptionCount left dns out). */
  kindCount: number;
  now: Date;
}

export interface InjectionResult {
  status: InjectionStatus;
  targetInjections: Record<string, Record<string, TargetInjection>>;
  injectedTargetsCount: number;
}

function afterTermination(status: InjectionStatus, definitive: boolean): InjectionStatus {
  switch (status) {
    case 'Injected':
    case 'PausedInjected':
    case 'PreviouslyInjected':
      return definitive ? 'PreviouslyInjected' : 'PausedInjected';
    case 'PartiallyInjected':
    case 'PausedPartiallyInjected':
    case 'PreviouslyPartiallyInjected':
      return definitive ? 'PreviouslyPartiallyInjected' : 'PausedPartiallyInjected';
    case 'NotInjected':
    case 'PreviouslyNotInjected':
      return definitive ? 'PreviouslyNotInjected' : 'NotInjected';
    default:
      throw new UnknownInjectionStatusError(`unable to transition from disruption injection status ${status}: unknown injection status`);
  }
}

/** The next injection status, per-target-per-kind injections and injectedTargetsCount. */
export function nextInjection(input: InjectionInput): InjectionResult {
  const current: InjectionStatus = input.status || 'NotInjected';
  const targetInjections = structuredClone(input.targetInjections) as Record<string, Record<string, TargetInjection>>;
  let readyPods = 0;
  let status: InjectionStatus = current;
  if (input.termination !== 'NotTerminated') {
    status = afterTermination(current, input.termination === 'DefinitivelyTerminated');
  } else if (input.chaosPods.length > 0) {
    status = 'PartiallyInjected';
    const injectedTargets = new Set<string>();
    for (const pod of input.chaosPods) {
      const ready = isReadyCondition(pod.status?.conditions);
      if (!ready) continue;
      readyPods++;
      const target = pod.metadata.labels?.[TARGET_LABEL] ?? '';
      const kind = pod.metadata.labels?.[DISRUPTION_KIND_LABEL] ?? '';
      injectedTargets.add(target);
      const kinds = targetInjections[target];
      const entry = kinds?.[kind];
      if (kinds && entry && entry.injectionStatus !== 'Injected') {
        kinds[kind] = { ...entry, injectorPodName: pod.metadata.name ?? '', injectionStatus: 'Injected', since: ready.lastTransitionTime ?? input.now.toISOString() };
      }
    }
    const allInjected = Object.values(targetInjections).every((kinds) => Object.values(kinds).every((t) => t.injectionStatus === 'Injected'));
    if (input.desiredTargetsCount === injectedTargets.size && allInjected) status = 'Injected';
  }
  return { status, targetInjections, injectedTargetsCount: input.kindCount === 0 ? 0 : Math.floor(readyPods / input.kindCount) };
}
