// sprig dict.go: dict/get/set/unset/hasKey/pluck/keys/pick/omit/merge*/values/dig.
import { GoFuncError, goFunc, goSlice, goTypeName, isMap, mapGet, mapHas, mapSet, newMap, type FuncMap, type GoMap, type GoValue } from '../../value.ts';
import { deepCopy } from './defaults.ts';
import { empty, strval } from './util.ts';

const ANY = 'interface {}';
const MAP = 'map[string]interface {}';

/** mergo.Merge semantics for map[string]interface{}: fill missing or empty keys; recurse into maps. */
function mergeInto(dst: GoMap, src: GoMap, overwrite: boolean): void {
  for (const k of Object.keys(src)) {
    const sv = src[k];
    const has = mapHas(dst, k);
    const dv = has ? dst[k] : undefined;
    if (has && isMap(dv) && isMap(sv)) {
      mergeInto(dv, sv, overwrite);
      continue;
    }
    if (!has) {
      mapSet(dst, k, sv);
      continue;
    }
    if (overwrite || (empty(dv) && !empty(sv))) {
      mapSet(dst, k, sv);
      continue;
    }
  }
}

function merge(overwrite: boolean) {
  return (dst: GoMap, ...srcs: GoMap[]): GoValue => {
    for (const s of srcs) mergeInto(dst, s, overwrite);
    return dst;
  };
}

function dig(...ps: GoValue[]): GoValue {
  if (ps.length < 3) throw new GoFuncError('dig needs at least three arguments');
  let dict = ps[ps.length - 1];
  const def = ps[ps.length - 2];
  const keys = ps.slice(0, -2);
  for (const k of keys) {
    if (typeof k !== 'string') throw new GoFuncError(`interface conversion: interface {} is ${typeName(k)}, not string`);
  }
  for (let i = 0; i < keys.length; i++) {
    if (!isMap(dict)) throw new GoFuncError(`interface conversion: interface {} is ${typeName(dict)}, not map[string]interface {}`);
    if (!mapHas(dict, keys[i] as string)) return def;
    const step = dict[keys[i] as string];
    if (i === keys.length - 1) return step;
    dict = step;
  }
  return def;
}

function typeName(v: GoValue): string {
  return v === null || v === undefined ? 'nil' : goTypeName(v);
}

export const dictFunctions: FuncMap = {
  dict: goFunc({ params: [], variadic: ANY, results: [MAP] }, (...v: GoValue[]) => {
    const d = newMap();
    for (let i = 0; i < v.length; i += 2) mapSet(d, strval(v[i]), i + 1 < v.length ? v[i + 1] : '');
    return d;
  }),
  get: goFunc({ params: [MAP, 'string'], results: [ANY] }, (d: GoMap, k: string) => (mapHas(d, k) ? mapGet(d, k) : '')),
  set: goFunc({ params: [MAP, 'string', ANY], results: [MAP] }, (d: GoMap, k: string, v: GoValue) => {
    mapSet(d, k, v);
    return d;
  }),
  unset: goFunc({ params: [MAP, 'string'], results: [MAP] }, (d: GoMap, k: string) => {
    if (mapHas(d, k)) delete d[k];
    return d;
  }),
  hasKey: goFunc({ params: [MAP, 'string'], results: ['bool'] }, (d: GoMap, k: string) => mapHas(d, k)),
  pluck: goFunc({ params: ['string'], variadic: MAP, results: ['[]interface {}'] }, (k: string, ...ds: GoMap[]) =>
    ds.filter((d) => mapHas(d, k)).map((d) => d[k])),
  // Go's map iteration order is random; keys/values keep insertion order here (templates sort them).
  keys: goFunc({ params: [], variadic: MAP, results: ['[]string'] }, (...ds: GoMap[]) => goSlice('string', ds.flatMap((d) => Object.keys(d)))),
  pick: goFunc({ params: [MAP], variadic: 'string', results: [MAP] }, (d: GoMap, ...ks: string[]) => {
    const r = newMap();
    for (const k of ks) if (mapHas(d, k)) mapSet(r, k, d[k]);
    return r;
  }),
  omit: goFunc({ params: [MAP], variadic: 'string', results: [MAP] }, (d: GoMap, ...ks: string[]) => {
    const r = newMap();
    const drop = new Set(ks);
    for (const k of Object.keys(d)) if (!drop.has(k)) mapSet(r, k, d[k]);
    return r;
  }),
  merge: goFunc({ params: [MAP], variadic: MAP, results: [ANY] }, merge(false)),
  mergeOverwrite: goFunc({ params: [MAP], variadic: MAP, results: [ANY] }, merge(true)),
  mustMerge: goFunc({ params: [MAP], variadic: MAP, results: [ANY, 'error'] }, merge(false)),
  mustMergeOverwrite: goFunc({ params: [MAP], variadic: MAP, results: [ANY, 'error'] }, merge(true)),
  values: goFunc({ params: [MAP], results: ['[]interface {}'] }, (d: GoMap) => Object.keys(d).map((k) => d[k])),
  dig: goFunc({ params: [], variadic: ANY, results: [ANY, 'error'] }, dig),
};

export { deepCopy };
