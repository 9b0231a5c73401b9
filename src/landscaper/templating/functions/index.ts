// The functions Landscaper adds to sprig for GoTemplate executions: its registry-free ones (readFile,
// readDir and include on the blueprint filesystem, toYaml, fromYaml, the OCI reference helpers). OCM and
// cluster-access functions are not registered.
import { templateFunctions, type FuncMap, type FunctionExtension } from '../../../template/index.ts';
import type { BlueprintFs } from '../../blueprint/fs.ts';
import { fileFunctions, type IncludeRenderer } from './files.ts';
import { ociFunctions } from './oci.ts';
import { yamlFunctions } from './yaml.ts';

export type { IncludeRenderer } from './files.ts';

export interface LandscaperFunctionOptions {
  /** Blueprint filesystem for readFile, readDir and include. */
  fs?: BlueprintFs;
  /** How include renders a file; the caller passes its own parse+execute. */
  renderInclude?: IncludeRenderer;
}

/** Landscaper's functions as an extension of the engine's map. */
export function landscaperFunctions(options: LandscaperFunctionOptions = {}): FunctionExtension {
  return (all) => ({ ...yamlFunctions, ...ociFunctions, ...fileFunctions(options.fs, options.renderInclude, all) });
}

/** The complete map a GoTemplate execution sees: sprig plus Landscaper's functions; one per execution. */
export function landscaperTemplateFunctions(options: LandscaperFunctionOptions = {}): FuncMap {
  return templateFunctions(landscaperFunctions(options));
}
