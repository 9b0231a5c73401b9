// parseOCIRef / ociRefRepo / ociRefVersion: split an OCI reference into repository and tag or digest.
import { GoFuncError, goFunc, goSlice, type FuncMap } from '../../../template/index.ts';

/** "host:5000/repo/img:v1" → [repo, tag]; "repo@sha256:x" → [repo, digest]. */
export function parseOCIRef(ref: string): [string, string] {
  const at = ref.indexOf('@');
  if (at >= 0) return [ref.slice(0, at), ref.slice(at + 1)];
  const slash = ref.lastIndexOf('/');
  const colon = ref.lastIndexOf(':');
  if (colon > slash) return [ref.slice(0, colon), ref.slice(colon + 1)];
  if (!ref.includes(':')) throw new GoFuncError('invalid reference');
  return [ref, ''];
}

export const ociFunctions: FuncMap = {
  parseOCIRef: goFunc({ params: ['string'], results: ['[2]string'] }, (r: string) => goSlice('string', parseOCIRef(r))),
  ociRefRepo: goFunc({ params: ['string'], results: ['string'] }, (r: string) => parseOCIRef(r)[0]),
  ociRefVersion: goFunc({ params: ['string'], results: ['string'] }, (r: string) => parseOCIRef(r)[1]),
};
