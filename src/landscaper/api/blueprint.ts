// Blueprint (types_blueprint.go; not a CRD) and the installation templates it produces
// (types_installationtemplate.go), plus what deploy executions return (DeployItemSpecification).
import type { TemplateType } from './constants.ts';
import type { DeployItemTemplate } from './execution.ts';
import type { DataImport, InlineFilesystem, InstallationExports, Optimization, TargetImport } from './installation.ts';
import type { AnyJSON, JSONObject } from './shared.ts';

/** A JSON schema (draft-07 semantics) as written in the blueprint. */
export type JSONSchemaDefinition = JSONObject | boolean;

export type ImportType = 'data' | 'target' | 'targetList' | 'targetMap';
export type ExportType = 'data' | 'target';

export interface ImportDefinition {
  name: string;
  schema?: JSONSchemaDefinition;
  targetType?: string;
  /** Defaulted from schema (data) or targetType (target). */
  type?: ImportType;
  /** Defaults to true. */
  required?: boolean;
  default?: { value: AnyJSON };
  /** Conditional imports: only valid when this (optional) import is satisfied. */
  imports?: ImportDefinition[];
}

export interface ExportDefinition {
  name: string;
  schema?: JSONSchemaDefinition;
  targetType?: string;
  type?: ExportType;
}

export interface TemplateExecutor {
  /** Unique when set; '' for an unnamed execution (upstream runs those). Part of the state key. */
  name: string;
  type: TemplateType | string;
  /** Path of the template in the blueprint filesystem. */
  file?: string;
  /** Inline template: a string for GoTemplate, a string or YAML for Spiff. */
  template?: AnyJSON;
}

export interface InstallationTemplateBlueprintDefinition {
  /** "cd://..." reference into the parent's component (not supported without OCM). */
  ref?: string;
  /** Inline blueprint filesystem. */
  filesystem?: InlineFilesystem;
}

export interface InstallationTemplate {
  apiVersion?: string;
  kind?: string;
  name: string;
  blueprint: InstallationTemplateBlueprintDefinition;
  imports?: { data?: DataImport[]; targets?: TargetImport[] };
  importDataMappings?: { [name: string]: AnyJSON };
  exports?: InstallationExports;
  exportDataMappings?: { [name: string]: AnyJSON };
  optimization?: Optimization;
}

/** A static subinstallation: `file` or an inline template. */
export type SubinstallationTemplate = Partial<InstallationTemplate> & { file?: string };

export interface Blueprint {
  apiVersion?: string;
  kind?: string;
  annotations?: { [key: string]: string };
  /** Default https://json-schema.org/draft/2019-09/schema; some examples write `jsonSchema`. */
  jsonSchemaVersion?: string;
  jsonSchema?: string;
  localTypes?: { [name: string]: JSONSchemaDefinition };
  imports?: ImportDefinition[];
  importExecutions?: TemplateExecutor[];
  exports?: ExportDefinition[];
  subinstallations?: SubinstallationTemplate[];
  subinstallationExecutions?: TemplateExecutor[];
  deployExecutions?: TemplateExecutor[];
  exportExecutions?: TemplateExecutor[];
}

/** A deploy item's target in a deploy execution's output. */
export interface DeployItemTargetReference {
  /** A Target's name in the installation's namespace. */
  name?: string;
  /** The name of a target, targetList or targetMap import. */
  import?: string;
  /** Index into a targetList import. */
  index?: number;
  /** Key into a targetMap import. */
  key?: string;
}

/** One entry of a deploy execution's `deployItems` output: an execution's item, but its target names an import. */
export type DeployItemSpecification = Omit<DeployItemTemplate, 'target'> & { target?: DeployItemTargetReference };
