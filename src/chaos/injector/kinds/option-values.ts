// Reading a kind's flag values as commander hands them over (camelCased keys, strings unless a boolean flag or
// a default), with upstream's cobra types: Int, Uint, Bool, String, StringSlice (comma-separated, repeatable).

import { parseRfc3339 } from '../durations.ts';

/** A flag value the kind cannot use; the CLI reports it as a usage error. */
export class InjectorOptionError extends Error {
  override readonly name = 'InjectorOptionError' as const;
}

export function intValue(values: Readonly<Record<string, unknown>>, key: string, fallback: number, flag: string): number {
  const raw = values[key];
  if (raw === undefined || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : Number(String(raw).trim());
  if (!Number.isInteger(n)) throw new InjectorOptionError(`${flag}: "${String(raw)}" is not an integer`);
  return n;
}

export function uintValue(values: Readonly<Record<string, unknown>>, key: string, fallback: number, flag: string): number {
  const n = intValue(values, key, fallback, flag);
  if (n < 0) throw new InjectorOptionError(`${flag}: ${n} is negative`);
  return n;
}

export function boolValue(values: Readonly<Record<string, unknown>>, key: string, fallback: boolean): boolean {
  const raw = values[key];
  if (raw === undefined) return fallback;
  if (typeof raw === 'boolean') return raw;
  return String(raw) === 'true';
}

export function stringValue(values: Readonly<Record<string, unknown>>, key: string, fallback = ''): string {
  const raw = values[key];
  return raw === undefined ? fallback : String(raw);
}

/** cobra's StringSlice: repeatable, each occurrence split on commas. */
export function stringSliceValue(values: Readonly<Record<string, unknown>>, key: string): string[] {
  const raw = values[key];
  if (raw === undefined || raw === '') return [];
  const items = Array.isArray(raw) ? raw.map(String) : [String(raw)];
  return items.flatMap((item) => item.split(',')).filter((item) => item !== '');
}

/** A repeatable flag's collector for commander (`--hosts a --hosts b`). */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** --deadline, a common flag the pressure kinds pass on to their stress children (they end on their own at it). */
export function deadlineOf(values: Readonly<Record<string, unknown>>): Date | undefined {
  const text = values['deadline'];
  return typeof text === 'string' && text !== '' ? parseRfc3339('deadline', text) : undefined;
}
