// The function map Landscaper's GoTemplate executions see: sprig (minus env/expandenv) plus
// Landscaper's registry-free functions. OCM and cluster-access functions are not registered.
import type { FuncMap } from '../value.ts';
import { fileFunctions, type IncludeRenderer } from './landscaper/files.ts';
import type { BlueprintFs } from './landscaper/fs.ts';
import { ociFunctions } from './landscaper/oci.ts';
import { yamlFunctions } from './landscaper/yaml.ts';
import { sprigFunctions } from './sprig/index.ts';

export type { BlueprintFs, BlueprintFsEntry } from './landscaper/fs.ts';
export { MemoryBlueprintFs, BlueprintFsError } from './landscaper/fs.ts';
export type { IncludeRenderer } from './landscaper/files.ts';

export interface TemplateFunctionOptions {
  /** Blueprint filesystem for readFile, readDir and include. */
  fs?: BlueprintFs;
  /** How include renders a file; the engine passes its own parse+execute. */
  renderInclude?: IncludeRenderer;
}

/** A fresh function map (include keeps per-map recursion counts, so use one per execution). */
export function templateFunctions(options: TemplateFunctionOptions = {}): FuncMap {
  const funcs: FuncMap = {
    ...sprigFunctions(),
    ...yamlFunctions,
    ...ociFunctions,
  };
  Object.assign(funcs, fileFunctions(options.fs, options.renderInclude, () => funcs));
  return funcs;
}
