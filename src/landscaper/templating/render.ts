// The whole cluster-free rendering of a blueprint (what `bosun blueprint render` prints): imports
// are constructed and validated, import executions applied, then deploy items, subinstallation
// templates and exports are rendered.
import type { DeployItemSpecification, InstallationTemplate } from '../api/blueprint.ts';
import type { AnyJSON } from '../api/shared.ts';
import { constructImports } from '../blueprint/imports.ts';
import type { LoadedBlueprint } from '../blueprint/load.ts';
import { renderDeployExecutions } from './deploy-items.ts';
import { missingExports, renderExportExecutions, type ExportInputs } from './exports.ts';
import { applyImportExecutions } from './import-executions.ts';
import { renderSubinstallations } from './subinstallations.ts';
import type { ExecutionContext } from './values.ts';

export interface BlueprintRenderResult {
  imports: { [name: string]: AnyJSON };
  deployItems: DeployItemSpecification[];
  subinstallations: InstallationTemplate[];
  exports: { [name: string]: AnyJSON };
  /** Declared exports no export execution produced (upstream fails the installation on these). */
  missingExports: string[];
  /** Export keys that are not blueprint exports. */
  droppedExports: string[];
  /** States the executions returned, by state key. */
  states: { [stateKey: string]: AnyJSON };
}

export function renderBlueprint(
  loaded: LoadedBlueprint,
  providedImports: { [name: string]: AnyJSON },
  exportInputs: ExportInputs = {},
  ctx: ExecutionContext = {},
): BlueprintRenderResult {
  const constructed = constructImports(loaded.blueprint.imports, providedImports, loaded.validator);
  const imports = applyImportExecutions(loaded, constructed, ctx);
  const deploy = renderDeployExecutions(loaded, imports, ctx);
  const subs = renderSubinstallations(loaded, imports, ctx);
  const exp = renderExportExecutions(loaded, imports, exportInputs, ctx);
  return {
    imports,
    deployItems: deploy.deployItems,
    subinstallations: subs.subinstallations,
    exports: exp.exports,
    missingExports: missingExports(loaded, exp.exports),
    droppedExports: exp.dropped,
    states: { ...deploy.states, ...subs.states, ...exp.states },
  };
}
