// Every `bosun` subcommand, loaded only when it runs: the others pull in the API server, the Kubernetes client
// and the families, which `bosun --help` or `bosun template render` need none of.
import type { Command } from 'commander';

export interface Subcommand {
  /** The one line `bosun --help` lists it with (its own --help has the full description). */
  summary: string;
  load: () => Promise<Command>;
  /** Runs until signalled, and logs (--log-format): its output going nowhere is no reason to stop. */
  serves?: boolean;
  /** Left out of `bosun --help`: what pods run (the chaos injector and handler), not a user. */
  hidden?: boolean;
}

export const subcommands: Record<string, Subcommand> = {
  up: { summary: 'start the embedded API server, the controllers and a node agent', load: async () => (await import('./commands/up.ts')).upCommand(), serves: true },
  controllers: { summary: 'run the controllers against a cluster', load: async () => (await import('./commands/controllers.ts')).controllersCommand(), serves: true },
  node: { summary: 'run a node agent that runs the pods bound to its Node', load: async () => (await import('./commands/node.ts')).nodeCommand(), serves: true },
  'webhook-server': { summary: "receive GitHub push and pull_request webhooks for terrakojo's Repository syncs", load: async () => (await import('./commands/webhook-server.ts')).webhookServerCommand(), serves: true },
  manifests: { summary: "print the CustomResourceDefinitions of Bosun's families", load: async () => (await import('./commands/manifests.ts')).manifestsCommand() },
  helm: { summary: "render Helm charts as `helm template` does", load: async () => (await import('./commands/helm.ts')).helmCommand() },
  template: { summary: 'render a Go template as Landscaper does', load: async () => (await import('./commands/template.ts')).templateCommand() },
  blueprint: { summary: 'render a Landscaper blueprint without a cluster', load: async () => (await import('./commands/blueprint.ts')).blueprintCommand() },
  dashboard: { summary: 'serve the web dashboard against the cluster of a kubeconfig', load: async () => (await import('./commands/dashboard.ts')).dashboardCommand(), serves: true },
  tree: { summary: 'show a live tree of Landscaper, terrakojo or chaos objects', load: async () => (await import('./commands/tree.ts')).treeCommand() },
  inject: { summary: 'run a chaos injector (what chaos pods run)', load: async () => (await import('./commands/inject.ts')).injectCommand(), hidden: true },
  chaos: { summary: 'validate chaos-controller Disruptions without a cluster', load: async () => (await import('./commands/chaos.ts')).chaosCommand() },
  version: { summary: "print Bosun's version and the Kubernetes version its API server serves", load: async () => (await import('./commands/version.ts')).versionCommand() },
  completion: { summary: 'print a shell completion script (bash, zsh or fish)', load: async () => (await import('./commands/completion.ts')).completionCommand() },
  'container-init': { summary: "what a container deploy item's init container runs", load: async () => (await import('./commands/container-programs.ts')).containerInitCommand(), hidden: true },
  'container-wait': { summary: "what a container deploy item's wait container runs", load: async () => (await import('./commands/container-programs.ts')).containerWaitCommand(), hidden: true },
  'chaos-handler': { summary: "what an onInit disruption's chaos handler init container runs", load: async () => (await import('./commands/chaos-handler.ts')).chaosHandlerCommand(), hidden: true },
};

