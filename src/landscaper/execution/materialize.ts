// A deploy item as its execution template describes it (upstream's ApplyDeployItemTemplate plus the
// execution's labels, annotations, controller reference and finalizer).
import { isDeepStrictEqual } from 'node:util';
import type { OwnerReference } from '../../apimachinery/object.ts';
import {
  CACHE_HELM_CHARTS_ANNOTATION,
  DEFAULT_CONTEXT_NAME,
  DEFAULT_DEPLOY_ITEM_TIMEOUT,
  DEPLOYER_NO_TARGET_NAME,
  DEPLOYER_TARGET_NAME_ANNOTATION,
  DEPLOYER_TYPE_ANNOTATION,
  EXECUTION_DEPENDS_ON_ANNOTATION,
  EXECUTION_MANAGED_BY_LABEL,
  EXECUTION_MANAGED_NAME_LABEL,
  KIND_DEPLOY_ITEM,
  KIND_EXECUTION,
  LANDSCAPER_API_VERSION,
  LANDSCAPER_FINALIZER,
  RECONCILE_TIME_ANNOTATION,
} from '../api/constants.ts';
import type { DeployItem, DeployItemSpec } from '../api/deploy-item.ts';
import type { DeployItemTemplate, Execution } from '../api/execution.ts';
import { lsTime } from '../status-helpers.ts';

/** generateName of a template's deploy item: "<exec>-<template>-". */
export function deployItemGenerateName(exec: Execution, template: DeployItemTemplate): string {
  return `${exec.metadata.name ?? ''}-${template.name}-`;
}

export function controllerReference(exec: Execution): OwnerReference {
  return { apiVersion: LANDSCAPER_API_VERSION, kind: KIND_EXECUTION, name: exec.metadata.name ?? '', uid: exec.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

function desiredSpec(exec: Execution, t: DeployItemTemplate): DeployItemSpec {
  const spec: DeployItemSpec = {
    type: t.type,
    context: exec.spec.context || DEFAULT_CONTEXT_NAME,
    config: t.config,
    timeout: t.timeout ?? DEFAULT_DEPLOY_ITEM_TIMEOUT,
  };
  if (t.target) spec.target = { ...t.target };
  if (t.updateOnChangeOnly) spec.updateOnChangeOnly = true;
  if (t.onDelete) spec.onDelete = { ...t.onDelete };
  return spec;
}

/**
 * The deploy item for a template: a new object (generateName) or `existing` with spec, labels,
 * annotations, controller reference and finalizer brought in line. Other labels, annotations, owner
 * references and finalizers on an existing object are kept.
 */
export function desiredDeployItem(exec: Execution, t: DeployItemTemplate, existing: DeployItem | undefined, now: Date): DeployItem {
  const execName = exec.metadata.name ?? '';
  const base: DeployItem = existing
    ? structuredClone(existing)
    : { apiVersion: LANDSCAPER_API_VERSION, kind: KIND_DEPLOY_ITEM, metadata: { generateName: deployItemGenerateName(exec, t), namespace: exec.metadata.namespace ?? 'default' }, spec: { type: t.type } };
  const meta = base.metadata;
  meta.labels = { ...meta.labels, ...t.labels, [EXECUTION_MANAGED_BY_LABEL]: execName, [EXECUTION_MANAGED_NAME_LABEL]: t.name };
  const annotations: Record<string, string> = { ...meta.annotations };
  const dependsOn = t.dependsOn ?? [];
  if (dependsOn.length > 0) annotations[EXECUTION_DEPENDS_ON_ANNOTATION] = dependsOn.join(',');
  else delete annotations[EXECUTION_DEPENDS_ON_ANNOTATION];
  annotations[DEPLOYER_TYPE_ANNOTATION] = t.type;
  annotations[DEPLOYER_TARGET_NAME_ANNOTATION] = t.target?.name || DEPLOYER_NO_TARGET_NAME;
  const helmCache = exec.metadata.annotations?.[CACHE_HELM_CHARTS_ANNOTATION];
  if (helmCache !== undefined) annotations[CACHE_HELM_CHARTS_ANNOTATION] = helmCache;
  annotations[RECONCILE_TIME_ANNOTATION] = lsTime(now);
  meta.annotations = annotations;
  const ref = controllerReference(exec);
  meta.ownerReferences = [...(meta.ownerReferences ?? []).filter((r) => r.controller !== true && !(r.kind === KIND_EXECUTION && r.name === ref.name)), ref];
  if (!(meta.finalizers ?? []).includes(LANDSCAPER_FINALIZER)) meta.finalizers = [...(meta.finalizers ?? []), LANDSCAPER_FINALIZER];
  base.spec = desiredSpec(exec, t);
  return base;
}

/**
 * True when writing `desired` would change more than the reconcile-time marker: unchanged deploy
 * items are not rewritten, which saves a request per item and job.
 */
export function deployItemChanged(existing: DeployItem, desired: DeployItem): boolean {
  const strip = (di: DeployItem): unknown => {
    const annotations = { ...di.metadata.annotations };
    delete annotations[RECONCILE_TIME_ANNOTATION];
    return { labels: di.metadata.labels ?? {}, annotations, owners: di.metadata.ownerReferences ?? [], finalizers: di.metadata.finalizers ?? [], spec: di.spec };
  };
  return !isDeepStrictEqual(strip(existing), strip(desired));
}
