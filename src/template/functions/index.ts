// The function map of a template execution: sprig (minus env/expandenv), then the functions the caller adds
// (a controller family's own, such as reading files next to the template).
import type { FuncMap } from '../value.ts';
import { sprigFunctions } from './sprig/index.ts';

/**
 * Functions added on top of sprig's. `all` returns the execution's complete map once it is built, for a
 * function that renders another template with the same functions (an include).
 */
export type FunctionExtension = (all: () => FuncMap) => FuncMap;

/**
 * A fresh function map: sprig's, then each extension's in order (a later name replaces an earlier one).
 * Extensions may keep per-map state (an include's recursion counts), so use one map per execution.
 */
export function templateFunctions(...extensions: FunctionExtension[]): FuncMap {
  const funcs: FuncMap = sprigFunctions();
  for (const extend of extensions) Object.assign(funcs, extend(() => funcs));
  return funcs;
}
