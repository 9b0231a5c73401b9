// Template sets (text/template's Template with its shared `common`): parsed trees by name, the
// function map, the missingkey option, and execution with shared resource budgets so that
// functions such as an `include` can render other templates re-entrantly.

import type { Tree } from './ast.ts';
import { isEmptyTree } from './ast.ts';
import { builtinFuncs } from './builtins.ts';
import { TemplateExecError } from './errors.ts';
import { ExecState, type ExecEnv, type MissingKey } from './exec.ts';
import { quote } from './strconv.ts';
import { Budget, DEFAULT_LIMITS, rethrowStackOverflow, type TemplateLimits } from './limits.ts';
import { parseInto } from './parser.ts';
import type { FuncMap, GoValue, TemplateFunction } from './value.ts';

export interface TemplateSetOptions {
  funcs?: FuncMap;
  /** Default missingkey behaviour of executions (Go's Option("missingkey=...")); Landscaper uses 'zero'. */
  missingKey?: MissingKey;
  limits?: Partial<TemplateLimits>;
}

export interface ExecuteOptions {
  missingKey?: MissingKey;
  /** Limits for this execution when it is top-level (nested executions share their caller's budget). */
  limits?: Partial<TemplateLimits>;
}

const BUILTINS = builtinFuncs();

/** The budget of the execution currently running (executions are synchronous, so one pointer suffices). */
let activeBudget: Budget | null = null;

/** A set of associated templates sharing definitions and functions. */
export class TemplateSet implements ExecEnv {
  private readonly trees = new Map<string, Tree>();
  private readonly funcs = new Map<string, TemplateFunction>();
  missingKey: MissingKey;
  readonly limits: TemplateLimits;

  constructor(opts: TemplateSetOptions = {}) {
    if (opts.funcs) this.addFuncs(opts.funcs);
    this.missingKey = opts.missingKey ?? 'default';
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
  }

  /** Adds functions (before parsing templates that use them: unknown functions fail at parse time). */
  addFuncs(funcs: FuncMap): this {
    for (const [name, fn] of Object.entries(funcs)) this.funcs.set(name, fn);
    return this;
  }

  hasFunction(name: string): boolean {
    return this.funcs.has(name) || Object.prototype.hasOwnProperty.call(BUILTINS, name);
  }

  lookupFunc(name: string): { fn: TemplateFunction; builtin: boolean } | undefined {
    const fn = this.funcs.get(name);
    if (fn !== undefined) return { fn, builtin: false };
    if (Object.prototype.hasOwnProperty.call(BUILTINS, name)) return { fn: BUILTINS[name]!, builtin: true };
    return undefined;
  }

  lookupTree(name: string): Tree | undefined {
    return this.trees.get(name);
  }

  /**
   * Parses `text` as template `name` (Go's t.New(name).Parse(text)): its {{define}}s and {{block}}s
   * join the set. A later definition replaces an earlier one unless it is empty.
   */
  parse(name: string, text: string): Template {
    const parsed = new Map<string, Tree>();
    try {
      parseInto(name, text, parsed, { hasFunction: (n) => this.hasFunction(n) });
    } catch (e) {
      rethrowStackOverflow(e);
    }
    for (const [n, tree] of parsed) {
      const old = this.trees.get(n);
      if (old !== undefined && isEmptyTree(tree.root)) continue;
      this.trees.set(n, tree);
    }
    return new Template(name, this);
  }

  /** The template of that name, if defined. */
  lookup(name: string): Template | undefined {
    return this.trees.has(name) ? new Template(name, this) : undefined;
  }

  /** Names of the defined templates, sorted. */
  templateNames(): string[] {
    return [...this.trees.keys()].sort();
  }

  /** Go's ExecuteTemplate. */
  executeTemplate(name: string, data: GoValue, opts: ExecuteOptions = {}): string {
    if (!this.trees.has(name)) {
      throw new TemplateExecError(`template: no template ${quote(name)} associated with template ${quote(name)}`);
    }
    return new Template(name, this).execute(data, opts);
  }

  /** Runs one execution; nested calls (from functions) share the caller's budget and count as depth. */
  run(name: string, data: GoValue, opts: ExecuteOptions): string {
    const tree = this.trees.get(name);
    const missingKey = opts.missingKey ?? this.missingKey;
    const outer = activeBudget;
    const budget = outer ?? new Budget({ ...this.limits, ...opts.limits });
    if (outer !== null) budget.enter();
    activeBudget = budget;
    try {
      if (tree === undefined) {
        throw new TemplateExecError(`template: ${name}: ${quote(name)} is an incomplete or empty template`);
      }
      return new ExecState(tree, this, missingKey, budget).run(data);
    } catch (e) {
      if (outer === null) rethrowStackOverflow(e);
      throw e;
    } finally {
      activeBudget = outer;
      if (outer !== null) budget.leave();
    }
  }
}

/** A named template within a set. */
export class Template {
  readonly name: string;
  readonly set: TemplateSet;

  constructor(name: string, set: TemplateSet) {
    this.name = name;
    this.set = set;
  }

  /** Renders the template with `data` as dot and `$`; throws TemplateExecError / TemplateLimitError. */
  execute(data: GoValue, opts: ExecuteOptions = {}): string {
    return this.set.run(this.name, data, opts);
  }

  /** Parses more text into this template's set under a new name (Go's t.New(name).Parse). */
  parseAssociated(name: string, text: string): Template {
    return this.set.parse(name, text);
  }

  lookup(name: string): Template | undefined {
    return this.set.lookup(name);
  }
}

/** Whether an execution is running (functions can use this to know they are called from a template). */
export function insideExecution(): boolean {
  return activeBudget !== null;
}
