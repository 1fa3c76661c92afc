/**
 * The worker thread of firstLevelRead.ts: once sent its files, takes the next file not taken,
 * reads it for the Papers tree's first level (what `work.part` says of each paper) and sends it
 * as the text of a kept index of that one file (of none when `KeptIndexWriter` leaves it out:
 * then it is read in full), until none is left; then `FIRST_LEVEL_DONE`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { FIRST_LEVEL_BUILD, FIRST_LEVEL_DONE, FirstLevelWork, NEXT, readFirstLevelSync, WORKER_TOOK } from './firstLevelRead';
import { decodeUtf8Text } from './fs/utf8Text';
import { KeptIndexWriter } from './service/keptIndex';

const counters = new Int32Array(workerData as SharedArrayBuffer);
parentPort?.once('message', (work: FirstLevelWork) => {
  for (;;) {
    Atomics.add(counters, WORKER_TOOK, 1);
    const at = Atomics.add(counters, NEXT, 1);
    if (at >= work.tasks.length) {
      break;
    }
    const kept = readFirstLevelSync(work.tasks[at], work.maxBytes, decodeUtf8Text, work.part);
    if (kept) {
      // Each file as it is read: the thread that started this one reads it back between its own.
      const writer = new KeptIndexWriter(FIRST_LEVEL_BUILD);
      writer.add(kept);
      parentPort?.postMessage(writer.text());
    }
  }
  parentPort?.postMessage(FIRST_LEVEL_DONE);
});
