// Subinstallation templates: static ones (inline or `file`) plus rendered subinstallationExecutions
// (state under the "deploy" prefix, as upstream), then validated: unique names, no export written
// twice, no cycle through imports/exports between siblings.
import type { InstallationTemplate } from '../api/blueprint.ts';
import type { AnyJSON } from '../api/shared.ts';
import { BlueprintError } from '../blueprint/errors.ts';
import { checkInstallationTemplate, staticSubinstallations, type LoadedBlueprint } from '../blueprint/load.ts';
import { InstallationTemplateValidationError, TemplateOutputError } from './errors.ts';
import { GoTemplateRunner, getField } from './runner.ts';
import { extractState, stateKey } from './state.ts';
import { baseValues, type ExecutionContext } from './values.ts';

export interface RenderedSubinstallations {
  /** Static templates first, then rendered ones, in execution order. */
  subinstallations: InstallationTemplate[];
  states: { [stateKey: string]: AnyJSON };
}

/** Data and target names a template exports into the parent's scope. */
function exportedNames(t: InstallationTemplate): string[] {
  return [
    ...(t.exports?.data ?? []).map((d) => `data:${d.dataRef}`),
    ...(t.exports?.targets ?? []).map((d) => `target:${d.target}`),
  ];
}

function importedNames(t: InstallationTemplate): string[] {
  const out = (t.imports?.data ?? []).filter((d) => d.dataRef !== undefined).map((d) => `data:${d.dataRef!}`);
  for (const ti of t.imports?.targets ?? []) {
    if (ti.target !== undefined) out.push(`target:${ti.target}`);
    for (const x of ti.targets ?? []) out.push(`target:${x}`);
    for (const x of Object.values(ti.targetMap ?? {})) out.push(`target:${x}`);
  }
  return out;
}

/** Unique names, each export produced by one template only, no import/export cycle. */
export function validateInstallationTemplates(templates: readonly InstallationTemplate[]): void {
  const names = new Set<string>();
  for (const t of templates) {
    if (names.has(t.name)) throw new InstallationTemplateValidationError('DuplicateName', `subinstallations: Duplicate value: ${JSON.stringify(t.name)}`);
    names.add(t.name);
  }
  const exporter = new Map<string, string>();
  for (const t of templates) {
    for (const e of exportedNames(t)) {
      const other = exporter.get(e);
      if (other !== undefined) {
        throw new InstallationTemplateValidationError('DuplicateExport', `subinstallations: ${e.replace(':', ' export ')} is exported by both ${JSON.stringify(other)} and ${JSON.stringify(t.name)}`);
      }
      exporter.set(e, t.name);
    }
  }
  const deps = new Map<string, string[]>();
  for (const t of templates) {
    deps.set(t.name, [...new Set(importedNames(t).map((i) => exporter.get(i)).filter((x): x is string => x !== undefined))].sort());
  }
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    if (state.get(n) === 2) return undefined;
    if (state.get(n) === 1) return [...stack.slice(stack.indexOf(n)), n];
    state.set(n, 1);
    stack.push(n);
    for (const d of deps.get(n) ?? []) {
      const c = visit(d);
      if (c !== undefined) return c;
    }
    stack.pop();
    state.set(n, 2);
    return undefined;
  };
  for (const t of templates) {
    const cycle = visit(t.name);
    if (cycle !== undefined) {
      // Shown in import order: each installation imports an export of the next one.
      throw new InstallationTemplateValidationError('Cycle', `subinstallations: the imports and exports of the subinstallations form a cycle: ${cycle.join(' -> ')}`, cycle);
    }
  }
}

/** Static plus templated subinstallations, validated. */
export function renderSubinstallations(loaded: LoadedBlueprint, imports: { [name: string]: AnyJSON }, ctx: ExecutionContext = {}): RenderedSubinstallations {
  const out: RenderedSubinstallations = { subinstallations: staticSubinstallations(loaded), states: {} };
  for (const [index, exec] of (loaded.blueprint.subinstallationExecutions ?? []).entries()) {
    const key = stateKey('subinstallationExecutions', exec, index);
    const input = { ...baseValues(imports, ctx), state: ctx.states?.[key] ?? {} };
    const result = new GoTemplateRunner(loaded.fs).render('subinstallation', exec, input);
    const state = extractState(result);
    if (state !== undefined) out.states[key] = state;
    const subs = getField(result, 'subinstallations');
    if (subs === undefined || subs === null) continue;
    if (!Array.isArray(subs)) throw new TemplateOutputError('subinstallation', exec.name, 'subinstallations must be a list of installation templates');
    subs.forEach((s, i) => {
      try {
        out.subinstallations.push(checkInstallationTemplate(s, `subinstallations[${i}]`));
      } catch (e) {
        if (e instanceof BlueprintError) throw new TemplateOutputError('subinstallation', exec.name, e.message);
        throw e;
      }
    });
  }
  validateInstallationTemplates(out.subinstallations);
  return out;
}
