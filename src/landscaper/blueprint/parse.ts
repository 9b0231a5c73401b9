// Parsing and defaulting of blueprint.yaml (types_blueprint.go + defaults.go), with validation that
// names the offending field, so that a broken blueprint fails the installation with a clear message.
import { TARGET_TYPE_PREFIX, TEMPLATE_TYPE_GO, TEMPLATE_TYPE_SPIFF } from '../api/constants.ts';
import type {
  Blueprint,
  ExportDefinition,
  ImportDefinition,
  ImportType,
  SubinstallationTemplate,
  TemplateExecutor,
} from '../api/blueprint.ts';
import type { AnyJSON } from '../api/shared.ts';
import { YamlError, isObject, parseYaml } from '../yaml.ts';
import { BlueprintError } from './errors.ts';

const IMPORT_TYPES: readonly ImportType[] = ['data', 'target', 'targetList', 'targetMap'];

/** Short target types ("kubernetes-cluster") get the landscaper.gardener.cloud/ prefix. */
export function normalizeTargetType(t: string): string {
  return t.includes('/') ? t : TARGET_TYPE_PREFIX + t;
}

function str(v: AnyJSON | undefined, path: string, required: boolean): string | undefined {
  if (v === undefined || v === null) {
    if (required) throw new BlueprintError(`${path}: Required value`);
    return undefined;
  }
  if (typeof v !== 'string') throw new BlueprintError(`${path}: must be a string`);
  if (required && v === '') throw new BlueprintError(`${path}: Required value`);
  return v;
}

function list(v: AnyJSON | undefined, path: string): AnyJSON[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new BlueprintError(`${path}: must be a list`);
  return v;
}

function schemaOf(v: AnyJSON | undefined, path: string): ImportDefinition['schema'] {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean' || isObject(v)) return v;
  throw new BlueprintError(`${path}: must be a JSON schema (an object or a boolean)`);
}

/** What imports and exports share: an object with a unique name, an optional schema and target type. */
function definitionHead(raw: AnyJSON, path: string, seen: Set<string>): { raw: { [key: string]: AnyJSON }; name: string; schema: ImportDefinition['schema']; targetType: string | undefined } {
  if (!isObject(raw)) throw new BlueprintError(`${path}: must be an object`);
  const name = str(raw['name'], `${path}.name`, true)!;
  if (seen.has(name)) throw new BlueprintError(`${path}.name: Duplicate value: ${JSON.stringify(name)}`);
  seen.add(name);
  return { raw, name, schema: schemaOf(raw['schema'], `${path}.schema`), targetType: str(raw['targetType'], `${path}.targetType`, false) };
}

function parseImport(input: AnyJSON, path: string, seen: Set<string>): ImportDefinition {
  const { raw, name, schema, targetType } = definitionHead(input, path, seen);
  let type = str(raw['type'], `${path}.type`, false) as ImportType | undefined;
  if (type === undefined) {
    if (schema !== undefined) type = 'data';
    else if (targetType !== undefined) type = 'target';
    else throw new BlueprintError(`${path}: either schema or targetType has to be defined`);
  }
  if (!IMPORT_TYPES.includes(type)) {
    throw new BlueprintError(`${path}.type: Unsupported value: ${JSON.stringify(type)}: supported values: "data", "target", "targetList", "targetMap"`);
  }
  if (type === 'data' && schema === undefined) throw new BlueprintError(`${path}.schema: Required value: data imports need a schema`);
  if (type !== 'data' && (targetType === undefined || targetType === '')) {
    throw new BlueprintError(`${path}.targetType: Required value: ${type} imports need a targetType`);
  }
  const required = raw['required'];
  if (required !== undefined && required !== null && typeof required !== 'boolean') {
    throw new BlueprintError(`${path}.required: must be a boolean`);
  }
  const def: ImportDefinition = { name, type, required: typeof required === 'boolean' ? required : true };
  if (schema !== undefined) def.schema = schema;
  if (targetType !== undefined) def.targetType = normalizeTargetType(targetType);
  const dflt = raw['default'];
  if (isObject(dflt) && 'value' in dflt) def.default = { value: dflt['value'] ?? null };
  const conditional = list(raw['imports'], `${path}.imports`);
  if (conditional.length > 0) {
    if (def.required) throw new BlueprintError(`${path}.imports: Forbidden: conditional imports are only allowed for optional imports`);
    def.imports = conditional.map((c, i) => parseImport(c, `${path}.imports[${i}]`, seen));
  }
  return def;
}

function parseExport(input: AnyJSON, path: string, seen: Set<string>): ExportDefinition {
  const { raw, name, schema, targetType } = definitionHead(input, path, seen);
  let type = str(raw['type'], `${path}.type`, false);
  if (type === undefined) type = schema !== undefined ? 'data' : targetType !== undefined ? 'target' : undefined;
  if (type !== 'data' && type !== 'target') {
    throw new BlueprintError(type === undefined
      ? `${path}: either schema or targetType has to be defined`
      : `${path}.type: Unsupported value: ${JSON.stringify(type)}: supported values: "data", "target"`);
  }
  if (type === 'data' && schema === undefined) throw new BlueprintError(`${path}.schema: Required value: data exports need a schema`);
  if (type === 'target' && (targetType === undefined || targetType === '')) throw new BlueprintError(`${path}.targetType: Required value`);
  const def: ExportDefinition = { name, type };
  if (schema !== undefined) def.schema = schema;
  if (targetType !== undefined) def.targetType = normalizeTargetType(targetType);
  return def;
}

function parseExecutors(raw: AnyJSON | undefined, path: string): TemplateExecutor[] {
  const seen = new Set<string>();
  return list(raw, path).map((e, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(e)) throw new BlueprintError(`${p}: must be an object`);
    // Upstream never validates blueprints outside its tests, so executions without a name run there: an
    // unnamed one is '' (Go's zero value), and only named ones must be unique.
    const name = str(e['name'], `${p}.name`, false) ?? '';
    if (name !== '' && seen.has(name)) throw new BlueprintError(`${p}.name: Duplicate value: ${JSON.stringify(name)}`);
    seen.add(name);
    const type = str(e['type'], `${p}.type`, true)!;
    if (type !== TEMPLATE_TYPE_GO && type !== TEMPLATE_TYPE_SPIFF) {
      throw new BlueprintError(`${p}.type: Unsupported value: ${JSON.stringify(type)}: supported values: "GoTemplate", "Spiff"`);
    }
    const file = str(e['file'], `${p}.file`, false);
    const template = e['template'];
    if ((file === undefined || file === '') && (template === undefined || template === null)) {
      throw new BlueprintError(`${p}: either file or template has to be defined`);
    }
    const exec: TemplateExecutor = { name, type };
    if (file !== undefined && file !== '') exec.file = file;
    if (template !== undefined && template !== null) exec.template = template;
    return exec;
  });
}

function parseSubinstallations(raw: AnyJSON | undefined, path: string): SubinstallationTemplate[] {
  return list(raw, path).map((s, i) => {
    if (!isObject(s)) throw new BlueprintError(`${path}[${i}]: must be an object`);
    const file = str(s['file'], `${path}[${i}].file`, false);
    if ((file === undefined || file === '') && s['name'] === undefined) {
      throw new BlueprintError(`${path}[${i}]: either file or an inline installation template has to be defined`);
    }
    return s as unknown as SubinstallationTemplate;
  });
}

/** Parses blueprint.yaml text into a defaulted, validated Blueprint. */
export function parseBlueprint(text: string, file = 'blueprint.yaml'): Blueprint {
  let raw: AnyJSON;
  try {
    raw = parseYaml(text);
  } catch (e) {
    if (e instanceof YamlError) throw new BlueprintError(`${file}: ${e.message}`);
    throw e;
  }
  if (!isObject(raw)) throw new BlueprintError(`${file}: a blueprint must be a YAML map`);
  const bp: Blueprint = {};
  const apiVersion = str(raw['apiVersion'], 'apiVersion', false);
  const kind = str(raw['kind'], 'kind', false);
  if (apiVersion !== undefined) bp.apiVersion = apiVersion;
  if (kind !== undefined) {
    if (kind !== 'Blueprint') throw new BlueprintError(`${file}: kind must be "Blueprint", not ${JSON.stringify(kind)}`);
    bp.kind = kind;
  }
  if (isObject(raw['annotations'])) bp.annotations = raw['annotations'] as { [k: string]: string };
  const jsv = str(raw['jsonSchemaVersion'], 'jsonSchemaVersion', false) ?? str(raw['jsonSchema'], 'jsonSchema', false);
  bp.jsonSchemaVersion = jsv ?? 'https://json-schema.org/draft/2019-09/schema';
  if (raw['localTypes'] !== undefined && raw['localTypes'] !== null) {
    if (!isObject(raw['localTypes'])) throw new BlueprintError('localTypes: must be a map of names to JSON schemas');
    bp.localTypes = {};
    for (const [n, s] of Object.entries(raw['localTypes'])) bp.localTypes[n] = schemaOf(s, `localTypes.${n}`) ?? true;
  }
  const importNames = new Set<string>();
  bp.imports = list(raw['imports'], 'imports').map((x, i) => parseImport(x, `imports[${i}]`, importNames));
  const exportNames = new Set<string>();
  bp.exports = list(raw['exports'], 'exports').map((x, i) => parseExport(x, `exports[${i}]`, exportNames));
  bp.importExecutions = parseExecutors(raw['importExecutions'], 'importExecutions');
  bp.deployExecutions = parseExecutors(raw['deployExecutions'], 'deployExecutions');
  bp.exportExecutions = parseExecutors(raw['exportExecutions'], 'exportExecutions');
  bp.subinstallationExecutions = parseExecutors(raw['subinstallationExecutions'], 'subinstallationExecutions');
  bp.subinstallations = parseSubinstallations(raw['subinstallations'], 'subinstallations');
  return bp;
}

/** Every import definition, conditional ones included (depth first). */
export function allImportDefinitions(defs: readonly ImportDefinition[] | undefined): ImportDefinition[] {
  const out: ImportDefinition[] = [];
  for (const d of defs ?? []) {
    out.push(d);
    out.push(...allImportDefinitions(d.imports));
  }
  return out;
}
