// Typed errors of the template engine. Messages follow Go's text/template wording so callers and
// golden tests can compare them with the real implementation.

/** A Go function's error result (or panic). The executor wraps it as `error calling NAME: message`. */
export class GoFuncError extends Error {
  override readonly name = 'GoFuncError' as const;
}

/** Lexing/parsing failed: `template: NAME:LINE: message`. */
export class TemplateParseError extends Error {
  override readonly name = 'TemplateParseError' as const;
}

/** Execution failed: `template: NAME:LINE:COL: executing "NAME" at <node>: message`. */
export class TemplateExecError extends Error {
  override readonly name = 'TemplateExecError' as const;
  /** `cause` is set when the failure is a function's error return, so wrappers can unwrap it. */
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

/** A resource limit of limits.ts was exceeded; never swallowed by function-error wrapping. */
export class TemplateLimitError extends Error {
  override readonly name = 'TemplateLimitError' as const;
  readonly limit: 'depth' | 'output' | 'steps';
  constructor(limit: 'depth' | 'output' | 'steps', message: string) {
    super(message);
    this.limit = limit;
  }
}
