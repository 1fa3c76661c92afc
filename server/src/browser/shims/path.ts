/**
 * `node:path` in the web worker bundle: POSIX joining only, for the shared code that builds
 * names (it never reaches the disk there: see url.ts).
 */
function normalise(path: string): string {
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') {
      parts.pop();
    } else if (part !== '..' || !absolute) {
      parts.push(part);
    }
  }
  return (absolute ? '/' : '') + parts.join('/') || (absolute ? '/' : '.');
}

export const sep = '/';

export function join(...paths: string[]): string {
  return normalise(paths.filter((p) => p !== '').join('/'));
}

export function resolve(...paths: string[]): string {
  let result = '';
  for (const path of paths) {
    result = path.startsWith('/') ? path : `${result}/${path}`;
  }
  return normalise(result.startsWith('/') ? result : `/${result}`);
}

export function dirname(path: string): string {
  const normal = normalise(path);
  const at = normal.lastIndexOf('/');
  return at < 0 ? '.' : at === 0 ? '/' : normal.slice(0, at);
}

export function basename(path: string, ext?: string): string {
  const base = normalise(path).split('/').pop() ?? '';
  return ext && base.endsWith(ext) ? base.slice(0, -ext.length) : base;
}

export function extname(path: string): string {
  const base = basename(path);
  const at = base.lastIndexOf('.');
  return at <= 0 ? '' : base.slice(at);
}

export function relative(from: string, to: string): string {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) {
    common++;
  }
  return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
}

export function isAbsolute(path: string): boolean {
  return path.startsWith('/');
}

export default { sep, join, resolve, dirname, basename, extname, relative, isAbsolute };
