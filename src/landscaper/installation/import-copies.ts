// Every satisfied import is written into the installation's own context (context = source = Inst.<me>,
// key = import name, sourceType import, jobid), so subinstallations reference parent imports by name.
import { DATA_OBJECT_SOURCE_TYPE_IMPORT } from '../api/constants.ts';
import type { ImportDefinition } from '../api/blueprint.ts';
import type { Installation } from '../api/installation.ts';
import type { AnyJSON } from '../api/shared.ts';
import { allImportDefinitions } from '../blueprint/parse.ts';
import { generateDataObjectName, generateDataObjectNameWithIndex, generateTargetNameWithKey, type DataObjectMetadata } from '../naming.ts';
import { writeDataObject, writeTarget } from './data-objects.ts';
import { childContext, statusOf } from './helpers.ts';
import type { Deps } from './types.ts';

export async function writeImportCopies(deps: Deps, inst: Installation, defs: readonly ImportDefinition[] | undefined, imports: { [name: string]: AnyJSON }): Promise<void> {
  const ctx = childContext(inst);
  const byName = new Map(allImportDefinitions(defs).map((d) => [d.name, d]));
  const base = (key: string): DataObjectMetadata => ({ context: ctx, source: ctx, sourceType: DATA_OBJECT_SOURCE_TYPE_IMPORT, key, jobID: statusOf(inst).jobID ?? '' });
  const writes: Promise<void>[] = [];
  for (const [name, value] of Object.entries(imports)) {
    const type = byName.get(name)?.type ?? 'data';
    if (type === 'data') writes.push(writeDataObject(deps, inst, generateDataObjectName(ctx, name), base(name), value));
    else if (type === 'target') writes.push(writeTarget(deps, inst, generateDataObjectName(ctx, name), base(name), value));
    else if (type === 'targetList' && Array.isArray(value)) {
      value.forEach((t, index) => writes.push(writeTarget(deps, inst, generateDataObjectNameWithIndex(ctx, name, index), { ...base(name), index }, t)));
    } else if (type === 'targetMap' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, t] of Object.entries(value)) writes.push(writeTarget(deps, inst, generateTargetNameWithKey(ctx, name, k), { ...base(name), targetMapKey: k }, t));
    }
  }
  await Promise.all(writes);
}
