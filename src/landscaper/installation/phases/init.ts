// Phase Init: read context, blueprint and predecessors; load, validate and copy the imports; render and
// ensure subinstallations and the execution; then re-check predecessors and imports, which must not have
// moved while the objects were written.
import type { Waiting } from '../../../runtime/index.ts';
import { phaseResult } from '../../../runtime/index.ts';
import {
  DATA_OBJECT_SOURCE_LABEL,
  DATA_OBJECT_SOURCE_TYPE_EXPORT,
  DATA_OBJECT_SOURCE_TYPE_LABEL,
  PHASE_CLEANUP_ORPHANED,
} from '../../api/constants.ts';
import type { Installation } from '../../api/installation.ts';
import { constructImports } from '../../blueprint/imports.ts';
import { installationSource } from '../../naming.ts';
import { renderDeployExecutions, toDeployItemTemplates } from '../../templating/deploy-items.ts';
import { applyImportExecutions } from '../../templating/import-executions.ts';
import { renderSubinstallations } from '../../templating/subinstallations.ts';
import { rejectDataMappings, resolveBlueprint } from '../blueprint.ts';
import { cachedExecution, execution, subinstallations } from '../children.ts';
import { resolveContext } from '../context.ts';
import { deleteManaged } from '../data-objects.ts';
import { ensureExecution } from '../execution.ts';
import { hasExports, nameOf, namespaceOf, parentName, statusOf } from '../helpers.ts';
import { writeImportCopies } from '../import-copies.ts';
import { loadImports } from '../imports.ts';
import { exportingSiblings, predecessors, predecessorsWait, rejectImportCycle, siblings } from '../siblings.ts';
import { ensureSubinstallations } from '../subinstallations.ts';
import { readStates, stateKeys, writeStates } from '../template-state.ts';
import type { Deps } from '../types.ts';
import type { PhaseHandler } from './types.ts';
import { LandscaperError } from '../../ls-error.ts';

const OP = 'Init';

/** The predecessors, all finished; or what Init waits for. */
function readyPredecessors(deps: Deps, inst: Installation): Installation[] | Waiting {
  if (inst.spec.optimization?.hasNoSiblingImports === true) return [];
  const preds = predecessors(inst, exportingSiblings(deps, inst));
  // Before waiting: in a cycle, the predecessors would wait for this installation in turn.
  if (preds.length > 0) rejectImportCycle(inst, siblings(deps, inst));
  return predecessorsWait(inst, preds) ?? preds;
}

const jobsOf = (preds: readonly Installation[]): string =>
  preds.map((p) => `${nameOf(p)}=${statusOf(p).jobID ?? ''}/${statusOf(p).jobIDFinished ?? ''}`).sort().join(',');

export const init: PhaseHandler = async (inst, deps) => {
  // Exports of an earlier job are stale once a new job starts; the first job of an installation that exports
  // nothing has none (a deleted namesake's are its owner's, for the garbage collector).
  if (statusOf(inst).jobIDFinished !== undefined || hasExports(inst)) {
    await deleteManaged(deps, inst, `${DATA_OBJECT_SOURCE_LABEL}=${installationSource(nameOf(inst))},${DATA_OBJECT_SOURCE_TYPE_LABEL}=${DATA_OBJECT_SOURCE_TYPE_EXPORT}`);
  }
  await resolveContext(deps, inst, OP);
  const loaded = resolveBlueprint(inst, OP);
  rejectDataMappings(inst, 'importDataMappings', OP);
  const parent = parentName(inst);
  if (parent !== undefined && deps.installations.get(parent, namespaceOf(inst)) === undefined) {
    throw new LandscaperError(OP, 'ParentNotFound', `parent installation ${parent} not found`);
  }
  const preds = readyPredecessors(deps, inst);
  if (!Array.isArray(preds)) return phaseResult.wait(preds.reason, preds.message);
  const before = jobsOf(preds);

  const loadedImports = await loadImports(deps, inst);
  const constructed = constructImports(loaded.blueprint.imports, loadedImports.values, loaded.validator);
  const imports = applyImportExecutions(loaded, constructed, { installation: inst });

  // Render everything before writing anything: a template error leaves no half-built tree.
  const states = await readStates(deps, inst, stateKeys(loaded, 'init'));
  const ctx = { installation: inst, states };
  const subs = renderSubinstallations(loaded, imports, ctx);
  const deploy = renderDeployExecutions(loaded, imports, ctx);
  const items = toDeployItemTemplates(deploy.deployItems, imports, namespaceOf(inst));

  await writeImportCopies(deps, inst, loaded.blueprint.imports, imports);
  const cache = await ensureSubinstallations(deps, inst, subs.subinstallations, loaded.blueprint.imports, imports, await subinstallations(deps, inst, true));
  const exec = await ensureExecution(deps, inst, items, items.length > 0 ? cachedExecution(deps, inst) : await execution(deps, inst));
  await writeStates(deps, inst, { ...subs.states, ...deploy.states });

  // Predecessors or imports that moved meanwhile make this Init inconsistent: run it again.
  const ready = readyPredecessors(deps, inst);
  if (!Array.isArray(ready)) return phaseResult.wait(ready.reason, ready.message);
  const after = jobsOf(ready);
  const again = await loadImports(deps, inst);
  if (after !== before || again.hash !== loadedImports.hash) {
    throw new LandscaperError(OP, 'ImportsChanged', 'the predecessors or imports changed while the installation was initialised; retrying');
  }
  return phaseResult.next(PHASE_CLEANUP_ORPHANED, (s) => {
    s.importsHash = loadedImports.hash;
    s.observedGeneration = inst.metadata.generation ?? 0;
    s.subInstCache = cache;
    if (exec !== undefined) s.executionRef = { name: nameOf(exec), namespace: namespaceOf(exec) };
    else delete s.executionRef;
  });
};
