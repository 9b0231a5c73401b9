// Tree-walking executor (text/template/exec.go, Go 1.23 semantics) over the value model of value.ts.
//
// Go distinguishes an invalid reflect.Value ("no value": JS undefined) from a nil interface{} value
// (JS null) and, for error messages, values whose static type is interface{} (elements of
// []interface{} / map[string]interface{}) from concrete ones. The executor tracks the latter with
// an `iface` flag next to dot, variables and field-chain receivers.

import type {
  ActionNode, AnyNode, ArgNode, BranchNode, ChainNode, CommandNode, FieldNode, IdentifierNode, ListNode,
  Node, NumberNode, PipeNode, TemplateNode, Tree, VariableNode,
} from './ast.ts';
import { nodeString } from './ast.ts';
import { zeroOf } from './builtins.ts';
import { GoFuncError, TemplateExecError, TemplateLimitError } from './errors.ts';
import { formatValue } from './fmt.ts';
import { quote } from './strconv.ts';
import type { Budget } from './limits.ts';
import {
  GoInt, GoObject, NO_FIELD, elemType, goInt, goTypeName, int, isMap, mapGet, sortedKeys, truth,
  type GoSignature, type GoValue, type TemplateFunction,
} from './value.ts';

export type MissingKey = 'default' | 'invalid' | 'zero' | 'error';

/** What the executor needs from a template set. */
export interface ExecEnv {
  lookupTree(name: string): Tree | undefined;
  lookupFunc(name: string): { fn: TemplateFunction; builtin: boolean } | undefined;
}

const MISSING: unique symbol = Symbol('missing');
type Final = GoValue | typeof MISSING;

const DEFAULT_SIG: GoSignature = { params: [], variadic: 'interface {}', results: ['interface {}'] };

const STATUS_NORMAL = 0;
const STATUS_BREAK = 1;
const STATUS_CONTINUE = 2;

const INT_KINDS = new Set(['int', 'int8', 'int16', 'int32', 'int64']);
const UINT_KINDS = new Set(['uint', 'uint8', 'uint16', 'uint32', 'uint64', 'uintptr']);

function canBeNil(typ: string): boolean {
  return typ === 'interface {}' || typ === 'reflect.Value' || typ === 'error' || typ.startsWith('[]') ||
    typ.startsWith('map[') || typ.startsWith('*') || typ.startsWith('func') || typ.startsWith('chan ');
}

/** Byte column of a UTF-16 position, as Go's ErrorContext computes it. */
function location(text: string, pos: number): [number, number] {
  const before = text.slice(0, pos);
  const nl = before.lastIndexOf('\n');
  let line = 1;
  for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
  const col = Buffer.byteLength(nl < 0 ? before : before.slice(nl + 1), 'utf8');
  return [line, col];
}

export class ExecState {
  private tree: Tree;
  private name: string;
  private readonly env: ExecEnv;
  private readonly missingKey: MissingKey;
  private readonly budget: Budget;
  private readonly maxSteps: number;
  readonly out: string[] = [];
  private node: AnyNode | null = null;
  private varNames: string[] = [];
  private varValues: GoValue[] = [];
  private varIfaces: boolean[] = [];
  /** Whether the value last returned by evalField has static type interface{}. */
  private lastIface = false;

  constructor(tree: Tree, env: ExecEnv, missingKey: MissingKey, budget: Budget) {
    this.tree = tree;
    this.name = tree.name;
    this.env = env;
    this.missingKey = missingKey;
    this.budget = budget;
    this.maxSteps = budget.limits.maxSteps;
  }

  run(data: GoValue): string {
    // reflect.ValueOf(nil) is the invalid value: nil data behaves as "no value", not as a nil interface.
    if (data === null) data = undefined;
    this.push('$', data, false);
    this.walk(data, false, this.tree.root);
    return this.out.join('');
  }

  // --- errors ---

  errorf(msg: string, cause?: unknown): never {
    const name = this.name;
    if (this.node === null) throw new TemplateExecError(`template: ${name}: ${msg}`, cause);
    const [line, col] = location(this.tree.text, this.node.pos);
    throw new TemplateExecError(
      `template: ${this.tree.parseName}:${line}:${col}: executing ${quote(name)} at <${nodeString(this.node)}>: ${msg}`,
      cause,
    );
  }

  private step(): void {
    if (++this.budget.steps > this.maxSteps) this.budget.stepsExceeded();
  }

  private write(s: string): void {
    if (s.length === 0) return;
    this.out.push(s);
    this.budget.addOutput(s.length);
  }

  // --- variables ---

  private push(name: string, value: GoValue, iface: boolean): void {
    this.varNames.push(name);
    this.varValues.push(value);
    this.varIfaces.push(iface);
  }

  private mark(): number {
    return this.varNames.length;
  }

  private pop(mark: number): void {
    this.varNames.length = mark;
    this.varValues.length = mark;
    this.varIfaces.length = mark;
  }

  private setVar(name: string, value: GoValue, iface: boolean): void {
    for (let i = this.varNames.length - 1; i >= 0; i--) {
      if (this.varNames[i] === name) {
        this.varValues[i] = value;
        this.varIfaces[i] = iface;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  private setTopVar(n: number, value: GoValue, iface: boolean): void {
    const i = this.varNames.length - n;
    this.varValues[i] = value;
    this.varIfaces[i] = iface;
  }

  private varIndex(name: string): number {
    for (let i = this.varNames.length - 1; i >= 0; i--) if (this.varNames[i] === name) return i;
    this.errorf(`undefined variable: ${name}`);
  }

  // --- walk ---

  private walk(dot: GoValue, dotIface: boolean, node: Node): number {
    this.node = node;
    this.step();
    switch (node.type) {
      case 'text':
        this.write(node.text);
        return STATUS_NORMAL;
      case 'action':
        return this.walkAction(dot, dotIface, node);
      case 'list':
        return this.walkList(dot, dotIface, node);
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, dotIface, node);
      case 'range':
        this.walkRange(dot, dotIface, node);
        return STATUS_NORMAL;
      case 'template':
        this.walkTemplate(dot, dotIface, node);
        return STATUS_NORMAL;
      case 'break':
        return STATUS_BREAK;
      case 'continue':
        return STATUS_CONTINUE;
      case 'comment':
        return STATUS_NORMAL;
      default:
        this.errorf(`unknown node: ${nodeString(node)}`);
    }
  }

  private walkList(dot: GoValue, dotIface: boolean, list: ListNode): number {
    const nodes = list.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const st = this.walk(dot, dotIface, nodes[i]!);
      if (st !== STATUS_NORMAL) return st;
    }
    return STATUS_NORMAL;
  }

  private walkAction(dot: GoValue, dotIface: boolean, node: ActionNode): number {
    const val = this.evalPipeline(dot, dotIface, node.pipe);
    if (node.pipe.decl.length === 0) this.printValue(node, val);
    return STATUS_NORMAL;
  }

  private walkIfOrWith(dot: GoValue, dotIface: boolean, node: BranchNode): number {
    const mark = this.mark();
    try {
      const val = this.evalPipeline(dot, dotIface, node.pipe);
      if (truth(val)) {
        if (node.type === 'with') return this.walk(val, false, node.list);
        return this.walk(dot, dotIface, node.list);
      } else if (node.elseList !== null) {
        return this.walk(dot, dotIface, node.elseList);
      }
      return STATUS_NORMAL;
    } finally {
      this.pop(mark);
    }
  }

  private walkRange(dot: GoValue, dotIface: boolean, r: BranchNode): void {
    this.node = r;
    const outerMark = this.mark();
    try {
      const val = this.evalPipeline(dot, dotIface, r.pipe);
      const mark = this.mark();
      const decl = r.pipe.decl;
      const isAssign = r.pipe.isAssign;
      const list = r.list;
      // One iteration; returns false to stop (break).
      const iter = (index: GoValue, elem: GoValue, elemIface: boolean): boolean => {
        if (decl.length > 0) {
          if (isAssign) {
            if (decl.length > 1) this.setVar(decl[0]!.ident[0]!, index, false);
            else this.setVar(decl[0]!.ident[0]!, elem, elemIface);
          } else this.setTopVar(1, elem, elemIface);
        }
        if (decl.length > 1) {
          if (isAssign) this.setVar(decl[1]!.ident[0]!, elem, elemIface);
          else this.setTopVar(2, index, false);
        }
        const st = this.walk(elem, elemIface, list);
        this.pop(mark);
        return st !== STATUS_BREAK;
      };
      if (Array.isArray(val)) {
        if (val.length > 0) {
          const iface = elemType(val) === 'interface {}';
          for (let i = 0; i < val.length; i++) {
            if (!iter(int(i), val[i] ?? null, iface)) break;
          }
          return;
        }
      } else if (val instanceof Uint8Array) {
        if (val.length > 0) {
          for (let i = 0; i < val.length; i++) {
            if (!iter(int(i), new GoInt('uint8', BigInt(val[i]!)), false)) break;
          }
          return;
        }
      } else if (val instanceof GoInt) {
        if (decl.length > 1) this.errorf(`can't use ${formatValue(val)} to iterate over more than one variable`);
        if (val.value > 0n) {
          const n = val.value;
          for (let i = 0n; i < n; i++) {
            if (!iter(undefined, goInt(val.kind, i), false)) break;
          }
          return;
        }
      } else if (val !== undefined && isMap(val)) {
        const keys = sortedKeys(val);
        if (keys.length > 0) {
          const iface = elemType(val) === 'interface {}';
          for (const k of keys) {
            if (!iter(k, val[k] ?? null, iface)) break;
          }
          return;
        }
      } else if (val !== undefined) {
        this.errorf(`range can't iterate over ${formatValue(val)}`);
      }
      if (r.elseList !== null) this.walk(dot, dotIface, r.elseList);
    } finally {
      this.pop(outerMark);
    }
  }

  private walkTemplate(dot: GoValue, dotIface: boolean, t: TemplateNode): void {
    this.node = t;
    const tree = this.env.lookupTree(t.name);
    if (tree === undefined) this.errorf(`template ${quote(t.name)} not defined`);
    if (this.budget.depth >= this.budget.limits.maxDepth) {
      this.errorf(`exceeded maximum template depth (${this.budget.limits.maxDepth})`);
    }
    const newDot = t.pipe === null ? undefined : this.evalPipeline(dot, dotIface, t.pipe);
    const saved = [this.tree, this.name, this.varNames, this.varValues, this.varIfaces] as const;
    this.budget.depth++;
    this.tree = tree;
    this.name = tree.name;
    // No dynamic scoping: template invocations inherit no variables.
    this.varNames = ['$'];
    this.varValues = [newDot];
    this.varIfaces = [false];
    try {
      this.walk(newDot, false, tree.root);
    } finally {
      this.budget.depth--;
      [this.tree, this.name, this.varNames, this.varValues, this.varIfaces] = saved;
    }
  }

  // --- evaluation ---

  private evalPipeline(dot: GoValue, dotIface: boolean, pipe: PipeNode): GoValue {
    this.node = pipe;
    let value: Final = MISSING;
    const cmds = pipe.cmds;
    for (let i = 0; i < cmds.length; i++) {
      value = this.evalCommand(dot, dotIface, cmds[i]!, value);
      // An interface{} result is replaced by its dynamic value; a nil one becomes "no value".
      if (value === null) value = undefined;
    }
    const v = value as GoValue;
    const decl = pipe.decl;
    for (let i = 0; i < decl.length; i++) {
      if (pipe.isAssign) this.setVar(decl[i]!.ident[0]!, v, false);
      else this.push(decl[i]!.ident[0]!, v, false);
    }
    return v;
  }

  private notAFunction(args: ArgNode[] | null, final: Final): void {
    if (args !== null && (args.length > 1 || final !== MISSING)) {
      this.errorf(`can't give argument to non-function ${nodeString(args[0]!)}`);
    }
  }

  private evalCommand(dot: GoValue, dotIface: boolean, cmd: CommandNode, final: Final): GoValue {
    this.step();
    const first = cmd.args[0]!;
    switch (first.type) {
      case 'field':
        return this.evalFieldNode(dot, dotIface, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, dotIface, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, dotIface, first, cmd, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, dotIface, first);
      case 'variable':
        return this.evalVariableNode(dot, dotIface, first, cmd.args, final);
      default:
        break;
    }
    this.node = first;
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
        break;
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
      default:
        break;
    }
    this.errorf(`can't evaluate command ${JSON.stringify(nodeString(first))}`);
  }

  private idealConstant(n: NumberNode): GoValue {
    this.node = n;
    if (n.idealError !== null) this.errorf(n.idealError);
    return n.ideal;
  }

  private evalFieldNode(dot: GoValue, dotIface: boolean, field: FieldNode, args: ArgNode[] | null, final: Final): GoValue {
    this.node = field;
    return this.evalFieldChain(dot, dotIface, dot, dotIface, field, field.ident, 0, args, final);
  }

  private evalChainNode(dot: GoValue, dotIface: boolean, chain: ChainNode, args: ArgNode[] | null, final: Final): GoValue {
    this.node = chain;
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const pipe = this.evalArg(dot, dotIface, null, chain.node);
    return this.evalFieldChain(dot, dotIface, pipe, false, chain, chain.field, 0, args, final);
  }

  private evalVariableNode(dot: GoValue, dotIface: boolean, v: VariableNode, args: ArgNode[] | null, final: Final): GoValue {
    this.node = v;
    const i = this.varIndex(v.ident[0]!);
    const value = this.varValues[i];
    if (v.ident.length === 1) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, dotIface, value, this.varIfaces[i]!, v, v.ident, 1, args, final);
  }

  private evalFieldChain(
    dot: GoValue, dotIface: boolean, receiver: GoValue, recvIface: boolean, node: AnyNode,
    ident: string[], start: number, args: ArgNode[] | null, final: Final,
  ): GoValue {
    const n = ident.length;
    let iface = recvIface;
    for (let i = start; i < n - 1; i++) {
      receiver = this.evalField(dot, dotIface, ident[i]!, node, null, MISSING, receiver, iface);
      iface = this.lastIface;
    }
    return this.evalField(dot, dotIface, ident[n - 1]!, node, args, final, receiver, iface);
  }

  private evalField(
    dot: GoValue, dotIface: boolean, fieldName: string, node: AnyNode, args: ArgNode[] | null, final: Final,
    receiver: GoValue, recvIface: boolean,
  ): GoValue {
    this.lastIface = false;
    if (receiver === undefined) {
      if (this.missingKey === 'error') this.errorf(`nil data; no entry for key ${quote(fieldName)}`);
      return undefined;
    }
    const typ = recvIface || receiver === null ? 'interface {}' : goTypeName(receiver);
    if (receiver === null) this.errorf(`nil pointer evaluating ${typ}.${fieldName}`);
    const hasArgs = (args !== null && args.length > 1) || final !== MISSING;
    if (receiver instanceof GoObject) {
      if (receiver.hasMethod(fieldName)) {
        const method = (...a: GoValue[]): GoValue => {
          const r = (receiver as GoObject).field(fieldName, a);
          return r === NO_FIELD ? undefined : r;
        };
        return this.evalCall(dot, dotIface, method as TemplateFunction, false, node, fieldName, args, final);
      }
      const f = receiver.field(fieldName, []);
      if (f !== NO_FIELD) {
        if (hasArgs) this.errorf(`${fieldName} has arguments but cannot be invoked as function`);
        return f;
      }
    } else if (isMap(receiver)) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      const result = mapGet(receiver, fieldName);
      const et = elemType(receiver);
      if (result === undefined) {
        switch (this.missingKey) {
          case 'zero':
            this.lastIface = et === 'interface {}';
            return zeroOf(et);
          case 'error':
            this.errorf(`map has no entry for key ${quote(fieldName)}`);
            break;
          default:
            return undefined;
        }
      }
      this.lastIface = et === 'interface {}';
      return result;
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ}`);
  }

  private evalFunction(dot: GoValue, dotIface: boolean, node: IdentifierNode, cmd: AnyNode, args: ArgNode[] | null, final: Final): GoValue {
    this.node = node;
    const name = node.ident;
    const f = this.env.lookupFunc(name);
    if (f === undefined) this.errorf(`${quote(name)} is not a defined function`);
    return this.evalCall(dot, dotIface, f.fn, f.builtin, cmd, name, args, final);
  }

  private evalCall(
    dot: GoValue, dotIface: boolean, fn: TemplateFunction, isBuiltin: boolean, node: AnyNode, name: string,
    args: ArgNode[] | null, final: Final,
  ): GoValue {
    const nargs = args === null ? 0 : args.length - 1;
    const sig = fn.goSignature ?? DEFAULT_SIG;
    const params = sig.params;
    const variadic = sig.variadic;
    const numIn = nargs + (final !== MISSING ? 1 : 0);
    let numFixed = nargs;
    if (variadic !== undefined) {
      numFixed = params.length;
      if (numIn < numFixed) this.errorf(`wrong number of args for ${name}: want at least ${params.length} got ${nargs}`);
    } else if (numIn !== params.length) {
      this.errorf(`wrong number of args for ${name}: want ${params.length} got ${numIn}`);
    }

    if (isBuiltin && (name === 'and' || name === 'or')) {
      const isOr = name === 'or';
      let v: GoValue = undefined;
      for (let i = 1; i <= nargs; i++) {
        v = this.evalArg(dot, dotIface, 'reflect.Value', args![i]!);
        if (truth(v) === isOr) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }

    const argv: GoValue[] = new Array<GoValue>(numIn);
    let i = 0;
    for (; i < numFixed && i < nargs; i++) argv[i] = this.evalArg(dot, dotIface, params[i]!, args![i + 1]!);
    if (variadic !== undefined) {
      for (; i < nargs; i++) argv[i] = this.evalArg(dot, dotIface, variadic, args![i + 1]!);
    }
    if (final !== MISSING) {
      let t: string;
      if (variadic !== undefined) t = numIn - 1 < numFixed ? params[numIn - 1]! : variadic;
      else t = params[params.length - 1]!;
      argv[i] = this.validateType(final, t);
    }
    if (isBuiltin && name === 'call') return this.builtinCall(args, argv, node);
    let v: GoValue;
    try {
      v = fn(...argv);
    } catch (e) {
      if (e instanceof TemplateLimitError) throw e;
      if (e instanceof RangeError && /call stack/i.test(e.message)) throw e;
      this.node = node;
      const msg = e instanceof Error ? e.message : String(e);
      this.errorf(`error calling ${name}: ${msg}`, e);
    }
    return v;
  }

  private builtinCall(args: ArgNode[] | null, argv: GoValue[], node: AnyNode): GoValue {
    const calleeName = args !== null && args.length > 1 ? nodeString(args[1]!) : formatValue(argv[0]);
    const fnv = argv[0] === null ? undefined : argv[0];
    try {
      if (fnv === undefined) throw new GoFuncError('call of nil');
      if (typeof fnv !== 'function') throw new GoFuncError(`non-function ${calleeName} of type ${goTypeName(fnv)}`);
      const callArgs = argv.slice(1);
      const sig = fnv.goSignature ?? DEFAULT_SIG;
      if (sig.variadic !== undefined) {
        if (callArgs.length < sig.params.length) {
          throw new GoFuncError(`wrong number of args for ${calleeName}: got ${callArgs.length} want at least ${sig.params.length}`);
        }
      } else if (callArgs.length !== sig.params.length) {
        throw new GoFuncError(`wrong number of args for ${calleeName}: got ${callArgs.length} want ${sig.params.length}`);
      }
      for (let i = 0; i < callArgs.length; i++) {
        const t = i < sig.params.length ? sig.params[i]! : sig.variadic!;
        const a = callArgs[i] === null ? undefined : callArgs[i];
        if (a === undefined) {
          if (!canBeNil(t)) throw new GoFuncError(`arg ${i}: value is nil; should be of type ${t}`);
          callArgs[i] = t === 'reflect.Value' ? undefined : null;
        } else if (!this.assignable(a, t)) {
          throw new GoFuncError(`arg ${i}: value has type ${goTypeName(a)}; should be ${t}`);
        }
      }
      return fnv(...callArgs);
    } catch (e) {
      if (e instanceof TemplateLimitError) throw e;
      this.node = node;
      this.errorf(`error calling call: ${e instanceof Error ? e.message : String(e)}`, e);
    }
  }

  private assignable(v: GoValue, typ: string): boolean {
    if (typ === 'interface {}' || typ === 'reflect.Value') return true;
    if (v === null || v === undefined) return false;
    return goTypeName(v) === typ;
  }

  private validateType(value: GoValue, typ: string | null): GoValue {
    if (value === undefined) {
      if (typ === null) return undefined;
      if (canBeNil(typ)) return typ === 'reflect.Value' ? undefined : null;
      this.errorf(`invalid value; expected ${typ}`);
    }
    if (typ === null || typ === 'reflect.Value' || typ === 'interface {}') return value;
    if (value !== null && goTypeName(value) === typ) return value;
    this.errorf(`wrong type for value; expected ${typ}; got ${value === null ? 'interface {}' : goTypeName(value)}`);
  }

  private evalArg(dot: GoValue, dotIface: boolean, typ: string | null, n: ArgNode): GoValue {
    this.node = n;
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, typ);
      case 'nil':
        if (typ !== null && canBeNil(typ)) return typ === 'reflect.Value' ? undefined : null;
        this.errorf(`cannot assign nil to ${typ ?? '<nil>'}`);
        break;
      case 'field':
        return this.validateType(this.evalFieldNode(dot, dotIface, n, [n], MISSING), typ);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, dotIface, n, null, MISSING), typ);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, dotIface, n), typ);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, dotIface, n, n, null, MISSING), typ);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, dotIface, n, null, MISSING), typ);
      default:
        break;
    }
    if (typ === null) this.errorf(`can't handle ${nodeString(n)} for arg of type <nil>`);
    switch (typ) {
      case 'bool':
        if (n.type === 'bool') return n.value;
        this.errorf(`expected bool; found ${nodeString(n)}`);
        break;
      case 'float64':
      case 'float32':
        if (n.type === 'number' && n.isFloat) return n.float64;
        this.errorf(`expected float; found ${nodeString(n)}`);
        break;
      case 'string':
        if (n.type === 'string') return n.text;
        this.errorf(`expected string; found ${nodeString(n)}`);
        break;
      case 'interface {}':
      case 'reflect.Value':
        return this.evalEmptyInterface(dot, dotIface, n);
      default:
        break;
    }
    if (INT_KINDS.has(typ)) {
      if (n.type === 'number' && n.isInt) return goInt(typ as 'int', n.int64);
      this.errorf(`expected integer; found ${nodeString(n)}`);
    }
    if (UINT_KINDS.has(typ)) {
      if (n.type === 'number' && n.isUint) return goInt(typ as 'uint', n.uint64);
      this.errorf(`expected unsigned integer; found ${nodeString(n)}`);
    }
    this.errorf(`can't handle ${nodeString(n)} for arg of type ${typ}`);
  }

  private evalEmptyInterface(dot: GoValue, dotIface: boolean, n: ArgNode): GoValue {
    this.node = n;
    switch (n.type) {
      case 'bool':
        return n.value;
      case 'dot':
        return dot;
      case 'field':
        return this.evalFieldNode(dot, dotIface, n, null, MISSING);
      case 'identifier':
        return this.evalFunction(dot, dotIface, n, n, null, MISSING);
      case 'nil':
        this.errorf("evalEmptyInterface: nil (can't happen)");
        break;
      case 'number':
        return this.idealConstant(n);
      case 'string':
        return n.text;
      case 'variable':
        return this.evalVariableNode(dot, dotIface, n, null, MISSING);
      case 'pipe':
        return this.evalPipeline(dot, dotIface, n);
      default:
        break;
    }
    this.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`);
  }

  private printValue(n: ActionNode, v: GoValue): void {
    this.node = n;
    if (v === undefined) {
      this.write('<no value>');
      return;
    }
    if (typeof v === 'string') {
      this.write(v);
      return;
    }
    if (typeof v === 'function') this.errorf(`can't print ${nodeString(n)} of type ${goTypeName(v)}`);
    this.write(formatValue(v));
  }
}
