import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../../server/src/cli';
import { messageText, reasonOf } from '../../server/src/service/cliMessages';
import { ALL_CODES } from '../../server/src/service/features/diagnostics';
import { digest, entryLines, readFixture, REPO_ROOT } from '../support/fixtures';
import { CLI, run, Run, runWithClosed } from '../support/builtCli';

/** The newest modification time under a folder. */
function newest(folder: string): number {
  let time = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }
  return time;
}

let work: string;

/** Writes files into a fresh folder under the test's temporary folder. */
function folderWith(name: string, files: Record<string, string | Buffer>): string {
  const folder = path.join(work, name);
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.writeFileSync(path.join(folder, file), content);
  }
  return folder;
}

before(() => {
  // Bundle the command line when it is missing or older than the sources.
  if (!fs.existsSync(CLI) || fs.statSync(CLI).mtimeMs < newest(path.join(REPO_ROOT, 'server', 'src'))) {
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO_ROOT, encoding: 'utf8' });
    assert.equal(build.status, 0, build.stderr);
  }
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'paper-digest-cli-'));
});

after(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe('paper-digest check', () => {
  test('Should start with a shebang so that it runs as the package bin', () => {
    assert.ok(fs.readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n'));
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    assert.equal(manifest.bin['paper-digest'], './dist/cli.js');
  });

  test('Should exit 0 on a folder of well-formed digests', () => {
    const folder = folderWith('clean', { 'a.digest': readFixture('diagnostics/well-formed.digest') });
    const result = run(['check', '.'], folder);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'No problems in 1 file.\n');
  });

  test('Should exit with the status of the run when its output or its error output is closed before it writes', async () => {
    const folder = folderWith('closed', { 'b.digest': readFixture('diagnostics/category-case.digest') });
    // Problems to print, the output closed (`| head -0`): problems remain, 1.
    assert.equal(await runWithClosed('stdout', ['check', 'b.digest'], folder), 1);
    // A path not read, the error output closed (`2>&1 >out | head -0`): 2, not an uncaught error's 1.
    assert.equal(await runWithClosed('stderr', ['check', 'b.digest', 'missing.digest'], folder), 2);
    assert.equal(await runWithClosed('stderr', ['papers', 'missing.digest'], folder), 2);
  });

  test('Should say in one line, with status 2, that its output could not be written (a full disk)', { skip: !fs.existsSync('/dev/full') && 'no /dev/full on this system' }, () => {
    const folder = folderWith('full', { 'b.digest': readFixture('diagnostics/category-case.digest') });
    for (const [args, language] of [[['check', 'b.digest'], 'en'], [['stats', '--format', 'html', '.'], 'en'], [['papers', '--lang', 'zh-cn', '.'], 'zh-cn'], [['--help'], 'en']] as const) {
      const full = fs.openSync('/dev/full', 'w');
      try {
        const result = spawnSync(process.execPath, [CLI, ...args], { cwd: folder, encoding: 'utf8', stdio: ['ignore', full, 'pipe'] });
        assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
        assert.equal(result.stderr, language === 'zh-cn' ? 'paper-digest: 无法写出输出：设备上没有剩余空间\n' : 'paper-digest: cannot write the output: no space left on the device\n', args.join(' '));
      } finally {
        fs.closeSync(full);
      }
    }
  });

  test('Should exit 1 and print path:line:col: severity code message for each problem', () => {
    const folder = folderWith('broken', { 'b.digest': readFixture('diagnostics/category-case.digest') });
    const result = run(['check', 'b.digest'], folder);
    assert.equal(result.status, 1);
    const lines = result.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^b\.digest:27:53: warning category-case Category 'CS\.ai' is written in the wrong case: use 'cs\.AI' — .+$/);
    assert.equal(lines[1], '1 problem (0 errors, 1 warning) in 1 of 1 file.');
  });

  test('Should search folders for *.digest and *.digest.txt only, below node_modules and .git excepted, and check files named explicitly', () => {
    const broken = readFixture('diagnostics/empty-summary.digest');
    const folder = folderWith('search', {
      'one.digest': broken,
      'deep/two.digest.txt': broken,
      'notes.txt': broken,
      'node_modules/three.digest': broken,
      '.git/four.digest': broken,
    });
    const found = run(['check', '--format', 'json', '.'], folder);
    const report = JSON.parse(found.stdout) as { files: { path: string }[] };
    assert.deepEqual(report.files.map((f) => f.path), [path.join('deep', 'two.digest.txt'), 'one.digest']);
    const named = run(['check', '--format', 'json', 'notes.txt'], folder);
    assert.deepEqual((JSON.parse(named.stdout) as { files: { path: string }[] }).files.map((f) => f.path), ['notes.txt']);
  });

  test('Should report the same paper in two of the checked files once, in the later file, pointing at the other', () => {
    const folder = folderWith('duplicates', {
      'a.digest': readFixture('diagnostics/well-formed.digest'),
      'b.digest': readFixture('diagnostics/well-formed.digest').split('\n').slice(0, 36).join('\n') + '\n',
    });
    const result = run(['check', '.'], folder);
    assert.equal(result.status, 1);
    const duplicates = result.stdout.split('\n').filter((line) => line.includes('duplicate-paper'));
    // One problem per paper: on the copy in the later file, pointing at the first.
    assert.deepEqual(duplicates.map((line) => line.replace(/ duplicate-paper .*\(see /, ' (see ')), ['b.digest:3:1: information (see a.digest:3:1)', 'b.digest:19:1: information (see a.digest:19:1)'], result.stdout);
  });

  test('Should give a JSON report with positions, codes and a summary', () => {
    const folder = folderWith('json', { 'p.digest': readFixture('diagnostics/half-width-punctuation.digest') });
    const result = run(['check', '--format=json', 'p.digest'], folder);
    assert.equal(result.status, 1);
    const report = JSON.parse(result.stdout) as {
      version: string;
      files: { path: string; fixed: boolean; diagnostics: { line: number; column: number; severity: string; code: string; range: unknown }[] }[];
      summary: { files: number; problems: number; warning: number };
    };
    assert.equal(report.files[0].path, 'p.digest');
    assert.deepEqual(report.files[0].diagnostics.map((d) => [d.line, d.column, d.code, d.severity]), [
      [25, 81, 'half-width-punctuation', 'warning'],
      [25, 117, 'half-width-punctuation', 'warning'],
      [27, 11, 'half-width-punctuation', 'warning'],
      [27, 25, 'half-width-punctuation', 'warning'],
      [27, 58, 'half-width-punctuation', 'warning'],
    ]);
    assert.deepEqual([report.summary.files, report.summary.problems, report.summary.warning], [1, 5, 5]);
  });

  test('Should give SARIF 2.1.0 with every rule and a result per problem', () => {
    const folder = folderWith('sarif', { 's.digest': readFixture('diagnostics/unknown-category.digest') });
    const result = run(['check', '--format', 'sarif', 's.digest'], folder);
    assert.equal(result.status, 1);
    const sarif = JSON.parse(result.stdout) as {
      version: string;
      $schema: string;
      runs: {
        tool: { driver: { name: string; rules: { id: string; helpUri: string; shortDescription: { text: string } }[] } };
        results: { ruleId: string; ruleIndex: number; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[] }[];
        originalUriBaseIds: Record<string, { uri: string }>;
        columnKind: string;
      }[];
    };
    assert.equal(sarif.version, '2.1.0');
    assert.match(sarif.$schema, /sarif-2\.1\.0/);
    const [runResult] = sarif.runs;
    assert.equal(runResult.tool.driver.name, 'paper-digest');
    assert.deepEqual(runResult.tool.driver.rules.map((r) => r.id), [...ALL_CODES]);
    // The rule pages in the project's repository (a code-scanning service shows them elsewhere), each a page of docs/rules/.
    const ONLINE = 'https://github.com/paper-digest/paper-digest/blob/main/';
    assert.ok(runResult.tool.driver.rules.every((r) => r.helpUri === `${ONLINE}docs/rules/${r.id}.md`));
    assert.ok(runResult.tool.driver.rules.every((r) => fs.existsSync(path.join(REPO_ROOT, r.helpUri.slice(ONLINE.length)))));
    assert.equal(runResult.columnKind, 'utf16CodeUnits');
    assert.equal(runResult.results.length, 2);
    const [first] = runResult.results;
    assert.equal(first.ruleId, 'unknown-category');
    assert.equal(runResult.tool.driver.rules[first.ruleIndex].id, 'unknown-category');
    assert.equal(first.level, 'error');
    assert.deepEqual(first.locations[0].physicalLocation.artifactLocation, { uri: 's.digest', uriBaseId: 'SRCROOT' });
    assert.deepEqual(first.locations[0].physicalLocation.region, { startLine: 27, startColumn: 53, endLine: 27, endColumn: 59 });
    assert.ok(runResult.originalUriBaseIds.SRCROOT.uri.startsWith('file://'));
    assert.deepEqual((runResult as unknown as { invocations: unknown[] }).invocations, [{ executionSuccessful: true }]);
  });

  test('Should escape the brackets, backslashes and braces of SARIF messages, so that a digest puts no link nor placeholder into a result', () => {
    // A category written as a Markdown link: SARIF's plain text reads [text](target) as a link,
    // and {0} as a placeholder.
    const text = digest(entryLines('A', { topicHits: '专题命中 数学推理 ：reasoning(abstract)；分类 cs.CL、[Fix_needed](https://evil.example/phish)、a\\b{0}}' }));
    const folder = folderWith('sarif-link', { 'l.digest': text });
    const json = JSON.parse(run(['check', '--format', 'json', '--lang', 'en', 'l.digest'], folder).stdout) as { files: { diagnostics: { message: string }[] }[] };
    const sarif = JSON.parse(run(['check', '--format', 'sarif', '--lang', 'en', 'l.digest'], folder).stdout) as { runs: { results: { message: { text: string } }[] }[] };
    const messages = json.files[0].diagnostics.map((d) => d.message);
    const texts = sarif.runs[0].results.map((r) => r.message.text);
    assert.ok(messages.some((m) => m.includes('[Fix_needed](https://evil.example/phish)')), messages.join('\n'));
    assert.equal(texts.length, messages.length);
    assert.ok(messages.some((m) => m.includes('a\\b{0}}')), messages.join('\n'));
    for (const [i, t] of texts.entries()) {
      // No bracket, backslash or brace without its escape, and unescaped it is the message itself.
      assert.doesNotMatch(t.replace(/\\[\\[\]]/g, '').replace(/\{\{|\}\}/g, ''), /[\\[\]{}]/, t);
      assert.equal(t.replace(/\\([\\[\]])/g, '$1').replace(/([{}])\1/g, '$1'), messages[i]);
    }
  });

  test('Should print no line or paragraph separator of a digest in check\'s text, where it would start a line of its own', () => {
    const forged = 'other.digest:1:1: error fake-rule pwned';
    const text = digest(entryLines('A', { topicHits: `专题命中 数学推理 ：reasoning(abstract)；x\u2028${forged}\u2029；分类 cs.CL` }));
    const folder = folderWith('separators', { 's.digest': text });
    const result = run(['check', '--lang', 'en', 's.digest'], folder);
    assert.match(result.stdout, /fake-rule pwned/, 'the text is quoted');
    for (const line of result.stdout.split(/\r\n|[\n\r\u2028\u2029\u0085]/)) {
      assert.ok(!line.startsWith(forged), result.stdout);
    }
  });

  test('Should quote no half of a character in check\'s JSON and SARIF, which JSON readers refuse', () => {
    const text = digest(entryLines('A', { topicHits: `专题命中 数学推理 ：${'😀'.repeat(70)}；分类 cs.AI` }));
    const folder = folderWith('emoji', { 'e.digest': text });
    for (const format of ['json', 'sarif']) {
      const out = run(['check', '--format', format, 'e.digest'], folder).stdout;
      assert.ok(out.includes('😀'), out.slice(0, 400));
      // No escaped surrogate half without its other half: every \ud83d followed by a low one.
      assert.doesNotMatch(out, /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i, format);
      assert.equal(Buffer.from(out, 'utf8').toString('utf8'), out);
      assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out), `${format}: a lone surrogate in the output`);
      JSON.parse(out);
    }
  });

  test('Should give JSON ranges as an editor counts them, a BOM not counted, as the server does', () => {
    // Line 0 is no heading (an English title): missing-heading there, on a file with a BOM.
    const folder = folderWith('bom', { 'b.digest': '\ufeff' + digest(entryLines('A')).replace(/^[^\n]*\n\n/, '') });
    const report = JSON.parse(run(['check', '--format', 'json', 'b.digest'], folder).stdout) as { files: { diagnostics: { line: number; column: number; range: { start: { line: number; character: number } } }[] }[] };
    const first = report.files[0].diagnostics.find((d) => d.line === 1);
    assert.ok(first, JSON.stringify(report));
    assert.equal(first.range.start.character, first.column - 1);
  });

  test('Should carry the paths it could not read in the JSON and the SARIF, not only on standard error', () => {
    const folder = folderWith('unreadable', { 'ok.digest': readFixture('diagnostics/unknown-category.digest') });
    fs.writeFileSync(path.join(folder, 'gbk.digest'), Buffer.from([0xb4, 0xf3]));
    const json = run(['check', '--format', 'json', 'ok.digest', 'gbk.digest', 'missing.digest'], folder);
    assert.equal(json.status, 2);
    const report = JSON.parse(json.stdout) as { files: unknown[]; failures: string[]; summary: { failures: number } };
    assert.equal(report.files.length, 1);
    assert.equal(report.summary.failures, 2);
    assert.deepEqual(report.failures.map((text) => /'(.*?)'/.exec(text)?.[1]).sort(), ['gbk.digest', 'missing.digest']);
    const sarif = JSON.parse(run(['check', '--format', 'sarif', 'ok.digest', 'gbk.digest'], folder).stdout) as { runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { level: string; message: { text: string } }[] }[] }[] };
    const [invocation] = sarif.runs[0].invocations;
    assert.equal(invocation.executionSuccessful, false);
    assert.deepEqual(invocation.toolExecutionNotifications.map((note) => note.level), ['error']);
    assert.match(invocation.toolExecutionNotifications[0].message.text, /gbk\.digest.*not UTF-8/);
  });

  test('Should fix the files with --fix, keeping the BOM and CRLF line ends, report what remains, and change nothing the second time', () => {
    const original = '\ufeff' + readFixture('fixes/all-mistakes.digest').replace(/\n/g, '\r\n');
    const folder = folderWith('fix', { 'm.digest': original, 'clean.digest': digest(entryLines('Z')) });
    const first = run(['check', '--fix', '.'], folder);
    assert.equal(first.status, 1, first.stderr);
    const fixed = fs.readFileSync(path.join(folder, 'm.digest'), 'utf8');
    assert.equal(fixed, '\ufeff' + readFixture('fixes/all-mistakes.fixed.digest').replace(/\n/g, '\r\n'));
    assert.match(first.stdout, /^Fixed 1 of 2 files\.$/m);
    assert.match(first.stdout, /^5 problems \(1 error, 3 warnings, 1 other\) in 1 of 2 files\.$/m);
    const second = run(['check', '--fix', '.'], folder);
    assert.equal(fs.readFileSync(path.join(folder, 'm.digest'), 'utf8'), fixed);
    assert.match(second.stdout, /^Fixed 0 of 2 files\.$/m);
  });

  test('Should not fix a file another program has open for writing (it may be writing it still), and fix it once closed', () => {
    const original = readFixture('fixes/all-mistakes.digest');
    const folder = folderWith('fix-open', { 'm.digest': original });
    const file = path.join(folder, 'm.digest');
    // This test's process holds it open as a program writing it in place would (the command line is another process).
    const fd = fs.openSync(file, 'r+');
    try {
      const refused = run(['check', '--fix', '--lang', 'en', '.'], folder);
      assert.equal(fs.readFileSync(file, 'utf8'), original, 'not replaced');
      assert.match(refused.stderr, /m\.digest.*another program has it open for writing/, refused.stderr);
      assert.match(refused.stdout, /^Fixed 0 of 1 file\.$/m);
    } finally {
      fs.closeSync(fd);
    }
    // Open for reading only: fixed.
    const reader = fs.openSync(file, 'r');
    try {
      const fixed = run(['check', '--fix', '--lang', 'en', '.'], folder);
      assert.match(fixed.stdout, /^Fixed 1 of 1 file\.$/m, fixed.stdout + fixed.stderr);
      assert.equal(fs.readFileSync(file, 'utf8'), readFixture('fixes/all-mistakes.fixed.digest'));
    } finally {
      fs.closeSync(reader);
    }
  });

  test('Should settle in one run when a fix in one file changes what another is compared with', () => {
    // Closing the bracket in the second file makes 复旦大学 the majority; the first file then
    // differs from it, as a second run would find.
    const folder = folderWith('fix-across', {
      '2026-05-01.digest': digest(entryLines('A', { institutions: '机构 * Fudan University（復旦大學） 纠错' })),
      '2026-05-02.digest': digest(entryLines('B', { institutions: '机构 * Fudan University（复旦大学） 纠错' }), entryLines('C', { institutions: '机构 * Fudan University（复旦大学 纠错' })),
    });
    const first = run(['check', '--fix', '--lang', 'en', '.'], folder);
    assert.equal(first.status, 0, first.stdout + first.stderr);
    assert.match(first.stdout, /^Fixed 2 of 2 files\.$/m);
    assert.match(fs.readFileSync(path.join(folder, '2026-05-01.digest'), 'utf8'), /Fudan University（复旦大学） 纠错/);
    const second = run(['check', '--fix', '--lang', 'en', '.'], folder);
    assert.match(second.stdout, /^Fixed 0 of 2 files\.$/m);
  });

  test('Should leave files alone without --fix', () => {
    const text = readFixture('fixes/all-mistakes.digest');
    const folder = folderWith('nofix', { 'm.digest': text });
    run(['check', 'm.digest'], folder);
    assert.equal(fs.readFileSync(path.join(folder, 'm.digest'), 'utf8'), text);
  });

  test('Should exit 2 with a clear message for a missing file, and still check the others', () => {
    const folder = folderWith('missing', { 'b.digest': readFixture('diagnostics/category-case.digest') });
    const result = run(['check', 'nowhere.digest', 'b.digest'], folder);
    assert.equal(result.status, 2);
    assert.equal(result.stderr, "paper-digest: cannot read 'nowhere.digest': no such file or folder\n");
    assert.match(result.stdout, /^b\.digest:27:53: warning category-case/m);
  });

  test('Should exit 2 for a folder named on the command line with no digest in it, and still check the others', () => {
    const folder = folderWith('nodigests', { 'b.digest': readFixture('diagnostics/category-case.digest'), 'empty.digest/readme.txt': 'not a digest' });
    fs.mkdirSync(path.join(folder, 'nothing'));
    const result = run(['check', 'empty.digest', 'nothing', 'b.digest'], folder);
    assert.equal(result.status, 2);
    assert.equal(result.stderr, "paper-digest: no digest files in 'empty.digest'\npaper-digest: no digest files in 'nothing'\n");
    assert.match(result.stdout, /^b\.digest:27:53: warning category-case/m);
    const zh = run(['check', '--lang', 'zh-cn', 'nothing'], folder);
    assert.equal(zh.status, 2);
    assert.equal(zh.stderr, "paper-digest: “nothing”中没有摘要集文件\n");
    assert.equal(run(['check', '.'], folder).status, 1, 'a folder with a digest below it passes through to the digest');
    const again = run(['check', 'b.digest', '.'], folder);
    assert.equal(again.stderr, '', 'a folder whose digest was named before it is not empty');
    assert.equal(run(['check', pathToFileURL(path.join(folder, 'nothing')).href], folder).status, 2, 'a folder given as a file: URL too');
  });

  test('Should exit 2 for a file that is not UTF-8 text', () => {
    const folder = folderWith('binary', { 'x.digest': Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]) });
    const result = run(['check', '.'], folder);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /cannot read '.*x\.digest': it is not UTF-8 text/);
  });

  test('Should exit 2 on bad usage, with a message and a pointer to --help', () => {
    const cases: [string[], RegExp][] = [
      [[], /no command given/],
      [['lint', 'a.digest'], /unknown command 'lint'/],
      [['check'], /at least one file or folder/],
      [['check', '--format', 'xml', 'a.digest'], /unknown format 'xml'/],
      [['check', '--format'], /--format needs a value/],
      [['check', '--fast', 'a.digest'], /unknown option '--fast'/],
    ];
    for (const [args, message] of cases) {
      const result = run(args, work);
      assert.equal(result.status, 2, args.join(' '));
      assert.match(result.stderr, message);
      assert.match(result.stderr, /paper-digest --help/);
      assert.equal(result.stdout, '');
    }
  });

  test('Should print its usage with --help and its version with --version, exiting 0', () => {
    const help = run(['--help'], work);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^Usage: paper-digest check \[--fix\] \[--format text\|json\|sarif\] \[--lang both\|en\|zh-cn\|auto\] PATH\.\.\./);
    const version = run(['--version'], work);
    assert.equal(version.status, 0);
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout, `${manifest.version}\n`);
    // Every command takes -V and --version, as it takes --help.
    for (const command of ['check', 'stats', 'papers', 'mark']) {
      for (const option of ['-V', '--version']) {
        const each = run([command, option, '--lang', 'en'], work);
        assert.equal(each.status, 0, `${command} ${option}: ${each.stderr}`);
        assert.equal(each.stdout, `${manifest.version}\n`, `${command} ${option}`);
        assert.equal(each.stderr, '');
      }
      assert.match(run([command, '--help', '--lang', 'en'], work).stdout, /-V, --version +show the version/, command);
    }
  });

  test('Should find in the real sample only its [cs.AI] item', { skip: !fs.existsSync(path.join(REPO_ROOT, '..', 'shared', 'samples')) && 'no sample beside the repository' }, () => {
    const result = run(['check', '--format', 'json', path.join(REPO_ROOT, '..', 'shared', 'samples')], work);
    const report = JSON.parse(result.stdout) as { files: { diagnostics: { code: string }[] }[] };
    assert.ok(report.files.length > 0);
    assert.deepEqual(report.files.flatMap((f) => f.diagnostics.map((d) => d.code)), ['not-an-institution']);
  });
});

/** Runs the command line with a time limit, so that a hang fails the test instead of stalling it. */
function runBounded(args: string[], cwd: string, shellPrefix?: string): Run & { signal: NodeJS.Signals | null } {
  const result = shellPrefix
    ? spawnSync('bash', ['-c', `${shellPrefix} && exec "$0" "$@"`, process.execPath, CLI, ...args], { cwd, encoding: 'utf8', timeout: 30_000, maxBuffer: 128 * 1024 * 1024 })
    : spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 30_000, maxBuffer: 128 * 1024 * 1024 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, signal: result.signal };
}

function stderrLines(result: Run): string[] {
  return result.stderr.split('\n').filter((line) => line.length > 0);
}

function mkfifo(file: string): void {
  const made = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
}

function jsonPaths(result: Run): string[] {
  return (JSON.parse(result.stdout) as { files: { path: string }[] }).files.map((f) => f.path);
}

describe('paper-digest check: special files, links and names', () => {
  test('Should say so in one line when the current folder no longer exists, in the language asked for', () => {
    const folder = folderWith('cwd-gone', { 'a.digest': digest(entryLines('A')) });
    const gone = path.join(folder, 'gone');
    for (const [args, said] of [
      [['check', path.join(folder, 'a.digest')], /^paper-digest: the current folder no longer exists \(it was removed or moved\)/],
      [['papers', '--lang', 'zh-cn'], /^paper-digest: 当前文件夹已不存在/],
    ] as const) {
      fs.mkdirSync(gone);
      const result = runBounded([...args], folder, `cd ${JSON.stringify(gone)} && rmdir ${JSON.stringify(gone)}`);
      assert.equal(result.status, 2, result.stderr);
      assert.equal(stderrLines(result).length, 1, result.stderr);
      assert.match(result.stderr, said);
      assert.doesNotMatch(result.stderr, /ENOENT|uv_cwd/);
    }
  });

  test('Should list at most 10,000 problems of a file, say so, and stay small', () => {
    // Each stray line is a problem: 12,000 of them in 24 KB.
    const folder = folderWith('many-problems', { 'm.digest': '数学推理\n\n' + 'x\n'.repeat(12_000), 'n.digest': '数学推理\n\n' + 'x\n'.repeat(12_000) });
    const json = runBounded(['check', '--format', 'json', '.'], folder);
    assert.equal(json.status, 1, `${json.signal} ${json.stderr}`);
    assert.ok(json.stdout.length < 64_000_000, `${json.stdout.length} characters`);
    const report = JSON.parse(json.stdout) as { files: { path: string; truncated?: boolean; diagnostics: unknown[] }[] };
    assert.deepEqual(report.files.map((file) => [file.path, file.diagnostics.length, file.truncated]), [['m.digest', 10_000, true], ['n.digest', 10_000, true]]);
    const text = runBounded(['check', '--lang', 'en', 'm.digest'], folder);
    assert.equal(text.status, 1, text.stderr);
    const lines = text.stdout.trimEnd().split('\n');
    assert.equal(lines.at(-2), 'm.digest: more than 10000 problems; only the first 10000 are listed');
    assert.match(lines.at(-1)!, /^At least 10000 problems/);
    const chinese = runBounded(['check', '--lang', 'zh-cn', 'm.digest'], folder);
    assert.ok(chinese.stdout.includes('m.digest: 问题超过 10000 个，只列出前 10000 个'), chinese.stdout.slice(-300));
  });

  test('Should say so of a file of one problem in each of more than 10,000 papers, and not of one with exactly 10,000', () => {
    // The checks stop at the entry where the limit is reached: with one problem a paper they
    // stopped at exactly 10,000, and the file was not said to have more.
    const papers = (count: number, name: string): string => '数学推理\n\n' + Array.from({ length: count }, (_, i) => `${name} ${i}\n\n中文${i}\n\nA B, C D\n\n专题命中 数学推理 ：reasoning；分类 cs.LG\n\nAI总结 x\n\n`).join('');
    const folder = folderWith('one-problem-a-paper', { 'p.digest': papers(12_000, 'Title'), 'q.digest': papers(10_000, 'Other') });
    const report = JSON.parse(runBounded(['check', '--format', 'json', '.'], folder).stdout) as { files: { path: string; truncated?: boolean; diagnostics: unknown[] }[] };
    assert.deepEqual(report.files.map((file) => [file.path, file.diagnostics.length, file.truncated ?? false]), [['p.digest', 10_000, true], ['q.digest', 10_000, false]]);
    const lines = runBounded(['check', '--lang', 'en', 'p.digest'], folder).stdout.trimEnd().split('\n');
    assert.equal(lines.at(-2), 'p.digest: more than 10000 problems; only the first 10000 are listed');
    assert.match(lines.at(-1)!, /^At least 10000 problems/);
  });

  test('Should check and fix files of 10 million short lines within the size cap in bounded memory, as the editor does', () => {
    // 30 MB each, under the 32 MB cap, far past the lines limit: the first part alone is parsed.
    const text = 'a\n\n'.repeat(10_000_000);
    const folder = folderWith('many-lines', { 'a.digest': text, 'b.digest': text });
    // Parsing them whole took 2 GB each; in 400 MB of heap that is a crash (signal 6), not an answer.
    const result = runBounded(['check', '--fix', '--format', 'json', '.'], folder, 'export NODE_OPTIONS=--max-old-space-size=400');
    assert.equal(result.status, 1, `${result.signal} ${result.stderr.slice(0, 500)}`);
    const report = JSON.parse(result.stdout) as { files: { path: string; diagnostics: { code: string }[] }[] };
    assert.deepEqual(
      report.files.map((file) => [file.path, file.diagnostics.map((d) => d.code)]),
      [
        ['a.digest', ['document-too-large']],
        ['b.digest', ['document-too-large']],
      ],
    );
    for (const name of ['a.digest', 'b.digest']) assert.ok(fs.readFileSync(path.join(folder, name), 'utf8') === text, `${name} is left as it was`);
  });

  test('Should refuse an empty path rather than check the current folder (exit 2)', () => {
    const folder = folderWith('empty-path', { 'a.digest': readFixture('fixes/all-mistakes.digest') });
    for (const command of [['check'], ['stats'], ['papers']]) {
      const result = runBounded([...command, '--lang', 'en', ''], folder);
      assert.equal(result.status, 2, `${command}: ${result.stderr}`);
      assert.ok(stderrLines(result).includes("paper-digest: cannot read '': an empty path names no file"), result.stderr);
      assert.ok(!result.stdout.includes('a.digest'), `${command} read the current folder: ${result.stdout.slice(0, 200)}`);
    }
  });

  test('Should report a FIFO as unreadable without opening it, and check the other files', () => {
    const folder = folderWith('fifo', { 'a.digest': readFixture('diagnostics/category-case.digest') });
    mkfifo(path.join(folder, 'pipe.digest'));
    const walked = runBounded(['check', '.'], folder);
    assert.equal(walked.signal, null, 'the checker hung on the FIFO');
    assert.equal(walked.status, 2, walked.stderr);
    assert.deepEqual(stderrLines(walked), ["paper-digest: cannot read 'pipe.digest': it is a FIFO, not a regular file"]);
    assert.match(walked.stdout, /^a\.digest:27:53: warning category-case/m);
    const named = runBounded(['check', 'pipe.digest'], folder);
    assert.equal(named.signal, null);
    assert.equal(named.status, 2);
    assert.deepEqual(stderrLines(named), ["paper-digest: cannot read 'pipe.digest': it is a FIFO, not a regular file"]);
  });

  test('Should say why a path with a NUL character, or a file the system reads with an I/O or an invalid-argument error, cannot be read, in its own words', () => {
    // Node's texts were shown as they are (`The argument 'path' must be … without null bytes`, `EIO: i/o error, read`).
    const folder = folderWith('system-errors', { 'a.digest': digest(entryLines('A')) });
    const nul = run(['check', '--lang', 'en', 'file:///tmp/x/%00'], folder);
    assert.equal(nul.status, 2);
    assert.deepEqual(stderrLines(nul), ["paper-digest: cannot read 'file:///tmp/x/%00': its path holds a NUL character"]);
    assert.deepEqual(stderrLines(run(['check', '--lang', 'zh-cn', 'file:///tmp/x/%00'], folder)), ["paper-digest: 无法读取“file:///tmp/x/%00”：其路径含有 NUL 字符"]);
    for (const [code, english] of [
      ['EIO', 'an input/output error of the disk or its file system'],
      ['EINVAL', 'the system cannot read it as a file'],
    ]) {
      assert.equal(messageText(reasonOf(Object.assign(new Error(`${code}: system text, read`), { code }))).en, english);
    }
    if (fs.existsSync('/proc/self/pagemap')) {
      // A read that /proc's pagemap refuses (EINVAL) where Linux has it.
      const pagemap = run(['check', '--lang', 'en', '/proc/self/pagemap'], folder);
      assert.equal(pagemap.status, 2);
      assert.deepEqual(stderrLines(pagemap), ["paper-digest: cannot read '/proc/self/pagemap': the system cannot read it as a file"]);
    }
  });

  test('Should say a digest or folder whose name is not UTF-8 is named so, not that it is missing', () => {
    const folder = folderWith('undecodable-names', { 'a.digest': digest(entryLines('A')), [`ok-\ufffd.digest`]: digest(entryLines('B')) });
    // A name of bytes that are not UTF-8 (0xFF), and a folder of such a name holding a digest.
    const raw = (name: string): Buffer => Buffer.concat([Buffer.from(folder + '/'), Buffer.from([0xff]), Buffer.from(name)]);
    fs.writeFileSync(raw('-bad.digest'), digest(entryLines('C')));
    fs.mkdirSync(raw('-dir'));
    fs.writeFileSync(Buffer.concat([raw('-dir'), Buffer.from('/d.digest')]), digest(entryLines('D')));
    const walked = run(['check', '--lang', 'en', '.'], folder);
    assert.equal(walked.status, 2, walked.stderr);
    assert.deepEqual(stderrLines(walked), [
      "paper-digest: cannot read '\ufffd-bad.digest': its name is not UTF-8 text; rename it to read it",
      "paper-digest: cannot read folder '\ufffd-dir': its name is not UTF-8 text; rename it to read it",
    ]);
    // The other two are checked: one whose name holds U+FFFD itself is a name.
    assert.match(walked.stdout, /2 files/);
    const zh = run(['check', '--lang', 'zh-cn', '.'], folder);
    assert.equal(zh.status, 2);
    assert.ok(stderrLines(zh).some((line) => line.includes('它的名称不是 UTF-8 文本；重命名后才能读取')), zh.stderr);
    // Beside a file whose name the listing gives alike (`ok-` then U+FFFD itself): each is told.
    fs.writeFileSync(Buffer.concat([Buffer.from(folder + '/ok-'), Buffer.from([0xff]), Buffer.from('.digest')]), digest(entryLines('E')));
    const alike = run(['check', '--lang', 'en', '.'], folder);
    assert.equal(alike.status, 2);
    assert.ok(stderrLines(alike).includes("paper-digest: cannot read 'ok-\ufffd.digest': its name is not UTF-8 text; rename it to read it"), alike.stderr);
    assert.match(alike.stdout, /2 files/);
    // Told by kind too: a file whose name holds U+FFFD beside a folder, listed alike, whose name
    // is not UTF-8; a folder whose name holds U+FFFD beside a file (not a digest) listed alike.
    const kinds = folderWith('undecodable-kinds', { 'x\ufffd.digest': digest(entryLines('F')), 'd\ufffd/in.digest': digest(entryLines('G')) });
    fs.mkdirSync(Buffer.concat([Buffer.from(kinds + '/x'), Buffer.from([0xff]), Buffer.from('.digest')]));
    fs.writeFileSync(Buffer.concat([Buffer.from(kinds + '/d'), Buffer.from([0xff])]), 'not a digest');
    const byKind = run(['check', '--lang', 'en', '.'], kinds);
    assert.equal(byKind.status, 2, byKind.stderr);
    assert.deepEqual(stderrLines(byKind), ["paper-digest: cannot read folder 'x\ufffd.digest': its name is not UTF-8 text; rename it to read it"]);
    assert.match(byKind.stdout, /2 files/);
    // Given as an argument, such a name comes as text with U+FFFD: said so too.
    const given = run(['check', '--lang', 'en', '\ufffd-bad.digest'], folder);
    assert.equal(given.status, 2);
    assert.deepEqual(stderrLines(given), [
      "paper-digest: cannot read '\ufffd-bad.digest': no such file or folder (a name that is not UTF-8 text cannot be given here: give its folder, or rename it)",
    ]);
  });

  test('Should say once why a folder gave nothing to check: not also that it holds no digest', () => {
    const folder = folderWith('only-a-link', {});
    fs.mkdirSync(path.join(folder, 'd'), { recursive: true });
    fs.symlinkSync('/dev/zero', path.join(folder, 'd', 'zero.digest'));
    const result = run(['check', '--lang', 'en', 'd'], folder);
    assert.equal(result.status, 2);
    assert.deepEqual(stderrLines(result), ["paper-digest: cannot read 'd/zero.digest': it is a symbolic link to outside 'd'"]);
    // A file named with a separator at its end is no folder: not read (nor fixed).
    fs.writeFileSync(path.join(folder, 'a.digest'), digest(entryLines('A')));
    const slash = run(['check', '--lang', 'en', 'a.digest/'], folder);
    assert.equal(slash.status, 2);
    assert.deepEqual(stderrLines(slash), ["paper-digest: cannot read 'a.digest/': its path goes through a file as if it were a folder"]);
    // A folder with nothing to say of it is said to hold no digest.
    fs.mkdirSync(path.join(folder, 'empty'));
    assert.deepEqual(stderrLines(run(['check', '--lang', 'en', 'empty'], folder)), ["paper-digest: no digest files in 'empty'"]);
  });

  test('Should report a link to /dev/zero as unreadable without reading it', () => {
    const folder = folderWith('zero', { 'a.digest': digest(entryLines('A')) });
    fs.symlinkSync('/dev/zero', path.join(folder, 'zero.digest'));
    const walked = runBounded(['check', '.'], folder);
    assert.equal(walked.signal, null, 'the checker read /dev/zero without end');
    assert.equal(walked.status, 2);
    assert.deepEqual(stderrLines(walked), ["paper-digest: cannot read 'zero.digest': it is a symbolic link to outside '.'"]);
    const named = runBounded(['check', 'zero.digest'], folder);
    assert.equal(named.signal, null);
    assert.equal(named.status, 2);
    assert.deepEqual(stderrLines(named), ["paper-digest: cannot read 'zero.digest': it is a symbolic link to a character device"]);
  });

  test('Should refuse a file above 32 MB before reading it', () => {
    const folder = folderWith('huge', {});
    fs.mkdirSync(folder);
    const file = path.join(folder, 'huge.digest');
    const fd = fs.openSync(file, 'w');
    fs.ftruncateSync(fd, 32 * 1024 * 1024 + 1);
    fs.closeSync(fd);
    const result = runBounded(['check', '.'], folder);
    assert.equal(result.status, 2);
    assert.deepEqual(stderrLines(result), ["paper-digest: cannot read 'huge.digest': it is bigger than 32 MB (33,554,433 B)"]);
  });

  test('Should not walk a link to / nor follow links out of the folder, and never write through them', () => {
    const outside = folderWith('outside', { 'o.digest': readFixture('fixes/all-mistakes.digest') });
    const folder = folderWith('links', { 'a.digest': digest(entryLines('A')) });
    fs.symlinkSync('/', path.join(folder, 'disk'));
    fs.symlinkSync('/', path.join(folder, 'disk.digest'));
    fs.symlinkSync(path.join(outside, 'o.digest'), path.join(folder, 'o.digest'));
    fs.symlinkSync(outside, path.join(folder, 'outside-folder'));
    const result = runBounded(['check', '--fix', '--format', 'json', '.'], folder);
    assert.equal(result.signal, null, 'the checker walked the disk');
    assert.equal(result.status, 2, result.stderr);
    assert.deepEqual(jsonPaths(result), ['a.digest']);
    assert.deepEqual(stderrLines(result), [
      "paper-digest: cannot read 'disk.digest': it is a symbolic link to outside '.'",
      "paper-digest: cannot read 'o.digest': it is a symbolic link to outside '.'",
    ]);
    assert.equal(fs.readFileSync(path.join(outside, 'o.digest'), 'utf8'), readFixture('fixes/all-mistakes.digest'));
  });

  test('Should check each real file once: links back into the folder make no false duplicates', () => {
    const folder = folderWith('loops', { 'sub/a.digest': digest(entryLines('A')) });
    fs.symlinkSync(path.join(folder, 'sub'), path.join(folder, 'again'));
    fs.symlinkSync(path.join(folder, 'sub', 'a.digest'), path.join(folder, 'alias.digest'));
    fs.symlinkSync('.', path.join(folder, 'sub', 'self'));
    const result = runBounded(['check', '--format', 'json', '.'], folder);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.deepEqual(jsonPaths(result), [path.join('sub', 'a.digest')]);
    assert.equal(result.stderr, '');
  });

  test('Should refuse --fix through a symbolic link named on the command line, leaving both as they are', () => {
    const text = readFixture('fixes/all-mistakes.digest');
    const folder = folderWith('fixlink', { 'real.digest': text });
    fs.symlinkSync('real.digest', path.join(folder, 'link.digest'));
    const result = runBounded(['check', '--fix', 'link.digest'], folder);
    assert.equal(result.status, 2);
    assert.deepEqual(stderrLines(result), ["paper-digest: cannot write 'link.digest': it is a symbolic link: links are never written through; it was left as it is"]);
    assert.equal(fs.readFileSync(path.join(folder, 'real.digest'), 'utf8'), text);
    assert.ok(fs.lstatSync(path.join(folder, 'link.digest')).isSymbolicLink());
    assert.match(result.stdout, /^Fixed 0 of 1 file\.$/m);
  });

  test('Should escape control characters of file names in text output, and keep them as data in JSON and SARIF', () => {
    const name = 'evil\nb.digest:1:1: error fake-code\u001b[31m.digest';
    const folder = folderWith('names', { [name]: readFixture('diagnostics/category-case.digest') });
    const text = runBounded(['check', '.'], folder);
    assert.equal(text.status, 1);
    const lines = text.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, text.stdout);
    assert.ok(lines[0].startsWith('evil\\nb.digest:1:1: error fake-code\\x1b[31m.digest:27:53: warning category-case'), lines[0]);
    const json = runBounded(['check', '--format', 'json', '.'], folder);
    assert.deepEqual(jsonPaths(json), [name]);
    const sarif = JSON.parse(runBounded(['check', '--format', 'sarif', '.'], folder).stdout) as { runs: { artifacts: { location: { uri: string } }[] }[] };
    assert.equal(decodeURIComponent(sarif.runs[0].artifacts[0].location.uri), name);
    const unreadable = path.join(folder, 'bad\nname.digest');
    fs.writeFileSync(unreadable, Buffer.from([0xff]));
    const failed = runBounded(['check', '.'], folder);
    assert.deepEqual(stderrLines(failed), ["paper-digest: cannot read 'bad\\nname.digest': it is not UTF-8 text"]);
  });

  test('Should exit 2 with one line for a file URL it cannot convert', () => {
    for (const url of ['file://host/x.digest', 'file:%zz']) {
      const result = runBounded(['check', url], work);
      assert.equal(result.status, 2, url);
      assert.equal(stderrLines(result).length, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`^paper-digest: cannot read '${url.replace(/[.%]/g, '\\$&')}': it is not a file URL of this machine \\(.+\\)\\n$`));
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
    const folder = folderWith('url', { 'u.digest': readFixture('diagnostics/category-case.digest') });
    const good = runBounded(['check', `file://${path.join(folder, 'u.digest')}`], work);
    assert.equal(good.status, 1, good.stderr);
    // The scheme in any case, as URLs have it.
    const upper = runBounded(['check', `FILE://${path.join(folder, 'u.digest')}`], work);
    assert.equal(upper.status, 1, upper.stderr);
    assert.equal(upper.stdout, good.stdout);
    // A query or a fragment is no part of a file's path: refused, not dropped.
    for (const url of [`file://${folder}?x=1`, `file://${folder}#top`, `file://${path.join(folder, 'u.digest')}?`]) {
      const result = runBounded(['check', url], work);
      assert.equal(result.status, 2, url);
      assert.deepEqual(stderrLines(result), [`paper-digest: cannot read '${url}': a file URL with a query or a fragment (?… or #…) names no file`]);
    }
  });

  test('Should say that a path goes through a file, not that there is no such file', () => {
    const folder = folderWith('through', { 'u.digest': readFixture('diagnostics/category-case.digest') });
    for (const given of ['u.digest/', 'u.digest/x.digest']) {
      const result = runBounded(['check', given], folder);
      assert.equal(result.status, 2, given);
      assert.deepEqual(stderrLines(result), [`paper-digest: cannot read '${given}': its path goes through a file as if it were a folder`]);
      const zh = runBounded(['check', '--lang', 'zh-cn', given], folder);
      assert.deepEqual(stderrLines(zh), [`paper-digest: 无法读取“${given}”：它的路径把一个文件当作文件夹`]);
    }
  });
});

describe('paper-digest check --fix: nothing lost', () => {
  test('Should replace the file atomically, keeping its mode', () => {
    const folder = folderWith('atomic', { 'm.digest': readFixture('fixes/all-mistakes.digest') });
    const file = path.join(folder, 'm.digest');
    fs.chmodSync(file, 0o640);
    const inode = fs.statSync(file).ino;
    const result = runBounded(['check', '--fix', '.'], folder);
    assert.equal(result.status, 1, result.stderr);
    assert.equal(fs.readFileSync(file, 'utf8'), readFixture('fixes/all-mistakes.fixed.digest'));
    assert.equal(fs.statSync(file).mode & 0o7777, 0o640);
    assert.notEqual(fs.statSync(file).ino, inode, 'written aside and renamed over the file');
    assert.deepEqual(fs.readdirSync(folder), ['m.digest']);
  });

  test('Should check a file with two names (hard links) once, and not fix it, which would separate them', () => {
    const folder = folderWith('hardlinks', { 'a.digest': readFixture('fixes/all-mistakes.digest') });
    const alone = runBounded(['check', '--format', 'json', '.'], folder).stdout;
    fs.linkSync(path.join(folder, 'a.digest'), path.join(folder, 'b.digest'));
    const checked = runBounded(['check', '--format', 'json', '.'], folder);
    const report = JSON.parse(checked.stdout) as { files: { path: string }[] };
    assert.deepEqual(report.files.map((file) => file.path), ['a.digest'], 'one file, under its first name');
    assert.equal(checked.stdout, alone, 'the same report as without the second name: no copy of itself');
    const fixed = runBounded(['check', '--fix', '--lang', 'en', '.'], folder);
    assert.equal(fixed.status, 2, fixed.stderr);
    assert.ok(stderrLines(fixed).includes("paper-digest: cannot write 'a.digest': it has another name (hard links), which replacing it would separate from it; it was left as it is"), fixed.stderr);
    assert.equal(fs.readFileSync(path.join(folder, 'a.digest'), 'utf8'), readFixture('fixes/all-mistakes.digest'));
    assert.equal(fs.statSync(path.join(folder, 'a.digest')).ino, fs.statSync(path.join(folder, 'b.digest')).ino, 'still one file');
  });

  test('Should not replace a digest no one may write (exit 2, left as it is)', () => {
    const folder = folderWith('readonly', { 'm.digest': readFixture('fixes/all-mistakes.digest') });
    fs.chmodSync(path.join(folder, 'm.digest'), 0o444);
    const result = runBounded(['check', '--fix', '--lang', 'en', 'm.digest'], folder);
    assert.equal(result.status, 2, result.stderr);
    assert.ok(stderrLines(result).includes("paper-digest: cannot write 'm.digest': it is read-only (no one may write it); it was left as it is"), result.stderr);
    assert.equal(fs.readFileSync(path.join(folder, 'm.digest'), 'utf8'), readFixture('fixes/all-mistakes.digest'));
    assert.equal(fs.statSync(path.join(folder, 'm.digest')).mode & 0o777, 0o444);
  });

  test('Should leave the file whole when the write fails midway (a file-size limit)', () => {
    const original = readFixture('fixes/all-mistakes.digest').repeat(4);
    assert.ok(Buffer.byteLength(original) > 4096);
    const folder = folderWith('efbig', { 'm.digest': original });
    // ulimit -f counts blocks of 1024 bytes: the fixed text cannot be written whole.
    const result = runBounded(['check', '--fix', 'm.digest'], folder, 'ulimit -f 4');
    assert.equal(result.status, 2, result.stderr);
    assert.deepEqual(stderrLines(result), ["paper-digest: cannot write 'm.digest': the file is bigger than the file-size limit; it was left as it is"]);
    assert.equal(fs.readFileSync(path.join(folder, 'm.digest'), 'utf8'), original);
    assert.deepEqual(fs.readdirSync(folder), ['m.digest']);
  });

  test('Should refuse to overwrite a change saved while it ran (exit 2, the change kept)', () => {
    const folder = folderWith('race', { 'm.digest': readFixture('fixes/all-mistakes.digest'), 'other.digest': readFixture('fixes/all-mistakes.digest') });
    const theirs = readFixture('diagnostics/category-case.digest');
    const out = { stdout: '', stderr: '' };
    const status = runCli(['check', '--fix', '.'], { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) }, folder, {
      beforeReplace: (file) => {
        if (path.basename(file) === 'm.digest') {
          fs.writeFileSync(file, theirs);
        }
      },
    });
    assert.equal(status, 2, out.stderr);
    assert.equal(out.stderr, "paper-digest: cannot write 'm.digest': it changed since it was read; it was left as it is\n");
    assert.equal(fs.readFileSync(path.join(folder, 'm.digest'), 'utf8'), theirs);
    assert.equal(fs.readFileSync(path.join(folder, 'other.digest'), 'utf8'), readFixture('fixes/all-mistakes.fixed.digest'));
    assert.match(out.stdout, /^Fixed 1 of 2 files\.$/m);
    assert.deepEqual(fs.readdirSync(folder).sort(), ['m.digest', 'other.digest']);
  });
});
