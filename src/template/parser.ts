// Parser for text/template (text/template/parse/parse.go, Go 1.23 semantics): builds trees for the
// top-level template and every {{define}}/{{block}} into a shared tree set, checking functions and
// variables at parse time and producing Go's error messages.

import type {
  ActionNode, ArgNode, BranchNode, CommandNode, ElseNode, EndNode, ListNode, Node, NumberNode,
  PipeNode, TemplateNode, Tree, VariableNode,
} from './ast.ts';
import { isEmptyTree, nodeString } from './ast.ts';
import { TemplateParseError } from './errors.ts';
import { type Item, T, type TokenType, itemString, lex } from './lexer.ts';
import { int } from './value.ts';

/** Limits of the parser (Go: maxStackDepth 10000 for nested parentheses). */
const MAX_PAREN_DEPTH = 1000;

/** Thrown internally; carries the already formatted Go message. */
class ParseAbort {
  readonly err: TemplateParseError;
  constructor(err: TemplateParseError) {
    this.err = err;
  }
}

export interface ParseOptions {
  /** Whether a function name is defined (builtins + funcs). */
  hasFunction: (name: string) => boolean;
}

/**
 * Parses `text` as template `name`, adding it and its definitions to `treeSet`
 * (with Go's redefinition rules: an empty tree never replaces a non-empty one).
 */
export function parseInto(name: string, text: string, treeSet: Map<string, Tree>, opts: ParseOptions): Tree {
  const p = new Parser(name, name, text, lex(text, {
    breakOK: !opts.hasFunction('break'),
    continueOK: !opts.hasFunction('continue'),
  }), treeSet, opts);
  try {
    p.tree.root = p.parse();
    p.add();
    return p.tree;
  } catch (e) {
    if (e instanceof ParseAbort) throw e.err;
    throw e;
  }
}

class Parser {
  readonly tree: Tree;
  private readonly items: Item[];
  /** Lookahead buffer as in Go (token[0..2], peekCount). */
  private token: [Item, Item, Item];
  private peekCount = 0;
  private vars: string[] = ['$'];
  private actionLine = 0;
  private rangeDepth = 0;
  private stackDepth = 0;
  private readonly treeSet: Map<string, Tree>;
  private readonly opts: ParseOptions;
  private readonly lexState: { idx: number };

  constructor(name: string, parseName: string, text: string, items: Item[], treeSet: Map<string, Tree>, opts: ParseOptions, shared?: { idx: number }) {
    this.tree = { name, parseName, root: { type: 'list', pos: 0, nodes: [] }, text };
    this.items = items;
    this.lexState = shared ?? { idx: 0 };
    const dummy: Item = { typ: T.EOF, pos: 0, val: '', line: 1 };
    this.token = [dummy, dummy, dummy];
    this.treeSet = treeSet;
    this.opts = opts;
  }

  private nextItem(): Item {
    const items = this.items;
    const i = this.lexState.idx;
    const it = items[i] ?? items[items.length - 1]!;
    if (i < items.length - 1) this.lexState.idx = i + 1;
    return it;
  }

  private next(): Item {
    if (this.peekCount > 0) this.peekCount--;
    else this.token[0] = this.nextItem();
    return this.token[this.peekCount]!;
  }
  private backup(): void {
    this.peekCount++;
  }
  private backup2(t1: Item): void {
    this.token[1] = t1;
    this.peekCount = 2;
  }
  private backup3(t2: Item, t1: Item): void {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }
  private peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1]!;
    this.peekCount = 1;
    this.token[0] = this.nextItem();
    return this.token[0];
  }
  private nextNonSpace(): Item {
    let token: Item;
    do token = this.next();
    while (token.typ === T.Space);
    return token;
  }
  private peekNonSpace(): Item {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }

  errorf(msg: string): never {
    throw new ParseAbort(new TemplateParseError(`template: ${this.tree.parseName}:${this.token[0].line}: ${msg}`));
  }

  private expect(expected: TokenType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== expected) this.unexpected(token, context);
    return token;
  }

  private expectOneOf(e1: TokenType, e2: TokenType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== e1 && token.typ !== e2) this.unexpected(token, context);
    return token;
  }

  private unexpected(token: Item, context: string): never {
    if (token.typ === T.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.tree.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(itemString(token) + extra);
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`);
  }

  add(): void {
    const existing = this.treeSet.get(this.tree.name);
    if (existing === undefined || isEmptyTree(existing.root)) {
      this.treeSet.set(this.tree.name, this.tree);
      return;
    }
    if (!isEmptyTree(this.tree.root)) this.errorf(`template: multiple definition of template ${JSON.stringify(this.tree.name)}`);
  }

  private child(name: string): Parser {
    const c = new Parser(name, this.tree.parseName, this.tree.text, this.items, this.treeSet, this.opts, this.lexState);
    return c;
  }

  parse(): ListNode {
    const root: ListNode = { type: 'list', pos: this.peek().pos, nodes: [] };
    this.tree.root = root;
    while (this.peek().typ !== T.EOF) {
      if (this.peek().typ === T.LeftDelim) {
        const delim = this.next();
        if (this.nextNonSpace().typ === T.Define) {
          const newT = this.child('definition');
          newT.token = this.token; // share lookahead state (Go hands over the lexer only; buffer is empty here)
          newT.parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeString(n)}`);
      else root.nodes.push(n);
    }
    return root;
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const name = this.expectOneOf(T.String, T.RawString, context);
    this.tree.name = this.unquote(name.val);
    this.expect(T.RightDelim, context);
    const [list, end] = this.itemList();
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    this.tree.root = list;
    this.add();
  }

  private itemList(): [ListNode, EndNode | ElseNode] {
    const list: ListNode = { type: 'list', pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().typ !== T.EOF) {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case T.Text:
        return { type: 'text', pos: token.pos, text: token.val };
      case T.LeftDelim: {
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      }
      case T.Comment:
        return { type: 'comment', pos: token.pos, text: token.val };
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case T.Block:
        return this.blockControl();
      case T.Break:
        return this.breakControl(token, 'break');
      case T.Continue:
        return this.breakControl(token, 'continue');
      case T.Else:
        return this.elseControl();
      case T.End:
        return { type: 'end', pos: this.expect(T.RightDelim, 'end').pos };
      case T.If:
        return this.branchControl('if');
      case T.Range:
        return this.branchControl('range');
      case T.Template:
        return this.templateControl();
      case T.With:
        return this.branchControl('with');
      default:
        break;
    }
    this.backup();
    const t = this.peek();
    const node: ActionNode = { type: 'action', pos: t.pos, line: t.line, pipe: this.pipeline('command', T.RightDelim) };
    return node;
  }

  private breakControl(tok: Item, kind: 'break' | 'continue'): Node {
    const token = this.nextNonSpace();
    if (token.typ !== T.RightDelim) this.unexpected(token, `{{${kind}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${kind}}} outside {{range}}`);
    return { type: kind, pos: tok.pos, line: tok.line };
  }

  private pipeline(context: string, end: TokenType): PipeNode {
    const token = this.peekNonSpace();
    const pipe: PipeNode = { type: 'pipe', pos: token.pos, line: token.line, isAssign: false, decl: [], cmds: [] };
    // Declarations or assignments: `$x :=`, `$x =`, `$i, $e :=` (range only).
    for (;;) {
      const v = this.peekNonSpace();
      if (v.typ !== T.Variable) break;
      this.next();
      const tokenAfterVariable = this.peek();
      const next = this.peekNonSpace();
      if (next.typ === T.Assign || next.typ === T.Declare) {
        pipe.isAssign = next.typ === T.Assign;
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
      } else if (next.typ === T.Char && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const t = this.peekNonSpace().typ;
          if (t === T.Variable || t === T.RightDelim || t === T.RightParen) continue; // second variable
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      } else if (tokenAfterVariable.typ === T.Space) {
        this.backup3(v, tokenAfterVariable);
      } else {
        this.backup2(v);
      }
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      switch (token.typ) {
        case end:
          this.checkPipeline(pipe, context);
          return pipe;
        case T.Bool: case T.CharConstant: case T.Complex: case T.Dot: case T.Field: case T.Identifier:
        case T.Number: case T.Nil: case T.RawString: case T.String: case T.Variable: case T.LeftParen:
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    for (let i = 1; i < pipe.cmds.length; i++) {
      const t = pipe.cmds[i]!.args[0]!.type;
      if (t === 'bool' || t === 'dot' || t === 'nil' || t === 'number' || t === 'string') {
        this.errorf(`non executable command in pipeline stage ${i + 1}`);
      }
    }
  }

  private branchControl(context: 'if' | 'range' | 'with'): BranchNode {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, T.RightDelim);
      if (context === 'range') this.rangeDepth++;
      let list: ListNode;
      let next: EndNode | ElseNode;
      try {
        [list, next] = this.itemList();
      } finally {
        if (context === 'range') this.rangeDepth--;
      }
      let elseList: ListNode | null = null;
      if (next.type === 'else') {
        // "else if" / "else with" parse as a nested if/with whose {{end}} closes both.
        if (context === 'if' && this.peek().typ === T.If) {
          this.next();
          elseList = { type: 'list', pos: next.pos, nodes: [this.branchControl('if')] };
        } else if (context === 'with' && this.peek().typ === T.With) {
          this.next();
          elseList = { type: 'list', pos: next.pos, nodes: [this.branchControl('with')] };
        } else {
          const [l, n2] = this.itemList();
          if (n2.type !== 'end') this.errorf(`expected end; found ${nodeString(n2)}`);
          elseList = l;
        }
      }
      return { type: context, pos: pipe.pos, line: pipe.line, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  private elseControl(): ElseNode {
    const peek = this.peekNonSpace();
    if (peek.typ === T.If || peek.typ === T.With) return { type: 'else', pos: peek.pos, line: peek.line };
    const token = this.expect(T.RightDelim, 'else');
    return { type: 'else', pos: token.pos, line: token.line };
  }

  private blockControl(): TemplateNode {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    const pipe = this.pipeline(context, T.RightDelim);
    const block = this.child(name);
    block.token = this.token;
    block.peekCount = this.peekCount;
    const [list, end] = block.itemList();
    this.peekCount = block.peekCount;
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`);
    block.tree.root = list;
    block.add();
    return { type: 'template', pos: token.pos, line: token.line, name, pipe };
  }

  private templateControl(): TemplateNode {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().typ !== T.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, T.RightDelim);
    }
    return { type: 'template', pos: token.pos, line: token.line, name, pipe };
  }

  private parseTemplateName(token: Item, context: string): string {
    if (token.typ === T.String || token.typ === T.RawString) return this.unquote(token.val);
    this.unexpected(token, context);
  }

  private command(): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand !== null) cmd.args.push(operand);
      const token = this.next();
      if (token.typ === T.Space) continue;
      if (token.typ === T.RightDelim || token.typ === T.RightParen) this.backup();
      else if (token.typ !== T.Pipe) this.unexpected(token, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): ArgNode | null {
    let node = this.term();
    if (node === null) return null;
    if (this.peek().typ === T.Field) {
      const pos = this.peek().pos;
      const fields: string[] = [];
      while (this.peek().typ === T.Field) fields.push(this.next().val.slice(1));
      switch (node.type) {
        case 'field':
          node = { type: 'field', pos, ident: [...node.ident, ...fields] };
          break;
        case 'variable':
          node = { type: 'variable', pos, ident: [...node.ident, ...fields] };
          break;
        case 'bool': case 'string': case 'number': case 'nil': case 'dot':
          this.errorf(`unexpected . after term ${JSON.stringify(nodeString(node))}`);
          break;
        default:
          node = { type: 'chain', pos, node, field: fields };
      }
    }
    return node;
  }

  private term(): ArgNode | null {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case T.Identifier:
        if (!this.opts.hasFunction(token.val)) this.errorf(`function ${JSON.stringify(token.val)} not defined`);
        return { type: 'identifier', pos: token.pos, ident: token.val };
      case T.Dot:
        return { type: 'dot', pos: token.pos };
      case T.Nil:
        return { type: 'nil', pos: token.pos };
      case T.Variable:
        return this.useVar(token.pos, token.val);
      case T.Field:
        return { type: 'field', pos: token.pos, ident: [token.val.slice(1)] };
      case T.Bool:
        return { type: 'bool', pos: token.pos, value: token.val === 'true' };
      case T.CharConstant: case T.Complex: case T.Number: {
        const r = newNumber(token.pos, token.val, token.typ);
        if (typeof r === 'string') this.errorf(r);
        return r;
      }
      case T.LeftParen: {
        if (this.stackDepth >= MAX_PAREN_DEPTH) this.errorf('max expression depth exceeded');
        this.stackDepth++;
        try {
          return this.pipeline('parenthesized pipeline', T.RightParen);
        } finally {
          this.stackDepth--;
        }
      }
      case T.String: case T.RawString:
        return { type: 'string', pos: token.pos, quoted: token.val, text: this.unquote(token.val) };
      default:
        this.backup();
        return null;
    }
  }

  private newVariable(pos: number, name: string): VariableNode {
    return { type: 'variable', pos, ident: name.split('.') };
  }

  private useVar(pos: number, name: string): VariableNode {
    const v = this.newVariable(pos, name);
    const first = v.ident[0]!;
    if (!this.vars.includes(first)) this.errorf(`undefined variable ${JSON.stringify(first)}`);
    return v;
  }

  private unquote(s: string): string {
    const r = unquoteGo(s);
    if (r === null) this.errorf('invalid syntax');
    return r;
  }
}

/** strconv.Unquote for "..." and `...` literals; null on a syntax error. */
export function unquoteGo(s: string): string | null {
  if (s.length < 2) return null;
  const q = s[0];
  if (q !== s[s.length - 1]) return null;
  const body = s.slice(1, -1);
  if (q === '`') {
    if (body.includes('`')) return null;
    return body.replaceAll('\r', '');
  }
  if (q !== '"' && q !== "'") return null;
  let out = '';
  let i = 0;
  let n = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (c === q && q === '"') return null;
    if (c === '\n') return null;
    if (c !== '\\') {
      const cp = body.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      out += ch;
      i += ch.length;
      n++;
      continue;
    }
    const r = unescape(body, i + 1, q);
    if (r === null) return null;
    out += r.s;
    i = r.next;
    n++;
  }
  if (q === "'" && n !== 1) return null;
  return out;
}

function unescape(s: string, i: number, quote: string): { s: string; next: number } | null {
  const c = s[i];
  if (c === undefined) return null;
  const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
  if (simple[c] !== undefined) return { s: simple[c], next: i + 1 };
  if (c === "'" || c === '"') {
    if (c !== quote) return null;
    return { s: c, next: i + 1 };
  }
  const hexLen = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
  if (hexLen > 0) {
    const h = s.slice(i + 1, i + 1 + hexLen);
    if (h.length !== hexLen || !/^[0-9a-fA-F]+$/.test(h)) return null;
    const v = parseInt(h, 16);
    if (c === 'x') return { s: String.fromCharCode(v), next: i + 1 + hexLen };
    if (v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) return null;
    return { s: String.fromCodePoint(v), next: i + 1 + hexLen };
  }
  if (c >= '0' && c <= '7') {
    const o = s.slice(i, i + 3);
    if (!/^[0-7]{3}$/.test(o)) return null;
    const v = parseInt(o, 8);
    if (v > 255) return null;
    return { s: String.fromCharCode(v), next: i + 3 };
  }
  return null;
}

/** Go's strconv.ParseInt/ParseUint(text, 0, 64) syntax: sign, 0x/0o/0b/0 prefixes, underscores. */
function parseGoInteger(text: string, signed: boolean): bigint | null {
  let s = text;
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    if (!signed) return null;
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let base = 10;
  let digits = s;
  let prefixed = false;
  if (/^0[xX]/.test(s)) { base = 16; digits = s.slice(2); prefixed = true; }
  else if (/^0[oO]/.test(s)) { base = 8; digits = s.slice(2); prefixed = true; }
  else if (/^0[bB]/.test(s)) { base = 2; digits = s.slice(2); prefixed = true; }
  else if (s.length > 1 && s[0] === '0') { base = 8; digits = s.slice(1); prefixed = true; }
  if (digits.includes('_')) {
    // Underscores only between digits or after a base prefix.
    if (!/^_?[0-9a-fA-F]+(_[0-9a-fA-F]+)*$/.test(digits) || (!prefixed && digits.startsWith('_'))) return null;
    digits = digits.replaceAll('_', '');
  }
  if (digits.length === 0) return null;
  const valid = base === 16 ? /^[0-9a-fA-F]+$/ : base === 8 ? /^[0-7]+$/ : base === 2 ? /^[01]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return null;
  let v = 0n;
  const b = BigInt(base);
  for (const d of digits) v = v * b + BigInt(parseInt(d, 16));
  if (neg) v = -v;
  if (signed ? v < -(1n << 63n) || v >= 1n << 63n : v >= 1n << 64n) return null;
  return v;
}

/** strconv.ParseFloat for the syntaxes the lexer accepts (decimal and hex floats). */
function parseGoFloat(text: string): number | null {
  let s = text.replaceAll('_', '');
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let v: number;
  if (/^0[xX]/.test(s)) {
    const m = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return null;
    const mant = BigInt('0x' + ((m[1] ?? '') + (m[2] ?? '') || '0'));
    v = Number(mant) * Math.pow(2, Number(m[3]) - 4 * (m[2] ?? '').length);
  } else {
    if (!/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return null;
    v = Number(s);
  }
  return neg ? -v : v;
}

/** parse.newNumber: classifies a numeric literal as int/uint/float/complex like Go. */
export function newNumber(pos: number, text: string, typ: TokenType): NumberNode | string {
  const n: NumberNode = {
    type: 'number', pos, text, isInt: false, isUint: false, isFloat: false, isComplex: false,
    int64: 0n, uint64: 0n, float64: 0, ideal: undefined, idealError: null,
  };
  if (typ === T.CharConstant) {
    const r = unquoteGo(text);
    if (r === null) return text.length > 2 && text[1] !== '\\' ? `malformed character constant: ${text}` : 'invalid syntax';
    const cp = r.codePointAt(0)!;
    n.int64 = n.uint64 = BigInt(cp);
    n.float64 = cp;
    n.isInt = n.isUint = n.isFloat = true;
    n.ideal = int(cp);
    return n;
  }
  if (typ === T.Complex || text.endsWith('i')) {
    // Complex constants are accepted by Go but have no JSON counterpart; we reject them clearly.
    return `complex constants are not supported: ${text}`;
  }
  const u = parseGoInteger(text, false);
  if (u !== null) {
    n.isUint = true;
    n.uint64 = u;
  }
  const i = parseGoInteger(text, true);
  if (i !== null) {
    n.isInt = true;
    n.int64 = i;
    if (i === 0n) {
      n.isUint = true;
      n.uint64 = 0n;
    }
  }
  if (n.isInt) {
    n.isFloat = true;
    n.float64 = Number(n.int64);
  } else if (n.isUint) {
    n.isFloat = true;
    n.float64 = Number(n.uint64);
  } else {
    const f = parseGoFloat(text);
    if (f !== null) {
      if (!/[.eEpP]/.test(text)) return `integer overflow: ${JSON.stringify(text)}`;
      n.isFloat = true;
      n.float64 = f;
      if (Number.isFinite(f) && Number.isInteger(f)) {
        const b = BigInt(f);
        if (b >= -(1n << 63n) && b < 1n << 63n) {
          n.isInt = true;
          n.int64 = b;
        }
        if (b >= 0n && b < 1n << 64n) {
          n.isUint = true;
          n.uint64 = b;
        }
      }
    }
  }
  if (!n.isInt && !n.isUint && !n.isFloat) return `illegal number syntax: ${JSON.stringify(text)}`;
  // idealConstant: float syntax → float64; otherwise int (errors when it overflows int).
  const hexInt = text.length > 2 && text[0] === '0' && (text[1] === 'x' || text[1] === 'X') && !/[pP]/.test(text);
  if (n.isFloat && !hexInt && /[.eEpP]/.test(text)) n.ideal = n.float64;
  else if (n.isInt) n.ideal = int(n.int64);
  else if (n.isUint) n.idealError = `${text} overflows int`;
  return n;
}
