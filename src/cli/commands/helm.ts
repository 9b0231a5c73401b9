// `bosun helm template [RELEASE] CHART`: renders a chart and prints exactly what `helm template` prints.
import { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { render, templateFunctions } from '../../template/index.ts';
import { loadChart } from '../../template/helm/chart.ts';
import { helmTemplate, mergeMaps } from '../../template/helm/template.ts';
import { parseSet } from '../../template/helm/strvals.ts';
import type { Values } from '../../template/helm/values.ts';
import { readInputFile } from '../input-files.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

const collect = (v: string, prev: string[]): string[] => [...prev, v];

export interface HelmTemplateFlags {
  values: string[];
  set: string[];
  setString: string[];
  namespace: string;
  kubeVersion?: string;
  apiVersions: string[];
  includeCrds?: boolean;
  skipTests?: boolean;
  showOnly: string[];
  nameTemplate?: string;
}

/** The output of `helm template` for these arguments. */
export function runHelmTemplate(args: string[], flags: HelmTemplateFlags): string {
  if (args.length === 0) throw new Error('"helm template" requires at least 1 argument');
  const chartPath = args[args.length - 1]!;
  let releaseName = args.length > 1 ? args[0]! : 'release-name';
  if (flags.nameTemplate !== undefined) releaseName = render('name-template', flags.nameTemplate, null, { funcs: templateFunctions() });
  let values: Values = {};
  for (const f of flags.values) values = mergeMaps(values, (parseYaml(readInputFile('values file', f)) ?? {}) as Values);
  for (const s of flags.set) parseSet(s, values);
  for (const s of flags.setString) parseSet(s, values, true);
  const chart = loadChart(chartPath);
  return helmTemplate(chart, {
    releaseName, namespace: flags.namespace, values, kubeVersion: flags.kubeVersion, apiVersions: flags.apiVersions,
    includeCrds: flags.includeCrds, skipTests: flags.skipTests, showOnly: flags.showOnly,
  });
}

export function helmCommand(): Command {
  const helm = new Command('helm').description("Helm's chart rendering (helm v3.19)");
  helm
    .command('template')
    .description('render a chart locally and print the manifests as `helm template` does')
    .argument('[args...]', '[RELEASE] CHART')
    .option('-f, --values <file>', 'values file (repeatable)', collect, [])
    .option('--set <k=v>', 'set values (repeatable)', collect, [])
    .option('--set-string <k=v>', 'set string values (repeatable)', collect, [])
    .option('-n, --namespace <ns>', 'release namespace', 'default')
    .option('--kube-version <v>', 'Kubernetes version for .Capabilities')
    .option('-a, --api-versions <gv>', 'API versions for .Capabilities (repeatable)', collect, [])
    .option('--include-crds', 'include the crds/ directories')
    .option('--skip-tests', 'leave out test hooks')
    .option('-s, --show-only <path>', 'only the manifests from these templates (repeatable)', collect, [])
    .option('--name-template <tpl>', 'template for the release name')
    .option('--debug', 'accepted for compatibility')
    .action((args: string[], flags: HelmTemplateFlags) => {
      try {
        process.stdout.write(runHelmTemplate(args, flags));
      } catch (e) {
        process.stderr.write(`Error: ${messageOf(e).trimEnd()}\n`);
        process.exitCode = 1;
      }
    });
  return helm;
}
