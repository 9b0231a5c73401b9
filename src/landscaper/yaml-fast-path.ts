// A fast path for the block YAML that templates usually render (a 1,000-item deploy-item list is 1.5 MB): plain
// keys and scalars that can only be strings, in block maps and sequences, nothing else. Anything outside that
// subset (quotes, flow, comments, anchors, tags, tabs, numbers, YAML 1.1 booleans/nulls, duplicate keys, odd
// indentation) returns undefined and the full parser decides, so both paths give the same values.

/** The value tree as the full parser's toJS({ mapAsMap: true }) gives it, for the same conversion to JSON. */
export type PlainYaml = string | null | PlainYaml[] | Map<string, PlainYaml>;

// Starts with a letter: never an int, float, .inf/.nan, ~, timestamp or sexagesimal in YAML 1.1.
const WORD = /^[A-Za-z][A-Za-z0-9._/-]*$/;
// The YAML 1.1 booleans and null that WORD admits (case-insensitive: stricter than the schema).
const RESOLVED_WORD = /^(?:y|n|yes|no|true|false|on|off|null)$/i;
const KEY_LINE = /^([A-Za-z][A-Za-z0-9._/-]*):(?: ([A-Za-z][A-Za-z0-9._/-]*))?$/;

class NotPlain extends Error {}

interface Line {
  indent: number;
  text: string;
}

function plainWord(s: string): string {
  if (!WORD.test(s) || RESOLVED_WORD.test(s)) throw new NotPlain();
  return s;
}

class BlockParser {
  private pos = 0;
  constructor(private readonly lines: Line[]) {}

  parseDocument(): PlainYaml {
    const first = this.lines[0];
    if (first === undefined || first.indent !== 0) throw new NotPlain();
    const value = this.node(0);
    if (this.pos !== this.lines.length) throw new NotPlain();
    return value;
  }

  /** The block that starts at the current line, at exactly `indent`. */
  private node(indent: number): PlainYaml {
    const line = this.lines[this.pos];
    if (line === undefined || line.indent !== indent) throw new NotPlain();
    return line.text.startsWith('- ') ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): PlainYaml[] {
    const items: PlainYaml[] = [];
    for (let line = this.lines[this.pos]; line !== undefined && line.indent === indent && line.text.startsWith('- '); line = this.lines[this.pos]) {
      const rest = line.text.slice(2);
      if (!rest.includes(':')) {
        items.push(plainWord(rest));
        this.pos++;
        continue;
      }
      // "- key: value": a mapping whose keys sit at the column after "- ".
      this.lines[this.pos] = { indent: indent + 2, text: rest };
      items.push(this.mapping(indent + 2));
    }
    return items;
  }

  private mapping(indent: number): Map<string, PlainYaml> {
    const map = new Map<string, PlainYaml>();
    for (let line = this.lines[this.pos]; line !== undefined && line.indent >= indent; line = this.lines[this.pos]) {
      if (line.indent !== indent) throw new NotPlain();
      const m = KEY_LINE.exec(line.text);
      if (m === null) throw new NotPlain();
      const key = plainWord(m[1]!);
      if (map.has(key)) throw new NotPlain();
      this.pos++;
      if (m[2] !== undefined) {
        map.set(key, plainWord(m[2]));
        continue;
      }
      const next = this.lines[this.pos];
      if (next !== undefined && (next.indent > indent || (next.indent === indent && next.text.startsWith('- ')))) {
        map.set(key, this.node(next.indent));
      } else {
        map.set(key, null);
      }
    }
    return map;
  }
}

/** The document's values when the text is in the plain block subset; undefined means "use the full parser". */
export function parsePlainBlockYaml(text: string): PlainYaml | undefined {
  const lines: Line[] = [];
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    let indent = 0;
    while (raw.charCodeAt(indent) === 32) indent++;
    if (indent === raw.length) return undefined;
    lines.push({ indent, text: indent === 0 ? raw : raw.slice(indent) });
  }
  try {
    return new BlockParser(lines).parseDocument();
  } catch (e) {
    if (e instanceof NotPlain) return undefined;
    throw e;
  }
}
