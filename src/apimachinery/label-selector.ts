// Label selectors: apimachinery's string grammar (`a=b,c!=d,e in (f,g),!h`) and metav1.LabelSelector.

export type Requirement =
  | { key: string; op: 'in' | 'notin'; values: string[] }
  | { key: string; op: 'exists' | 'notexists' }
  | { key: string; op: 'gt' | 'lt'; value: number };

export type LabelSelector = Requirement[];

export interface LabelSelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

export class LabelSelectorError extends Error {
  override readonly name = 'LabelSelectorError' as const;
}

const keyPattern = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const valuePattern = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string, input: string): string {
  if (!keyPattern.test(key)) throw new LabelSelectorError(`unable to parse requirement: invalid label key "${key}" in "${input}"`);
  return key;
}

function checkValue(value: string, input: string): string {
  if (value.length > 63 || !valuePattern.test(value)) {
    throw new LabelSelectorError(`unable to parse requirement: invalid label value: "${value}" in "${input}"`);
  }
  return value;
}

/** Splits on commas that are not inside parentheses. */
function splitTerms(input: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      terms.push(input.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(input.slice(start));
  return terms.map((t) => t.trim());
}

export function parseLabelSelector(input: string): LabelSelector {
  const trimmed = input.trim();
  if (trimmed === '') return [];
  return splitTerms(trimmed).map((term) => parseTerm(term, input));
}

function parseTerm(term: string, input: string): Requirement {
  if (term === '') throw new LabelSelectorError(`found '', expected: identifier in "${input}"`);
  const setMatch = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(term);
  if (setMatch) {
    const values = setMatch[3]!.split(',').map((v) => checkValue(v.trim(), input));
    return { key: checkKey(setMatch[1]!, input), op: setMatch[2] as 'in' | 'notin', values };
  }
  if (term.startsWith('!')) return { key: checkKey(term.slice(1).trim(), input), op: 'notexists' };
  const opMatch = /^([^=!<>\s]+)\s*(==|=|!=|>|<)\s*(.*)$/.exec(term);
  if (opMatch) {
    const key = checkKey(opMatch[1]!, input);
    const op = opMatch[2]!;
    const raw = opMatch[3]!.trim();
    if (op === '>' || op === '<') {
      const value = Number(raw);
      if (!/^-?\d+$/.test(raw)) throw new LabelSelectorError(`unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer in "${input}"`);
      return { key, op: op === '>' ? 'gt' : 'lt', value };
    }
    return { key, op: op === '!=' ? 'notin' : 'in', values: [checkValue(raw, input)] };
  }
  if (/^\S+$/.test(term)) return { key: checkKey(term, input), op: 'exists' };
  throw new LabelSelectorError(`unable to parse requirement: "${term}" in "${input}"`);
}

export function fromLabelSelectorObject(selector: LabelSelectorObject): LabelSelector {
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) requirements.push({ key, op: 'in', values: [value] });
  for (const e of selector.matchExpressions ?? []) {
    switch (e.operator) {
      case 'In':
        requirements.push({ key: e.key, op: 'in', values: e.values ?? [] });
        break;
      case 'NotIn':
        requirements.push({ key: e.key, op: 'notin', values: e.values ?? [] });
        break;
      case 'Exists':
        requirements.push({ key: e.key, op: 'exists' });
        break;
      case 'DoesNotExist':
        requirements.push({ key: e.key, op: 'notexists' });
        break;
      default:
        throw new LabelSelectorError(`"${String(e.operator)}" is not a valid label selector operator`);
    }
  }
  return requirements;
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  for (const r of selector) {
    const value = labels?.[r.key];
    switch (r.op) {
      case 'in':
        if (value === undefined || !r.values.includes(value)) return false;
        break;
      case 'notin':
        if (value !== undefined && r.values.includes(value)) return false;
        break;
      case 'exists':
        if (value === undefined) return false;
        break;
      case 'notexists':
        if (value !== undefined) return false;
        break;
      case 'gt':
      case 'lt': {
        if (value === undefined || !/^-?\d+$/.test(value)) return false;
        const n = Number(value);
        if (r.op === 'gt' ? !(n > r.value) : !(n < r.value)) return false;
        break;
      }
    }
  }
  return true;
}

export function formatLabelSelector(selector: LabelSelector): string {
  return selector
    .map((r) => {
      switch (r.op) {
        case 'in':
          return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${r.values.join(',')})`;
        case 'notin':
          return r.values.length === 1 ? `${r.key}!=${r.values[0]}` : `${r.key} notin (${r.values.join(',')})`;
        case 'exists':
          return r.key;
        case 'notexists':
          return `!${r.key}`;
        case 'gt':
          return `${r.key}>${r.value}`;
        case 'lt':
          return `${r.key}<${r.value}`;
      }
      return '';
    })
    .join(',');
}
