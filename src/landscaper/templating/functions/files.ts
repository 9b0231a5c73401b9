// readFile, readDir and include on the blueprint filesystem.
import { GoFuncError, GoObject, NO_FIELD, TemplateLimitError, goFunc, int64, type FuncMap, type GoValue } from '../../../template/index.ts';
import type { BlueprintFs, BlueprintFsEntry } from '../../blueprint/fs.ts';
import { messageOf } from '../../../apimachinery/error-message.ts';

/** os.FileInfo as readDir returns it: .Name, .Size, .IsDir, .Mode reachable from templates. */
export class FileInfo extends GoObject {
  readonly entry: BlueprintFsEntry;
  constructor(entry: BlueprintFsEntry) {
    super();
    this.entry = entry;
  }
  goType(): string {
    return 'vfs.FileInfo';
  }
  override kind(): 'pointer' {
    return 'pointer';
  }
  format(): string {
    return `&{${this.entry.name} ${this.entry.size} ${this.entry.isDir}}`;
  }
  override hasMethod(name: string): boolean {
    return name === 'Name' || name === 'Size' || name === 'IsDir' || name === 'Mode';
  }
  override field(name: string): GoValue | typeof NO_FIELD {
    switch (name) {
      case 'Name': return this.entry.name;
      case 'Size': return int64(this.entry.size);
      case 'IsDir': return this.entry.isDir;
      case 'Mode': return this.entry.isDir ? 'drwxr-xr-x' : '-rw-r--r--';
      default: return NO_FIELD;
    }
  }
}

/** Renders template source (parsed under `name`) with data and the same function map. */
export type IncludeRenderer = (name: string, source: string, data: GoValue, funcs: FuncMap) => string;

/** Landscaper's include limit: nested includes of one file. */
export const INCLUDE_LIMIT = 100;

const message = (e: unknown): string => messageOf(e);

export function fileFunctions(fs: BlueprintFs | undefined, render: IncludeRenderer | undefined, funcs: () => FuncMap): FuncMap {
  const need = (): BlueprintFs => {
    if (fs === undefined) throw new GoFuncError('no blueprint filesystem available');
    return fs;
  };
  const depth = new Map<string, number>();
  return {
    readFile: goFunc({ params: ['string'], results: ['[]uint8'] }, (p: string) => {
      try {
        return new Uint8Array(need().readFile(p));
      } catch (e) {
        throw new GoFuncError(message(e));
      }
    }),
    readDir: goFunc({ params: ['string'], results: ['[]fs.FileInfo'] }, (p: string) => {
      try {
        return need().readDir(p).map((e) => new FileInfo(e));
      } catch (e) {
        throw new GoFuncError(message(e));
      }
    }),
    include: goFunc({ params: ['string', 'interface {}'], results: ['string', 'error'] }, (p: string, binding: GoValue) => {
      const n = depth.get(p) ?? 0;
      if (n >= INCLUDE_LIMIT) throw new GoFuncError(`include ${JSON.stringify(p)}: recursion limit of ${INCLUDE_LIMIT} exceeded`);
      let src: string;
      try {
        src = need().readFile(p).toString('utf8');
      } catch (e) {
        throw new GoFuncError(message(e));
      }
      if (render === undefined) throw new GoFuncError('include is not available without a template renderer');
      depth.set(p, n + 1);
      try {
        return render(p, src, binding, funcs());
      } catch (e) {
        if (e instanceof TemplateLimitError) throw e;
        throw new GoFuncError(message(e));
      } finally {
        depth.set(p, n);
      }
    }),
  };
}
