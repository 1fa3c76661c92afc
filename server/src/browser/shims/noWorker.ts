/**
 * `node:worker_threads` in the web worker bundle: the server there keeps no index between starts,
 * so it never reads digests in a worker thread (firstLevelRead.ts); a worker made here throws.
 */
export class Worker {
  constructor() {
    const error = new Error('worker_threads: not in a web worker') as Error & { code: string };
    error.code = 'ENOSYS';
    throw error;
  }
}

export const parentPort = undefined;
export const workerData = undefined;
