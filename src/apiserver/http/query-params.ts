// Typed query parameters, parsed as kube-apiserver's parameter codec converts url.Values into its options
// structs (apimachinery runtime/conversion.go), so that every client's spelling means what it means there.
import { errors } from '../../apimachinery/status-error.ts';

/**
 * A boolean parameter: absent is false; `false` or `0` in any case is false; anything else, the empty value
 * included (`?watch`), is true. kube-apiserver never refuses a boolean parameter.
 */
export function boolParam(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  const lower = value.toLowerCase();
  return lower !== 'false' && lower !== '0';
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** An int64 parameter as Go's strconv.ParseInt(value, 10, 64) reads it; undefined when absent, 400 when malformed. */
export function int64Param(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  // JSON.stringify quotes as Go's %q does for the printable values a query carries.
  if (!/^[+-]?[0-9]+$/.test(value)) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const parsed = BigInt(value);
  if (parsed < int64Min || parsed > int64Max) throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  return Number(parsed);
}

const uint64Max = 2n ** 64n - 1n;

/**
 * The `resourceVersion` parameter of a get, list or watch, as kube-apiserver's APIObjectVersioner parses it
 * (strconv.ParseUint): absent, '' and '0' mean "any" (undefined); anything but an unsigned integer is a 400.
 */
export function resourceVersionParam(query: URLSearchParams): number | undefined {
  const value = query.get('resourceVersion') ?? '';
  if (value === '' || value === '0') return undefined;
  const problem = !/^[0-9]+$/.test(value) ? 'invalid syntax' : BigInt(value) > uint64Max ? 'value out of range' : undefined;
  if (problem) {
    const quoted = JSON.stringify(value);
    throw errors.badRequest(`invalid resource version: resourceVersion: Invalid value: ${quoted}: strconv.ParseUint: parsing ${quoted}: ${problem}`);
  }
  return Number(value);
}
