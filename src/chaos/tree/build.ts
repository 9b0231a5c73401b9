// Builds a Disruption's tree from plain object lists: targets from its status, chaos pods by their labels.
import type { ContainerStatus } from '../../apimachinery/api/index.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { DISRUPTION_KIND_LABEL, DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL, CHAOS_POD_FINALIZER, KIND_SPEC_FIELDS, TARGET_LABEL, type DisruptionKindName } from '../api/constants.ts';
import type { Disruption } from '../api/types.ts';
import type { ChaosPodNode, DisruptionTreeModel, TargetKindNode, TargetNode } from './model.ts';

export interface DisruptionTreeObjects {
  disruptions: readonly Disruption[];
  pods: readonly KubeObject[];
  chaosPods: readonly KubeObject[];
  nodes: readonly KubeObject[];
}

type Status = Record<string, unknown>;

const byName = (a: { name: string }, b: { name: string }): number => a.name.localeCompare(b.name);

/** The kinds a spec asks for, in upstream's order. */
export function kindsOf(disruption: Disruption): DisruptionKindName[] {
  const spec = disruption.spec as unknown as Record<string, unknown>;
  return (Object.keys(KIND_SPEC_FIELDS) as DisruptionKindName[]).filter((kind) => spec[KIND_SPEC_FIELDS[kind]] != null);
}

function chaosPodNode(pod: KubeObject): ChaosPodNode {
  const status = (pod['status'] ?? {}) as Status;
  const spec = (pod['spec'] ?? {}) as Status;
  const containers = (status['containerStatuses'] ?? []) as ContainerStatus[];
  const conditions = (status['conditions'] ?? []) as { type: string; status: string }[];
  const node: ChaosPodNode = {
    name: pod.metadata.name ?? '',
    ready: conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
    deleting: pod.metadata.deletionTimestamp !== undefined,
    finalizer: pod.metadata.finalizers?.includes(CHAOS_POD_FINALIZER) ?? false,
  };
  if (typeof status['phase'] === 'string') node.phase = status['phase'];
  if (typeof spec['nodeName'] === 'string') node.node = spec['nodeName'];
  const ended = containers.map((c) => c.state?.terminated ?? c.state?.waiting).find((s) => s?.reason);
  if (ended?.reason) node.reason = 'exitCode' in ended && ended.exitCode !== undefined ? `${ended.reason} (exit ${ended.exitCode})` : ended.reason;
  else if (typeof status['reason'] === 'string') node.reason = status['reason'];
  return node;
}

function targetState(disruption: Disruption, name: string, objects: DisruptionTreeObjects): { state: string; node?: string } {
  if (disruption.spec.level === 'node') {
    const node = objects.nodes.find((n) => n.metadata.name === name);
    if (!node) return { state: 'gone' };
    const ready = (((node['status'] ?? {}) as Status)['conditions'] as { type: string; status: string }[] | undefined)?.find((c) => c.type === 'Ready');
    return { state: ready?.status === 'True' ? 'Ready' : 'NotReady' };
  }
  const pod = objects.pods.find((p) => p.metadata.name === name);
  if (!pod) return { state: 'gone' };
  const phase = ((pod['status'] ?? {}) as Status)['phase'];
  const nodeName = ((pod['spec'] ?? {}) as Status)['nodeName'];
  const state = pod.metadata.deletionTimestamp !== undefined ? 'Terminating' : typeof phase === 'string' ? phase : 'Pending';
  return typeof nodeName === 'string' ? { state, node: nodeName } : { state };
}

export function buildDisruptionTree(namespace: string, name: string, objects: DisruptionTreeObjects): DisruptionTreeModel {
  const disruption = objects.disruptions.find((d) => d.metadata.name === name && (d.metadata.namespace ?? namespace) === namespace);
  if (!disruption) return { namespace, name, root: undefined };
  const labels = (pod: KubeObject): Record<string, string> => pod.metadata.labels ?? {};
  const own = objects.chaosPods.filter((p) => labels(p)[DISRUPTION_NAME_LABEL] === name && labels(p)[DISRUPTION_NAMESPACE_LABEL] === namespace);
  const status = disruption.status;
  const kinds = kindsOf(disruption);
  const injections = status?.targetInjections ?? {};
  const targets: TargetNode[] = Object.keys(injections).map((target) => {
    const perKind = injections[target] ?? {};
    const kindNodes: TargetKindNode[] = kinds.map((kind) => {
      const injection = perKind[kind];
      // The pod the status names, else any of this target and kind (one being recreated or removed).
      const candidates = own.filter((p) => labels(p)[TARGET_LABEL] === target && labels(p)[DISRUPTION_KIND_LABEL] === kind);
      const pod = candidates.find((p) => p.metadata.name === injection?.injectorPodName) ?? candidates[0];
      return {
        kind,
        ...(injection?.injectionStatus ? { status: injection.injectionStatus } : {}),
        ...(injection?.since ? { since: injection.since } : {}),
        ...(pod ? { pod: chaosPodNode(pod) } : {}),
      };
    });
    return { name: target, ...targetState(disruption, target, objects), kinds: kindNodes };
  });
  const strays = own.filter((p) => !Object.hasOwn(injections, labels(p)[TARGET_LABEL] ?? '')).map(chaosPodNode);
  const spec = disruption.spec;
  return {
    namespace,
    name,
    root: {
      namespace,
      name,
      level: spec.level ?? 'pod',
      kinds,
      ...(status?.injectionStatus ? { injectionStatus: status.injectionStatus } : {}),
      dryRun: spec.dryRun === true,
      counts: {
        desired: status?.desiredTargetsCount ?? 0,
        selected: status?.selectedTargetsCount ?? 0,
        injected: status?.injectedTargetsCount ?? 0,
        ignored: status?.ignoredTargetsCount ?? 0,
      },
      ...(disruption.metadata.creationTimestamp ? { createdAt: disruption.metadata.creationTimestamp } : {}),
      ...(typeof spec.duration === 'string' && spec.duration !== '' ? { duration: spec.duration } : {}),
      deleting: disruption.metadata.deletionTimestamp !== undefined,
      stuckOnRemoval: status?.isStuckOnRemoval === true,
      ...(status?.cleanedAt ? { cleanedAt: status.cleanedAt } : {}),
      targets: targets.sort(byName),
      strays: strays.sort(byName),
    },
  };
}
