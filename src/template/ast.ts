// Parse tree of a template (text/template/parse/node.go). Nodes are plain objects discriminated by
// `type`; `pos` is a UTF-16 offset into the source text of the tree that holds the node.

import type { GoValue } from './value.ts';

export interface TextNode { type: 'text'; pos: number; text: string }
export interface CommentNode { type: 'comment'; pos: number; text: string }
export interface ActionNode { type: 'action'; pos: number; line: number; pipe: PipeNode }
export interface BranchNode {
  type: 'if' | 'range' | 'with';
  pos: number;
  line: number;
  pipe: PipeNode;
  list: ListNode;
  elseList: ListNode | null;
}
export interface ListNode { type: 'list'; pos: number; nodes: Node[] }
export interface TemplateNode { type: 'template'; pos: number; line: number; name: string; pipe: PipeNode | null }
export interface BreakNode { type: 'break'; pos: number; line: number }
export interface ContinueNode { type: 'continue'; pos: number; line: number }
export interface EndNode { type: 'end'; pos: number }
export interface ElseNode { type: 'else'; pos: number; line: number }

export interface PipeNode {
  type: 'pipe';
  pos: number;
  line: number;
  isAssign: boolean;
  decl: VariableNode[];
  cmds: CommandNode[];
}
export interface CommandNode { type: 'command'; pos: number; args: ArgNode[] }
export interface IdentifierNode { type: 'identifier'; pos: number; ident: string }
export interface VariableNode { type: 'variable'; pos: number; ident: string[] }
export interface DotNode { type: 'dot'; pos: number }
export interface NilNode { type: 'nil'; pos: number }
export interface FieldNode { type: 'field'; pos: number; ident: string[] }
export interface ChainNode { type: 'chain'; pos: number; node: ArgNode; field: string[] }
export interface BoolNode { type: 'bool'; pos: number; value: boolean }
export interface NumberNode {
  type: 'number';
  pos: number;
  text: string;
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int64: bigint;
  uint64: bigint;
  float64: number;
  /** The value as an untyped constant in a context of unknown type (idealConstant), or an error message. */
  ideal: GoValue;
  idealError: string | null;
}
export interface StringNode { type: 'string'; pos: number; quoted: string; text: string }

/** Operands of a command. */
export type ArgNode =
  | IdentifierNode | VariableNode | DotNode | NilNode | FieldNode | ChainNode
  | BoolNode | NumberNode | StringNode | PipeNode;

/** Nodes of a list. */
export type Node =
  | TextNode | CommentNode | ActionNode | BranchNode | ListNode | TemplateNode
  | BreakNode | ContinueNode | EndNode | ElseNode;

export type AnyNode = Node | ArgNode | CommandNode;

/** Go's Node.String(), used for error contexts (`at <...>`) and messages. */
export function nodeString(n: AnyNode): string {
  switch (n.type) {
    case 'text':
      return n.text;
    case 'comment':
      return '{{' + n.text + '}}';
    case 'action':
      return '{{' + nodeString(n.pipe) + '}}';
    case 'if':
    case 'range':
    case 'with': {
      let s = '{{' + n.type + ' ' + nodeString(n.pipe) + '}}' + nodeString(n.list);
      if (n.elseList) s += '{{else}}' + nodeString(n.elseList);
      return s + '{{end}}';
    }
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'template':
      return '{{template ' + JSON.stringify(n.name) + (n.pipe ? ' ' + nodeString(n.pipe) : '') + '}}';
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
    case 'pipe': {
      let s = '';
      if (n.decl.length > 0) {
        s = n.decl.map(nodeString).join(', ') + (n.isAssign ? ' = ' : ' := ');
      }
      return s + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.type === 'pipe' ? '(' + nodeString(a) + ')' : nodeString(a))).join(' ');
    case 'identifier':
      return n.ident;
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'field':
      return '.' + n.ident.join('.');
    case 'chain':
      return (n.node.type === 'pipe' ? '(' + nodeString(n.node) + ')' : nodeString(n.node)) + '.' + n.field.join('.');
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
  }
}

/** A parsed template: its name, root list, and the source text used for error positions. */
export interface Tree {
  name: string;
  /** Name of the top-level template being parsed when this tree was created (for error positions). */
  parseName: string;
  root: ListNode;
  text: string;
}

/** parse.IsEmptyTree: only whitespace text and comments. */
export function isEmptyTree(n: Node): boolean {
  switch (n.type) {
    case 'comment':
      return true;
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return n.text.trim().length === 0 || /^[ \t\n\v\f\r\u0085\u00a0]*$/.test(n.text);
    default:
      return false;
  }
}
