// JSON-schema validation of blueprint data (imports, exports) as Landscaper does it: draft-07
// semantics, with $ref extended by local://<localType> and blueprint://<file in the blueprint>.
import AjvModule, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { BlueprintFs } from './fs.ts';
import type { JSONSchemaDefinition } from '../api/blueprint.ts';
import type { AnyJSON } from '../api/shared.ts';
import { isObject, parseYaml } from '../yaml.ts';
import { BlueprintSchemaError } from './errors.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

// ajv and ajv-formats are CommonJS; under nodenext their default export is the module object.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;
type AjvInstance = InstanceType<typeof Ajv>;

/** Synthetic base URIs: ajv needs absolute ids, and the custom schemes must not be normalised away. */
const LOCAL_BASE = 'https://schemas.bosun.invalid/local/';
const BLUEPRINT_BASE = 'https://schemas.bosun.invalid/blueprint/';

export interface SchemaValidatorOptions {
  /** The blueprint filesystem blueprint:// references read from. */
  fs?: BlueprintFs;
  localTypes?: { [name: string]: JSONSchemaDefinition };
}

/** Formats ajv errors as "<path>: <message>" lines, path "/" for the root. */
export function formatSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const at = e.instancePath === '' ? '/' : e.instancePath;
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
    return `${at}: ${e.message ?? e.keyword}${extra}`;
  });
}

/** Validates values against blueprint schemas; compiled schemas and loaded refs are cached. */
export class BlueprintSchemaValidator {
  private readonly ajv: AjvInstance;
  private readonly fs: BlueprintFs | undefined;
  private readonly localTypes: { [name: string]: JSONSchemaDefinition };
  private readonly loaded = new Set<string>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(opts: SchemaValidatorOptions = {}) {
    this.ajv = new Ajv({ strict: false, allErrors: true, validateSchema: true });
    addFormats(this.ajv);
    this.fs = opts.fs;
    this.localTypes = opts.localTypes ?? {};
  }

  /** Rewrites Landscaper $refs to the synthetic ids, loading the referenced documents into ajv. */
  private rewrite(node: AnyJSON, top: boolean): AnyJSON {
    if (Array.isArray(node)) return node.map((n) => this.rewrite(n, false));
    if (!isObject(node)) return node;
    const out: { [k: string]: AnyJSON } = {};
    for (const [k, v] of Object.entries(node)) {
      // The meta-schema is implied (draft-07); a loaded document's own $id would shadow ours.
      if (k === '$schema' || (top && k === '$id')) continue;
      out[k] = k === '$ref' && typeof v === 'string' ? this.rewriteRef(v) : this.rewrite(v, false);
    }
    return out;
  }

  private rewriteRef(ref: string): string {
    const hash = ref.indexOf('#');
    const base = hash >= 0 ? ref.slice(0, hash) : ref;
    const fragment = hash >= 0 ? ref.slice(hash) : '';
    if (base.startsWith('local://')) {
      const name = base.slice('local://'.length);
      const id = LOCAL_BASE + encodeURIComponent(name);
      if (!this.loaded.has(id)) {
        const schema = this.localTypes[name];
        if (schema === undefined) throw new BlueprintSchemaError(`unable to resolve $ref ${JSON.stringify(ref)}: no local type ${JSON.stringify(name)} in the blueprint's localTypes`);
        this.load(id, schema);
      }
      return id + fragment;
    }
    if (base.startsWith('blueprint://')) {
      const path = base.slice('blueprint://'.length).replace(/^\/+/, '');
      const id = BLUEPRINT_BASE + path.split('/').map(encodeURIComponent).join('/');
      if (!this.loaded.has(id)) {
        if (this.fs === undefined) throw new BlueprintSchemaError(`unable to resolve $ref ${JSON.stringify(ref)}: no blueprint filesystem`);
        let doc: AnyJSON;
        try {
          doc = parseYaml(this.fs.readFile(path).toString('utf8'));
        } catch (e) {
          throw new BlueprintSchemaError(`unable to resolve $ref ${JSON.stringify(ref)}: ${messageOf(e)}`);
        }
        if (typeof doc !== 'boolean' && !isObject(doc)) throw new BlueprintSchemaError(`$ref ${JSON.stringify(ref)}: ${path} is not a JSON schema`);
        this.load(id, doc);
      }
      return id + fragment;
    }
    if (base.startsWith('cd://')) {
      throw new BlueprintSchemaError(`unable to resolve $ref ${JSON.stringify(ref)}: cd:// references need a component descriptor, which Bosun does not support (inline blueprints only)`);
    }
    return ref;
  }

  private load(id: string, schema: JSONSchemaDefinition): void {
    this.loaded.add(id);
    const rewritten = this.rewrite(schema, true);
    try {
      this.ajv.addSchema(rewritten as object | boolean as object, id);
    } catch (e) {
      throw new BlueprintSchemaError(`invalid JSON schema ${id.replace(/^https:\/\/schemas\.bosun\.invalid\/(local|blueprint)\//, '$1://')}: ${messageOf(e)}`);
    }
  }

  private compile(schema: JSONSchemaDefinition): ValidateFunction {
    const key = JSON.stringify(schema);
    let fn = this.compiled.get(key);
    if (fn === undefined) {
      const rewritten = this.rewrite(schema, true);
      try {
        fn = this.ajv.compile(rewritten as object);
      } catch (e) {
        if (e instanceof BlueprintSchemaError) throw e;
        throw new BlueprintSchemaError(`invalid JSON schema: ${messageOf(e)}`);
      }
      this.compiled.set(key, fn);
    }
    return fn;
  }

  /** Validation errors ("<path>: <message>"); empty when the value matches. */
  validate(schema: JSONSchemaDefinition, value: AnyJSON): string[] {
    const fn = this.compile(schema);
    // Validate a copy: ajv options could mutate (defaults, coercion) and callers keep their value.
    return fn(structuredClone(value)) ? [] : formatSchemaErrors(fn.errors);
  }
}
