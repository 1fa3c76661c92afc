/**
 * `node:fs`, `node:fs/promises`, `node:crypto` and `node:os` in the web worker bundle, so that the bundle of
 * the shared server code loads where there is no Node. Nothing here works: every function throws
 * an ENOSYS error. They are reached only through local paths, which a web worker never has
 * (url.ts); the workspace's files come through the client instead (clientWorkspace.ts).
 */
function unavailable(name: string): never {
  const error = new Error(`${name}: there is no file system in a web worker`) as Error & { code: string };
  error.code = 'ENOSYS';
  throw error;
}

const stub = (name: string) => (..._args: unknown[]): never => unavailable(name);

export const accessSync = stub('accessSync');
export const closeSync = stub('closeSync');
export const fchmodSync = stub('fchmodSync');
export const fchownSync = stub('fchownSync');
export const fstatSync = stub('fstatSync');
export const fsyncSync = stub('fsyncSync');
export const linkSync = stub('linkSync');
export const lstatSync = stub('lstatSync');
export const mkdirSync = stub('mkdirSync');
export const openSync = stub('openSync');
export const readFileSync = stub('readFileSync');
export const readSync = stub('readSync');
export const realpathSync = stub('realpathSync');
export const renameSync = stub('renameSync');
export const rmSync = stub('rmSync');
export const rmdirSync = stub('rmdirSync');
export const statSync = stub('statSync');
export const unlinkSync = stub('unlinkSync');
export const writeFileSync = stub('writeFileSync');
export const writeSync = stub('writeSync');
export const readdirSync = stub('readdirSync');
export const chmodSync = stub('chmodSync');
export const hostname = stub('hostname');
export const readlinkSync = stub('readlinkSync');
export const chownSync = stub('chownSync');
export const existsSync = (): boolean => false;
export const access = stub('access');
export const lstat = stub('lstat');
export const open = stub('open');
export const readFile = stub('readFile');
export const readdir = stub('readdir');
export const rename = stub('rename');
export const stat = stub('stat');
export const unlink = stub('unlink');
export const rm = stub('rm');
export const realpath = stub('realpath');
export const promises = { access, lstat, open, readFile, readdir, rename, stat, unlink, rm, realpath };
export const constants: Record<string, number> = { O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_NOFOLLOW: 131072, O_NONBLOCK: 2048, W_OK: 2 };
export const createHash = stub('createHash');
export const randomBytes = stub('randomBytes');
