// The `bosun` command.
import { Command } from 'commander';
import { blueprintCommand } from './commands/blueprint.ts';
import { controllersCommand } from './commands/controllers.ts';
import { manifestsCommand } from './commands/manifests.ts';
import { nodeCommand } from './commands/node.ts';
import { templateCommand } from './commands/template.ts';
import { treeCommand } from './commands/tree.ts';
import { upCommand } from './commands/up.ts';

const program = new Command('bosun')
  .description('A TypeScript control plane for Kubernetes: Landscaper, terrakojo workflows and chaos disruptions')
  .addCommand(upCommand())
  .addCommand(controllersCommand())
  .addCommand(nodeCommand())
  .addCommand(manifestsCommand())
  .addCommand(templateCommand())
  .addCommand(blueprintCommand())
  .addCommand(treeCommand());

await program.parseAsync(process.argv);
