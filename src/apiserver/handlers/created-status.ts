// What kube-apiserver answers a POST to pods/binding or pods/eviction with: a bare success Status, code 201.
import type { Status } from '../../apimachinery/object.ts';

const createdStatus: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

export const createdStatusJson = JSON.stringify(createdStatus);
