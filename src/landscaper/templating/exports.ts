// Export executions → exports (exports/constructor.go): inputs are the usual values plus `values`
// = {deployitems, dataobjects, targets} (also exposed top-level); outputs of all executions are
// deep-merged; keys the blueprint does not declare are dropped; data exports are validated against
// their schema and target exports must carry the declared target type.
import type { AnyJSON } from '../api/shared.ts';
import type { LoadedBlueprint } from '../blueprint/load.ts';
import { isObject } from '../yaml.ts';
import { ExportValidationError, TemplateOutputError } from './errors.ts';
import { GoTemplateRunner, getField } from './runner.ts';
import { extractState, stateKey } from './state.ts';
import { baseValues, type ExecutionContext } from './values.ts';

export interface ExportInputs {
  /** Deploy item name → that item's exports (the execution's export DataObject). */
  deployitems?: { [name: string]: AnyJSON };
  /** DataObjects of the installation's child context: key → data. */
  dataobjects?: { [key: string]: AnyJSON };
  /** Targets of the installation's child context: key → Target JSON. */
  targets?: { [key: string]: AnyJSON };
}

export interface RenderedExports {
  /** Declared exports only. */
  exports: { [name: string]: AnyJSON };
  /** Output keys that are not blueprint exports (dropped, as upstream does with an info log). */
  dropped: string[];
  states: { [stateKey: string]: AnyJSON };
}

/** utils.MergeMaps: b wins, nested maps merge recursively. */
export function mergeMaps(a: { [k: string]: AnyJSON }, b: { [k: string]: AnyJSON }): { [k: string]: AnyJSON } {
  const out: { [k: string]: AnyJSON } = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const old = out[k];
    out[k] = isObject(old) && isObject(v) ? mergeMaps(old, v) : v;
  }
  return out;
}

/** Runs the export executions and validates the declared exports. */
export function renderExportExecutions(
  loaded: LoadedBlueprint,
  imports: { [name: string]: AnyJSON },
  inputs: ExportInputs,
  ctx: ExecutionContext = {},
): RenderedExports {
  const values: { [k: string]: AnyJSON } = {
    deployitems: inputs.deployitems ?? {},
    dataobjects: inputs.dataobjects ?? {},
    targets: inputs.targets ?? {},
  };
  let merged: { [k: string]: AnyJSON } = {};
  const states: { [k: string]: AnyJSON } = {};
  for (const [index, exec] of (loaded.blueprint.exportExecutions ?? []).entries()) {
    const key = stateKey('exportExecutions', exec, index);
    const input = { ...baseValues(imports, ctx), values, ...values, state: ctx.states?.[key] ?? {} };
    const result = new GoTemplateRunner(loaded.fs).render('export', exec, input);
    const state = extractState(result);
    if (state !== undefined) states[key] = state;
    const exp = getField(result, 'exports');
    if (exp === undefined || exp === null) continue;
    if (!isObject(exp)) throw new TemplateOutputError('export', exec.name, 'exports must be a map of export names to values');
    merged = mergeMaps(merged, exp);
  }
  const declared = new Map((loaded.blueprint.exports ?? []).map((d) => [d.name, d]));
  const exports: { [k: string]: AnyJSON } = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(merged)) {
    const def = declared.get(name);
    if (def === undefined) {
      dropped.push(name);
      continue;
    }
    if (def.type === 'target') {
      const type = isObject(value) ? (getField(value, 'type') ?? (isObject(value['spec']) ? value['spec']['type'] : undefined)) : undefined;
      if (type !== def.targetType) {
        throw new ExportValidationError(name, `exports.${name}: exported target type is ${type === undefined ? 'missing' : JSON.stringify(type)} but expected ${JSON.stringify(def.targetType)}`);
      }
    } else {
      const errors = loaded.validator.validate(def.schema ?? true, value);
      if (errors.length > 0) {
        throw new ExportValidationError(name, `exports.${name}: exported datatype does not have the expected schema:\n  ${errors.join('\n  ')}`);
      }
    }
    exports[name] = value;
  }
  return { exports, dropped: dropped.sort(), states };
}

/** Names of declared exports that no export execution produced. */
export function missingExports(loaded: LoadedBlueprint, exports: { [name: string]: AnyJSON }): string[] {
  return (loaded.blueprint.exports ?? []).map((d) => d.name).filter((n) => !(n in exports));
}
