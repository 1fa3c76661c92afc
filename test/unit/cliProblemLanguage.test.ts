/**
 * The command line's file and state-file problems in the language of `--lang`, run as the built
 * command line (dist/cli.js): a file that cannot be read or written (missing, a FIFO, a link to a
 * device or out of the folder, over 32 MB, not UTF-8, a link --fix would write through), a
 * corrupt, newer or unusable state file, a state folder that is a link, a locked state file, and
 * the problems of interests.json. Each in English (for en, and for both, as the editor's
 * notifications) and in Chinese, with the exit status 2; what is data (paths, JSON.parse's
 * message) is the same in both.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { messageText } from '../../server/src/service/cliMessages';
import { stateProblemIn } from '../../server/src/service/reading/readingMessages';
import { StateStore } from '../../server/src/service/reading/stateStore';
import { NodeStateDisk } from '../../server/src/stateDisk';
import { run, Run } from '../support/builtCli';
import { digest, entryLines, readFixture } from '../support/fixtures';
import { readingWorkspace } from '../support/readingFixtures';
import { temporaryFolders } from '../support/tempFolders';

const temp = temporaryFolders();

function folder(): string {
  return temp.make('paper-digest-problems-');
}

function workspace(): string {
  return temp.keep(readingWorkspace());
}

/** The lines on stderr, each without its `paper-digest: `. */
function problems(result: Run): string[] {
  return result.stderr
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      assert.ok(line.startsWith('paper-digest: '), line);
      return line.slice('paper-digest: '.length);
    });
}

/**
 * Runs `args` with `--lang en`, `--lang both` and `--lang zh-cn` and checks exit 2 and the
 * problems: `english` for en and both, `chinese` for zh-cn.
 */
function expectProblems(args: string[], cwd: string, english: string[], chinese: string[]): void {
  for (const [language, expected] of [
    ['en', english],
    ['both', english],
    ['zh-cn', chinese],
  ] as const) {
    const result = run([...args, '--lang', language], cwd);
    assert.equal(result.status, 2, `${language}: ${JSON.stringify(result)}`);
    assert.deepEqual(problems(result), expected, language);
  }
}

/** JSON.parse's own message for `text`, which the problems keep as data. */
function parseError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('valid JSON');
}

describe('paper-digest check --lang: files that cannot be read or written', () => {
  test('Should say a missing file in the language asked for', () => {
    const cwd = folder();
    expectProblems(['check', 'nowhere.digest'], cwd, ["cannot read 'nowhere.digest': no such file or folder"], ["无法读取“nowhere.digest”：没有这个文件或文件夹"]);
  });

  test('Should say a FIFO, a link to a device and a link out of the folder in the language asked for', () => {
    const cwd = folder();
    fs.writeFileSync(path.join(cwd, 'a.digest'), digest(entryLines('A')));
    assert.equal(spawnSync('mkfifo', [path.join(cwd, 'pipe.digest')]).status, 0);
    fs.symlinkSync('/dev/zero', path.join(cwd, 'zero.digest'));
    expectProblems(
      ['check', '.'],
      cwd,
      ["cannot read 'zero.digest': it is a symbolic link to outside '.'", "cannot read 'pipe.digest': it is a FIFO, not a regular file"],
      ["无法读取“zero.digest”：它是指向“.”之外的符号链接", "无法读取“pipe.digest”：它是命名管道（FIFO），不是普通文件"],
    );
    expectProblems(['check', 'zero.digest'], cwd, ["cannot read 'zero.digest': it is a symbolic link to a character device"], ["无法读取“zero.digest”：它是指向字符设备的符号链接"]);
    expectProblems(['check', 'pipe.digest'], cwd, ["cannot read 'pipe.digest': it is a FIFO, not a regular file"], ["无法读取“pipe.digest”：它是命名管道（FIFO），不是普通文件"]);
  });

  test('Should say a file over the 32 MB limit and a file that is not UTF-8 in the language asked for', () => {
    const cwd = folder();
    const fd = fs.openSync(path.join(cwd, 'huge.digest'), 'w');
    fs.ftruncateSync(fd, 32 * 1024 * 1024 + 1);
    fs.closeSync(fd);
    fs.writeFileSync(path.join(cwd, 'latin1.digest'), Buffer.from([0x41, 0xe9, 0x0a]));
    expectProblems(
      ['check', '.'],
      cwd,
      ["cannot read 'huge.digest': it is bigger than 32 MB (33,554,433 B)", "cannot read 'latin1.digest': it is not UTF-8 text"],
      ["无法读取“huge.digest”：它大于 32 MB（33,554,433 B）", "无法读取“latin1.digest”：它不是 UTF-8 文本"],
    );
  });

  test('Should say why --fix does not write through a link in the language asked for, leaving the file', () => {
    const cwd = folder();
    const text = readFixture('fixes/all-mistakes.digest');
    fs.writeFileSync(path.join(cwd, 'real.digest'), text);
    fs.symlinkSync(path.join(cwd, 'real.digest'), path.join(cwd, 'link.digest'));
    expectProblems(
      ['check', '--fix', 'link.digest'],
      cwd,
      ["cannot write 'link.digest': it is a symbolic link: links are never written through; it was left as it is"],
      ["无法写入“link.digest”：它是符号链接：从不经由链接写入；文件保持原样"],
    );
    assert.equal(fs.readFileSync(path.join(cwd, 'real.digest'), 'utf8'), text);
  });

  test('Should say a missing path of stats and papers in the language asked for', () => {
    const cwd = folder();
    expectProblems(['stats', '--format', 'json', 'nowhere'], cwd, ["cannot read 'nowhere': no such file or folder"], ["无法读取“nowhere”：没有这个文件或文件夹"]);
    expectProblems(['papers', '--format', 'json', 'nowhere'], cwd, ["cannot read 'nowhere': no such file or folder"], ["无法读取“nowhere”：没有这个文件或文件夹"]);
  });
});

describe('paper-digest papers and mark --lang: the state file and interests.json', () => {
  const stateFile = (work: string): string => path.join(work, '.paper-digest', 'state.json');
  const put = (work: string, name: string, text: string): void => {
    fs.mkdirSync(path.join(work, '.paper-digest'), { recursive: true });
    fs.writeFileSync(path.join(work, '.paper-digest', name), text);
  };

  test('Should say a corrupt state file in the language asked for, JSON.parse’s message as it is', () => {
    const work = workspace();
    const text = '{ "version": 1, "papers": ';
    put(work, 'state.json', text);
    const detail = parseError(text);
    const english = [`${stateFile(work)} is corrupt: not valid JSON (${detail}); it is left untouched and reading state is read-only until it is fixed`];
    const chinese = [`${stateFile(work)} 已损坏：不是有效的 JSON（${detail}）；文件保持原样，修复之前阅读状态为只读`];
    expectProblems(['papers', '--format', 'json'], work, english, chinese);
    expectProblems(['mark', 'read', '--title', 'protein'], work, english, chinese);
    assert.equal(fs.readFileSync(stateFile(work), 'utf8'), text, 'left untouched');
  });

  test('Should say a state file of a newer version and one of a wrong shape in the language asked for', () => {
    const work = workspace();
    put(work, 'state.json', '{ "version": 2, "papers": {} }');
    expectProblems(
      ['mark', 'star', '--title', 'protein'],
      work,
      [`${stateFile(work)} cannot be used: its version 2 is not one this version of Paper Digest knows (1); it is left untouched and reading state is read-only until it is fixed`],
      [`${stateFile(work)} 无法使用：其版本 2 不是此版本 Paper Digest 认识的版本（1）；文件保持原样，修复之前阅读状态为只读`],
    );
    put(work, 'state.json', '{ "version": 1, "papers": { "p": { "read": "yes" } } }');
    expectProblems(
      ['papers', '--format', 'json'],
      work,
      [`${stateFile(work)} is corrupt: paper "p": "read" is not true or false; it is left untouched and reading state is read-only until it is fixed`],
      [`${stateFile(work)} 已损坏：论文 "p"："read" 不是 true 或 false；文件保持原样，修复之前阅读状态为只读`],
    );
    put(work, 'state.json', '[]');
    expectProblems(
      ['papers', '--format', 'json'],
      work,
      [`${stateFile(work)} is corrupt: the top level is not a JSON object; it is left untouched and reading state is read-only until it is fixed`],
      [`${stateFile(work)} 已损坏：顶层不是 JSON 对象；文件保持原样，修复之前阅读状态为只读`],
    );
  });

  test('Should say a state file that is a folder and a state folder that is a link in the language asked for', () => {
    const work = workspace();
    fs.mkdirSync(stateFile(work), { recursive: true });
    expectProblems(
      ['mark', 'read', '--title', 'protein'],
      work,
      [`${stateFile(work)} cannot be read (it is a folder, not a regular file); reading state is read-only`],
      [`${stateFile(work)} 无法读取（它是文件夹，不是普通文件）；阅读状态为只读`],
    );
    const linked = workspace();
    const outside = folder();
    fs.symlinkSync(outside, path.join(linked, '.paper-digest'));
    const stateFolder = path.join(linked, '.paper-digest');
    expectProblems(
      ['mark', 'read', '--title', 'protein'],
      linked,
      [`${stateFile(linked)} cannot be read (${stateFolder} is a symbolic link, which Paper Digest does not follow); reading state is read-only`],
      [`${stateFile(linked)} 无法读取（${stateFolder} 是符号链接，Paper Digest 不跟随符号链接）；阅读状态为只读`],
    );
    assert.deepEqual(fs.readdirSync(outside), [], 'nothing written through the link');
  });

  test('Should say interests.json that is not JSON, and each problem of its content, in the language asked for', () => {
    const work = workspace();
    const file = path.join(work, '.paper-digest', 'interests.json');
    const text = '{ "keywords": [ ';
    put(work, 'interests.json', text);
    const detail = parseError(text);
    expectProblems(['papers', '--format', 'json'], work, [`${file} is not valid JSON (${detail}); papers are not ranked by it`], [`${file} 不是有效的 JSON（${detail}）；不按它给论文排序`]);
    put(work, 'interests.json', JSON.stringify({ keywords: ['probes', { term: 'x', weight: 'heavy' }, {}], authors: 'Alice', colours: [], hideBelow: 'low' }));
    expectProblems(
      ['papers', '--format', 'json'],
      work,
      [
        `${file}: the weight of "x" is not a number from -1000 to 1000`,
        `${file}: an item of "keywords" has no term`,
        `${file}: "authors" is not a list`,
        `${file}: unknown field "colours"`,
        `${file}: "hideBelow" is not a number`,
      ],
      [`${file} 有误："x" 的 weight 不是 -1000 到 1000 之间的数字`, `${file} 有误："keywords" 中有一项没有 term`, `${file} 有误："authors" 不是列表`, `${file} 有误：未知字段 "colours"`, `${file} 有误："hideBelow" 不是数字`],
    );
  });

  test('Should say a state file locked by another writer in the language asked for, as mark prints it', () => {
    const work = workspace();
    put(work, 'state.json', '{ "version": 1, "papers": {} }');
    // A lock held by a live process (this one) is waited for, then reported.
    fs.writeFileSync(`${stateFile(work)}.lock`, `${process.pid}\n`);
    const store = new StateStore(new NodeStateDisk(work, { lock: { waitMs: 0 } }));
    store.load();
    const result = store.change(['p'], { read: true });
    assert.deepEqual(result.changed, []);
    assert.ok(result.messageRef, JSON.stringify(result));
    const lock = `${stateFile(work)}.lock`;
    assert.equal(
      stateProblemIn(result.messageRef, 'en'),
      `${stateFile(work)} could not be written: ${stateFile(work)} is being written by another process (${lock} is held); nothing was changed`,
    );
    assert.equal(result.message, messageText(result.messageRef).en);
    assert.equal(stateProblemIn(result.messageRef, 'zh-cn'), `${stateFile(work)} 无法写入：${stateFile(work)} 正被另一个进程写入（${lock} 被占用）；未做任何更改`);
  });
});
