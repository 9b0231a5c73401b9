// Table output: a CRD version's printer columns, or the built-in printer of a core kind.
import { builtinPrinterFor } from '../table/builtin-columns.ts';
import { toTable } from '../table/table.ts';
import type { TableConverter } from './context.ts';

export const tableConverter: TableConverter = {
  toTable(type, objects, representation, listMeta, includeHeaders) {
    const columns = type.custom ? (type.printerColumns ?? []) : builtinPrinterFor(type.group, type.kind);
    return toTable(objects, columns, { includeObject: representation.includeObject, now: new Date(), listMeta, includeHeaders });
  },
};
