// The rules of decisions.md §5 on their own: the worktree hash (with the worked example of
// docs/code-sync.md), strict base64, the entry rule, and image references in Python source.
import { describe, expect, test } from 'vitest';
import { decodeBase64Strict } from '../../../src/lib/base64.js';
import { chooseEntry } from '../../../src/modules/code-sync/entry.js';
import { manifestOf, worktreeHash } from '../../../src/modules/code-sync/hash.js';
import { ImageIdScanner, imageRefsIn } from '../../../src/modules/code-sync/images.js';

describe('worktree hash', () => {
  test('the worked example of docs/code-sync.md', () => {
    const files = [
      { path: 'src/app.py', content: 'print("hello")\n' },
      { path: 'config.py', content: 'IMG = "img_0123456789abcdef"\n' },
    ];
    expect(manifestOf(files).toString('utf8')).toBe(
      'config.py\0dc163690278b4366faab9d5cd3507e1d9ded144317f6369eaa82e98411350ccd\n' + 'src/app.py\0b80792336156c7b0f7fe02eeef24610d2d52a10d1810397744471d1dc5738180\n',
    );
    expect(worktreeHash(files)).toBe('d1f46af35c8a9a0b1f23f4e2032e8885a18976485cb05d4792d582cf7949f8c5');
  });

  test('sorts by UTF-8 bytes, not by JavaScript string order', () => {
    // U+E000 is EE 80 80 in UTF-8 and U+10000 is F0 90 80 80, so U+E000 comes first; in UTF-16,
    // U+10000 is the surrogate pair D800 DC00, which JavaScript's string order puts first.
    expect('\u{10000}' < '\uE000').toBe(true);
    const manifest = manifestOf([
      { path: '\u{10000}.py', sha256: 'b'.repeat(64) },
      { path: '\uE000.py', sha256: 'a'.repeat(64) },
    ]).toString('utf8');
    expect(manifest.indexOf('\uE000')).toBeLessThan(manifest.indexOf('\u{10000}'));
  });

  test('the order files are given in does not matter; a digest stands for its content', () => {
    const a = { path: 'a.py', content: 'a' };
    const b = { path: 'b/c.py', content: Buffer.from('c') };
    expect(worktreeHash([a, b])).toBe(worktreeHash([b, a]));
    expect(worktreeHash([a, b])).toBe(worktreeHash([a, { path: 'b/c.py', sha256: '2e7d2c03a9507ae265ecf5b5356885a53393a2029d241394997265a1a25aefc6' }]));
    expect(worktreeHash([])).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('strict base64', () => {
  test('decodes padded standard base64 and refuses everything else', () => {
    expect(decodeBase64Strict('aGk=')?.toString()).toBe('hi');
    expect(decodeBase64Strict('+/+/')).toEqual(Buffer.from([0xfb, 0xff, 0xbf]));
    for (const bad of ['aGk', 'aG k=', 'aGk=\n', '-_-_', 'a===', '=aGk', 'aGk=aGk=', 'aGk*']) expect(decodeBase64Strict(bad), bad).toBeNull();
  });
});

describe('entry rule', () => {
  test('a given entry must be in the tree (a leading ./ is allowed)', () => {
    expect(chooseEntry(['a.py', 'tools/run.py'], 'tools/run.py')).toEqual({ path: 'tools/run.py', defaulted: false });
    expect(chooseEntry(['a.py'], './a.py')).toEqual({ path: 'a.py', defaulted: false });
    expect(() => chooseEntry(['a.py'], 'b.py')).toThrow(/not a file in the zip/);
  });

  test('otherwise src/app.py, else the main.py closest to the root, else the first .py in path order', () => {
    expect(chooseEntry(['main.py', 'src/app.py'], undefined)).toEqual({ path: 'src/app.py', defaulted: true });
    expect(chooseEntry(['a/b/main.py', 'zz/main.py', 'aaa.py'], '').path).toBe('zz/main.py');
    expect(chooseEntry(['b/main.py', 'a/main.py'], undefined).path).toBe('a/main.py');
    expect(chooseEntry(['lib/x.py', 'app/app.py', 'README.md'], undefined).path).toBe('app/app.py');
    expect(chooseEntry(['notmain.py', 'z.py'], undefined).path).toBe('notmain.py');
    expect(() => chooseEntry(['README.md'], undefined)).toThrow(/no \.py file/);
  });
});

describe('image references', () => {
  const id = (n: number) => `img_${n.toString(16).padStart(16, '0')}`;

  test('finds ids in string literals, once each, in order of first appearance, with their line', () => {
    const source = [
      `a = "${id(2)}"`,
      `b = ['${id(1)}', "${id(2)}"]`,
      `c = f"images/${id(3)}.png"`,
      `d = b'${id(4)}' + rb"${id(5)}"`,
    ].join('\n');
    expect(imageRefsIn(source)).toEqual([
      { id: id(2), line: 1 },
      { id: id(1), line: 2 },
      { id: id(3), line: 3 },
      { id: id(4), line: 4 },
      { id: id(5), line: 4 },
    ]);
  });

  test('ignores ids outside string literals and partial ids', () => {
    const source = [
      `${id(1)} = 5  # "${id(2)}" in a comment`,
      `x = "${id(3)}0"  # 17 hex digits`,
      `y = "my${id(4)}"`,
      `z = "img_ABCDEF0123456789"`,
      `w = "img_0123"`,
    ].join('\n');
    expect(imageRefsIn(source)).toEqual([]);
  });

  test('follows triple quotes, escapes and raw strings across lines', () => {
    const source = [
      '"""',
      `doc with ${id(1)}`,
      `"quoted" ${id(2)} ''' still inside`,
      '"""',
      `s = 'it\\'s ${id(3)}'`,
      `t = "\\n${id(4)}"`,
      `r = r"\\n${id(5)}"`,
      `q = "a \\" # not a comment ${id(6)}"`,
      `e = ''`,
      `after = '${id(7)}'`,
    ].join('\n');
    expect(imageRefsIn(source)).toEqual([
      { id: id(1), line: 2 },
      { id: id(2), line: 3 },
      { id: id(3), line: 5 },
      { id: id(4), line: 6 },
      { id: id(6), line: 8 },
      { id: id(7), line: 10 },
    ]);
  });

  test('an unterminated one-line string ends at the line end', () => {
    expect(imageRefsIn(`x = "open\n${id(1)}\ny = "${id(2)}"`)).toEqual([{ id: id(2), line: 3 }]);
  });

  test('gives the same answer however the text is split into chunks', () => {
    const source = [`a = """x ${id(1)}`, `y"""`, `b = r'\\'${id(2)}'`, `# ${id(9)}`, `c = ''`, `d = "${id(3)}"`, `e = ''''${id(4)}'''`].join('\r\n');
    const whole = imageRefsIn(source);
    expect(whole.map((r) => r.id)).toEqual([id(1), id(2), id(3), id(4)]);
    for (let size = 1; size <= 7; size += 1) {
      const scanner = new ImageIdScanner();
      for (let at = 0; at < source.length; at += size) scanner.push(source.slice(at, at + size));
      scanner.end();
      expect(scanner.refs, `chunks of ${size}`).toEqual(whole);
    }
  });

  test('a literal far longer than the scan window keeps ids and lines right at every boundary', () => {
    const filler = `${'x'.repeat(70)}\n`;
    let body = '';
    const expected: { id: string; line: number }[] = [];
    for (let i = 1; i <= 40; i += 1) {
      body += filler.repeat(37) + ' '.repeat(i % 23);
      expected.push({ id: id(i), line: 1 + 38 * i });
      body += `${id(i)}\n`;
    }
    const source = `s = """\n${body}"""\n`;
    const scanner = new ImageIdScanner();
    for (let at = 0; at < source.length; at += 4093) scanner.push(source.slice(at, at + 4093));
    scanner.end();
    expect(scanner.refs).toEqual(expected);
    expect(imageRefsIn(source)).toEqual(expected);
  });
});
