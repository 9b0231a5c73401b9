// Import executions (TemplateImportExecutions): run in order, each returning {bindings, errors};
// bindings are merged into the imports seen by later executions and by everything after; the first
// execution returning errors stops the chain and fails import validation.
import type { AnyJSON } from '../api/shared.ts';
import { ImportValidationError } from '../blueprint/errors.ts';
import type { LoadedBlueprint } from '../blueprint/load.ts';
import { isObject } from '../yaml.ts';
import { TemplateOutputError } from './errors.ts';
import { GoTemplateRunner, getField } from './runner.ts';
import { baseValues, type ExecutionContext } from './values.ts';

export interface ImportExecutionResult {
  /** Imports with all bindings applied. */
  imports: { [name: string]: AnyJSON };
  bindings: { [name: string]: AnyJSON };
  errors: string[];
}

export function runImportExecutions(loaded: LoadedBlueprint, imports: { [name: string]: AnyJSON }, ctx: ExecutionContext = {}): ImportExecutionResult {
  const merged = { ...imports };
  const bindings: { [name: string]: AnyJSON } = {};
  const errors: string[] = [];
  for (const exec of loaded.blueprint.importExecutions ?? []) {
    const result = new GoTemplateRunner(loaded.fs).render('import', exec, baseValues(merged, ctx));
    const b = getField(result, 'bindings');
    if (b !== undefined && b !== null) {
      if (!isObject(b)) throw new TemplateOutputError('import', exec.name, 'bindings must be a map');
      for (const [k, v] of Object.entries(b)) {
        bindings[k] = v;
        merged[k] = v;
      }
    }
    const e = getField(result, 'errors');
    if (e !== undefined && e !== null) {
      if (!Array.isArray(e)) throw new TemplateOutputError('import', exec.name, 'errors must be a list of strings');
      if (e.length > 0) {
        errors.push(...e.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
        break;
      }
    }
  }
  return { imports: merged, bindings, errors };
}

/** Like runImportExecutions, but errors become an ImportValidationError ("import validation failed: …"). */
export function applyImportExecutions(loaded: LoadedBlueprint, imports: { [name: string]: AnyJSON }, ctx: ExecutionContext = {}): { [name: string]: AnyJSON } {
  const r = runImportExecutions(loaded, imports, ctx);
  if (r.errors.length > 0) throw new ImportValidationError('ImportExecutionErrors', undefined, `import validation failed: ${r.errors.join(', ')}`);
  return r.imports;
}
