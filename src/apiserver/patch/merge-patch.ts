// RFC 7386 JSON Merge Patch, with the corner cases of evanphx/json-patch's MergePatch that kube-apiserver uses.
import { errors } from '../../apimachinery/status-error.ts';
import { isJsonObject } from '../schema/field-schema.ts';
import type { JsonObject } from '../schema/field-schema.ts';

/** Drops null-valued keys at every depth (null array elements stay, as upstream). */
function pruneNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (x === null ? x : pruneNulls(x)));
  if (isJsonObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = pruneNulls(x);
    return out;
  }
  return v;
}

function mergeInto(doc: JsonObject, patch: JsonObject): void {
  for (const [k, pv] of Object.entries(patch)) {
    if (pv === null) {
      delete doc[k];
      continue;
    }
    const cur = doc[k];
    if (cur === undefined || cur === null || !isJsonObject(cur)) {
      doc[k] = pruneNulls(structuredClone(pv));
    } else if (isJsonObject(pv)) {
      mergeInto(cur, pv);
    } else {
      // An object replaced by a non-object: upstream keeps the patch value as is.
      doc[k] = structuredClone(pv);
    }
  }
}

/**
 * Applies a merge patch to a copy of `doc`. `null` deletes, objects merge recursively, everything else (arrays included) replaces.
 * A patch that is not a JSON object is 400 BadRequest ("Invalid JSON Patch"), as upstream.
 */
export function applyMergePatch(doc: JsonObject, patch: unknown): JsonObject {
  if (!isJsonObject(patch)) throw errors.badRequest('Invalid JSON Patch');
  const out = structuredClone(doc);
  mergeInto(out, patch);
  return out;
}
