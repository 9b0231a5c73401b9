// Helm's functions on top of sprig (pkg/engine/funcs.go and engine.go's include, tpl, required, fail, lookup).
import { GoFuncError } from '../errors.ts';
import { templateFunctions } from '../functions/index.ts';
import { marshalJSON, unmarshalJSON } from '../functions/sprig/json.ts';
import type { TemplateSet } from '../template.ts';
import { goFunc, isMap, newMap, fromJSONValue, type FuncMap, type GoValue } from '../value.ts';
import { marshalYAML } from '../yaml-emit.ts';
import { parseGoYaml } from './go-yaml.ts';
import { toToml } from './toml.ts';
import { goYamlError } from './yaml-errors.ts';

/** Helm's include recursion limit per template name. */
export const RECURSION_LIMIT = 1000;

/** What `lookup` asks the cluster; the caller injects a client. */
export type LookupFn = (apiVersion: string, kind: string, namespace: string, name: string) => GoValue;

function trimNewline(s: string): string {
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

/** encoding/json's UnmarshalTypeError text for a JSON value that does not fit the Go type. */
function wrongType(v: GoValue, goType: string): string {
  const jsonType = Array.isArray(v) ? 'array' : isMap(v) ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'string' : 'number';
  return `json: cannot unmarshal ${jsonType} into Go value of type ${goType}`;
}

function errorMap(e: unknown): GoValue {
  const m = newMap();
  m.Error = (e as Error).message;
  return m;
}

export interface HelmFunctionOptions {
  set: () => TemplateSet;
  lookup?: LookupFn;
}

export function helmFunctions(opts: HelmFunctionOptions): FuncMap {
  const depth = new Map<string, number>();
  return templateFunctions(() => ({
    toYaml: goFunc({ params: ['interface {}'], results: ['string'] }, (v: GoValue) => {
      try {
        return trimNewline(marshalYAML(v));
      } catch {
        return '';
      }
    }),
    toYamlPretty: goFunc({ params: ['interface {}'], results: ['string'] }, (v: GoValue) => {
      try {
        return trimNewline(marshalYAML(v, { v3: true }));
      } catch {
        return '';
      }
    }),
    toToml: goFunc({ params: ['interface {}'], results: ['string'] }, (v: GoValue) => toToml(v)),
    fromYaml: goFunc({ params: ['string'], results: ['interface {}'] }, (s: string) => {
      try {
        const v = fromJSONValue(parseGoYaml(s) ?? {});
        if (isMap(v)) return v;
        return errorMap(new Error(`error unmarshaling JSON: while decoding JSON: ${wrongType(v, 'map[string]interface {}')}`));
      } catch (e) {
        return errorMap(new Error(`error converting YAML to JSON: ${goYamlError(e)}`));
      }
    }),
    fromYamlArray: goFunc({ params: ['string'], results: ['[]interface {}'] }, (s: string) => {
      try {
        const v = fromJSONValue(parseGoYaml(s) ?? []);
        return Array.isArray(v) ? v : [`error unmarshaling JSON: while decoding JSON: ${wrongType(v, '[]interface {}')}`];
      } catch (e) {
        return [`error converting YAML to JSON: ${goYamlError(e)}`];
      }
    }),
    toJson: goFunc({ params: ['interface {}'], results: ['string'] }, (v: GoValue) => {
      try {
        return marshalJSON(v, { escapeHTML: true });
      } catch {
        return '';
      }
    }),
    mustToJson: goFunc({ params: ['interface {}'], results: ['string', 'error'] }, (v: GoValue) => marshalJSON(v, { escapeHTML: true })),
    fromJson: goFunc({ params: ['string'], results: ['interface {}'] }, (s: string) => {
      try {
        const v = unmarshalJSON(s);
        return isMap(v) || v === null ? (v ?? newMap()) : errorMap(new Error(wrongType(v, 'map[string]interface {}')));
      } catch (e) {
        return errorMap(e);
      }
    }),
    fromJsonArray: goFunc({ params: ['string'], results: ['[]interface {}'] }, (s: string) => {
      try {
        const v = unmarshalJSON(s);
        return Array.isArray(v) || v === null ? (v ?? []) : [wrongType(v, '[]interface {}')];
      } catch (e) {
        return [(e as Error).message];
      }
    }),
    include: goFunc({ params: ['string', 'interface {}'], results: ['string', 'error'] }, (name: string, data: GoValue) => {
      const n = depth.get(name) ?? 0;
      if (n > RECURSION_LIMIT) throw new GoFuncError(`rendering template has a nested reference name: ${name}: unable to execute template`);
      depth.set(name, n + 1);
      try {
        return opts.set().executeTemplate(name, data);
      } finally {
        depth.set(name, n);
      }
    }),
    required: goFunc({ params: ['string', 'interface {}'], results: ['interface {}', 'error'] }, (msg: string, v: GoValue) => {
      if (v === null || v === undefined || v === '') throw new GoFuncError(`HELM_ERR_START${msg}HELM_ERR_END`);
      return v;
    }),
    fail: goFunc({ params: ['string'], results: ['string', 'error'] }, (msg: string) => {
      throw new GoFuncError(`HELM_ERR_START${msg}HELM_ERR_END`);
    }),
    lookup: goFunc({ params: ['string', 'string', 'string', 'string'], results: ['map[string]interface {}', 'error'] }, (apiVersion: string, kind: string, ns: string, name: string) => {
      if (opts.lookup === undefined) return newMap();
      return opts.lookup(apiVersion, kind, ns, name);
    }),
    tpl: goFunc({ params: ['string', 'interface {}'], results: ['string', 'error'] }, (text: string, data: GoValue) => {
      const set = opts.set();
      const name = isMap(data) && isMap(data.Template ?? null) ? String((data.Template as Record<string, GoValue>).Name) : 'tpl';
      const out = set.parse(name + '#tpl', text).execute(data);
      return out.replaceAll('<no value>', '');
    }),
  }));
}
