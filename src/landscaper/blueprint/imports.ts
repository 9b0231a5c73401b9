// Import construction (installations/imports/constructor.go): for every blueprint import take the
// provided value, else the default of an optional import, else fail; validate data against its
// schema and targets against their targetType; conditional imports only count when their parent
// import is satisfied.
import type { ImportDefinition } from '../api/blueprint.ts';
import type { AnyJSON } from '../api/shared.ts';
import { isObject } from '../yaml.ts';
import { ImportValidationError } from './errors.ts';
import type { BlueprintSchemaValidator } from './schema.ts';

/**
 * Import values by import name, as templates see them: data imports are the DataObject's data,
 * target imports the whole Target object (JSON), targetList imports an array of Targets,
 * targetMap imports a map of key → Target.
 */
export type ImportValues = { [name: string]: AnyJSON };

const targetTypeOf = (t: AnyJSON | undefined): string | undefined => {
  if (!isObject(t)) return undefined;
  const spec = t['spec'];
  return isObject(spec) && typeof spec['type'] === 'string' ? spec['type'] : undefined;
};

function checkTarget(def: ImportDefinition, path: string, t: AnyJSON | undefined, what: string): void {
  const type = targetTypeOf(t);
  if (type === undefined) {
    throw new ImportValidationError('InvalidTargetType', def.name, `${path}: ${what} does not match the expected target template schema (no .spec.type)`);
  }
  if (type !== def.targetType) {
    throw new ImportValidationError('InvalidTargetType', def.name, `${path}: ${what} type is ${type} but expected ${def.targetType ?? ''}`);
  }
}

function construct(defs: readonly ImportDefinition[], provided: ImportValues, validator: BlueprintSchemaValidator, prefix: string, out: ImportValues): void {
  for (const def of defs) {
    const path = `${prefix}.${def.name}`;
    const has = Object.prototype.hasOwnProperty.call(provided, def.name) && provided[def.name] !== undefined;
    if (!has) {
      if (def.required !== false) {
        throw new ImportValidationError('ImportNotFound', def.name, `blueprint defines import ${JSON.stringify(def.name)} of type ${def.type ?? 'data'}, which is not satisfied`);
      }
      // Upstream applies defaults only to optional data imports; conditional imports are skipped.
      if (def.type === 'data' && def.default !== undefined) out[def.name] = def.default.value;
      else continue;
    } else {
      out[def.name] = provided[def.name]!;
    }
    const value = out[def.name]!;
    switch (def.type ?? 'data') {
      case 'data': {
        const errors = validator.validate(def.schema ?? true, value);
        if (errors.length > 0) {
          throw new ImportValidationError('SchemaValidationFailed', def.name, `${path}: imported datatype does not have the expected schema:\n  ${errors.join('\n  ')}`);
        }
        break;
      }
      case 'target':
        checkTarget(def, path, value, 'imported target');
        break;
      case 'targetList':
        if (!Array.isArray(value)) throw new ImportValidationError('InvalidTargetType', def.name, `${path}: targetlist import is not a list`);
        value.forEach((t, i) => checkTarget(def, path, t, `element at position ${i} of the imported targetlist`));
        break;
      case 'targetMap':
        if (!isObject(value)) throw new ImportValidationError('InvalidTargetType', def.name, `${path}: targetmap import is not a map`);
        for (const [k, t] of Object.entries(value)) checkTarget(def, path, t, `element with key ${JSON.stringify(k)} of the imported targetmap`);
        break;
    }
    if (def.imports !== undefined && def.imports.length > 0) construct(def.imports, provided, validator, path, out);
  }
}

/** Validated imports with defaults applied; throws ImportValidationError naming the import. */
export function constructImports(defs: readonly ImportDefinition[] | undefined, provided: ImportValues, validator: BlueprintSchemaValidator): ImportValues {
  const out: ImportValues = {};
  construct(defs ?? [], provided, validator, 'imports', out);
  return out;
}
