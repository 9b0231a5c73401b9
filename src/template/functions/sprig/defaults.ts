// sprig defaults.go: default/empty/coalesce/all/any/compact, JSON, ternary, deepCopy.
import { GoFuncError, GoObject, goFunc, isMap, newMap, type FuncMap, type GoValue } from '../../value.ts';
import { marshalJSON, unmarshalJSON } from './json.ts';
import { empty, listItems, listKind } from './util.ts';

const ANY = 'interface {}';

function compact(list: GoValue): GoValue[] {
  const k = listKind(list);
  if (k !== 'slice' && k !== 'array') throw new GoFuncError(`Cannot compact on type ${k}`);
  return listItems(list).filter((x) => !empty(x));
}

/** copystructure.Copy: a deep copy of maps and slices. */
export function deepCopy(v: GoValue): GoValue {
  if (v === null || v === undefined) throw new GoFuncError('reflect: call of reflect.Value.Type on zero Value');
  const copy = (x: GoValue): GoValue => {
    if (Array.isArray(x)) return Object.assign(x.map(copy), {});
    if (x instanceof Uint8Array) return new Uint8Array(x);
    if (isMap(x) && !(x instanceof GoObject)) {
      const m = newMap();
      for (const k of Object.keys(x)) m[k] = copy(x[k]);
      return m;
    }
    return x;
  };
  return copy(v);
}

const toJson = (v: GoValue): string => marshalJSON(v, { escapeHTML: true });
const toPretty = (v: GoValue): string => marshalJSON(v, { escapeHTML: true, indent: '  ' });
const toRaw = (v: GoValue): string => marshalJSON(v, { escapeHTML: false });
const swallow = (f: (v: GoValue) => string) => (v: GoValue): string => {
  try {
    return f(v);
  } catch {
    return '';
  }
};

export const defaultFunctions: FuncMap = {
  default: goFunc({ params: [ANY], variadic: ANY, results: [ANY] }, (d: GoValue, ...given: GoValue[]) => {
    if (given.length === 0 || empty(given[0])) return d;
    return given[0];
  }),
  empty: goFunc({ params: [ANY], results: ['bool'] }, empty),
  coalesce: goFunc({ params: [], variadic: ANY, results: [ANY] }, (...v: GoValue[]) => {
    for (const x of v) if (!empty(x)) return x;
    return null;
  }),
  all: goFunc({ params: [], variadic: ANY, results: ['bool'] }, (...v: GoValue[]) => v.every((x) => !empty(x))),
  any: goFunc({ params: [], variadic: ANY, results: ['bool'] }, (...v: GoValue[]) => v.some((x) => !empty(x))),
  compact: goFunc({ params: [ANY], results: ['[]interface {}'] }, compact),
  mustCompact: goFunc({ params: [ANY], results: ['[]interface {}', 'error'] }, compact),
  fromJson: goFunc({ params: ['string'], results: [ANY] }, (s: string) => {
    try {
      return unmarshalJSON(s);
    } catch {
      return null;
    }
  }),
  mustFromJson: goFunc({ params: ['string'], results: [ANY, 'error'] }, unmarshalJSON),
  toJson: goFunc({ params: [ANY], results: ['string'] }, swallow(toJson)),
  toPrettyJson: goFunc({ params: [ANY], results: ['string'] }, swallow(toPretty)),
  toRawJson: goFunc({ params: [ANY], results: ['string'] }, (v: GoValue) => {
    try {
      return toRaw(v);
    } catch (e) {
      throw new GoFuncError(e instanceof Error ? e.message : String(e));
    }
  }),
  mustToJson: goFunc({ params: [ANY], results: ['string', 'error'] }, toJson),
  mustToPrettyJson: goFunc({ params: [ANY], results: ['string', 'error'] }, toPretty),
  mustToRawJson: goFunc({ params: [ANY], results: ['string', 'error'] }, toRaw),
  ternary: goFunc({ params: [ANY, ANY, 'bool'], results: [ANY] }, (a: GoValue, b: GoValue, c: boolean) => (c ? a : b)),
  deepCopy: goFunc({ params: [ANY], results: [ANY] }, deepCopy),
  mustDeepCopy: goFunc({ params: [ANY], results: [ANY, 'error'] }, deepCopy),
};
