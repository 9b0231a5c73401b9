// Public API of the Go text/template engine.
//
//   const t = parse('name', '{{ .x }}', { funcs: templateFunctions() });
//   t.execute(fromJSONValue(data), { missingKey: 'zero' });
//
// Templates share a TemplateSet (define/template/block); functions that render other templates
// (an include a caller adds through templateFunctions' extensions) close over the set and call
// set.parse(...)/template.execute(...), which run re-entrantly under the caller's limits.

import { Template, TemplateSet, type ExecuteOptions, type TemplateSetOptions } from './template.ts';

export { Template, TemplateSet, insideExecution } from './template.ts';
export type { ExecuteOptions, TemplateSetOptions } from './template.ts';
export type { MissingKey } from './exec.ts';
export { DEFAULT_LIMITS, type TemplateLimits } from './limits.ts';
export { GoFuncError, TemplateExecError, TemplateLimitError, TemplateParseError } from './errors.ts';
export { sprint, sprintf, sprintln, formatValue } from './fmt.ts';
export { formatFloat, quote } from './strconv.ts';
export * from './value.ts';
export { templateFunctions, type FunctionExtension } from './functions/index.ts';
export { jsonFloat } from './functions/sprig/json.ts';

export type ParseOptions = TemplateSetOptions;

/** Parses `text` as template `name` in a new set with the given functions, missingkey and limits. */
export function parse(name: string, text: string, opts: ParseOptions = {}): Template {
  return new TemplateSet(opts).parse(name, text);
}

/** Parses and executes in one go. */
export function render(name: string, text: string, data: unknown, opts: ParseOptions & ExecuteOptions = {}): string {
  return parse(name, text, opts).execute(data as never, opts);
}
