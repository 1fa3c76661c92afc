/**
 * The suites' workspace, copied fresh for each run, with its files' modification times set in
 * the order of their paths: digests without a date in their names are ordered by those times
 * (which copy of a paper is new, which one duplicate-paper reports), and a copy's times would
 * otherwise be in whatever order the copying took.
 */
import * as fs from 'fs';
import * as path from 'path';

/**
 * Copies `from` to `to` and gives the files there times a second apart, in path order, all just
 * before now: after the fixtures' dated digests, as a copy made now would be, and before any file
 * a suite writes later.
 */
export function copyWorkspace(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true });
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(to);
  const base = Date.now() - (files.length + 60) * 1000;
  files.sort().forEach((file, i) => {
    const time = new Date(base + i * 1000);
    fs.utimesSync(file, time, time);
  });
}
