// Deploy executions → deploy item specifications (template.go TemplateDeployExecutions), their
// validation (names, dependsOn references, cycles) and target resolution into DeployItemTemplates.
import { findCycle } from '../../runtime/index.ts';
import type { DeployItemSpecification, DeployItemTargetReference, TemplateExecutor } from '../api/blueprint.ts';
import type { DeployItemTemplate } from '../api/execution.ts';
import type { AnyJSON } from '../api/shared.ts';
import type { LoadedBlueprint } from '../blueprint/load.ts';
import { deployItemListProblems } from '../validation/deploy-item-list.ts';
import { dns1123LabelProblem } from '../validation/metadata.ts';
import { isObject } from '../yaml.ts';
import { DeployItemValidationError, TemplateOutputError } from './errors.ts';
import { GoTemplateRunner, getField } from './runner.ts';
import { extractState, stateKey } from './state.ts';
import { baseValues, type ExecutionContext } from './values.ts';

export interface RenderedDeployItems {
  deployItems: DeployItemSpecification[];
  /** New states by state key, only for executions that returned `state`. */
  states: { [stateKey: string]: AnyJSON };
}

function optString(v: AnyJSON | undefined, what: string, fail: (m: string) => never): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail(`${what} must be a string`);
  return v;
}

function toSpec(raw: AnyJSON, i: number, exec: TemplateExecutor): DeployItemSpecification {
  const fail = (m: string): never => {
    throw new TemplateOutputError('deploy', exec.name, `deployItems[${i}]: ${m}`);
  };
  if (!isObject(raw)) fail('must be a map');
  const item = raw as { [k: string]: AnyJSON };
  const spec: DeployItemSpecification = {
    name: optString(getField(item, 'name'), 'name', fail) ?? '',
    type: optString(getField(item, 'type'), 'type', fail) ?? '',
    config: getField(item, 'config') ?? null,
  };
  const target = getField(item, 'target');
  if (target !== undefined && target !== null) {
    if (!isObject(target)) fail('target must be a map');
    const t = target as { [k: string]: AnyJSON };
    const ref: DeployItemTargetReference = {};
    const name = optString(getField(t, 'name'), 'target.name', fail);
    const imp = optString(getField(t, 'import'), 'target.import', fail);
    const key = optString(getField(t, 'key'), 'target.key', fail);
    const index = getField(t, 'index');
    if (name !== undefined && name !== '') ref.name = name;
    if (imp !== undefined && imp !== '') ref.import = imp;
    if (key !== undefined) ref.key = key;
    if (index !== undefined && index !== null) {
      if (typeof index !== 'number' || !Number.isInteger(index)) fail('target.index must be an integer');
      ref.index = index as number;
    }
    spec.target = ref;
  }
  const labels = getField(item, 'labels');
  if (labels !== undefined && labels !== null) {
    if (!isObject(labels) || Object.values(labels).some((v) => typeof v !== 'string')) fail('labels must be a map of strings');
    spec.labels = labels as { [k: string]: string };
  }
  const dependsOn = getField(item, 'dependsOn');
  if (dependsOn !== undefined && dependsOn !== null) {
    if (!Array.isArray(dependsOn) || dependsOn.some((d) => typeof d !== 'string')) fail('dependsOn must be a list of names');
    spec.dependsOn = dependsOn as string[];
  }
  const timeout = optString(getField(item, 'timeout'), 'timeout', fail);
  if (timeout !== undefined) spec.timeout = timeout;
  const uoc = getField(item, 'updateOnChangeOnly');
  if (uoc !== undefined && uoc !== null) {
    if (typeof uoc !== 'boolean') fail('updateOnChangeOnly must be a boolean');
    spec.updateOnChangeOnly = uoc as boolean;
  }
  const onDelete = getField(item, 'onDelete');
  if (isObject(onDelete)) {
    const skip = getField(onDelete, 'skipUninstallIfClusterRemoved');
    spec.onDelete = typeof skip === 'boolean' ? { skipUninstallIfClusterRemoved: skip } : {};
  }
  return spec;
}

/** Finds a dependsOn cycle (names along it, first repeated last), or undefined. */
export function findDependsOnCycle(items: readonly { name: string; dependsOn?: readonly string[] }[]): string[] | undefined {
  return findCycle(new Map(items.map((i) => [i.name, i.dependsOn ?? []])));
}

/** Unique DNS-label names, a type, dependsOn naming existing items, no cycles (the shared list checks). */
export function validateDeployItems(items: readonly DeployItemSpecification[]): void {
  items.forEach((item, i) => {
    const problem = item.name === '' ? undefined : dns1123LabelProblem(item.name);
    if (problem !== undefined) {
      throw new DeployItemValidationError('InvalidName', `deployExecutions[${i}].name: Invalid value: ${JSON.stringify(item.name)}: must be a DNS-1123 label (lower case alphanumerics and '-', at most 63 characters)`);
    }
  });
  const problem = deployItemListProblems(items)[0];
  switch (problem?.kind) {
    case undefined:
      return;
    case 'missingName':
      throw new DeployItemValidationError('InvalidName', `deployExecutions[${problem.index}].name: Required value`);
    case 'duplicateName':
      throw new DeployItemValidationError('DuplicateName', `deployExecutions[${problem.index}].name: Duplicate value: ${JSON.stringify(problem.name)}`);
    case 'missingType':
      throw new DeployItemValidationError('MissingType', `deployExecutions[${problem.index}].type: Required value: deploy item ${JSON.stringify(problem.name)} has no type`);
    case 'unknownDependency':
      throw new DeployItemValidationError('UnknownDependency', `deployExecutions[${problem.index}].dependsOn: Invalid value: deploy item ${JSON.stringify(problem.name)} depends on ${JSON.stringify(problem.dependency)}, which is not defined`);
    case 'selfDependency':
    case 'cycle': {
      const cycle = problem.kind === 'cycle' ? problem.cycle : [problem.name, problem.name];
      throw new DeployItemValidationError('Cycle', `deployExecutions: the dependsOn of the deploy items form a cycle: ${cycle.join(' -> ')}`, cycle);
    }
  }
}

/** Runs all deploy executions in order, concatenates their deployItems and validates the list. */
export function renderDeployExecutions(loaded: LoadedBlueprint, imports: { [name: string]: AnyJSON }, ctx: ExecutionContext = {}): RenderedDeployItems {
  const out: RenderedDeployItems = { deployItems: [], states: {} };
  for (const [index, exec] of (loaded.blueprint.deployExecutions ?? []).entries()) {
    const key = stateKey('deployExecutions', exec, index);
    const input = { ...baseValues(imports, ctx), state: ctx.states?.[key] ?? {} };
    const result = new GoTemplateRunner(loaded.fs).render('deploy', exec, input);
    const state = extractState(result);
    if (state !== undefined) out.states[key] = state;
    const items = getField(result, 'deployItems');
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items)) throw new TemplateOutputError('deploy', exec.name, 'deployItems must be a list');
    items.forEach((raw, i) => out.deployItems.push(toSpec(raw, i, exec)));
  }
  validateDeployItems(out.deployItems);
  return out;
}

/** A target import's value as templates see it: a Target object (or list/map of them). */
function targetName(v: AnyJSON | undefined): { name: string; namespace?: string } | undefined {
  if (!isObject(v)) return undefined;
  const meta = v['metadata'];
  if (!isObject(meta) || typeof meta['name'] !== 'string') return undefined;
  return typeof meta['namespace'] === 'string' ? { name: meta['name'], namespace: meta['namespace'] } : { name: meta['name'] };
}

/**
 * Turns specifications into the Execution's DeployItemTemplates: `target.import` (+ `index` for a
 * targetList, `key` for a targetMap) becomes the imported Target's name; `target.name` stays.
 */
export function toDeployItemTemplates(specs: readonly DeployItemSpecification[], imports: { [name: string]: AnyJSON }, namespace?: string): DeployItemTemplate[] {
  return specs.map((s) => {
    const tmpl: DeployItemTemplate = { name: s.name, type: s.type, config: s.config };
    if (s.target !== undefined) {
      let ref: { name: string; namespace?: string } | undefined;
      if (s.target.import !== undefined) {
        const imp = imports[s.target.import];
        if (imp === undefined) {
          throw new DeployItemValidationError('UnknownDependency', `deploy item ${JSON.stringify(s.name)}: target import ${JSON.stringify(s.target.import)} is not an import of the blueprint`);
        }
        let value: AnyJSON | undefined = imp;
        if (s.target.index !== undefined) value = Array.isArray(imp) ? imp[s.target.index] : undefined;
        else if (s.target.key !== undefined) value = isObject(imp) ? imp[s.target.key] : undefined;
        ref = targetName(value);
        if (ref === undefined) {
          const sel = s.target.index !== undefined ? `[${s.target.index}]` : s.target.key !== undefined ? `[${JSON.stringify(s.target.key)}]` : '';
          throw new DeployItemValidationError('UnknownDependency', `deploy item ${JSON.stringify(s.name)}: target import ${JSON.stringify(s.target.import)}${sel} does not resolve to a Target`);
        }
      } else if (s.target.name !== undefined) {
        ref = { name: s.target.name };
      }
      if (ref !== undefined) {
        const ns = ref.namespace ?? namespace;
        tmpl.target = ns !== undefined ? { name: ref.name, namespace: ns } : { name: ref.name };
      }
    }
    if (s.labels !== undefined) tmpl.labels = s.labels;
    if (s.dependsOn !== undefined) tmpl.dependsOn = s.dependsOn;
    if (s.timeout !== undefined) tmpl.timeout = s.timeout;
    if (s.updateOnChangeOnly !== undefined) tmpl.updateOnChangeOnly = s.updateOnChangeOnly;
    if (s.onDelete !== undefined) tmpl.onDelete = s.onDelete;
    return tmpl;
  });
}
