// apimachinery's field.Path: where in an object a field error points, built up as validation descends.

/** A field path under construction: path('spec').child('deployItems').index(1).child('name'). */
export interface FieldPath {
  /** Dotted path with indexes: spec.deployItems[1].name. */
  readonly value: string;
  child(name: string): FieldPath;
  index(i: number): FieldPath;
}

export function path(root: string): FieldPath {
  return {
    value: root,
    child: (name) => path(root === '' ? name : `${root}.${name}`),
    index: (i) => path(`${root}[${i}]`),
  };
}
