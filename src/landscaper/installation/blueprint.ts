// The installation's blueprint: inline filesystems only (component references need OCM, which Bosun lacks).
import type { Installation } from '../api/installation.ts';
import { loadInlineBlueprint, type LoadedBlueprint } from '../blueprint/load.ts';
import { deepFreeze, FrozenCache } from '../frozen-cache.ts';
import { ConfigurationError } from '../ls-error.ts';

/**
 * Loaded inline blueprints by their filesystem: Init and Completing of every installation load one, and many
 * installations share one (parse, schema validator). The parsed blueprint is frozen; the validator only caches.
 */
const loaded = new FrozenCache<LoadedBlueprint>(64, (l) => ({ ...l, blueprint: deepFreeze(l.blueprint) }));

export function resolveBlueprint(inst: Installation, operation: string): LoadedBlueprint {
  const bp = inst.spec.blueprint;
  const fs = bp?.inline?.filesystem;
  if (fs === undefined) {
    const what = bp?.ref !== undefined ? `a blueprint reference (resource ${JSON.stringify(bp.ref.resourceName)})` : 'no blueprint';
    throw new ConfigurationError(operation, 'BlueprintNotSupported', `the installation has ${what}: Bosun supports inline blueprints (spec.blueprint.inline.filesystem) only`);
  }
  try {
    return loaded.get(JSON.stringify(fs), () => loadInlineBlueprint(fs));
  } catch (err) {
    if (err instanceof Error) throw new ConfigurationError(operation, err.name, `blueprint: ${err.message}`, undefined, { cause: err });
    throw err;
  }
}

/** Spiff data mappings cannot run: fail with a clear message instead of ignoring them. */
export function rejectDataMappings(inst: Installation, which: 'importDataMappings' | 'exportDataMappings', operation: string): void {
  const m = inst.spec[which];
  if (m !== undefined && m !== null && Object.keys(m).length > 0) {
    throw new ConfigurationError(operation, 'SpiffNotSupported', `spec.${which} are Spiff templates, which Bosun does not support; use an import/export execution (GoTemplate) instead`);
  }
}
