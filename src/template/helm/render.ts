// Helm's pkg/engine: every template of the chart and its subcharts in one set, parsed in Helm's order (so a
// parent's define overrides a subchart's), each non-partial template executed with its chart's values.
import { TemplateExecError, TemplateParseError } from '../errors.ts';
import { TemplateSet } from '../template.ts';
import { fromJSONValue, newMap, type GoMap, type GoValue } from '../value.ts';
import type { Chart } from './chart.ts';
import { RECURSION_LIMIT, helmFunctions, type LookupFn } from './functions.ts';
import { APIVersions, Files } from './objects.ts';
import { isTable, type Values } from './values.ts';

export interface Capabilities {
  kubeVersion: string;
  apiVersions: string[];
}

export interface ReleaseOptions {
  name: string;
  namespace: string;
  revision: number;
  isInstall: boolean;
  isUpgrade: boolean;
}

export class HelmRenderError extends Error {}

/** Chart.FullPath: the root's name, a subchart's parent path + "/charts/" + name. */
export function chartFullPath(c: Chart): string {
  return c.parent ? `${chartFullPath(c.parent)}/charts/${c.metadata.name}` : c.metadata.name;
}

const CHART_FIELDS: Record<string, string> = {
  name: 'Name', home: 'Home', sources: 'Sources', version: 'Version', description: 'Description', keywords: 'Keywords',
  maintainers: 'Maintainers', icon: 'Icon', apiVersion: 'APIVersion', condition: 'Condition', tags: 'Tags',
  appVersion: 'AppVersion', deprecated: 'Deprecated', annotations: 'Annotations', kubeVersion: 'KubeVersion',
  dependencies: 'Dependencies', type: 'Type',
};

function chartObject(c: Chart): GoMap {
  const m = newMap();
  for (const goName of Object.values(CHART_FIELDS)) m[goName] = '';
  for (const [k, v] of Object.entries(c.metadata)) {
    const goName = CHART_FIELDS[k];
    if (goName) m[goName] = fromJSONValue(v);
  }
  m.IsRoot = c.parent === undefined;
  return m;
}

/** One template to render: its text, the values of its chart, and its chart's templates/ path. */
export interface Renderable {
  text: string;
  vals: GoMap;
  basePath: string;
}

function collect(c: Chart, templates: Map<string, Renderable>, parent: GoMap, isLibraryRoot = false): GoMap {
  const subcharts = newMap();
  const next = newMap();
  next.Chart = chartObject(c);
  next.Files = new Files(c.files);
  next.Release = parent.Release ?? null;
  next.Capabilities = parent.Capabilities ?? null;
  next.Subcharts = subcharts;
  const pv = parent.Values;
  next.Values = c.parent === undefined ? (pv ?? newMap()) : isTable(pv) && isTable(pv[c.metadata.name]) ? (pv[c.metadata.name] as GoValue) : newMap();
  for (const child of c.dependencies) subcharts[child.metadata.name] = collect(child, templates, next);
  const full = chartFullPath(c);
  const library = c.metadata.type === 'library' || isLibraryRoot;
  for (const t of c.templates) {
    if (library && !t.name.split('/').pop()!.startsWith('_')) continue;
    templates.set(`${full}/${t.name}`, { text: t.data.toString(), vals: next, basePath: `${full}/templates` });
  }
  return next;
}

/** Helm's sortTemplates: deeper paths first, then names descending. */
export function sortTemplates(names: string[]): string[] {
  return [...names].sort((a, b) => {
    const da = a.split('/').length;
    const db = b.split('/').length;
    if (da !== db) return db - da;
    return a < b ? 1 : a > b ? -1 : 0;
  });
}

const HELM_ERR = /HELM_ERR_START(.*?)HELM_ERR_END/s;

export interface RenderOptions {
  release: ReleaseOptions;
  capabilities: Capabilities;
  lookup?: LookupFn;
}

/** Renders every template: file path → output (partials omitted, `<no value>` removed). */
export function renderChart(chart: Chart, values: Values, opts: RenderOptions): Map<string, string> {
  const kv = opts.capabilities.kubeVersion.replace(/^v/, '');
  const [major = '', minor = ''] = kv.split('.');
  const top = newMap();
  top.Values = fromJSONValue(values);
  const rel = newMap();
  rel.Name = opts.release.name;
  rel.Namespace = opts.release.namespace;
  rel.Revision = opts.release.revision;
  rel.IsInstall = opts.release.isInstall;
  rel.IsUpgrade = opts.release.isUpgrade;
  rel.Service = 'Helm';
  top.Release = rel;
  const caps = newMap();
  const kube = newMap();
  kube.Version = `v${kv}`;
  kube.Major = major;
  kube.Minor = minor;
  kube.GitVersion = `v${kv}`;
  caps.KubeVersion = kube;
  caps.APIVersions = new APIVersions(opts.capabilities.apiVersions);
  caps.HelmVersion = newMap();
  top.Capabilities = caps;
  const templates = new Map<string, Renderable>();
  collect(chart, templates, top);
  return renderTemplates(templates, opts.lookup);
}

/** Engine.render: parse all in Helm's order, execute each non-partial one with missingkey=zero. */
export function renderTemplates(templates: Map<string, Renderable>, lookup?: LookupFn): Map<string, string> {
  // Room for Helm's include limit (1000 nested includes, each one execution deep).
  const set: TemplateSet = new TemplateSet({ missingKey: 'zero', limits: { maxDepth: 2 * RECURSION_LIMIT + 50 } });
  set.addFuncs(helmFunctions({ set: () => set, lookup }));
  const order = sortTemplates([...templates.keys()]);
  for (const name of order) {
    try {
      set.parse(name, templates.get(name)!.text);
    } catch (e) {
      if (e instanceof TemplateParseError) throw new HelmRenderError(`parse error at (${e.message.replace(/^template: /, '').replace(/^([^:]+:\d+): /, '$1): ')}`);
      throw e;
    }
  }
  const out = new Map<string, string>();
  for (const name of order) {
    if (name.split('/').pop()!.startsWith('_')) continue;
    const r = templates.get(name)!;
    const vals = newMap();
    Object.assign(vals, r.vals);
    const tmpl = newMap();
    tmpl.Name = name;
    tmpl.BasePath = r.basePath;
    vals.Template = tmpl;
    try {
      out.set(name, set.executeTemplate(name, vals).replaceAll('<no value>', ''));
    } catch (e) {
      if (e instanceof TemplateExecError) {
        const m = HELM_ERR.exec(e.message);
        const loc = /^template: ([^:]+:\d+:\d+)/.exec(e.message);
        if (m && loc) throw new HelmRenderError(`execution error at (${loc[1]}): ${m[1]}`);
      }
      throw e;
    }
  }
  return out;
}
