// field.ErrorList as both the API server and the Landscaper webhook render it: one wording per error type.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldError, formatFieldError, formatFieldErrors, toStatusCauses } from '../../src/apimachinery/field-error.ts';
import { path } from '../../src/apimachinery/field-path.ts';

test('each error type words its value and detail as field.Error.Error() does', () => {
  const at = path('spec').child('items').index(2);
  assert.deepEqual(
    [
      fieldError.required(at),
      fieldError.required('spec.type', 'must be set'),
      fieldError.invalid(at, 'x', 'bad'),
      fieldError.invalid(at, undefined, 'absent is nil'),
      fieldError.invalidWithoutValue(at, 'value left out'),
      fieldError.invalidPrinted(at, '[]string{"a"}', 'printed as Go prints it'),
      fieldError.typeInvalid(at, 'string', 'must be of type integer'),
      fieldError.notSupported(at, 'c', ['a', 'b']),
      fieldError.forbidden(at, 'not here'),
      fieldError.duplicate(at, 3),
      fieldError.notFound(at, 'y'),
      fieldError.tooLong(at, 1),
      fieldError.tooMany(at, 5, 4),
    ].map(formatFieldError),
    [
      'spec.items[2]: Required value',
      'spec.type: Required value: must be set',
      'spec.items[2]: Invalid value: "x": bad',
      'spec.items[2]: Invalid value: null: absent is nil',
      'spec.items[2]: Invalid value: value left out',
      'spec.items[2]: Invalid value: []string{"a"}: printed as Go prints it',
      'spec.items[2]: Invalid value: "string": must be of type integer',
      'spec.items[2]: Unsupported value: "c": supported values: "a", "b"',
      'spec.items[2]: Forbidden: not here',
      'spec.items[2]: Duplicate value: 3',
      'spec.items[2]: Not found: "y"',
      'spec.items[2]: Too long: may not be more than 1 byte',
      'spec.items[2]: Too many: 5: must have at most 4 items',
    ],
  );
});

test('a list aggregates and becomes the causes of an Invalid status', () => {
  const errors = [fieldError.required('a'), fieldError.invalid('b', { k: [1] }, 'd')];
  assert.equal(formatFieldErrors(errors.slice(0, 1)), 'a: Required value');
  assert.equal(formatFieldErrors(errors), '[a: Required value, b: Invalid value: map[string]interface {}{"k":[]interface {}{1}}: d]');
  assert.deepEqual(toStatusCauses(errors), [
    { reason: 'FieldValueRequired', message: 'Required value', field: 'a' },
    { reason: 'FieldValueInvalid', message: 'Invalid value: map[string]interface {}{"k":[]interface {}{1}}: d', field: 'b' },
  ]);
});
