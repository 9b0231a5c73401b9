// Ensuring subinstallations (installations/subinstallations): templates are matched to existing children
// by the subinstallation-name annotation; new ones get generateName, the encompassed-by label, the
// finalizer and a controller reference; unmatched children are orphans, deleted with
// delete-ignore-successors (their deletion is driven in CleanupOrphaned).
import { isDeepStrictEqual } from 'node:util';
import type { ImportDefinition, InstallationTemplate } from '../api/blueprint.ts';
import {
  DELETE_IGNORE_SUCCESSORS_ANNOTATION,
  ENCOMPASSED_BY_LABEL,
  LANDSCAPER_API_VERSION,
  LANDSCAPER_FINALIZER,
  SUBINSTALLATION_NAME_ANNOTATION,
} from '../api/constants.ts';
import type { Installation, InstallationSpec, SubInstCache } from '../api/installation.ts';
import type { AnyJSON } from '../api/shared.ts';
import { allImportDefinitions } from '../blueprint/parse.ts';
import { contextName, nameOf, namespaceOf, ownerRef } from './helpers.ts';
import { installationsResource } from '../api/resources.ts';
import type { Deps } from './types.ts';
import { ConfigurationError, LandscaperError } from '../ls-error.ts';

/** Drops data imports pointing at an optional parent import that is not satisfied (upstream does the same). */
function pruneImports(t: InstallationTemplate, defs: readonly ImportDefinition[], imports: { [name: string]: AnyJSON }): InstallationTemplate {
  const optional = new Set(allImportDefinitions(defs).map((d) => d.name));
  const data = t.imports?.data?.filter((d) => d.dataRef === undefined || !optional.has(d.dataRef) || d.dataRef in imports);
  if (data === undefined || data.length === (t.imports?.data ?? []).length) return t;
  return { ...t, imports: { ...t.imports, data } };
}

/** Imports must come from parent imports or sibling exports; exports must not overwrite parent imports. */
function checkTemplates(templates: readonly InstallationTemplate[], defs: readonly ImportDefinition[]): void {
  const parentImports = new Set(allImportDefinitions(defs).map((d) => d.name));
  const exported = new Set(templates.flatMap((t) => [...(t.exports?.data ?? []).map((d) => `data:${d.dataRef}`), ...(t.exports?.targets ?? []).map((d) => `target:${d.target}`)]));
  for (const t of templates) {
    for (const e of t.exports?.data ?? []) {
      if (parentImports.has(e.dataRef)) throw new ConfigurationError('Init', 'InvalidSubinstallation', `subinstallation ${JSON.stringify(t.name)}: export ${JSON.stringify(e.dataRef)} has the name of an import of the parent`);
    }
    const need = [
      ...(t.imports?.data ?? []).filter((d) => d.dataRef !== undefined).map((d) => ['data', d.dataRef!] as const),
      ...(t.imports?.targets ?? []).flatMap((ti) => [...(ti.target !== undefined ? [ti.target] : []), ...(ti.targets ?? []), ...Object.values(ti.targetMap ?? {})].map((x) => ['target', x] as const)),
    ];
    for (const [kind, ref] of need) {
      if (ref.startsWith('#')) continue;
      if (!parentImports.has(ref) && !exported.has(`${kind}:${ref}`)) {
        throw new ConfigurationError('Init', 'InvalidSubinstallation', `subinstallation ${JSON.stringify(t.name)}: import of ${kind} ${JSON.stringify(ref)} is neither an import of the parent nor an export of a sibling subinstallation`);
      }
    }
  }
}

function specOf(parent: Installation, t: InstallationTemplate): InstallationSpec {
  if (t.blueprint.filesystem === undefined) {
    throw new ConfigurationError('Init', 'BlueprintNotSupported', `subinstallation ${JSON.stringify(t.name)}: blueprint reference ${JSON.stringify(t.blueprint.ref ?? '')} needs a component descriptor; Bosun supports inline blueprints (blueprint.filesystem) only`);
  }
  const spec: InstallationSpec = { context: contextName(parent), blueprint: { inline: { filesystem: t.blueprint.filesystem } } };
  if (t.imports !== undefined) spec.imports = t.imports;
  if (t.importDataMappings !== undefined) spec.importDataMappings = t.importDataMappings;
  if (t.exports !== undefined) spec.exports = t.exports;
  if (t.exportDataMappings !== undefined) spec.exportDataMappings = t.exportDataMappings;
  if (t.optimization !== undefined) spec.optimization = t.optimization;
  return JSON.parse(JSON.stringify(spec)) as InstallationSpec;
}

export async function ensureSubinstallations(
  deps: Deps,
  inst: Installation,
  templates: readonly InstallationTemplate[],
  defs: readonly ImportDefinition[] | undefined,
  imports: { [name: string]: AnyJSON },
  existing: readonly Installation[],
): Promise<SubInstCache> {
  checkTemplates(templates, defs ?? []);
  const ns = namespaceOf(inst);
  const byTemplate = new Map<string, Installation>();
  for (const s of existing) {
    const t = s.metadata.annotations?.[SUBINSTALLATION_NAME_ANNOTATION];
    if (t !== undefined && !byTemplate.has(t)) byTemplate.set(t, s);
  }
  const cache: Required<SubInstCache> = { activeSubs: [], orphanedSubs: [] };
  const used = new Set<string>();
  for (const raw of templates) {
    const t = pruneImports(raw, defs ?? [], imports);
    const spec = specOf(inst, t);
    const current = byTemplate.get(t.name);
    if (current === undefined) {
      const created = await deps.client.create<Installation>(installationsResource, {
        apiVersion: LANDSCAPER_API_VERSION as Installation['apiVersion'],
        kind: 'Installation',
        metadata: {
          generateName: `${t.name}-`,
          namespace: ns,
          labels: { [ENCOMPASSED_BY_LABEL]: nameOf(inst) },
          annotations: { [SUBINSTALLATION_NAME_ANNOTATION]: t.name },
          finalizers: [LANDSCAPER_FINALIZER],
          ownerReferences: [ownerRef(inst, true)],
        },
        spec,
      });
      cache.activeSubs.push({ specName: t.name, objectName: nameOf(created) });
      continue;
    }
    used.add(nameOf(current));
    if (current.metadata.deletionTimestamp !== undefined) {
      throw new LandscaperError('Init', 'SubinstallationBeingDeleted', `subinstallation ${nameOf(current)} (template ${JSON.stringify(t.name)}) is still being deleted; it is recreated afterwards`);
    }
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(current.spec)), spec)) {
      await deps.client.update<Installation>(installationsResource, { ...current, spec });
    }
    cache.activeSubs.push({ specName: t.name, objectName: nameOf(current) });
  }
  for (const s of existing) {
    if (used.has(nameOf(s))) continue;
    cache.orphanedSubs.push(nameOf(s));
    if (s.metadata.deletionTimestamp !== undefined) continue;
    if (s.metadata.annotations?.[DELETE_IGNORE_SUCCESSORS_ANNOTATION] !== 'true') {
      await deps.client.patch(installationsResource, nameOf(s), { metadata: { annotations: { [DELETE_IGNORE_SUCCESSORS_ANNOTATION]: 'true' } } }, { type: 'merge', namespace: ns });
    }
    await deps.client.delete(installationsResource, nameOf(s), { namespace: ns });
  }
  return cache;
}
