// The size limits kube-apiserver (with etcd's defaults) puts on one request, in one place: the request body,
// the growth a JSON patch's `copy` operations may cause, and the stored object.
import { StatusError } from '../../apimachinery/status-error.ts';

/** kube-apiserver's MaxRequestBodyBytes: twice etcd's request limit, since JSON is larger than the stored protobuf. */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/** kube-apiserver's JSONPatchMaxCopyBytes (evanphx/json-patch AccumulatedCopySizeLimit). */
export const jsonPatchMaxCopyBytes = 3 * 1024 * 1024;

/** etcd's default --max-request-bytes, which bounds every object kube-apiserver stores. */
export const maxObjectBytes = 1.5 * 1024 * 1024;

/** apimachinery's NewRequestEntityTooLargeError (limitedReadBody says `limit is 3145728`). */
export function requestEntityTooLarge(detail: string): StatusError {
  return new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: ${detail}`);
}

/**
 * Refuses to store an object whose serialised form exceeds etcd's request limit. etcd answers
 * `etcdserver: request is too large`, which kube-apiserver passes on as a 500 (kubernetes/kubernetes#112152);
 * the request can never succeed, so it is answered as what it is: a 413 with etcd's words.
 */
export function checkObjectSize(json: string): void {
  const size = Buffer.byteLength(json, 'utf8');
  if (size > maxObjectBytes) {
    throw new StatusError(413, 'RequestEntityTooLarge', 'etcdserver: request is too large', {
      causes: [{ reason: 'FieldValueTooLong', message: `the object is ${size} bytes, limit is ${maxObjectBytes}` }],
    });
  }
}
