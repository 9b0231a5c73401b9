// Chart loading as Helm's pkg/chart/loader does for a directory: Chart.yaml, values.yaml, templates/, crds/,
// charts/ (subchart directories), other files kept for .Files; requirements.yaml for apiVersion v1.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { readChartArchive } from './archive.ts';
import { parseHelmignore, type IgnoreFn } from './helmignore.ts';

export interface HelmFile {
  name: string;
  data: Buffer;
}

export interface Dependency {
  name: string;
  alias?: string;
  condition?: string;
  tags?: string[];
  'import-values'?: unknown[];
  enabled?: boolean;
}

export interface ChartMetadata {
  apiVersion?: string;
  name: string;
  version?: string;
  type?: string;
  dependencies?: Dependency[];
  [key: string]: unknown;
}

export interface Chart {
  metadata: ChartMetadata;
  values: Record<string, unknown>;
  templates: HelmFile[];
  files: HelmFile[];
  crds: HelmFile[];
  dependencies: Chart[];
  parent?: Chart;
}

export class ChartLoadError extends Error {}

/** Helm's limit on one file of a chart. */
export const MAX_FILE_SIZE = 5 * 1024 * 1024;

function walk(dir: string, prefix: string, out: HelmFile[], ignored: IgnoreFn): void {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    const rel = prefix + name;
    const st = statSync(full);
    if (ignored(rel, st.isDirectory())) continue;
    if (st.isDirectory()) walk(full, rel + '/', out, ignored);
    else {
      if (st.size > MAX_FILE_SIZE) throw new ChartLoadError(`chart file "${rel}" is larger than the maximum file size ${MAX_FILE_SIZE}`);
      out.push({ name: rel, data: readFileSync(full) });
    }
  }
}

/** Loads a chart from its files (a directory's or an archive's), with the subcharts under charts/. */
export function loadChartFiles(files: HelmFile[]): Chart {
  const chart: Chart = { metadata: { name: '' }, values: {}, templates: [], files: [], crds: [], dependencies: [] };
  const subdirs = new Map<string, HelmFile[]>();
  const archives: HelmFile[] = [];
  for (const f of files) {
    if (f.name === 'Chart.yaml') chart.metadata = (parseYaml(f.data.toString()) ?? {}) as ChartMetadata;
    else if (f.name === 'values.yaml') chart.values = (parseYaml(f.data.toString()) ?? {}) as Record<string, unknown>;
    else if (f.name === 'requirements.yaml') {
      const req = (parseYaml(f.data.toString()) ?? {}) as { dependencies?: Dependency[] };
      chart.metadata.dependencies = req.dependencies;
    } else if (f.name.startsWith('templates/')) chart.templates.push(f);
    else if (f.name.startsWith('charts/')) {
      const parts = f.name.split('/');
      if (parts.length > 2) {
        const list = subdirs.get(parts[1]!) ?? [];
        list.push({ name: parts.slice(2).join('/'), data: f.data });
        subdirs.set(parts[1]!, list);
      } else if (/\.tgz$|\.tar\.gz$/.test(f.name)) archives.push(f);
    } else {
      if (f.name.startsWith('crds/')) chart.crds.push(f);
      chart.files.push(f);
    }
  }
  if (!chart.metadata.name) throw new ChartLoadError('validation: chart.metadata.name is required');
  const children = [...[...subdirs.values()].map(loadChartFiles), ...archives.map((a) => loadChartFiles(readChartArchive(a.data)))];
  for (const child of children) {
    child.parent = chart;
    chart.dependencies.push(child);
  }
  return chart;
}

/** Loads a chart directory or a .tgz archive. */
export function loadChart(path: string): Chart {
  if (statSync(path).isDirectory()) {
    const files: HelmFile[] = [];
    const ignoreFile = join(path, '.helmignore');
    walk(path, '', files, parseHelmignore(existsSync(ignoreFile) ? readFileSync(ignoreFile, 'utf8') : ''));
    return loadChartFiles(files);
  }
  return loadChartFiles(readChartArchive(readFileSync(path)));
}
