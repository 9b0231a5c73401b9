// Builds the tree from plain object lists: installation → subinstallations (recursively) → execution →
// deploy items. Children are found by label first and owner reference second, as upstream links them.
import type { KubeObject } from '../../apimachinery/object.ts';
import { CONDITION_DEPLOYER_KNOWN, CONDITION_WAITING, ENCOMPASSED_BY_LABEL, ERR_FOR_INFO_ONLY, isFailedPhase, EXECUTION_DEPENDS_ON_ANNOTATION, EXECUTION_MANAGED_BY_LABEL, EXECUTION_MANAGED_NAME_LABEL, KIND_EXECUTION, KIND_INSTALLATION, TARGET_TYPE_PREFIX } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';
import type { Condition, LsError, TransitionTimes } from '../api/shared.ts';
import type { ForestModel, TreeModel, TreeNode, TreeNodeKind } from './model.ts';

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
  const e = status.lastError;
  // A wait recorded in lastError (upstream marks it ERR_FOR_INFO_ONLY) is no error while the phase has not failed.
  const isWait = e?.codes?.includes(ERR_FOR_INFO_ONLY) === true && !isFailedPhase(status.phase);
  if (e?.message && isWait) {
    node.waitingFor = e.message;
    if (e.reason) node.waitingReason = e.reason;
  } else if (e?.message) {
    node.lastError = { message: e.message, ...(e.operation ? { operation: e.operation } : {}), ...(e.reason ? { reason: e.reason } : {}) };
  }
  // What it waits for: its deployer's Waiting condition, or a deployer for its type at all.
  const waiting = status.conditions?.find((c) => (c.type === CONDITION_WAITING && c.status === 'True') || (c.type === CONDITION_DEPLOYER_KNOWN && c.status === 'False'));
  if (waiting?.message && (status.jobID ?? '') !== (status.jobIDFinished ?? '')) {
    node.waitingFor = waiting.message;
    delete node.waitingReason;
  }
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
/** A deploy item's name in its execution's spec. */
function specNameOf(d: DeployItem): string {
  return d.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL] ?? d.metadata.name ?? '';
}

/** The spec names a deploy item depends on (the execution writes them into an annotation). */
function dependsOnOf(d: DeployItem): string[] {
  const raw = d.metadata.annotations?.[EXECUTION_DEPENDS_ON_ANNOTATION] ?? '';
  return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function orderDeployItems(items: DeployItem[]): DeployItem[] {
  const specName = specNameOf;
  const names = new Set(items.map(specName));
  const deps = new Map(items.map((d) => [d, dependsOnOf(d).filter((s) => names.has(s))] as const));
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

/** Links the objects of one namespace into nodes: installation → subinstallations → execution → deploy items. */
function linker(namespace: string, objects: TreeObjects) {
  const inNs = <T extends KubeObject>(list: readonly T[]): T[] => list.filter((o) => (o.metadata.namespace ?? '') === namespace);
  const installations = inNs(objects.installations);
  const executions = inNs(objects.executions);
  const deployItems = inNs(objects.deployItems);

  const deployItemNode = (item: DeployItem): TreeNode => {
    const node = nodeOf('DeployItem', item, item.status);
    const type = shortType(item.spec?.type);
    if (type) node.type = type;
    return node;
  };

  const executionNode = (exec: Execution): TreeNode => {
    const node = nodeOf('Execution', exec, exec.status);
    const execName = exec.metadata.name ?? '';
    const items = deployItems.filter((d) => d.metadata.labels?.[EXECUTION_MANAGED_BY_LABEL] === execName || ownedBy(d, exec, KIND_EXECUTION));
    // dependsOn names items as the execution's spec does; the tree names the objects.
    const objectName = new Map(items.map((d) => [specNameOf(d), d.metadata.name ?? '']));
    node.children.push(
      ...orderDeployItems(items).map((item) => {
        const child = deployItemNode(item);
        const deps = dependsOnOf(item).flatMap((dep) => objectName.get(dep) ?? []);
        if (deps.length > 0) child.dependsOn = deps;
        return child;
      }),
    );
    return node;
  };

  const subinstallationsOf = (inst: Installation): Installation[] => {
    const instName = inst.metadata.name ?? '';
    return installations.filter((i) => i !== inst && (i.metadata.labels?.[ENCOMPASSED_BY_LABEL] === instName || ownedBy(i, inst, KIND_INSTALLATION))).sort(byName);
  };

  const installationNode = (inst: Installation, seen = new Set<string>()): TreeNode => {
    // A subinstallation cycle (corrupt labels) must not recurse forever.
    seen.add(inst.metadata.name ?? '');
    const node = nodeOf('Installation', inst, inst.status);
    for (const sub of subinstallationsOf(inst)) if (!seen.has(sub.metadata.name ?? '')) node.children.push(installationNode(sub, seen));
    const execName = inst.status?.executionRef?.name;
    const exec = executions.find((e) => ownedBy(e, inst, KIND_INSTALLATION)) ?? (execName ? executions.find((e) => e.metadata.name === execName) : undefined);
    if (exec) node.children.push(executionNode(exec));
    return node;
  };

  /** Installations no other installation of the namespace encompasses. */
  const topLevel = (): Installation[] => {
    const children = new Set(installations.flatMap(subinstallationsOf));
    return installations.filter((i) => !children.has(i)).sort(byName);
  };

  const named = <T extends KubeObject>(list: T[], name: string): T | undefined => list.find((o) => o.metadata.name === name);
  return { installations, executions, deployItems, installationNode, executionNode, deployItemNode, topLevel, named };
}

/** The tree rooted at installation `name`; root undefined when it does not exist. */
export function buildTree(namespace: string, name: string, objects: TreeObjects): TreeModel {
  const link = linker(namespace, objects);
  const root = link.named(link.installations, name);
  return { namespace, name, root: root ? link.installationNode(root) : undefined };
}

/** The tree rooted at execution `name` (its deploy items); root undefined when it does not exist. */
export function buildExecutionTree(namespace: string, name: string, objects: TreeObjects): TreeModel {
  const link = linker(namespace, objects);
  const root = link.named(link.executions, name);
  return { namespace, name, rootKind: 'Execution', root: root ? link.executionNode(root) : undefined };
}

/** The single node of deploy item `name`; root undefined when it does not exist. */
export function buildDeployItemTree(namespace: string, name: string, objects: TreeObjects): TreeModel {
  const link = linker(namespace, objects);
  const root = link.named(link.deployItems, name);
  return { namespace, name, rootKind: 'DeployItem', root: root ? link.deployItemNode(root) : undefined };
}

/** Every top-level installation of the namespace with its tree, by name. */
export function buildForest(namespace: string, objects: TreeObjects): ForestModel {
  const link = linker(namespace, objects);
  return { namespace, roots: link.topLevel().map((inst) => link.installationNode(inst)) };
}
