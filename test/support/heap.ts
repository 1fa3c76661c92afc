/**
 * The heap in use after full collections, for the unit tests that check what a structure keeps
 * alive (V8's `gc` made available with --expose-gc set at run time).
 */
import * as v8 from 'node:v8';
import * as vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Bytes of heap in use after two full collections (the second frees what the first's finalisers let go). */
export function heapAfterCollection(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}
