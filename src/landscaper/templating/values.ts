// The input every blueprint execution sees (template/options.go): imports, cd/components (nil
// without OCM), the installation's blueprint definition and component descriptor definition.
import type { Installation } from '../api/installation.ts';
import type { AnyJSON } from '../api/shared.ts';

export interface ExecutionContext {
  /** The installation being rendered; gives .blueprint/.blueprintDef/.componentDescriptorDef. */
  installation?: Pick<Installation, 'spec'> & { metadata?: { name?: string } };
  /** Previous template states by state key (see stateKey); missing → {}. */
  states?: { [stateKey: string]: AnyJSON };
}

/** BlueprintExecutionOptions.Values: the base input map (a fresh object each call). */
export function baseValues(imports: { [name: string]: AnyJSON }, ctx: ExecutionContext): { [key: string]: AnyJSON } {
  const values: { [key: string]: AnyJSON } = { cd: null, components: null, imports };
  const inst = ctx.installation;
  if (inst !== undefined) {
    const def = JSON.parse(JSON.stringify(inst.spec.blueprint ?? {})) as AnyJSON;
    values['blueprint'] = def;
    values['blueprintDef'] = def;
    if (inst.spec.componentDescriptor !== undefined) {
      values['componentDescriptorDef'] = JSON.parse(JSON.stringify(inst.spec.componentDescriptor)) as AnyJSON;
    }
  }
  return values;
}
