// Builds the tree from plain object lists: installation → subinstallations (recursively) → execution →
// deploy items. Children are found by label first and owner reference second, as upstream links them.
import type { KubeObject } from '../../apimachinery/object.ts';
import { CONDITION_DEPLOYER_KNOWN, CONDITION_WAITING, ENCOMPASSED_BY_LABEL, EXECUTION_DEPENDS_ON_ANNOTATION, EXECUTION_MANAGED_BY_LABEL, EXECUTION_MANAGED_NAME_LABEL, KIND_EXECUTION, KIND_INSTALLATION, TARGET_TYPE_PREFIX } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';
import type { Condition, LsError, TransitionTimes } from '../api/shared.ts';
import type { TreeModel, TreeNode, TreeNodeKind } from './model.ts';

/** The objects of one namespace, as listed or cached. */
export interface TreeObjects {
  installations: readonly Installation[];
  executions: readonly Execution[];
  deployItems: readonly DeployItem[];
}

interface CommonStatus {
  phase?: string;
  jobID?: string;
  jobIDFinished?: string;
  phaseTransitionTime?: string;
  transitionTimes?: TransitionTimes;
  lastError?: LsError;
  conditions?: Condition[];
}

function nodeOf(kind: TreeNodeKind, obj: KubeObject, status: CommonStatus | undefined): TreeNode {
  const node: TreeNode = { kind, name: obj.metadata.name ?? '', namespace: obj.metadata.namespace ?? '', children: [] };
  if (!status) return node;
  if (status.phase) node.phase = status.phase;
  if (status.jobID) node.jobID = status.jobID;
  if (status.jobIDFinished) node.jobIDFinished = status.jobIDFinished;
  const times = status.transitionTimes;
  const started = times?.triggerTime ?? times?.initTime;
  if (started) node.startedAt = started;
  if (times?.finishedTime && (status.jobID ?? '') === (status.jobIDFinished ?? '')) node.finishedAt = times.finishedTime;
  if (status.phaseTransitionTime) node.phaseChangedAt = status.phaseTransitionTime;
  if (status.lastError?.message) {
    const e = status.lastError;
    node.lastError = { message: e.message, ...(e.operation ? { operation: e.operation } : {}), ...(e.reason ? { reason: e.reason } : {}) };
  }
  // What it waits for: its deployer's Waiting condition, or a deployer for its type at all.
  const waiting = status.conditions?.find((c) => (c.type === CONDITION_WAITING && c.status === 'True') || (c.type === CONDITION_DEPLOYER_KNOWN && c.status === 'False'));
  if (waiting?.message && (status.jobID ?? '') !== (status.jobIDFinished ?? '')) node.waitingFor = waiting.message;
  if (obj.metadata.deletionTimestamp) node.deleting = true;
  return node;
}

// Code-point order, not localeCompare: the same output on every machine.
const byName = (a: KubeObject, b: KubeObject): number => {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
};

function ownedBy(obj: KubeObject, owner: KubeObject, kind: string): boolean {
  const uid = owner.metadata.uid;
  return uid !== undefined && (obj.metadata.ownerReferences ?? []).some((r) => r.kind === kind && r.uid === uid);
}

/** Deploy items in dependsOn order (layer by layer, by name within a layer); a cycle's members come last. */
function orderDeployItems(items: DeployItem[]): DeployItem[] {
  const specName = (d: DeployItem): string => d.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL] ?? d.metadata.name ?? '';
  const names = new Set(items.map(specName));
  const deps = new Map(items.map((d) => {
    const raw = d.metadata.annotations?.[EXECUTION_DEPENDS_ON_ANNOTATION] ?? '';
    return [d, raw.split(',').map((s) => s.trim()).filter((s) => s !== '' && names.has(s))] as const;
  }));
  const done = new Set<string>();
  const out: DeployItem[] = [];
  let rest = [...items].sort(byName);
  while (rest.length > 0) {
    const ready = rest.filter((d) => (deps.get(d) ?? []).every((n) => done.has(n)));
    if (ready.length === 0) return [...out, ...rest];
    for (const d of ready) out.push(d);
    for (const d of ready) done.add(specName(d));
    rest = rest.filter((d) => !ready.includes(d));
  }
  return out;
}

function shortType(type: string | undefined): string | undefined {
  if (!type) return undefined;
  return type.startsWith(TARGET_TYPE_PREFIX) ? type.slice(TARGET_TYPE_PREFIX.length) : type;
}

/** The tree rooted at installation `name`; root undefined when it does not exist. */
export function buildTree(namespace: string, name: string, objects: TreeObjects): TreeModel {
  const inNs = <T extends KubeObject>(list: readonly T[]): T[] => list.filter((o) => (o.metadata.namespace ?? '') === namespace);
  const installations = inNs(objects.installations);
  const executions = inNs(objects.executions);
  const deployItems = inNs(objects.deployItems);
  // A subinstallation cycle (corrupt labels) must not recurse forever.
  const seen = new Set<string>();

  const executionNode = (exec: Execution): TreeNode => {
    const node = nodeOf('Execution', exec, exec.status);
    const execName = exec.metadata.name ?? '';
    const items = deployItems.filter((d) => d.metadata.labels?.[EXECUTION_MANAGED_BY_LABEL] === execName || ownedBy(d, exec, KIND_EXECUTION));
    for (const item of orderDeployItems(items)) {
      const child = nodeOf('DeployItem', item, item.status);
      const type = shortType(item.spec?.type);
      if (type) child.type = type;
      node.children.push(child);
    }
    return node;
  };

  const installationNode = (inst: Installation): TreeNode => {
    const instName = inst.metadata.name ?? '';
    seen.add(instName);
    const node = nodeOf('Installation', inst, inst.status);
    const subs = installations
      .filter((i) => i !== inst && (i.metadata.labels?.[ENCOMPASSED_BY_LABEL] === instName || ownedBy(i, inst, KIND_INSTALLATION)))
      .sort(byName);
    for (const sub of subs) if (!seen.has(sub.metadata.name ?? '')) node.children.push(installationNode(sub));
    const execName = inst.status?.executionRef?.name;
    const exec = executions.find((e) => ownedBy(e, inst, KIND_INSTALLATION)) ?? (execName ? executions.find((e) => e.metadata.name === execName) : undefined);
    if (exec) node.children.push(executionNode(exec));
    return node;
  };

  const root = installations.find((i) => i.metadata.name === name);
  return { namespace, name, root: root ? installationNode(root) : undefined };
}
