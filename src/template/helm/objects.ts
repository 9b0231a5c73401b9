// The Go structs Helm hands templates: .Capabilities (with APIVersions.Has), .Files (Get, GetBytes, Glob,
// AsConfig, AsSecrets, Lines).
import picomatch from 'picomatch';
import { GoObject, NO_FIELD, goSlice, newMap, type GoValue } from '../value.ts';
import { marshalYAML } from '../yaml-emit.ts';
import type { HelmFile } from './chart.ts';

export class APIVersions extends GoObject {
  constructor(readonly versions: string[]) {
    super();
  }
  goType(): string {
    return 'chartutil.VersionSet';
  }
  format(): string {
    return '[' + this.versions.join(' ') + ']';
  }
  override hasMethod(name: string): boolean {
    return name === 'Has';
  }
  override field(name: string, args: GoValue[]): GoValue | typeof NO_FIELD {
    if (name === 'Has') return this.versions.includes(String(args[0]));
    return NO_FIELD;
  }
}

export class Files extends GoObject {
  constructor(readonly files: HelmFile[]) {
    super();
  }
  goType(): string {
    return 'engine.files';
  }
  format(): string {
    return 'map[]';
  }
  override hasMethod(name: string): boolean {
    return ['Get', 'GetBytes', 'Glob', 'AsConfig', 'AsSecrets', 'Lines'].includes(name);
  }
  private get(name: string): Buffer | undefined {
    return this.files.find((f) => f.name === name)?.data;
  }
  override field(name: string, args: GoValue[]): GoValue | typeof NO_FIELD {
    const a = String(args[0] ?? '');
    switch (name) {
      case 'Get':
        return this.get(a)?.toString() ?? '';
      case 'GetBytes':
        return new Uint8Array(this.get(a) ?? []);
      case 'Lines': {
        const d = this.get(a);
        if (d === undefined) return goSlice('string', []);
        const s = d.toString();
        return goSlice('string', (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n'));
      }
      case 'Glob': {
        const match = picomatch(a, { dot: true });
        return new Files(this.files.filter((f) => match(f.name)));
      }
      case 'AsConfig':
      case 'AsSecrets': {
        const m = newMap();
        for (const f of this.files) {
          const base = f.name.split('/').pop()!;
          m[base] = name === 'AsConfig' ? f.data.toString() : f.data.toString('base64');
        }
        if (this.files.length === 0) return '';
        const s = marshalYAML(m);
        return s.endsWith('\n') ? s.slice(0, -1) : s;
      }
      default:
        return NO_FIELD;
    }
  }
}
