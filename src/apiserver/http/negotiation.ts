// Content negotiation: JSON always; Table when asked; protobuf-only clients get 406.
import { errors } from '../../apimachinery/status-error.ts';

export interface Representation {
  table: boolean;
  includeObject: 'None' | 'Metadata' | 'Object';
}

export function negotiate(accept: string | undefined, query: URLSearchParams): Representation {
  const includeObject = (query.get('includeObject') ?? 'Metadata') as Representation['includeObject'];
  if (!accept) return { table: false, includeObject };
  const ranges = accept.split(',').map((r) => r.trim().toLowerCase());
  for (const range of ranges) {
    const [type, ...params] = range.split(';').map((p) => p.trim());
    if (type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    const table = params.includes('as=table') && params.some((p) => p === 'g=meta.k8s.io');
    if (params.some((p) => p.startsWith('as=')) && !table) continue;
    return { table, includeObject };
  }
  throw errors.notAcceptable('only the following media types are accepted: application/json, application/json;as=Table;v=v1;g=meta.k8s.io');
}
