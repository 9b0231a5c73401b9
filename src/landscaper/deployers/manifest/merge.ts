// JSON merging as upstream's update strategies do it (mergo on unstructured maps) and the JSON merge patch
// controller-runtime's client.MergeFrom computes.
import type { JSONObject, AnyJSON } from '../../api/shared.ts';

function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * mergo.Merge(dst, src[, WithOverride]): maps merge key by key, recursively. Without override a key already set
 * (non-empty) in dst keeps its value; with override src's value wins. Lists and scalars are never merged inside.
 */
export function mergeInto(dst: JSONObject, src: JSONObject, override: boolean): JSONObject {
  const out: JSONObject = { ...dst };
  for (const [key, value] of Object.entries(src)) {
    const current = out[key];
    if (isObject(current) && isObject(value)) out[key] = mergeInto(current, value, override);
    else if (current === undefined || current === null || isEmpty(current) || override) out[key] = structuredClone(value);
  }
  return out;
}

function isEmpty(v: AnyJSON): boolean {
  return v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** RFC 7386 merge patch turning `original` into `modified` (nulls delete keys missing from modified). */
export function createMergePatch(original: JSONObject, modified: JSONObject): JSONObject {
  const patch: JSONObject = {};
  for (const key of Object.keys(original)) if (!(key in modified)) patch[key] = null;
  for (const [key, value] of Object.entries(modified)) {
    const before = original[key];
    if (isObject(before) && isObject(value)) {
      const inner = createMergePatch(before, value);
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (JSON.stringify(before) !== JSON.stringify(value)) {
      patch[key] = structuredClone(value);
    }
  }
  return patch;
}
