// Phase Completing: drop stale objects of older jobs from the own context; fail when the spec or the
// imports changed during the job; run the export executions and write the exports into the parent scope.
// The spec's second task here, triggering successors, happens when the job finishes: ../phase-machine.ts
// (status.enter) records them in status.dependentsToTrigger with the final phase, and gate 4 of
// ../reconcile.ts pokes them on the next reconcile (as upstream does, so a Failed job wakes them too).
import { phaseResult } from '../../../runtime/index.ts';
import {
  DATA_OBJECT_CONTEXT_LABEL,
  DATA_OBJECT_JOB_ID_LABEL,
  DATA_OBJECT_KEY_LABEL,
  DATA_OBJECT_SOURCE_TYPE_EXPORT,
  PHASE_SUCCEEDED,
} from '../../api/constants.ts';
import type { DataObject } from '../../api/data-object.ts';
import type { Installation } from '../../api/installation.ts';
import type { AnyJSON } from '../../api/shared.ts';
import type { Target } from '../../api/target.ts';
import { constructImports } from '../../blueprint/imports.ts';
import { generateDataObjectName, installationSource, type DataObjectMetadata } from '../../naming.ts';
import type { LoadedBlueprint } from '../../blueprint/load.ts';
import { renderExportExecutions, type ExportInputs } from '../../templating/exports.ts';
import { applyImportExecutions } from '../../templating/import-executions.ts';
import { rejectDataMappings, resolveBlueprint } from '../blueprint.ts';
import { execution } from '../children.ts';
import { deleteManaged, writeDataObject, writeTarget } from '../data-objects.ts';
import { childContext, getOrUndefined, hasExports, hasImports, nameOf, namespaceOf, scopeContext, statusOf } from '../helpers.ts';
import { loadImports, targetValue } from '../imports.ts';
import { dataObjectsResource, targetsResource } from '../../api/resources.ts';
import { readStates, stateKeys, writeStates } from '../template-state.ts';
import type { Deps } from '../types.ts';
import type { PhaseHandler } from './types.ts';
import { ConfigurationError, JobFailedError } from '../../ls-error.ts';

const OP = 'Completing';

const hasSubinstallations = (loaded: LoadedBlueprint): boolean =>
  (loaded.blueprint.subinstallations?.length ?? 0) + (loaded.blueprint.subinstallationExecutions?.length ?? 0) > 0;

async function exportInputs(deps: Deps, inst: Installation): Promise<ExportInputs> {
  const ns = namespaceOf(inst);
  const selector = `${DATA_OBJECT_CONTEXT_LABEL}=${childContext(inst)}`;
  const exec = await execution(deps, inst);
  const ref = exec?.status?.exportRef;
  const [execExports, dobjs, tgts] = await Promise.all([
    ref !== undefined ? getOrUndefined<DataObject>(deps, dataObjectsResource, ref.namespace ?? ns, ref.name) : Promise.resolve(undefined),
    deps.client.list<DataObject>(dataObjectsResource, { namespace: ns, labelSelector: selector }),
    deps.client.list<Target>(targetsResource, { namespace: ns, labelSelector: selector }),
  ]);
  const data = execExports?.data;
  const dataobjects: { [k: string]: AnyJSON } = {};
  for (const d of dobjs.items) dataobjects[d.metadata.labels?.[DATA_OBJECT_KEY_LABEL] ?? nameOf(d)] = d.data ?? null;
  const targets: { [k: string]: AnyJSON } = {};
  for (const t of tgts.items) targets[t.metadata.labels?.[DATA_OBJECT_KEY_LABEL] ?? nameOf(t)] = targetValue(t);
  return {
    deployitems: data !== null && typeof data === 'object' && !Array.isArray(data) ? data : {},
    dataobjects,
    targets,
  };
}

export const completing: PhaseHandler = async (inst, deps) => {
  const s = statusOf(inst);
  const jobID = s.jobID ?? '';
  const loaded = resolveBlueprint(inst, OP);
  const exportsNothing = (loaded.blueprint.exportExecutions ?? []).length === 0 && !hasExports(inst);
  // Objects of older jobs in the own context (imports and subinstallation exports) are stale now. A first job
  // that puts nothing there (no imports, no subinstallations) and reads nothing from it has none to drop.
  const ownContextUnused = s.jobIDFinished === undefined && !hasImports(inst) && !hasSubinstallations(loaded) && exportsNothing;
  if (!ownContextUnused) {
    await deleteManaged(deps, inst, `${DATA_OBJECT_CONTEXT_LABEL}=${childContext(inst)},${DATA_OBJECT_JOB_ID_LABEL}`, (o) => o.metadata.labels?.[DATA_OBJECT_JOB_ID_LABEL] === jobID);
  }
  rejectDataMappings(inst, 'exportDataMappings', OP);
  if ((inst.metadata.generation ?? 0) !== s.observedGeneration) {
    throw new JobFailedError(OP, 'SpecChanged', `the spec changed during the job (generation ${inst.metadata.generation ?? 0}, observed ${s.observedGeneration}); add the reconcile annotation to the root installation to start a new job`);
  }
  const loadedImports = await loadImports(deps, inst);
  if (loadedImports.hash !== s.importsHash) {
    throw new JobFailedError(OP, 'ImportsChanged', 'the imports changed during the job; add the reconcile annotation to the root installation to start a new job');
  }
  const imports = applyImportExecutions(loaded, constructImports(loaded.blueprint.imports, loadedImports.values, loaded.validator), { installation: inst });
  if (exportsNothing) return phaseResult.next(PHASE_SUCCEEDED);

  const states = await readStates(deps, inst, stateKeys(loaded, 'export'));
  const rendered = renderExportExecutions(loaded, imports, await exportInputs(deps, inst), { installation: inst, states });
  await writeStates(deps, inst, rendered.states);

  const scope = scopeContext(inst);
  const meta = (key: string): DataObjectMetadata => ({ context: scope, sourceType: DATA_OBJECT_SOURCE_TYPE_EXPORT, source: installationSource(nameOf(inst)), key, jobID });
  const value = (name: string, ref: string): AnyJSON => {
    const v = rendered.exports[name];
    if (v === undefined) throw new ConfigurationError(OP, 'ExportMissing', `export ${JSON.stringify(name)} (to ${JSON.stringify(ref)}) was not produced by the blueprint's export executions`);
    return v;
  };
  await Promise.all([
    ...(inst.spec.exports?.data ?? []).map((d) => writeDataObject(deps, inst, generateDataObjectName(scope, d.dataRef), meta(d.dataRef), value(d.name, d.dataRef), { exclusive: true })),
    ...(inst.spec.exports?.targets ?? []).map((t) => writeTarget(deps, inst, generateDataObjectName(scope, t.target), meta(t.target), value(t.name, t.target), { exclusive: true })),
  ]);
  return phaseResult.next(PHASE_SUCCEEDED);
};
