// Field selectors: `metadata.name=x,status.phase!=Running`. Which fields a kind supports is the server's business.

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

export class FieldSelectorError extends Error {
  override readonly name = 'FieldSelectorError' as const;
}

export function parseFieldSelector(input: string): FieldRequirement[] {
  const trimmed = input.trim();
  if (trimmed === '') return [];
  return trimmed.split(',').map((term) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(term.trim());
    if (!m) throw new FieldSelectorError(`invalid selector: '${input}'; can't understand '${term}'`);
    return { field: m[1]!.trim(), op: m[2] === '!=' ? '!=' : '=', value: m[3]!.trim() };
  });
}

export function matchesFields(selector: FieldRequirement[], fieldOf: (field: string) => string | undefined): boolean {
  for (const r of selector) {
    const actual = fieldOf(r.field) ?? '';
    if (r.op === '=' ? actual !== r.value : actual === r.value) return false;
  }
  return true;
}
