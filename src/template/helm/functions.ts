// Helm's functions on top of sprig (pkg/engine/funcs.go and engine.go's include, tpl, required, fail, lookup).
import { GoFuncError } from '../errors.ts';
import { templateFunctions } from '../functions/index.ts';
import { marshalJSON, unmarshalJSON } from '../functions/sprig/json.ts';
import type { TemplateSet } from '../template.ts';
import { goFunc, isMap, newMap, fromJSONValue, type FuncMap, type GoValue } from '../value.ts';
import { marshalYAML } from '../yaml-emit.ts';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

/** Helm's include recursion limit per template name. */
export const RECURSION_LIMIT = 1000;

/** What `lookup` asks the cluster; the caller injects a client. */
export type LookupFn = (apiVersion: string, kind: string, namespace: string, name: string) => GoValue;

function trimNewline(s: string): string {
  return s.endsWith('\n') ? s.slice(0, -1) : s;
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
    mustToYaml: goFunc({ params: ['interface {}'], results: ['string', 'error'] }, (v: GoValue) => trimNewline(marshalYAML(v))),
    fromYaml: goFunc({ params: ['string'], results: ['interface {}'] }, (s: string) => {
      try {
        const v = fromJSONValue(parseYaml(s) ?? {});
        return isMap(v) ? v : newMap();
      } catch (e) {
        return errorMap(e);
      }
    }),
    fromYamlArray: goFunc({ params: ['string'], results: ['[]interface {}'] }, (s: string) => {
      try {
        const v = fromJSONValue(parseAllDocuments(s).length ? parseYaml(s) : []);
        return Array.isArray(v) ? v : [];
      } catch (e) {
        return [(e as Error).message];
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
        return isMap(v) ? v : newMap();
      } catch (e) {
        return errorMap(e);
      }
    }),
    fromJsonArray: goFunc({ params: ['string'], results: ['[]interface {}'] }, (s: string) => {
      try {
        const v = unmarshalJSON(s);
        return Array.isArray(v) ? v : [];
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
