// A tree of text lines as a terminal shows it: one line per node with ├── │ └── guides, and labelled notes (a
// wait, an error) hanging under a node's column. The families' `bosun tree` views build their nodes; this draws.
import { styleText } from 'node:util';

export type Style = Parameters<typeof styleText>[0];
export type Paint = (style: Style, text: string) => string;

export interface TextTreeNode {
  line: string;
  notes: readonly { label: string; style: Style; text: string }[];
  children: readonly TextTreeNode[];
}

export interface TextTreeOptions {
  /** ANSI colours (the caller decides: a TTY without NO_COLOR). */
  color: boolean;
  /** Notes are cut to this many characters (default 160). */
  maxErrorLength?: number;
  /** Print notes whole, on as many lines as they have, instead of cutting them. */
  wide?: boolean;
}

const DEFAULT_MAX_NOTE = 160;

export function painter(options: { color: boolean }): Paint {
  // validateStream false: the caller has decided about colour; styleText must not second-guess it.
  return (style, text) => (options.color ? styleText(style, text, { validateStream: false }) : text);
}

/** One line, whitespace collapsed, cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}

/** The lines of the given trees, each root at the left margin. */
export function textTreeLines(roots: readonly TextTreeNode[], options: TextTreeOptions, paint: Paint = painter(options)): string[] {
  const maxNote = options.maxErrorLength ?? DEFAULT_MAX_NOTE;
  // A note under a node: one cut line, or with `wide` every line of it, the later ones indented.
  const note = (under: string, label: string, style: Style, text: string): string[] => {
    if (!options.wide) return [`${under}${paint('dim', label)} ${paint(style, truncate(text, maxNote))}`];
    const [first = '', ...rest] = text.trimEnd().split('\n');
    return [`${under}${paint('dim', label)} ${paint(style, first)}`, ...rest.map((line) => `${under}  ${paint(style, line)}`)];
  };
  const lines: string[] = [];
  const walk = (node: TextTreeNode, prefix: string, connector: string, isRoot: boolean): void => {
    lines.push(prefix + connector + node.line);
    // Children (and the notes) hang under this node's column.
    const inner = isRoot ? '' : prefix + (connector === '└── ' ? '    ' : '│   ');
    const under = `${inner}${node.children.length > 0 ? '│   ' : '    '}`;
    for (const n of node.notes) lines.push(...note(under, n.label, n.style, n.text));
    node.children.forEach((child, i) => walk(child, inner, i === node.children.length - 1 ? '└── ' : '├── ', false));
  };
  for (const root of roots) walk(root, '', '', true);
  return lines;
}
