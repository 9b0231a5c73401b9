// Installation validation (upstream's ValidateInstallation): the name, blueprint and component descriptor
// choices, imports (one source each, unique names across data and targets) and exports.
import { fieldError, type FieldError } from '../../apimachinery/field-error.ts';
import { path, type FieldPath } from '../../apimachinery/field-path.ts';
import type { DataExport, DataImport, Installation, TargetExport, TargetImport } from '../api/installation.ts';
import { validateExactlyOneOf } from './exactly-one-of.ts';
import { validateLabelName } from './metadata.ts';
import { validateLocalReference } from './references.ts';

/** 63 minus "Inst.": the name becomes the context of the installation's DataObjects and Targets. */
export const INSTALLATION_NAME_MAX_LENGTH = 58;
/** Room for the five random characters the API server appends. */
export const INSTALLATION_GENERATE_NAME_MAX_LENGTH = INSTALLATION_NAME_MAX_LENGTH - 5;

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

function list<T>(value: T[] | undefined): T[] {
  return Array.isArray(value) ? value : [];
}

function validateDataImports(imports: DataImport[], at: FieldPath, names: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  imports.forEach((imp, i) => {
    const p = at.index(i);
    errors.push(...validateExactlyOneOf(asRecord(imp), ['dataRef', 'secretRef', 'configMapRef'], p));
    if (imp.secretRef) errors.push(...validateLocalReference(imp.secretRef, p.child('secretRef')));
    if (imp.configMapRef) errors.push(...validateLocalReference(imp.configMapRef, p.child('configMapRef')));
    if (!imp.name) {
      errors.push(fieldError.required(p.child('name'), 'name must not be empty'));
      return;
    }
    if (names.has(imp.name)) errors.push(fieldError.duplicate(p.child('name'), imp.name));
    names.add(imp.name);
  });
  return errors;
}

function validateTargetImports(imports: TargetImport[], at: FieldPath, names: Set<string>): FieldError[] {
  const errors: FieldError[] = [];
  imports.forEach((imp, i) => {
    const p = at.index(i);
    if (!imp.name) errors.push(fieldError.required(p.child('name'), 'name must not be empty'));
    errors.push(...validateExactlyOneOf(asRecord(imp), ['target', 'targets', 'targetMap', 'targetMapRef', 'targetListRef'], p));
    list(imp.targets).forEach((t, j) => {
      if (!t) errors.push(fieldError.required(p.child('targets').index(j), 'target must not be empty'));
    });
    if (!imp.name) return;
    if (names.has(imp.name)) errors.push(fieldError.duplicate(p.child('name'), imp.name));
    names.add(imp.name);
  });
  return errors;
}

function validateExports(exports: (DataExport | TargetExport)[], ref: 'dataRef' | 'target', at: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  exports.forEach((exp, i) => {
    const p = at.index(i);
    if (!asRecord(exp)?.[ref]) errors.push(fieldError.required(p.child(ref), `${ref} must not be empty`));
    if (!exp.name) {
      errors.push(fieldError.required(p.child('name'), 'name must not be empty'));
      return;
    }
    if (names.has(exp.name)) errors.push(fieldError.duplicate(p.child('name'), exp.name));
    names.add(exp.name);
  });
  return errors;
}

export function validateInstallation(inst: Installation): FieldError[] {
  const meta = path('metadata');
  const spec = path('spec');
  const errors: FieldError[] = [];
  if (inst.metadata.name) errors.push(...validateLabelName(inst.metadata.name, INSTALLATION_NAME_MAX_LENGTH, meta.child('name')));
  else errors.push(...validateLabelName(inst.metadata.generateName, INSTALLATION_GENERATE_NAME_MAX_LENGTH, meta.child('generateName'), { prefix: true }));
  // Data and target imports share one namespace of names.
  const importNames = new Set<string>();
  errors.push(...validateDataImports(list(inst.spec?.imports?.data), spec.child('imports').child('data'), importNames));
  errors.push(...validateTargetImports(list(inst.spec?.imports?.targets), spec.child('imports').child('targets'), importNames));
  errors.push(...validateExports(list(inst.spec?.exports?.data), 'dataRef', spec.child('exports').child('data')));
  errors.push(...validateExports(list(inst.spec?.exports?.targets), 'target', spec.child('exports').child('targets')));
  errors.push(...validateExactlyOneOf(asRecord(inst.spec?.blueprint), ['ref', 'inline'], spec.child('blueprint')));
  const cd = inst.spec?.componentDescriptor;
  if (cd !== undefined && cd !== null) errors.push(...validateExactlyOneOf(asRecord(cd), ['ref', 'inline'], spec.child('componentDescriptor')));
  return errors;
}
